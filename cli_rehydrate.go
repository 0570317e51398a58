package main

import (
	"fmt"

	"github.com/loupe-dev/loupe/verify"
	"github.com/loupe-dev/loupe/verify/report"
)

// rehydrateCmd writes what a compaction failed to keep, with the source that
// makes each item owed, as a block to put back into an agent's context.
func rehydrateCmd(e *env, args []string) (int, error) {
	fset := newFlagSet(e, "rehydrate", "loupe rehydrate [flags] FILE",
		"Writes the items the last compaction (or --compaction N) did not keep, each with the verbatim source\nthat makes it owed, as a block ready to put back into the agent's context. Nothing is written when\nthe summary kept everything. Exit status: 0 on success, 2 on bad input or usage.")
	seq := fset.Int("compaction", 0, "the compaction's seq (default: the last one)")
	maxChars := fset.Int("max-chars", verify.DefaultRehydrateChars, fmt.Sprintf("cap the block at this many characters (at least %d); the items ranked lowest are left out, and the block says so", verify.MinRehydrateChars))
	format := fset.String("format", "text", "output format: text (the block itself) or json")
	from := fset.String("from", "", "read FILE as this runtime's format instead of detecting it")
	strict := fset.Bool("strict", false, "put back inferred items too (by default an item only inferred is review, never re-injected)")
	decide := fset.String("decide", "stated", "the weakest `BASIS` put back: recorded, stated (default) or inferred (--strict)")
	files, err := parseArgs(fset, args)
	if err != nil {
		return flagExit(err)
	}
	if *format != "text" && *format != "json" {
		return exitBadInput, usagef("unknown --format %q (text or json)", *format)
	}
	if *maxChars < verify.MinRehydrateChars {
		return exitBadInput, usagef("--max-chars %d is too small: the block needs at least %d", *maxChars, verify.MinRehydrateChars)
	}
	if len(files) != 1 {
		return exitBadInput, usagef("rehydrate takes one FILE, got %d", len(files))
	}
	path := files[0]
	t, err := openTranscript(e, path, *from)
	if err != nil {
		return exitBadInput, err
	}
	if errs := t.Problems.Errors(); len(errs) > 0 {
		for _, pr := range errs {
			fmt.Fprintf(e.stderr, "loupe: %v\n", pr)
		}
		fmt.Fprintf(e.stderr, "loupe: %s: %d line(s) do not parse; the block is built from the lines that do\n", path, len(errs))
	}
	if len(t.Compactions) == 0 {
		return exitBadInput, fmt.Errorf("%s: %s", path, verify.NoCompaction)
	}
	least, err := verify.ParseBasis(*decide)
	if err != nil {
		return exitBadInput, usagef("--decide: %v", err)
	}
	res := verify.Run(t, verify.Options{Strict: *strict, Decide: least})
	c := res.Compactions[len(res.Compactions)-1]
	if *seq != 0 {
		c = nil
		for _, cr := range res.Compactions {
			if cr.Seq == *seq {
				c = cr
			}
		}
		if c == nil {
			return exitBadInput, usagef("%s has no compaction %d (it has %d)", path, *seq, len(res.Compactions))
		}
	}
	r := verify.Rehydrate(c, t.Events, verify.RehydrateOptions{MaxChars: *maxChars, Transcript: transcriptName(path)})
	if *format == "json" {
		return exitOK, report.WriteRehydrationJSON(e.stdout, path, r)
	}
	if r.Text == "" {
		fmt.Fprintf(e.stderr, "loupe: compaction %d %ss: its summary keeps every open item; nothing to put back\n", c.Seq, c.Verdict)
		return exitOK, nil
	}
	if len(r.Omitted) > 0 {
		fmt.Fprintf(e.stderr, "loupe: %d item(s) left out to stay within %d characters\n", len(r.Omitted), *maxChars)
	}
	return exitOK, report.WriteRehydrationText(e.stdout, r)
}

// transcriptName is the path a block names as the full source ("" for
// standard input).
func transcriptName(path string) string {
	if path == "-" {
		return ""
	}
	return path
}
