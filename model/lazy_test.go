package model

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLazyHeadTailWithEscapes: a lazy text's head, tail and length are
// decoded from the ends of the escaped string only; they must equal the
// ends of the whole decoded text, whatever escapes straddle the cuts.
func TestLazyHeadTailWithEscapes(t *testing.T) {
	pieces := []string{"a", "é", "😀", "\n", "\t", `"`, `\`, "/", "\x01", "日本", "\u2028"}
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for i := 0; i < 60; i++ {
		var b strings.Builder
		n := 3000 + rng.IntN(20000)
		for b.Len() < n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		// Raw escapes that encoding/json never writes but other writers do:
		// lone surrogates and surrogate pairs, placed near both ends.
		line := `{"type":"tool_result","turn":1,"id":"c","is_error":false,"text":`
		enc, _ := json.Marshal(text)
		body := string(enc[1 : len(enc)-1])
		extra := []string{`\ud83d\ude00`, `\ud800`, `\u00e9`, `\/`}
		for k := 0; k < 8; k++ {
			e := extra[rng.IntN(len(extra))]
			at := []int{rng.IntN(40), len(body) - rng.IntN(40)}[k%2]
			for at > 0 && at < len(body) && (body[at-1] == '\\' || !utf8.RuneStart(body[at])) {
				at--
			}
			body = body[:at] + e + body[at:]
		}
		line += `"` + body + `"}` + "\n"
		path := filepath.Join(dir, "t.jsonl")
		if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		whole, err := Open(path, ReadOptions{LazyAbove: -1})
		if err != nil {
			t.Fatal(err)
		}
		want := whole.Events[0].(*ToolResult).Text.Head()
		lazy, err := Open(path, ReadOptions{LazyAbove: 100})
		if err != nil {
			t.Fatal(err)
		}
		got := lazy.Events[0].(*ToolResult).Text
		if got.Complete() {
			t.Fatalf("case %d: not lazy", i)
		}
		if got.Len() != len(want) {
			t.Fatalf("case %d: Len %d, want %d", i, got.Len(), len(want))
		}
		if !strings.HasPrefix(want, got.Head()) || len(want)-len(got.Head()) > len(want)-HeadBytes+3 {
			t.Fatalf("case %d: head is not the text's start:\n%q\n%q", i, got.Head(), want[:len(got.Head())])
		}
		if !strings.HasSuffix(want, got.Tail()) || len(got.Tail()) < TailBytes-3 {
			t.Fatalf("case %d: tail is not the text's end:\n%q\n%q", i, got.Tail(), want[len(want)-len(got.Tail()):])
		}
		full, err := got.Load()
		if err != nil || full != want {
			t.Fatalf("case %d: Load differs (%v)", i, err)
		}
	}
}

// TestLazyTailInBackslashRun: a tail window that starts inside a long run of
// escaped backslashes must not pair them wrongly ("\\n" is a backslash and
// an n, not a newline).
func TestLazyTailInBackslashRun(t *testing.T) {
	for _, run := range []int{3000, 3001, 5000, 5001} {
		text := strings.Repeat("x", 20000) + strings.Repeat(`\`, run) + "n" + strings.Repeat("y", 10)
		enc, _ := json.Marshal(text)
		line := `{"type":"tool_result","turn":1,"id":"c","text":` + string(enc) + "}\n"
		path := filepath.Join(t.TempDir(), "t.jsonl")
		if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Open(path, ReadOptions{LazyAbove: 100})
		if err != nil {
			t.Fatal(err)
		}
		got := tr.Events[0].(*ToolResult).Text
		if got.Complete() || !strings.HasSuffix(text, got.Tail()) || got.Len() != len(text) {
			t.Errorf("run of %d backslashes: tail %q is not the text's end", run, got.Tail()[:40])
		}
	}
}
