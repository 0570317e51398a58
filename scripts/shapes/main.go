// Command shapes writes the run shapes of loupe's scale benchmarks
// (package sampledata/shapes): deterministic runs of a requested size that
// each reach one costly path of the verifier. Generated files are for
// measuring; never commit them.
//
//	go run ./scripts/shapes -list
//	go run ./scripts/shapes -shape flaky -size 20MB -o /tmp/flaky.jsonl
//	go run ./scripts/shapes -shape claude-code -size 50MB -seed 2 > session.jsonl
//	go run ./scripts/shapes -shape subagent-project -size 5000 -o /tmp/project
//
// A directory shape (subagent-project) takes a number of files as -size
// and needs -o, the directory to write.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/sampledata/shapes"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "shapes:", err)
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("shapes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	list := fs.Bool("list", false, "list the shapes: name, default bench sizes, benchmark size, file name, what it stresses")
	shape := fs.String("shape", "", "the shape to write (see -list)")
	size := fs.String("size", "", "about how large a file to write (e.g. 20MB, 700KB)")
	seed := fs.Uint64("seed", 1, "the run's seed: the same seed and size give the same bytes")
	out := fs.String("o", "", "write to this file instead of standard output")
	sessions := fs.String("sessions", shapes.DefaultSessions, "claude-code: the session file or directory to replay")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: shapes -list | shapes -shape NAME -size SIZE [-seed N] [-o FILE] [-sessions PATH]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *list {
		for _, s := range shapes.All() {
			fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\t%s\n", s.Name, strings.Join(s.Sizes[:], ","), s.Small, s.File, s.Doc)
		}
		return nil
	}
	sh, ok := shapes.Lookup(*shape)
	if !ok {
		var all []string
		for _, s := range shapes.All() {
			all = append(all, s.Name)
		}
		return fmt.Errorf("unknown -shape %q (one of %s)", *shape, strings.Join(all, ", "))
	}
	n, err := kittest.ParseSize(*size)
	if err != nil {
		return fmt.Errorf("-size: %w", err)
	}
	if sh.IsDir() {
		if *out == "" {
			return fmt.Errorf("shape %s writes a directory: give it with -o", sh.Name)
		}
		return sh.WriteDir(*out, n, shapes.Options{Seed: *seed, Sessions: *sessions})
	}
	w := stdout
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	err = sh.Write(bw, n, shapes.Options{Seed: *seed, Sessions: *sessions})
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
