package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
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
			"- is standard input, and a pipe is read once as a stream. A Claude Code sub-agent's file is reported under\n"+
			"its session when both are verified. Files are verified in parallel (--jobs).\n"+
			"Exit status: 0 when every compaction degrades, 1 when any violates, 2 on bad input or usage\n"+
			"(a file that cannot be read, is empty, or holds nothing in its format: it is listed in the report too).\n"+
			"Flags may come before or after the paths; after -- every argument is a PATH.")
	format := fset.String("format", "text", "report format: text, json, markdown, junit, html (one self-contained page) or jsonl (a result line per file as it is verified, for loupe report)")
	from := fset.String("from", "", "read the input as this runtime's format instead of detecting it")
	lenient := fset.Bool("lenient", false, "verify files with lines that do not parse (they are reported as warnings)")
	groupBy := fset.String("group-by", "", "compare the runs grouped by this meta `FIELD` (a prompt variant: prompt; or run, agent, source), in every format")
	var only bool
	fset.BoolVar(&only, "only-violations", false, "report only the compactions that violate, and the files with one or with a finding (the exit status is the same)")
	fset.BoolVar(&only, "q", false, "short for --only-violations")
	verbose := fset.Bool("v", false, "text format: list every item of every compaction (those found as at the one before in one line; --evidence all lists them)")
	evidence := fset.String("evidence", "changed", "`MODE` changed or all: by default an item kept as before refers to its earlier entry, with its evidence only when that changed; all writes every item's evidence at every compaction (JSON; text with -v)")
	strict := fset.Bool("strict", false, "count inferred items like the others: a lost one violates instead of being listed for review")
	decide := fset.String("decide", "stated", "the weakest `BASIS` whose lost items violate: recorded (only what the runtime recorded: plans, jobs, pending calls), stated (default) or inferred (--strict); weaker items are listed for review")
	jobs := fset.Int("jobs", runtime.GOMAXPROCS(0), "verify up to `N` files at once")
	ordered := fset.Bool("ordered", false, "jsonl: write the result lines in the order of the files (as listed), not as each file is done")
	var cons consumerFlags
	fset.Var(&cons, "consumer", "declare a consumer and the item kinds it requires, NAME=KIND,KIND (repeatable)")
	addLimitFlags(fset)
	paths, err := parseArgs(fset, args)
	if err != nil {
		return flagExit(err)
	}
	switch *format {
	case "text", "json", "markdown", "junit", "html", "jsonl":
	default:
		return exitBadInput, usagef("unknown --format %q (text, json, markdown, junit, html or jsonl)", *format)
	}
	if *jobs < 1 {
		return exitBadInput, usagef("--jobs %d: at least 1", *jobs)
	}
	if *evidence != "changed" && *evidence != "all" {
		return exitBadInput, usagef("unknown --evidence %q (changed or all)", *evidence)
	}
	if len(paths) == 0 {
		return exitBadInput, usagef("verify needs at least one PATH (a file, a directory, or - for standard input)")
	}
	e = e.lockedStderr() // the workers warn at once
	inputs, unverified := e.expandPaths(paths, *from)
	manyFilesGC(len(inputs))
	rep := &report.Report{Unverified: unverified, GroupBy: *groupBy, OnlyViolations: only, Parents: subagentParents(inputs),
		EvidenceAll: *evidence == "all"}
	least, err := verify.ParseBasis(*decide)
	if err != nil {
		return exitBadInput, usagef("--decide: %v", err)
	}
	check := fileCheck{lenient: *lenient, opt: verify.Options{Consumers: cons, Strict: *strict, Decide: least}, keepEvents: *format == "html"}
	if *format == "jsonl" {
		return verifyLines(e, rep, inputs, check, *jobs, *ordered)
	}
	results := make([]*verify.Result, len(inputs))
	failed := make([]*report.Unverified, len(inputs))
	verifyAll(inputs, *jobs, true, func(in input) checked { return check.run(e, in) }, func(i int, c checked) {
		results[i], failed[i] = c.res, c.failed
	})
	for i := range inputs {
		if failed[i] != nil {
			rep.Unverified = append(rep.Unverified, *failed[i])
		} else {
			rep.Results = append(rep.Results, results[i])
		}
	}
	warnGroupBy(e, rep.GroupBy, len(rep.Results), report.HasField(rep.Results, rep.GroupBy), report.Fields(rep.Results))
	if err := rep.Write(e.stdout, *format, textOptions(e, *verbose)); err != nil {
		return exitBadInput, err
	}
	switch {
	case len(rep.Unverified) > 0:
		return exitBadInput, nil
	case anyViolation(rep.Results):
		return exitViolation, nil
	}
	return exitOK, nil
}

