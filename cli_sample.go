package main

import (
	"fmt"
	"io"

	"github.com/loupe-dev/loupe/sampledata"
)

// sampleCmd lists the built-in samples or writes one to standard output.
func sampleCmd(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "sample", "loupe sample [NAME]", "Without NAME, lists the built-in samples. With it, writes that sample as loupe JSONL.")
	names, err := parseArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	switch len(names) {
	case 0:
		for _, s := range sampledata.All() {
			fmt.Fprintf(e.stdout, "%-10s %s\n", s.Name, s.Description)
		}
		return exitOK, nil
	case 1:
		r, err := sampledata.Open(names[0])
		if err != nil {
			return exitBadInput, usagef("%v", err)
		}
		defer r.Close()
		if _, err := io.Copy(e.stdout, r); err != nil {
			return exitBadInput, err
		}
		return exitOK, nil
	}
	return exitBadInput, usagef("sample takes at most one NAME, got %d", len(names))
}
