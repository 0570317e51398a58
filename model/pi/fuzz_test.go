package pi

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// FuzzOpen: the importer never panics on any file; every event and problem
// sits on a line of the file; turns never go back; a file read with its
// texts on disk is the one read in memory; and the transcript survives loupe
// JSONL.
//
//	go test ./model/pi -run '^$' -fuzz FuzzOpen -fuzztime 2m
func FuzzOpen(f *testing.F) {
	for _, p := range []string{v1Fixture, v3Fixture, edgeFixture} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		lines := strings.SplitAfter(string(data), "\n")
		for i := range lines {
			// The header and one line, so that each shape is tried alone.
			f.Add([]byte(lines[0] + lines[i]))
		}
	}
	f.Add([]byte(`{"type":"session","id":"s","cwd":"/"}{"type":"message","message":{"role":"user","content":"hi"}} {"type":"compaction","firstKeptEntryIndex":1,"summary":"s"}`))
	f.Add([]byte(`{"type":"session","version":3,"id":"s","cwd":"/"}` + "\n" + `{"type":"message","id":"a","parentId":"b","message":{"role":"user","content":"x"}}` + "\n" + `{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":"y"}}`))
	f.Add([]byte("{\"type\":\"session\",\"id\":\"s\",\"cwd\":\"/\"}\n{\"a\":\"\\ud800\xff\"}}{{\"b\":[}\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) || bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
			return // compressed: the decompressor's errors are its own
		}
		path := filepath.Join(dir, "session.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		whole, err := Open(path, model.ReadOptions{LazyAbove: -1})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		for _, p := range whole.Problems {
			if p.Line < 1 || p.Line > lines {
				t.Errorf("problem %q at line %d of %d", p, p.Line, lines)
			}
		}
		turn := 0
		for i, e := range whole.Events {
			h := e.Header()
			if h.Index != i || h.Line < 1 || h.Line > lines || h.Offset < 0 || h.Offset >= int64(len(data)) || h.Turn < turn {
				t.Fatalf("event %d: index %d line %d offset %d turn %d (after %d) in %d lines", i, h.Index, h.Line, h.Offset, h.Turn, turn, lines)
			}
			turn = h.Turn
		}
		lazy, err := Open(path, model.ReadOptions{LazyAbove: 64})
		if err != nil {
			t.Fatalf("Open lazily: %v", err)
		}
		kittest.SameAsInMemory(t, lazy, whole)
		if err := kittest.RoundTrip(whole); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}
