package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// newFlagSet returns a flag set that reports errors instead of exiting.
// Parse it with parseArgs: a mistake is then one line and a hint to run
// --help, and the whole usage is printed only when asked for (-h, --help),
// to standard error like the flag package's own.
func newFlagSet(e *env, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parseArgs returns the errors
	fs.Usage = func() {
		out := sanitizing{e.stderr}
		fmt.Fprintf(out, "Usage: %s\n\n%s\n", synopsis, about)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(out, "\nFlags:")
			fs.SetOutput(out)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return fs
}

// parseArgs parses the flags wherever they are among the arguments, before
// or after the paths (loupe verify run.jsonl --format json), and returns
// the positional arguments in order. After "--" everything is positional
// (a file named -q). A mistake is a usage error carrying the flag
// package's one-line message; -h and --help print the usage and return
// flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	help := fs.Usage
	fs.Usage = func() {} // the flag package calls it on every error too
	defer func() { fs.Usage = help }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return nil, err
			}
			return nil, &usageError{msg: err.Error()}
		}
		rest := fs.Args()
		// Parse stops at the first positional argument, or just after a
		// "--" it consumed. (A flag's value that is "--" would read as the
		// end of the flags too; none of loupe's flags takes one.)
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagExit turns a flag parse error into an exit: -h is success; anything
// else is the usage error parseArgs made.
func flagExit(err error) (int, error) {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, nil
	}
	return exitBadInput, err
}

// forCommand names the command a usage error is about, so that its hint
// points to that command's help (Run 'loupe verify --help'); it wraps a
// command's results: forCommand("verify")(verifyCmd(e, args)).
func forCommand(name string) func(int, error) (int, error) {
	return func(code int, err error) (int, error) {
		var ue *usageError
		if errors.As(err, &ue) && ue.cmd == "" {
			ue.cmd = name
		}
		return code, err
	}
}

// commands are the words loupe takes as a command, for "did you mean".
var commands = []string{"verify", "report", "convert", "sample", "rehydrate", "hook", "help", "version"}

// mistypedCommand returns the command arg was probably meant to be, when arg
// is not a path that exists but is within a typo or two of a command
// (loupe verfy run.jsonl), so that it is not opened as a file.
func mistypedCommand(arg string) (string, bool) {
	if arg == "" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, `/\.`) {
		return "", false
	}
	if _, err := os.Lstat(arg); err == nil {
		return "", false
	}
	best, bestD := "", 0
	for _, c := range commands {
		d := editDistance(strings.ToLower(arg), c)
		if d <= max(1, len(c)/3) && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal string alignment distance of a and b: the
// insertions, deletions, substitutions and swaps of two neighbours that
// turn one into the other (verfiy is one swap from verify).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
