package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
		"Verifies every compaction of each transcript: a directory means every transcript under it (every session\n"+
			"of a Claude Code project, every OpenHands conversation, up to 8 levels deep; what is skipped is named),\n"+
			"- is standard input, and a pipe is read once as a stream.\n"+
			"Exit status: 0 when every compaction degrades, 1 when any violates, 2 on bad input or usage\n"+
			"(a file that cannot be read, is empty, or holds nothing in its format).")
	format := fset.String("format", "text", "report format: text, json, markdown or junit")
	from := fset.String("from", "", "read the input as this runtime's format instead of detecting it")
	lenient := fset.Bool("lenient", false, "verify files with lines that do not parse (they are reported as warnings)")
	groupBy := fset.String("group-by", "", "with several files, compare them grouped by this meta field (e.g. a prompt variant)")
	verbose := fset.Bool("v", false, "text format: list every item of every compaction")
	var cons consumerFlags
	fset.Var(&cons, "consumer", "declare a consumer and the item kinds it requires, NAME=KIND,KIND (repeatable)")
	addLimitFlags(fset)
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
	inputs, bad := e.expandPaths(fset.Args(), *from)
	var results []*verify.Result
	for _, in := range inputs {
		t, err := openTranscript(e, in.path, in.from)
		if err != nil {
			e.warnErr(err)
			bad = true
			continue
		}
		if errs := t.Problems.Errors(); len(errs) > 0 && !*lenient {
			for _, pr := range errs {
				e.warn("%v", pr)
			}
			e.warn("%s: %d line(s) do not parse; fix them or pass --lenient", in.path, len(errs))
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

// input is one transcript to open, and the format to open it as ("" to
// detect it).
type input struct{ path, from string }

// expandPaths turns each directory into every session under it
// (formats.List), naming on standard error each path it skipped and why;
// files, pipes and "-" pass through. bad is set when a path does not exist,
// a directory holds no transcript, or something in one could not be read:
// the verdict would not cover it.
func (e *env) expandPaths(args []string, from string) (inputs []input, bad bool) {
	for _, a := range args {
		if a == "-" {
			inputs = append(inputs, input{a, from})
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			e.warnErr(err)
			bad = true
			continue
		}
		if !st.IsDir() {
			inputs = append(inputs, input{a, from})
			continue
		}
		l, err := formats.List(a, false)
		if err != nil {
			e.warnErr(err)
			bad = true
			continue
		}
		for _, s := range l.Skipped {
			path, reason := s.Path, s.Reason
			if p, rest, ok := strings.Cut(reason, ": "); ok && strings.HasPrefix(p, path+string(filepath.Separator)) {
				path, reason = p, rest // an importer's error about one of its files
			}
			reason = strings.TrimPrefix(reason, path+": ")
			if s.Unreadable {
				e.warn("skipped %s: cannot be read: %s", path, reason)
				bad = true
			} else {
				e.warn("skipped %s: %s", path, reason)
			}
		}
		if len(l.Sessions) == 0 {
			e.warnErr(errors.New(a + ": no transcript found in this directory"))
			bad = true
			continue
		}
		for _, s := range l.Sessions {
			f := from
			if f == "" {
				f = s.Format
			}
			inputs = append(inputs, input{s.Path, f})
		}
	}
	return inputs, bad
}
