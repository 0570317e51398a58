package model_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
)

// sampleSeeds returns pieces of the built-in samples: each small sample whole,
// runs of lines from the large ones, and the first line of each event type.
func sampleSeeds(tb testing.TB) []string {
	var out []string
	for _, s := range sampledata.All() {
		r, err := sampledata.Open(s.Name)
		if err != nil {
			tb.Logf("sample %s: %v (skipped)", s.Name, err)
			continue
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			tb.Fatalf("sample %s: %v", s.Name, err)
		}
		if len(data) < 64<<10 {
			out = append(out, string(data))
		}
		lines := strings.SplitAfter(string(data), "\n")
		seen := map[string]bool{}
		for i, line := range lines {
			typ := line[:min(len(line), 24)]
			if !seen[typ] {
				seen[typ] = true
				out = append(out, line)
			}
			if i%500 == 0 && i+40 <= len(lines) {
				out = append(out, strings.Join(lines[i:i+40], ""))
			}
		}
	}
	return out
}

// FuzzRead: the reader never panics, every problem and event has a line
// within the file, reading a file lazily from disk gives the same events as
// reading it from memory, and what the writer makes of the result reads back
// to the same events and is canonical (writing it again gives the same bytes).
func FuzzRead(f *testing.F) {
	for _, s := range sampleSeeds(f) {
		f.Add([]byte(s))
	}
	for _, s := range model.MalformedInputs() {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		t0, err := model.Read(bytes.NewReader(data), model.ReadOptions{Name: "in"})
		if err != nil {
			// Only a stream that starts like gzip or zstd can fail to read.
			if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) && !bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
				t.Fatalf("Read: %v", err)
			}
			return
		}
		lines := physicalLines(data)
		for _, p := range t0.Problems {
			if p.Line < 1 || p.Line > lines {
				t.Errorf("problem %q is at line %d of a %d-line file", p, p.Line, lines)
			}
			if p.File != "in" {
				t.Errorf("problem %q names file %q", p, p.File)
			}
		}
		for i, e := range t0.Events {
			h := e.Header()
			if h.Index != i || h.Line < 1 || h.Line > lines || h.Offset < 0 || h.Offset >= int64(len(data)) {
				t.Errorf("event %d: index %d, line %d, offset %d of %d lines, %d bytes", i, h.Index, h.Line, h.Offset, lines, len(data))
			}
			if r, ok := e.(*model.Raw); ok && r.Problem != nil && r.Problem.Line != h.Line {
				t.Errorf("raw event at line %d carries a problem of line %d", h.Line, r.Problem.Line)
			}
		}

		// The lazy path (a plain file, large strings left on disk) reads the
		// same events as the in-memory one.
		if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) && !bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
			path := filepath.Join(dir, "in.jsonl")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			lazy, err := model.Open(path, model.ReadOptions{Name: "in", LazyAbove: 64})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			sameEvents(t, "lazy vs in memory", lazy, t0, true)
			if !reflect.DeepEqual(problemList(lazy), problemList(t0)) {
				t.Errorf("problems differ:\nlazy   %v\nmemory %v", problemList(lazy), problemList(t0))
			}
		}

		w1 := write(t, t0)
		t1 := read(t, w1)
		sameEvents(t, "first write", t1, t0, false)
		w2 := write(t, t1)
		if w1 != w2 {
			t.Fatalf("writing is not stable:\nfirst  %q\nsecond %q", w1, w2)
		}
		sameEvents(t, "second write", read(t, w2), t1, true)
	})
}

// physicalLines counts the lines of data as the reader numbers them.
func physicalLines(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

func write(t *testing.T, tr *model.Transcript) string {
	t.Helper()
	var b strings.Builder
	if err := model.Write(&b, tr); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String()
}

func read(t *testing.T, s string) *model.Transcript {
	t.Helper()
	tr, err := model.Read(strings.NewReader(s), model.ReadOptions{Name: "in"})
	if err != nil {
		t.Fatalf("Read of written output: %v", err)
	}
	return tr
}

func problemList(tr *model.Transcript) []string {
	var out []string
	for _, p := range tr.Problems {
		out = append(out, p.Severity.String()+" "+p.Error())
	}
	return out
}

// sameEvents compares events without their position in the file. A raw
// event's problem is compared only when withProblems is set: writing adds the
// newline a truncated last line lacked, which makes its warning an error.
func sameEvents(t *testing.T, what string, got, want *model.Transcript, withProblems bool) {
	t.Helper()
	if len(got.Events) != len(want.Events) {
		t.Fatalf("%s: %d events, want %d", what, len(got.Events), len(want.Events))
	}
	for i := range want.Events {
		g, w := eventView(t, got.Events[i], withProblems), eventView(t, want.Events[i], withProblems)
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: event %d:\ngot  %#v\nwant %#v", what, i, g, w)
		}
	}
	if !reflect.DeepEqual(got.Meta, want.Meta) && what != "first write" {
		t.Fatalf("%s: meta:\ngot  %#v\nwant %#v", what, got.Meta, want.Meta)
	}
}

func eventView(t *testing.T, e model.Event, withProblems bool) map[string]any {
	load := func(x model.Text) string {
		s, err := x.Load()
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		return s
	}
	h := *e.Header()
	h.Line, h.Offset, h.Index = 0, 0, 0
	v := map[string]any{"kind": e.Kind(), "base": h}
	switch ev := e.(type) {
	case *model.Message:
		v["role"], v["text"] = ev.Role, ev.Text
	case *model.ToolCall:
		v["id"], v["name"], v["input"] = ev.ID, ev.Name, load(ev.Input)
	case *model.ToolResult:
		v["id"], v["is_error"], v["text"], v["job"] = ev.ID, ev.IsError, load(ev.Text), ev.Job
	case *model.Plan:
		v["items"] = ev.Items
	case *model.CommitmentEvent:
		v["id"], v["text"], v["status"] = ev.ID, ev.Text, ev.Status
	case *model.Compaction:
		c := *ev
		c.Base = model.Base{}
		v["compaction"] = c
	case *model.Raw:
		v["type"], v["json"], v["reason"] = ev.Type, load(ev.JSON), ev.Reason
		if withProblems && ev.Problem != nil {
			v["problem"] = ev.Problem.Severity.String() + " " + ev.Problem.Msg
		}
	}
	return v
}
