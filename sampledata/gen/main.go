// Command gen writes loupe's built-in sample runs and their ground truth
// (go generate ./sampledata runs it as `go run ./gen -out .`).
//
//	go run ./gen -out .               migration, clean and tiny (.jsonl.gz) and testdata/*.planted.json
//	go run ./gen -out /tmp -size 100MB  large.jsonl, uncompressed, for performance work (never commit it)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/sampledata/internal/gen"
)

func main() {
	out := flag.String("out", ".", "directory to write into")
	size := flag.String("size", "", "write only large.jsonl of about this size (e.g. 100MB) instead of the samples")
	flag.Parse()
	if err := run(*out, *size); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, size string) error {
	if size == "" {
		return gen.WriteAll(out)
	}
	n, err := kittest.ParseSize(size)
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(out, "large.jsonl"))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := gen.Large(w, n); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
