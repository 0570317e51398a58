package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigTranscript writes a loupe transcript of about 4 MiB, so that it is
// read in several chunks.
func bigTranscript(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"meta","format":"loupe/v1","run":"changed"}` + "\n")
	for i := 1; b.Len() < 4<<20; i++ {
		fmt.Fprintf(&b, `{"type":"message","turn":%d,"role":"user","text":"%s"}`+"\n", i, strings.Repeat("word ", 200))
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A file that shrinks or is replaced while it is read gets an error naming
// it, not a transcript of the part that was read; one that grows (a live
// session) is read as it was.
func TestOpenChangedWhileRead(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, path string)
		want   string // "" for no error
	}{
		{"truncated", func(t *testing.T, path string) { os.Truncate(path, 1<<20) }, "when opened, and ended after"},
		{"emptied", func(t *testing.T, path string) { os.Truncate(path, 0) }, "when opened, and ended after"},
		{"replaced", func(t *testing.T, path string) {
			other := path + ".new"
			os.WriteFile(other, []byte(`{"type":"meta","format":"loupe/v1"}`+"\n"), 0o600)
			os.Rename(other, path)
		}, "another file was put in its place"},
		{"grown", func(t *testing.T, path string) {
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"type":"message","turn":99999,"role":"user","text":"more"}` + "\n")
			f.Close()
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := bigTranscript(t)
			changed := false
			_, err := Open(path, ReadOptions{Progress: func(read, total int64) {
				if !changed && read > 0 && read < total {
					changed = true
					c.change(t, path)
				}
			}})
			if !changed {
				t.Fatal("the file was never changed mid-read: the test tests nothing")
			}
			if c.want == "" {
				if err != nil {
					t.Fatalf("a grown file: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want one naming %s and saying %q", err, path, c.want)
			}
		})
	}
}
