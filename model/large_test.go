package model

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// bigOutput returns a tool output of about n bytes as it will read back, and
// its JSON-escaped form. It has escapes throughout and multi-byte characters
// where the head and tail are cut, to check the cuts fall on character
// boundaries.
func bigOutput(n int) (text, escaped string) {
	var t, e strings.Builder
	t.Grow(n + 100)
	e.Grow(n + 200)
	// 2047 ASCII bytes, then a 3-byte character straddling byte 2048.
	t.WriteString(strings.Repeat("h", HeadBytes-1) + "世")
	e.WriteString(strings.Repeat("h", HeadBytes-1) + "世")
	line := "ok  \tgithub.com/acme/orders\t0.012s \"cached\"\n"
	eline := `ok  \tgithub.com/acme/orders\t0.012s \"cached\"\n`
	for t.Len() < n-TailBytes {
		t.WriteString(line)
		e.WriteString(eline)
	}
	// A 4-byte character straddling the start of the last TailBytes bytes.
	tail := "😀" + strings.Repeat("t", TailBytes-2)
	t.WriteString(tail)
	e.WriteString(tail)
	return t.String(), e.String()
}

// TestLargeLine reads a transcript with a 50 MB tool output on one line from a
// file: it loads, stays on disk with its head and tail in memory, and Load
// gives it whole. With LazyAbove: -1 it is held in memory.
func TestLargeLine(t *testing.T) {
	size := 50 << 20
	if testing.Short() {
		size = 5 << 20
	}
	text, escaped := bigOutput(size)
	path := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(jsonl(metaLine, userLine,
		`{"type":"tool_call","turn":2,"id":"c1","name":"bash","input":{"command":"go test ./... -v"}}`))
	w.WriteString(`{"type":"tool_result","turn":3,"id":"c1","text":"` + escaped + `"}` + "\n")
	// A big input and a big unknown line are lazy too.
	w.WriteString(`{"type":"tool_call","turn":4,"id":"c2","name":"write","input":{"content":"` + escaped[:1<<20] + `"}}` + "\n")
	w.WriteString(`{"type":"checkpoint","blob":"` + strings.Repeat("b", 1<<20) + `"}` + "\n")
	w.WriteString(`{"type":"message","turn":5,"role":"assistant","text":"Tests pass."}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	tr, err := Open(path, ReadOptions{Name: "big.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Problems) > 0 {
		t.Fatalf("problems: %v", problemStrings(tr.Problems))
	}
	diffLines(t, "kinds", kinds(tr), []string{"message", "tool_call", "tool_result", "tool_call", "raw(checkpoint)", "message"})
	res := tr.Events[2].(*ToolResult)
	if res.Text.Complete() {
		t.Fatal("a 50 MB output is held in memory; want it lazy")
	}
	if res.Text.Len() != len(text) {
		t.Errorf("Len = %d, want %d", res.Text.Len(), len(text))
	}
	head, tail := res.Text.Head(), res.Text.Tail()
	if want := strings.Repeat("h", HeadBytes-1); head != want {
		t.Errorf("head is %d bytes ending %q; want the %d bytes before the character that straddles the cut", len(head), head[max(0, len(head)-8):], len(want))
	}
	if want := strings.Repeat("t", TailBytes-2); tail != want {
		t.Errorf("tail is %d bytes starting %q, want %d", len(tail), tail[:min(8, len(tail))], len(want))
	}
	if !utf8.ValidString(head) || !utf8.ValidString(tail) {
		t.Error("head or tail cut inside a character")
	}
	if p := res.Text.Preview(); !strings.HasPrefix(p, head) || !strings.HasSuffix(p, tail) || !strings.Contains(p, " bytes not loaded] …") {
		t.Errorf("preview %q…", p[:40])
	}
	whole, err := res.Text.Load()
	if err != nil {
		t.Fatal(err)
	}
	if whole != text {
		t.Errorf("Load gave %d bytes, want %d (equal: %v)", len(whole), len(text), whole == text)
	}
	in := tr.Events[3].(*ToolCall).Input
	if s, err := in.Load(); in.Complete() || err != nil || !strings.HasPrefix(s, `{"content":"hhh`) || len(s) != in.Len() {
		t.Errorf("big input: complete %v, err %v", in.Complete(), err)
	}
	raw := tr.Events[4].(*Raw).JSON
	if s, err := raw.Load(); raw.Complete() || err != nil || !strings.HasSuffix(s, `bbb"}`) {
		t.Errorf("big raw line: complete %v, err %v", raw.Complete(), err)
	}
	if m := tr.Events[5].(*Message); m.Line != 7 || m.Text != "Tests pass." {
		t.Errorf("the line after the big one: %+v", m)
	}

	// Held whole when asked.
	tr, err = Open(path, ReadOptions{LazyAbove: -1})
	if err != nil {
		t.Fatal(err)
	}
	res = tr.Events[2].(*ToolResult)
	if !res.Text.Complete() || res.Text.Head() != text || res.Text.Tail() != "" {
		t.Errorf("LazyAbove -1: complete %v, head %d bytes", res.Text.Complete(), len(res.Text.Head()))
	}

	// A lazy text whose file changed says so instead of returning the wrong bytes.
	tr, err = Open(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 1000); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Events[2].(*ToolResult).Text.Load(); !errors.Is(err, ErrTextUnavailable) {
		t.Errorf("Load after the file was cut: %v, want ErrTextUnavailable", err)
	}
}

// TestLazyThreshold: LazyAbove decides what stays on disk; a small threshold
// still gives consistent head and tail.
func TestLazyThreshold(t *testing.T) {
	out := strings.Repeat("é", 1500) // 3000 bytes
	path := writeFile(t, "run.jsonl", []byte(jsonl(metaLine,
		`{"type":"tool_result","turn":1,"id":"c1","text":"`+out+`"}`,
		`{"type":"tool_result","turn":1,"id":"c2","text":"`+out+out+`"}`)))
	for _, tc := range []struct {
		lazyAbove int
		complete  [2]bool
	}{
		{0, [2]bool{true, true}}, // DefaultLazyAbove is 16 KiB
		{-1, [2]bool{true, true}},
		{100, [2]bool{true, false}}, // 3000 bytes fit in head+tail: held whole
		{5000, [2]bool{true, false}},
	} {
		tr, err := Open(path, ReadOptions{LazyAbove: tc.lazyAbove})
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range tc.complete {
			x := tr.Events[i].(*ToolResult).Text
			s, _ := x.Load()
			if x.Complete() != want || s != strings.Repeat(out, i+1) || x.Len() != len(s) {
				t.Errorf("LazyAbove %d, result %d: complete %v, want %v", tc.lazyAbove, i, x.Complete(), want)
			}
			if !x.Complete() && (len(x.Head()) != HeadBytes || len(x.Tail()) != TailBytes) {
				t.Errorf("head %d tail %d", len(x.Head()), len(x.Tail()))
			}
			if x.Complete() && (x.Tail() != "" || x.Preview() != s) {
				t.Errorf("a complete text has a tail or a different preview")
			}
		}
	}
	var zero Text
	if s, err := zero.Load(); s != "" || err != nil || !zero.Complete() || zero.Len() != 0 {
		t.Error("zero Text")
	}
}
