package main

import (
	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
)

// convertCmd writes a transcript of any supported format as loupe JSONL.
func convertCmd(e *env, args []string) (int, error) {
	fs := newFlagSet(e, "convert", "loupe convert [--from RUNTIME] FILE", "Writes the transcript as loupe JSONL to standard output. The input is never modified.")
	from := fs.String("from", "", "read FILE as this runtime's format instead of detecting it")
	addLimitFlags(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) != 1 {
		return exitBadInput, usagef("convert takes one FILE, got %d", len(files))
	}
	t, err := openTranscript(e, files[0], *from)
	if err != nil {
		return exitBadInput, err
	}
	for _, p := range t.Problems {
		e.warn("%s: %v", p.Severity, p)
	}
	if err := model.Write(e.stdout, t); err != nil {
		return exitBadInput, err
	}
	// The lines that do not parse are in the output as raw events, but the
	// conversion is not faithful: say so in the exit status.
	if len(t.Problems.Errors()) > 0 {
		return exitBadInput, nil
	}
	return exitOK, nil
}

// openTranscript opens path in any supported format; "-" is standard input.
func openTranscript(e *env, path, from string) (*model.Transcript, error) {
	if path == "-" {
		return formats.OpenReader(e.stdin, "-", formats.Options{From: from})
	}
	return formats.Open(path, formats.Options{From: from})
}
