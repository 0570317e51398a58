package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/loupe-dev/loupe/verify/report"
)

// reportCmd merges the result lines of many `loupe verify --format jsonl`
// runs (shards of a fleet, run on many machines) into one report.
func reportCmd(e *env, args []string) (int, error) {
	fset := newFlagSet(e, "report", "loupe report [flags] FILE...",
		"Merges result lines written by loupe verify --format jsonl (one file per shard; - is standard input)\n"+
			"into one report: the totals, the comparison of groups and the drop rates that loupe verify prints\n"+
			"for every file at once, and the files that violate, have a finding or could not be verified.\n"+
			"A file with more than one result line (a shard run again) is counted once, from its last line, and said so.\n"+
			"Exit status: as loupe verify's over every file: 2 when a file could not be verified, a line is not a\n"+
			"result line, or on usage; else 1 when any compaction violates; else 0.")
	format := fset.String("format", "text", "report format: text, markdown or json")
	groupBy := fset.String("group-by", "", "compare the runs grouped by this meta `FIELD` (default: the one the lines were written with)")
	var only bool
	fset.BoolVar(&only, "only-violations", false, "list only the files with a violation or a finding (the counts cover every file)")
	fset.BoolVar(&only, "q", false, "short for --only-violations")
	files, err := parseArgs(fset, args)
	if err != nil {
		return flagExit(err)
	}
	switch *format {
	case "text", "markdown", "json":
	default:
		return exitBadInput, usagef("unknown --format %q (text, markdown or json)", *format)
	}
	if len(files) == 0 {
		return exitBadInput, usagef("report needs at least one FILE of result lines (- for standard input)")
	}
	m := &report.Merged{GroupBy: *groupBy, OnlyViolations: only, Entries: *format == "json"}
	bad := false
	for _, f := range files {
		if err := readResults(e, m, f); err != nil {
			e.warnErr(err)
			bad = true
		}
	}
	for _, p := range m.Problems {
		e.warn("%s", p)
	}
	if n := len(m.Duplicates); n > 0 {
		e.warn("%d result line(s) for a file already read: each file is counted once, from its last line", n)
	}
	if err := m.Write(e.stdout, *format, textOptions(e, false)); err != nil {
		return exitBadInput, err
	}
	switch {
	case bad || len(m.Problems) > 0 || m.Unverified() > 0:
		return exitBadInput, nil
	case m.Verdict() == "violate":
		return exitViolation, nil
	}
	return exitOK, nil
}

// readResults reads one file of result lines into m.
func readResults(e *env, m *report.Merged, name string) error {
	var r io.Reader = e.stdin
	if name != "-" {
		st, err := os.Stat(name)
		if err != nil {
			return fmt.Errorf("%s: %s", name, statError(name, err))
		}
		if st.IsDir() {
			return errors.New(name + ": a directory; give the result files (loupe verify --format jsonl writes one per run)")
		}
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	return m.Read(r, name)
}
