package kittest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// What the importers' fuzz targets share: seeds made from their fixtures,
// and the properties every import must have whatever the bytes.

// Reader is an importer's Read (a stream of decompressed content).
type Reader func(r io.Reader, opt model.ReadOptions) (*model.Transcript, error)

// Seeds returns the fixtures at paths whole and in pieces: each file, its
// first lines, and runs of lines from its middle, so that the fuzzer starts
// from every record type the fixtures hold.
func Seeds(tb testing.TB, paths ...string) [][]byte {
	var out [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatalf("seed %s: %v", p, err)
		}
		// Small seeds: the fuzzer mutates and imports each several times
		// per run, and a 200 KB one runs a few times a second.
		const most = 32 << 10
		if len(data) <= most {
			out = append(out, data)
		}
		// Up to 30 runs of up to 7 lines from each file: enough to hold
		// every record type, few enough that the seeds run in a second.
		lines := bytes.SplitAfter(data, []byte("\n"))
		step := max(7, len(lines)/30)
		for i := 0; i < len(lines); i += step {
			run := lines[i:min(i+7, len(lines))]
			for len(run) > 1 && len(bytes.Join(run, nil)) > most {
				run = run[:len(run)-1]
			}
			if chunk := bytes.Join(run, nil); len(chunk) <= most {
				out = append(out, chunk)
			}
		}
	}
	return out
}

// Invariants reports the first broken invariant of an imported transcript:
// events numbered in order, compactions listed as they occur, problems that
// name a file and lie within it (lines at most maxLine, when it is known),
// turns that never go back.
func Invariants(t *model.Transcript, maxLine int) error {
	var comps []*model.Compaction
	turn := 0
	for i, e := range t.Events {
		h := e.Header()
		if h.Index != i {
			return fmt.Errorf("event %d has index %d", i, h.Index)
		}
		if h.Line < 0 || maxLine > 0 && h.Line > maxLine {
			return fmt.Errorf("event %d is at line %d of %d", i, h.Line, maxLine)
		}
		if h.Turn < turn {
			return fmt.Errorf("event %d: turn %d after turn %d", i, h.Turn, turn)
		}
		turn = h.Turn
		if c, ok := e.(*model.Compaction); ok {
			comps = append(comps, c)
		}
	}
	if len(comps) != len(t.Compactions) {
		return fmt.Errorf("%d compaction events, %d compactions listed", len(comps), len(t.Compactions))
	}
	for i, c := range comps {
		if t.Compactions[i] != c {
			return fmt.Errorf("compaction %d is listed out of order", i)
		}
	}
	for _, p := range t.Problems {
		if p.File == "" || p.Line < 0 || maxLine > 0 && p.Line > maxLine {
			return fmt.Errorf("problem %q: file %q, line %d of %d", p.Error(), p.File, p.Line, maxLine)
		}
	}
	return nil
}

// Lines counts the physical lines of data as the line reader numbers them.
func Lines(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// Compressed reports whether data starts like gzip or zstd: only those can
// fail to import (a broken stream).
func Compressed(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0x1f, 0x8b}) || bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd})
}

// FuzzFile is the body of a single-file importer's fuzz target: data is
// written to a file, which imports without panic or error (unless it is a
// broken compressed stream), keeps the invariants, converts to loupe JSONL
// and back unchanged, imports the same with its large texts left on disk as
// held in memory, and the same from a stream as from the file.
func FuzzFile(f *testing.F, open Opener, read Reader, seeds [][]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		// One file in its own directory: the Claude Code importer looks
		// at its siblings.
		path := filepath.Join(dir, "in.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		whole, err := open(path, model.ReadOptions{Name: "in", LazyAbove: -1})
		if err != nil {
			if !Compressed(data) {
				t.Fatalf("Open: %v", err)
			}
			return
		}
		maxLine := 0
		if !Compressed(data) {
			maxLine = Lines(data)
		}
		if err := Invariants(whole, maxLine); err != nil {
			t.Fatal(err)
		}
		if err := RoundTrip(whole); err != nil {
			t.Fatalf("round trip: %v", err)
		}
		lazy, err := open(path, model.ReadOptions{Name: "in", LazyAbove: 64})
		if err != nil {
			t.Fatalf("lazy Open: %v", err)
		}
		SameAsInMemory(t, lazy, whole)

		r, _, closeFn, err := decompress(data)
		if err != nil {
			t.Fatalf("the file imported, but its stream does not decompress: %v", err)
		}
		defer closeFn()
		streamed, err := read(r, model.ReadOptions{Name: "in"})
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		SameAsInMemory(t, streamed, whole)
	})
}

func decompress(data []byte) (io.Reader, bool, func(), error) {
	return model.Decompress(bytes.NewReader(data))
}

// RecordSep separates the records of a fuzz input that becomes several
// files (an OpenHands event per file, an opencode record per file).
const RecordSep = "\x1e"

// Records splits a fuzz input into its records.
func Records(data []byte) [][]byte {
	return bytes.Split(data, []byte(RecordSep))
}

// JoinFiles makes a seed of several files: their contents, RecordSep apart.
func JoinFiles(tb testing.TB, paths ...string) []byte {
	var parts [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		parts = append(parts, b)
	}
	return bytes.Join(parts, []byte(RecordSep))
}

// SafeName turns an id read from fuzz data into a file name: nothing that
// leaves the directory, nothing empty.
func SafeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == os.PathSeparator {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." || len(s) > 100 {
		return "x"
	}
	return s
}

// ImportDir is the check a directory importer's fuzz target makes after
// laying its input out: the import does not fail unless fail allows it,
// keeps the invariants and converts to loupe JSONL and back unchanged.
func ImportDir(t *testing.T, open Opener, path string, mayFail func(error) bool) {
	tr, err := open(path, model.ReadOptions{})
	if err != nil {
		if mayFail == nil || !mayFail(err) {
			t.Fatalf("Open: %v", err)
		}
		if errors.Is(err, model.ErrLimit) {
			t.Fatalf("Open: %v", err)
		}
		return
	}
	if err := Invariants(tr, 0); err != nil {
		t.Fatal(err)
	}
	if err := RoundTrip(tr); err != nil {
		t.Fatalf("round trip: %v", err)
	}
}
