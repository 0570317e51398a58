package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/loupe-dev/loupe/sampledata"
)

// sampleCmd lists the built-in samples or writes one to standard output.
func sampleCmd(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "sample", "loupe sample [NAME]", "Without NAME, lists the built-in samples. With it, writes that sample as loupe JSONL.")
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	switch fs.NArg() {
	case 0:
		for _, s := range sampledata.All() {
			fmt.Fprintf(e.stdout, "%-10s %s\n", s.Name, s.Description)
		}
		return exitOK, nil
	case 1:
		r, err := sampledata.Open(fs.Arg(0))
		if err != nil {
			return exitBadInput, usagef("%v", err)
		}
		defer r.Close()
		if _, err := io.Copy(e.stdout, r); err != nil {
			return exitBadInput, err
		}
		return exitOK, nil
	}
	return exitBadInput, usagef("sample takes at most one NAME, got %d", fs.NArg())
}

// newFlagSet returns a flag set that reports errors instead of exiting. Its
// help and errors go to standard error, like the flag package's own.
func newFlagSet(e *env, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(sanitizing{e.stderr})
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n%s\n", synopsis, about)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// flagExit turns a flag parse error into an exit: -h is success; anything
// else is a usage error whose message the flag package already printed, so
// only the hint follows.
func flagExit(err error) (int, error) {
	if err == flag.ErrHelp {
		return exitOK, nil
	}
	return exitBadInput, &usageError{}
}
