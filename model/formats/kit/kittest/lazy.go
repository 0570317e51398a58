package kittest

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// OpenBoth imports path with open twice: with large texts on disk (above
// lazyAbove) and whole in memory.
func OpenBoth(t testing.TB, open Opener, path string, lazyAbove int) (lazy, whole *model.Transcript) {
	t.Helper()
	lazy, err := open(path, model.ReadOptions{LazyAbove: lazyAbove})
	if err != nil {
		t.Fatal(err)
	}
	whole, err = open(path, model.ReadOptions{LazyAbove: -1})
	if err != nil {
		t.Fatal(err)
	}
	return lazy, whole
}

// LazyFixtures checks, in a subtest for each of paths, that the file
// imports the same with its texts on disk (all above 100 bytes) as in
// memory (see SameAsInMemory). It returns how many texts were lazy.
func LazyFixtures(t *testing.T, open Opener, paths []string) int {
	total := 0
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			lazy, whole := OpenBoth(t, open, path, 100)
			total += SameAsInMemory(t, lazy, whole)
		})
	}
	return total
}

// CutOutput returns a tool output of about n bytes plus a lazy text's head
// and tail, with an emoji on the head's cut and the tail's, and escapes
// everywhere.
func (f *Filler) CutOutput(n int) string {
	return strings.Repeat("h", model.HeadBytes-2) + "😀\t\"quoted\"\\path\n" + f.Output(n) + "\x1b[0m日本" + strings.Repeat("t", model.TailBytes-3)
}

// WriteTemp writes data to the file name in a new temporary directory and
// returns the file's path.
func WriteTemp(t testing.TB, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// GzippedInMemory checks that a gzip-compressed copy of the file at path,
// imported by open under path's name, keeps every text in memory and is
// the same as whole, path imported in memory.
func GzippedInMemory(t testing.TB, open Opener, path string, whole *model.Transcript) {
	t.Helper()
	held, err := open(gzipped(t, path), model.ReadOptions{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	if n := SameAsInMemory(t, held, whole); n != 0 {
		t.Errorf("%d lazy texts from a gzipped file, want none", n)
	}
}

// gzipped writes a gzip-compressed copy of the file at path to a temporary
// directory and returns the copy's path.
func gzipped(t testing.TB, path string) string {
	t.Helper()
	gz := filepath.Join(t.TempDir(), filepath.Base(path)+".gz")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write(data)
	zw.Close()
	f.Close()
	return gz
}

// SameAsInMemory checks that lazy, a file imported with its large texts left
// on disk, is the import whole of the same file made with LazyAbove: -1:
// the same events with the same fields, the same problems and meta, and
// every text either held and equal, or lazy with the right length, an exact
// head and tail cut at character boundaries, and a Load that gives the text
// held in memory. It returns how many texts were lazy.
func SameAsInMemory(t testing.TB, lazy, whole *model.Transcript) int {
	t.Helper()
	if !reflect.DeepEqual(lazy.Meta, whole.Meta) {
		t.Errorf("meta %+v, in memory %+v", lazy.Meta, whole.Meta)
	}
	if got, want := problemList(lazy.Problems), problemList(whole.Problems); got != want {
		t.Errorf("problems\n%s\nin memory\n%s", got, want)
	}
	if len(lazy.Events) != len(whole.Events) {
		t.Fatalf("%d events, in memory %d", len(lazy.Events), len(whole.Events))
	}
	n := 0
	for i, e := range lazy.Events {
		w := whole.Events[i]
		at := fmt.Sprintf("event %d (line %d, %s)", i, w.Header().Line, w.Kind())
		if e.Kind() != w.Kind() || *e.Header() != *w.Header() {
			t.Fatalf("%s: %s %+v, in memory %s %+v", at, e.Kind(), *e.Header(), w.Kind(), *w.Header())
		}
		var texts [][2]model.Text
		var a, b any
		switch x := e.(type) {
		case *model.ToolCall:
			y := w.(*model.ToolCall)
			a, b = [2]string{x.ID, x.Name}, [2]string{y.ID, y.Name}
			texts = append(texts, [2]model.Text{x.Input, y.Input})
		case *model.ToolResult:
			y := w.(*model.ToolResult)
			a, b = []any{x.ID, x.IsError, x.Job}, []any{y.ID, y.IsError, y.Job}
			texts = append(texts, [2]model.Text{x.Text, y.Text})
		case *model.Raw:
			y := w.(*model.Raw)
			a, b = []any{x.Type, x.Reason, x.Problem}, []any{y.Type, y.Reason, y.Problem}
			texts = append(texts, [2]model.Text{x.JSON, y.JSON})
		default:
			a, b = e, w
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: %#v, in memory %#v", at, a, b)
		}
		for _, tx := range texts {
			if sameText(t, at, tx[0], tx[1]) {
				n++
			}
		}
	}
	return n
}

func sameText(t testing.TB, at string, lz, wh model.Text) (lazy bool) {
	t.Helper()
	if !wh.Complete() {
		t.Fatalf("%s: the in-memory import has a lazy text", at)
	}
	want := wh.Head()
	if lz.Len() != len(want) {
		t.Fatalf("%s: Len %d, in memory %d bytes", at, lz.Len(), len(want))
	}
	if lz.Complete() {
		if lz.Head() != want {
			t.Fatalf("%s: text differs from the in-memory one", at)
		}
		return false
	}
	head, tail := lz.Head(), lz.Tail()
	if !strings.HasPrefix(want, head) || len(head) > model.HeadBytes || len(head) < model.HeadBytes-3 {
		t.Fatalf("%s: head of %d bytes is not the text's first %d", at, len(head), model.HeadBytes)
	}
	if !strings.HasSuffix(want, tail) || len(tail) > model.TailBytes || len(tail) < model.TailBytes-3 {
		t.Fatalf("%s: tail of %d bytes is not the text's last %d", at, len(tail), model.TailBytes)
	}
	got, err := lz.Load()
	if err != nil {
		t.Fatalf("%s: Load: %v", at, err)
	}
	if got != want {
		t.Fatalf("%s: Load gives %d bytes that differ from the in-memory text", at, len(got))
	}
	return true
}

func problemList(ps model.Problems) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Error() + "\n")
	}
	return b.String()
}
