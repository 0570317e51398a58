package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// hostile are strings a transcript (or a file name, or a consumer declared
// in a transcript's meta line) can carry to attack the reader of a report.
var hostile = []string{
	`<img src=x onerror=alert(1)>`,
	`<script>alert(1)</script>`,
	`</details><details open>`,
	`<!-- the rest is hidden`,
	`[click](javascript:alert(1))`,
	`![x](https://evil.example/t.png)`,
	`<javascript:alert(1)>`,
	`a | b | c`,
	"`code` and ``two``",
	"\x1b]0;pwned\x07 \x1b[2J\x1b]52;c;ZXZpbA==\x07",
	"C1 \u009b2J \u0085",
	"RLO\u202eevil\u2066",
	"zero\u200bwidth\ufeff\u2060",
	"tag\U000E0041\U000E0042",
	"# heading",
	"- list",
	"1. ordered",
	"**bold** _em_ ~~strike~~ $x$",
	"&lt;script&gt; &amp;",
	"line\nbreak\r\n---",
	`{: onclick="alert(1)"}`,
	`back\slash\`,
	"cc @octocat and @github/security, (@x)",
	"https://evil.example/a http://e.example WWW.evil.example",
}

// liveMention and liveLink find, in the active text of a line, an
// @mention GitHub would notify and an address GFM would make a link.
var (
	liveMention = regexp.MustCompile(`(^|[^A-Za-z0-9_])@[A-Za-z0-9]`)
	liveLink    = regexp.MustCompile(`(?i)https?://|www\.`)
)

