package main

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model/formats"
)

// A large file's beginning is read as a transcript of its first whole
// lines, the same events the whole file starts with; a small file, a
// compressed one and a directory have no such first screen.
func TestPrefixOf(t *testing.T) {
	from, size := prefixFrom, prefixSize
	defer func() { prefixFrom, prefixSize = from, size }()
	prefixFrom, prefixSize = 64<<10, 16<<10

	var b strings.Builder
	b.WriteString(`{"type":"meta","format":"loupe/v1","run":"prefix"}` + "\n")
	for i := 1; b.Len() < 100<<10; i++ {
		fmt.Fprintf(&b, `{"type":"message","turn":%d,"role":"assistant","text":"step %d of the long run, checking file %04d"}`+"\n", i, i, i)
		if i%50 == 0 {
			fmt.Fprintf(&b, `{"type":"compaction","turn":%d,"seq":%d,"summary":"Checked files up to %04d."}`+"\n", i, i/50, i)
		}
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.jsonl")
	os.WriteFile(big, []byte(b.String()), 0o600)

	p := prefixOf(big, "")
	if p == nil {
		t.Fatal("no beginning read from a large file")
	}
	whole, err := formats.Open(big, formats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Events); n == 0 || n >= len(whole.Events) {
		t.Fatalf("the beginning has %d events of %d", n, len(whole.Events))
	}
	if len(p.Problems) != 0 {
		t.Errorf("the cut made problems: %v", p.Problems)
	}
	for i, e := range p.Events {
		if got, want := fmt.Sprint(e), fmt.Sprint(whole.Events[i]); got != want {
			t.Fatalf("event %d of the beginning is %s, the file's is %s", i, got, want)
		}
	}

	small := filepath.Join(dir, "small.jsonl")
	os.WriteFile(small, []byte(b.String()[:10<<10]), 0o600)
	gz := filepath.Join(dir, "big.jsonl.gz")
	f, _ := os.Create(gz)
	zw, _ := gzip.NewWriterLevel(f, gzip.NoCompression) // past the size, compressed
	zw.Write([]byte(b.String()))
	zw.Close()
	f.Close()
	for _, path := range []string{small, gz, dir} {
		if p := prefixOf(path, ""); p != nil {
			t.Errorf("%s: a beginning of %d events", filepath.Base(path), len(p.Events))
		}
	}
}
