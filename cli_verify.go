package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/verify"
	"github.com/loupe-dev/loupe/verify/report"
)

// consumerFlags collects repeated --consumer NAME=KINDS.
type consumerFlags []model.Consumer

func (c *consumerFlags) String() string { return "" }

func (c *consumerFlags) Set(s string) error {
	cons, err := verify.ParseConsumer(s)
	if err != nil {
		return err
	}
	*c = append(*c, cons)
	return nil
}

// verifyCmd runs the headless verifier over files, directories and stdin.
func verifyCmd(e *env, args []string) (int, error) {
	fset := newFlagSet(e, "verify", "loupe verify [flags] PATH...",
		"Verifies every compaction of each transcript (a directory means every transcript in it; - is standard input).\nExit status: 0 when every compaction degrades, 1 when any violates, 2 on bad input or usage.")
	format := fset.String("format", "text", "report format: text, json, markdown or junit")
	from := fset.String("from", "", "read the input as this runtime's format instead of detecting it")
	lenient := fset.Bool("lenient", false, "verify files with lines that do not parse (they are reported as warnings)")
	groupBy := fset.String("group-by", "", "with several files, compare them grouped by this meta field (e.g. a prompt variant)")
	verbose := fset.Bool("v", false, "text format: list every item of every compaction")
	var cons consumerFlags
	fset.Var(&cons, "consumer", "declare a consumer and the item kinds it requires, NAME=KIND,KIND (repeatable)")
	if err := fset.Parse(args); err != nil {
		return flagExit(err)
	}
	switch *format {
	case "text", "json", "markdown", "junit":
	default:
		return exitBadInput, usagef("unknown --format %q (text, json, markdown or junit)", *format)
	}
	if fset.NArg() == 0 {
		return exitBadInput, usagef("verify needs at least one PATH (a file, a directory, or - for standard input)")
	}
	paths, err := expandPaths(fset.Args())
	if err != nil {
		return exitBadInput, err
	}
	var results []*verify.Result
	bad := false
	for _, p := range paths {
		t, err := openTranscript(e, p, *from)
		if err != nil {
			fmt.Fprintf(e.stderr, "loupe: %v\n", err)
			bad = true
			continue
		}
		if errs := t.Problems.Errors(); len(errs) > 0 && !*lenient {
			for _, pr := range errs {
				fmt.Fprintf(e.stderr, "loupe: %v\n", pr)
			}
			fmt.Fprintf(e.stderr, "loupe: %s: %d line(s) do not parse; fix them or pass --lenient\n", p, len(errs))
			bad = true
			continue
		}
		results = append(results, verify.Run(t, verify.Options{Consumers: cons}))
	}
	if err := writeReport(e, *format, *groupBy, *verbose, results); err != nil {
		return exitBadInput, err
	}
	switch {
	case bad:
		return exitBadInput, nil
	case anyViolation(results):
		return exitViolation, nil
	}
	return exitOK, nil
}

func writeReport(e *env, format, groupBy string, verbose bool, results []*verify.Result) error {
	switch format {
	case "json":
		return report.WriteJSON(e.stdout, results)
	case "markdown":
		return report.WriteMarkdown(e.stdout, results)
	case "junit":
		return report.WriteJUnit(e.stdout, results)
	}
	if err := printTextReport(e, results, verbose); err != nil {
		return err
	}
	if groupBy != "" {
		fmt.Fprintln(e.stdout)
		return report.WriteGroups(e.stdout, results, groupBy)
	}
	return nil
}

// printTextReport writes the human report, coloured only on a terminal and
// never when NO_COLOR is set.
func printTextReport(e *env, results []*verify.Result, verbose bool) error {
	return report.WriteText(e.stdout, results, report.TextOptions{Color: colorOK(e.stdout), Verbose: verbose})
}

func colorOK(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func anyViolation(results []*verify.Result) bool {
	for _, r := range results {
		if r.Violations() > 0 {
			return true
		}
	}
	return false
}

// expandPaths turns directories into the transcripts they hold (files whose
// format loupe detects), sorted; files and "-" pass through.
func expandPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		if _, err := formats.Detect(a, ""); err == nil {
			out = append(out, a) // a directory an importer reads as one session
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != a && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if _, err := formats.Detect(p, ""); err == nil {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, errors.New(a + ": no transcript found in this directory")
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}