func TestMarkdownEscapes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<img src=x onerror=alert(1)>`, `&lt;img src=x onerror=alert(1)&gt;`},
		{`<script>alert(1)</script>`, `&lt;script&gt;alert(1)&lt;/script&gt;`},
		{`</details>`, `&lt;/details&gt;`},
		{`<!-- x -->`, `&lt;!-- x --&gt;`},
		{`[click](javascript:alert(1))`, `\[click\](javascript:alert(1))`},
		// Inert since issue 18: GFM autolinks the address inside the parentheses.
		{`![x](https://e.example/t.png)`, `!\[x\](https\[:\]//e.example/t.png)`},
		{`<javascript:alert(1)>`, `&lt;javascript:alert(1)&gt;`},
		{`a | b`, `a \| b`},
		{"`x` ``y``", "\\`x\\` \\`\\`y\\`\\`"},
		{"\x1b]0;pwned\x07", `␛\]0;pwned␇`},
		{"\u009b2J", "⟨U+009B⟩2J"},
		{"a\u202eb", "a⟨U+202E⟩b"},
		{"a\u200bb", "a⟨U+200B⟩b"},
		{"t\U000E0041", "t⟨U+E0041⟩"},
		{"# h", `\# h`},
		{"- l", `\- l`},
		{"+ l", `\+ l`},
		{"= u", `\= u`},
		{"12. o", `12\. o`},
		{"3) o", `3\) o`},
		{"2026 was", "2026 was"},
		{"**b** _e_ snake_case call_8f2a _x", `\*\*b\*\* \_e\_ snake_case call_8f2a \_x`},
		{"~~s~~ $x$", `\~\~s\~\~ \$x\$`},
		{"&lt; &amp;", "&amp;lt; &amp;amp;"},
		{"a\nb\tc", "a b c"},
		{"   indented", "indented"},
		{`{: x}`, `\{: x\}`},
		{`a\`, `a\\`},
		{`a\|b`, `a\\\|b`},
		{"plain words, re-run it.", "plain words, re-run it."},
		// @mentions notify on GitHub: in a code span they do not.
		{"ask @octocat now", "ask `@octocat` now"},
		{"@octo-cat, @org/team_a.", "`@octo-cat`, `@org/team_a`."},
		{"(@alice)", "(`@alice`)"},
		{"*@bob*", "\\*`@bob`\\*"},
		{"mail a@b.example", "mail a@b.example"},
		{"snake_@x", "snake\\_@x"},
		{"@ alone, @-dash", "@ alone, @-dash"},
		// Bare addresses GFM would autolink are defanged, visibly.
		{"see https://evil.example/x?a=1", "see https\\[:\\]//evil.example/x?a=1"},
		{"HTTP://E.EXAMPLE", "HTTP\\[:\\]//E.EXAMPLE"},
		{"go to www.evil.example", "go to www\\[.\\]evil.example"},
		{"x https://@a", "x https\\[:\\]//`@a`"},
	} {
		if got := md(c.in); got != c.want {
			t.Errorf("md(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMarkdownCodeSpans(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"planner", "`planner`"},
		{"run.jsonl", "`run.jsonl`"},
		{"<script>x</script>", "`<script>x</script>`"}, // literal inside a code span
		{"a`b", "``a`b``"},
		{"`x", "`` `x ``"},
		{"a``b`", "``` a``b` ```"},
		{" lead", "`  lead `"},
		{"a\nb", "`a b`"},
		{"\x1b]0;t\x07\u202e", "`␛]0;t␇⟨U+202E⟩`"},
		{"", "(empty)"},
	} {
		if got := mdCode(c.in); got != c.want {
			t.Errorf("mdCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// active is Markdown with its code spans replaced by "C" and each
// backslash-escaped character by "E" (CommonMark's reading): what is left is
// the text a renderer acts on.
func active(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			b.WriteByte('E')
			_, n := utf8.DecodeRuneInString(s[i+1:])
			i += 1 + n
		case s[i] == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			fence := s[i : i+n]
			end := -1
			for j := i + n; j < len(s); {
				k := strings.Index(s[j:], fence)
				if k < 0 {
					break
				}
				k += j
				m := 0
				for k+m < len(s) && s[k+m] == '`' {
					m++
				}
				if m == n {
					end = k
					break
				}
				j = k + m
			}
			if end < 0 {
				b.WriteString(fence)
				i += n
				continue
			}
			b.WriteByte('C')
			i = end + n
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// hostileResult is a violating run in which every string a transcript
// controls is hostile.
func hostileResult(h string) *verify.Result {
	item := &verify.Item{ID: "commitment:1:" + h, Kind: verify.Commitment, Key: h, Text: h, Action: h, Turn: 3, Origin: "assistant message"}
	return &verify.Result{Path: "runs/" + h + ".jsonl", Format: "loupe/v1", Source: h, Turns: 9,
		Compactions: []*verify.CompactionResult{{Seq: 1, Turn: 8, Trigger: h, Verdict: verify.Violate, LossRatio: 0.5,
			Reasons:         []string{h, "commitment dropped: " + h},
			Items:           []verify.ItemResult{{Item: item, Status: verify.Dropped, Evidence: &verify.Evidence{Text: h}, SelfReport: verify.Overclaim, Why: h}},
			UnsourcedClaims: []string{h},
			Consumers:       []verify.ConsumerResult{{Name: h, Requires: []verify.Kind{verify.Commitment}, Why: []string{h}}},
			Warnings:        []verify.Warning{{Seq: 1, Msg: h}}}},
		Findings:   []verify.RunFinding{{Kind: verify.FalseCompletion, Turn: 9, Item: h, ItemID: item.ID, LostAt: 1, OriginTurn: 3, Text: h, Why: h}},
		Lineage:    []*verify.Lineage{{Item: item, Steps: []verify.LineageStep{{Seq: 1, Status: verify.Dropped}}, FirstLoss: 1}},
		Warnings:   []verify.Warning{{Line: 2, Msg: h}},
		Transcript: &model.Transcript{Meta: model.Meta{Format: "loupe/v1", Run: h, Extra: map[string]string{"prompt": h}}}}
}

// rawBad reports the first character of s no report may write raw: C0
// controls other than newline and tab, DEL, C1, and every invisible one.
func rawBad(s string) (rune, bool) {
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || invisible(r) {
			return r, true
		}
	}
	return 0, false
}

