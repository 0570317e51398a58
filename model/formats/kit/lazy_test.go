package kit

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
)

// randomBody returns the raw body of a JSON string of about n bytes, with
// every kind of escape (pairs, lone surrogates, unknown escapes, runs of
// escaped backslashes) and multi-byte characters anywhere, cuts included.
func randomBody(rng *rand.Rand, n int) string {
	pieces := []string{"a", "b c", "é", "日本", "😀", `\n`, `\t`, `\"`, `\\`, `\/`, `\u00e9`, `\u001b[0m`,
		`\ud83d\ude00`, `\ud800`, `\udc00x`, `\ud83dA`, `\q`, `\uZZ`, `\u0041`}
	var b strings.Builder
	for b.Len() < n {
		if rng.IntN(50) == 0 {
			b.WriteString(strings.Repeat(`\\`, rng.IntN(200)))
			continue
		}
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// TestComposerEnds: a Composer's length, head and tail, had without decoding
// its values, are those of the decoded text, whatever escapes straddle the
// cuts; String is what Str of each value gives.
func TestComposerEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var p fastjson.Parser
	var c Composer
	for i := 0; i < 400; i++ {
		var line strings.Builder
		line.WriteString(`{"a":[`)
		k := 1 + rng.IntN(3)
		for j := 0; j < k; j++ {
			if j > 0 {
				line.WriteString(",")
			}
			n := rng.IntN(3 * (model.HeadBytes + model.TailBytes))
			if rng.IntN(4) == 0 {
				n = rng.IntN(40)
			}
			line.WriteString(`"` + randomBody(rng, n) + `"`)
		}
		line.WriteString(`]}`)
		v, err := p.Parse(line.String())
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		c.Reset()
		var want strings.Builder
		for j, x := range v.GetArray("a") {
			if j > 0 {
				c.Lit("\n")
				want.WriteString("\n")
			}
			want.WriteString(Str(x))
			if !c.Str(x) {
				t.Fatalf("case %d: value %d is not a string", i, j)
			}
		}
		w := want.String()
		if !c.Valid() {
			t.Fatalf("case %d: not valid", i)
		}
		if c.Len() != len(w) {
			t.Fatalf("case %d: Len %d, want %d", i, c.Len(), len(w))
		}
		if got := c.String(); got != w {
			t.Fatalf("case %d: String differs", i)
		}
		for _, n := range []int{0, 1, 7, model.HeadBytes + 4, 4096} {
			h := c.Head(n)
			if !strings.HasPrefix(w, h) || len(h) < min(n, len(w)) {
				t.Fatalf("case %d: Head(%d) of %d bytes is not the text's start", i, n, len(h))
			}
		}
		for _, n := range []int{0, 1, model.TailBytes + 4} {
			tl := c.Tail(n)
			if !strings.HasSuffix(w, tl) || len(tl) < min(n, len(w)) {
				t.Fatalf("case %d: Tail(%d) of %d bytes is not the text's end", i, n, len(tl))
			}
		}
		for _, lit := range []string{"A", "b c", "日本", "zzz", "é\n"} {
			if strings.Contains(w, lit) && !c.MayContain(lit) {
				t.Fatalf("case %d: MayContain(%q) false, but the text has it", i, lit)
			}
		}
	}
}

// TestComposerNotStrings: values that are not strings add nothing, and an
// empty string leaves the composer empty.
func TestComposerNotStrings(t *testing.T) {
	var p fastjson.Parser
	v, err := p.Parse(`{"n":1,"o":{"x":"y"},"a":["z"],"e":"","null":null,"t":true}`)
	if err != nil {
		t.Fatal(err)
	}
	var c Composer
	for _, k := range []string{"n", "o", "a", "null", "t", "missing"} {
		if c.Str(v.Get(k)) {
			t.Errorf("%s taken for a string", k)
		}
	}
	if !c.Str(v.Get("e")) || !c.Empty() || c.Len() != 0 {
		t.Errorf("the empty string: empty %v, len %d", c.Empty(), c.Len())
	}
	if c.MayContain("y") {
		t.Error("an empty text may contain y")
	}
}

// TestComposerInvalidUTF8: a value with invalid UTF-8 is not Valid; String
// replaces the bad bytes as Str does.
func TestComposerInvalidUTF8(t *testing.T) {
	var p fastjson.Parser
	v, err := p.Parse("{\"s\":\"ab\xffc\\n\xc3\"}")
	if err != nil {
		t.Fatal(err)
	}
	var c Composer
	c.Str(v.Get("s"))
	if c.Valid() {
		t.Error("invalid UTF-8 taken for valid")
	}
	if got, want := c.String(), Str(v, "s"); got != want {
		t.Errorf("String %q, want %q", got, want)
	}
}

// TestLazyReload: a text kept on disk reads back from its line; a compressed
// file, a negative threshold or a small text keep it in memory.
func TestLazyReload(t *testing.T) {
	big := strings.Repeat("0123456789", 5000)
	content := "{\"x\":1}\n" + `{"out":"` + big + `"}` + "\r\n" + `{"out":"short"}` + "\n"
	path := filepath.Join(t.TempDir(), "f.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	r, z, closeFn, err := OpenLazy(path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	extract := func(line []byte) (string, error) {
		var p fastjson.Parser
		v, err := p.ParseBytes(line)
		if err != nil {
			return "", err
		}
		return Str(v, "out"), nil
	}
	var texts []model.Text
	var p fastjson.Parser
	var c Composer
	if _, err := ReadLines(r, func(l Line) error {
		v, err := p.ParseBytes(l.B)
		if err != nil {
			return err
		}
		c.Reset()
		if c.Str(v.Get("out")) {
			texts = append(texts, c.Text(z, l, extract))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(texts) != 2 || texts[0].Complete() || !texts[1].Complete() {
		t.Fatalf("want the large text on disk and the short one held: %d texts", len(texts))
	}
	if s, err := texts[0].Load(); err != nil || s != big {
		t.Fatalf("Load: %v", err)
	}
	if NewLazy(path, false, 0).On() || NewLazy(path, true, -1).On() || !NewLazy(path, true, 0).Want(model.DefaultLazyAbove+1) {
		t.Error("compressed files and negative thresholds must hold texts in memory")
	}
	// A file rewritten since: Load reports it rather than returning
	// something else.
	if err := os.WriteFile(path, []byte(strings.Replace(content, "0123", "012", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := texts[0].Load(); err == nil {
		t.Error("a changed line loaded without error")
	}
}

// TestAppendJSONString: the result is JSON that decodes back to the string,
// control characters included (Go quoting would write "\x1b").
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", "a\x1b[0m\u00a0b\"q\\\n\r\t\x00\x7f", "日本 😀 \u2028"} {
		b := AppendJSONString(nil, s)
		var p fastjson.Parser
		v, err := p.ParseBytes(b)
		if err != nil || !json.Valid(b) {
			t.Fatalf("%q: not JSON: %s", s, b)
		}
		if got := Str(v); got != s {
			t.Errorf("%q reads back as %q", s, got)
		}
	}
}