// fileCheck is how each file is verified.
type fileCheck struct {
	lenient bool
	opt     verify.Options
	// keepEvents keeps each run's events for the report (HTML quotes the
	// source); the other formats need only its meta, and a directory of
	// 50,000 files would hold every event of every file until the end.
	keepEvents bool
}

// checked is one file's outcome: its result, or why it was not verified.
type checked struct {
	res    *verify.Result
	failed *report.Unverified
}

// run opens and verifies one file.
func (fc fileCheck) run(e *env, in input) checked {
	fail := func(msg string) checked {
		u := unverifiedFile(in.path, msg)
		return checked{failed: &u}
	}
	// A regular file is looked at before and after: one that shrinks or
	// is replaced while it is read (and while its large texts are read
	// back during the verification) gets no verdict.
	before, _ := os.Stat(in.path)
	// Without events to keep, each goes to the verifier as it is decoded
	// (verifyStreamed): memory is what the verifier keeps, not the file.
	var res *verify.Result
	var t *model.Transcript
	var err error
	if fc.keepEvents {
		t, err = openTranscript(e, in.path, in.from)
	} else {
		res, t, err = verifyStreamed(e, in.path, in.from, fc.opt)
	}
	if err != nil {
		e.warnErr(err)
		return fail(err.Error())
	}
	if errs := t.Problems.Errors(); len(errs) > 0 && !fc.lenient {
		for _, pr := range errs {
			e.warn("%v", pr)
		}
		e.warn("%s: %d line(s) do not parse; fix them or pass --lenient", in.path, len(errs))
		return fail(fmt.Sprintf("%d line(s) do not parse (fix them or pass --lenient); the first: %v", len(errs), errs[0]))
	}
	if res == nil {
		res = verify.Run(t, fc.opt)
	}
	if h := verifyReadHook; h != nil {
		h(in.path)
	}
	if before != nil && in.path != "-" {
		if err := model.Unchanged(in.path, in.path, before, -1); err != nil {
			e.warnErr(err)
			return fail(err.Error())
		}
	}
	if !fc.keepEvents && res.Transcript != nil {
		res.Transcript = &model.Transcript{Path: t.Path, Meta: t.Meta, Runtime: t.Runtime, Compactions: t.Compactions, Bytes: t.Bytes}
	}
	return checked{res: res}
}

// verifyReadHook, when set by a test, runs after a file is verified and
// before it is looked at again (to change it as if while it was read).
var verifyReadHook func(path string)

// textOptions colour the human report only on a terminal, and never when
// NO_COLOR is set.
func textOptions(e *env, verbose bool) report.TextOptions {
	return report.TextOptions{Color: colorOK(e.stdout), Verbose: verbose}
}

// unverifiedFile is a file the report lists as not verified; its error
// loses the path it starts with, which the report prints beside it.
func unverifiedFile(path, msg string) report.Unverified {
	return report.Unverified{Path: path, Error: strings.TrimPrefix(msg, path+": ")}
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
// files, pipes and "-" pass through. unverified lists what the verdict
// would not cover: a path that does not exist, a directory that holds no
// transcript or cannot be listed, a file in one that could not be read.
func (e *env) expandPaths(args []string, from string) (inputs []input, unverified []report.Unverified) {
	for _, a := range args {
		if a == "-" {
			inputs = append(inputs, input{a, from})
			continue
		}
		st, err := formats.Stat(a)
		if err != nil {
			e.warnErr(err)
			unverified = append(unverified, unverifiedFile(a, statError(a, err)))
			continue
		}
		if !st.IsDir() {
			inputs = append(inputs, input{a, from})
			continue
		}
		l, err := formats.List(a, false)
		if err != nil {
			e.warnErr(err)
			unverified = append(unverified, unverifiedFile(a, err.Error()))
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
				unverified = append(unverified, report.Unverified{Path: path, Error: "cannot be read: " + reason})
			} else {
				e.warn("skipped %s: %s", path, reason)
			}
		}
		if len(l.Sessions) == 0 {
			e.warnErr(errors.New(a + ": " + noTranscript))
			unverified = append(unverified, report.Unverified{Path: a, Error: noTranscript})
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
	return inputs, unverified
}

const noTranscript = "no transcript found in this directory"

// statError is why a path could not be looked at, without the "stat PATH: "
// the os package puts before it.
func statError(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// warnGroupBy says on standard error when no run has the --group-by field:
// the comparison would be one group "(none)" and read as if it compared.
// runs counts the runs verified, has is whether one has the field, fields
// are the fields they have.
func warnGroupBy(e *env, field string, runs int, has bool, fields []string) {
	if field == "" || runs == 0 || has {
		return
	}
	have := "none"
	if len(fields) > 0 {
		have = strings.Join(fields, ", ")
	}
	e.warn("--group-by %s: no run has this meta field, so every run is in the one group (none); the fields the runs have: %s",
		model.Sanitize(field), model.Sanitize(have))
}