// TestMarkdownReportIsInert renders every hostile string in every place a
// report shows transcript text, and reads the result as a renderer would:
// outside code spans, no HTML can start (no <), no link or image (no
// unescaped [ or ]), no table cell breaks (every row has its columns), and
// no control or invisible character is anywhere.
func TestMarkdownReportIsInert(t *testing.T) {
	for _, h := range hostile {
		rep := &Report{Results: []*verify.Result{hostileResult(h)}, GroupBy: "prompt",
			Unverified: []Unverified{{Path: h, Error: h}}}
		var buf bytes.Buffer
		if err := rep.Markdown(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !model.IsSafe(out) {
			t.Errorf("%q: a control or invisible character reached the Markdown", h)
		}
		cols := 0
		for _, line := range strings.Split(out, "\n") {
			a := active(line)
			if strings.ContainsAny(a, "<[]") {
				t.Errorf("%q: markup survives in %q (active: %q)", h, line, a)
			}
			if liveMention.MatchString(a) || liveLink.MatchString(a) {
				t.Errorf("%q: a live @mention or autolink in %q (active: %q)", h, line, a)
			}
			if !strings.HasPrefix(line, "|") {
				cols = 0
				continue
			}
			n := strings.Count(a, "|")
			if cols == 0 {
				cols = n // the header row
			} else if n != cols {
				t.Errorf("%q: a row with %d cell borders under a header with %d: %q", h, n, cols, line)
			}
		}
		for _, want := range []string{"## Timeline", "## Lost items", "# Not verified", "# Comparison by `prompt`", "- consumer `"} {
			if !strings.Contains(out, want) {
				t.Errorf("%q: no %q in\n%s", h, want, out)
			}
		}
	}
}

// TestJSONEscapesInvisible: C1, bidi, zero-width and tag characters are
// written as \u escapes (surrogate pairs above U+FFFF), and decoding the
// report gives back every string exactly.
func TestJSONEscapesInvisible(t *testing.T) {
	var results []*verify.Result
	for _, h := range hostile {
		results = append(results, hostileResult(h))
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, results); err != nil {
		t.Fatal(err)
	}
	if r, bad := rawBad(buf.String()); bad {
		t.Errorf("U+%04X is raw in the JSON", r)
	}
	for _, esc := range []string{`\u001b]0;pwned\u0007`, `\u009b2J`, `\u202e`, `\u2066`, `\u200b`, `\ufeff`, `\u2060`, `\udb40\udc41`, `<script>`} {
		if !bytes.Contains(buf.Bytes(), []byte(esc)) {
			t.Errorf("the JSON lacks %s", esc)
		}
	}
	var got JSONReport
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	want := JSONReport{Version: ReportVersion, Verdict: (&Report{Results: results}).OverallVerdict()}
	for _, r := range results {
		want.Files = append(want.Files, ToJSON(r))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the decoded report differs from the original strings")
		for i := range want.Files {
			if !reflect.DeepEqual(got.Files[i], want.Files[i]) {
				t.Errorf("file %d:\n got %+v\nwant %+v", i, got.Files[i], want.Files[i])
			}
		}
	}
}

func TestEscapeInvisible(t *testing.T) {
	for _, c := range []struct{ in, json, xml string }{
		{"plain <&> é ❤️ 👨‍👩‍👧", "plain <&> é ❤\\ufe0f 👨\\u200d👩\\u200d👧", "plain <&> é ❤&#xfe0f; 👨&#x200d;👩&#x200d;👧"},
		{"\u0080\u009f\u007f", `\u0080\u009f\u007f`, "&#x80;&#x9f;&#x7f;"},
		{"\u061c\u200e\u200f\u202a\u202e\u2066\u2069", `\u061c\u200e\u200f\u202a\u202e\u2066\u2069`, "&#x61c;&#x200e;&#x200f;&#x202a;&#x202e;&#x2066;&#x2069;"},
		{"\u200b\u200c\u200d\u2060\ufeff", `\u200b\u200c\u200d\u2060\ufeff`, "&#x200b;&#x200c;&#x200d;&#x2060;&#xfeff;"},
		{"\U000E0000\U000E0041\U000E007F", `\udb40\udc00\udb40\udc41\udb40\udc7f`, "&#xe0000;&#xe0041;&#xe007f;"},
		{"\u2028\u2029", `\u2028\u2029`, "&#x2028;&#x2029;"},
	} {
		if got := string(escapeInvisible([]byte(c.in), jsonEscape)); got != c.json {
			t.Errorf("JSON of %q = %q, want %q", c.in, got, c.json)
		}
		if got := string(escapeInvisible([]byte(c.in), xmlEscape)); got != c.xml {
			t.Errorf("XML of %q = %q, want %q", c.in, got, c.xml)
		}
		var back string
		if err := json.Unmarshal([]byte(`"`+c.json+`"`), &back); err != nil || back != c.in {
			t.Errorf("%q decodes to %q (%v)", c.json, back, err)
		}
		var doc bytes.Buffer
		doc.WriteString("<x>")
		xml.EscapeText(&doc, []byte(c.in))
		doc.WriteString("</x>")
		var x struct {
			V string `xml:",chardata"`
		}
		if err := xml.Unmarshal(escapeInvisible(doc.Bytes(), xmlEscape), &x); err != nil || x.V != c.in {
			t.Errorf("the XML of %q decodes to %q (%v)", c.in, x.V, err)
		}
	}
}

// TestJUnitIsSanitizedAndParses: a dashboard shows the text it decodes, so
// the JUnit report carries controls and invisible characters as visible
// text (⟨U+202E⟩), none raw, and still parses.
func TestJUnitIsSanitizedAndParses(t *testing.T) {
	for _, h := range hostile {
		rep := &Report{Results: []*verify.Result{hostileResult(h)}, Unverified: []Unverified{{Path: h, Error: h}}}
		var buf bytes.Buffer
		if err := rep.JUnit(&buf); err != nil {
			t.Fatal(err)
		}
		if r, bad := rawBad(buf.String()); bad {
			t.Errorf("%q: U+%04X is raw in the JUnit", h, r)
		}
		var suites junitSuites
		if err := xml.Unmarshal(buf.Bytes(), &suites); err != nil {
			t.Fatalf("%q: not XML: %v\n%s", h, err, buf.String())
		}
		if len(suites.Suites) != 2 || suites.Errors != 1 || suites.Failures != 2 {
			t.Errorf("%q: %d suites, %d errors, %d failures", h, len(suites.Suites), suites.Errors, suites.Failures)
			continue
		}
		want := xmlSafe(h)
		if got := suites.Suites[0].Cases[0].Failure.Message; got != want {
			t.Errorf("%q: the failure message decodes to %q, want %q", h, got, want)
		}
		if got := suites.Suites[1].Cases[0].Error.Body; got != want {
			t.Errorf("%q: the error decodes to %q, want %q", h, got, want)
		}
	}
}

// indexInvisible's ASCII skipping finds what bytes.IndexFunc finds, on
// text mixing ASCII, DEL, C1 controls, format characters, visible
// non-ASCII and invalid UTF-8.
func TestIndexInvisibleAgrees(t *testing.T) {
	parts := []string{"a", "{\"k\":", " ", "\x7f", "\u0085", "\u009b", "é", "日本", "\u200b", "\u202e", "\u2028",
		"\U000e0041", "\ufe0f", "\xff", "\xc3", "\xe2\x80", "\U0001F600", "\ufffd"}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.IntN(6); k >= 0; k-- {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := []byte(b.String())
		if got, want := indexInvisible(s), bytes.IndexFunc(s, invisible); got != want {
			t.Fatalf("indexInvisible(%q) = %d, bytes.IndexFunc says %d", s, got, want)
		}
	}
}
