// Command loupe inspects and verifies lossy context compaction in the
// transcripts of long-running AI agents.
//
// main only parses the command line and picks the inspector or a headless
// command; the work happens in packages model, verify and ui.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3"; a
// module build falls back to the module version.
var version = ""

func main() {
	stop := profile(os.Getenv("LOUPE_CPUPROFILE"), os.Getenv("LOUPE_MEMPROFILE"), os.Getenv("LOUPE_HEAPPROFILE"), os.Stderr)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes, shared by every command.
const (
	exitOK        = 0
	exitViolation = 1 // a compaction violates
	exitBadInput  = 2 // bad input or usage
)

// usageError is a command-line mistake: it is printed with a hint to run
// the help of the command it concerns (cmd, "" for loupe itself) and exits 2.
type usageError struct{ msg, cmd string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// env is what a command may touch: its streams and whether they are terminals.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// run does the work of main and returns the exit code, so that the whole
// command line can be tested in process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	code, err := dispatch(e, args)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			if ue.msg != "" {
				e.warn("%s", ue.msg)
			}
			cmd := "loupe"
			if ue.cmd != "" {
				cmd += " " + ue.cmd
			}
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd)
			return exitBadInput
		}
		e.warnErr(err)
		if code == exitOK {
			code = exitBadInput
		}
	}
	return code
}

// warn writes one message to standard error. Messages carry file names and
// text from transcripts, both untrusted: they are sanitized (an escape
// sequence in a file name must not set the terminal's title) and a newline
// in them shows as ␊, so that no message can forge another.
func (e *env) warn(format string, args ...any) {
	fmt.Fprintf(e.stderr, "loupe: %s\n", oneLine(fmt.Sprintf(format, args...)))
}

// warnErr writes an error, one line for each error it joins.
func (e *env) warnErr(err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, x := range j.Unwrap() {
			e.warnErr(x)
		}
		return
	}
	e.warn("%v", err)
}

func oneLine(s string) string { return strings.ReplaceAll(model.Sanitize(s), "\n", "␊") }

// sanitizing makes what the flag package writes (its errors quote the
// unknown flag as given) safe for a terminal.
type sanitizing struct{ w io.Writer }

func (s sanitizing) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, model.Sanitize(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func dispatch(e *env, args []string) (int, error) {
	if err := limitsFromEnv(); err != nil {
		return exitBadInput, err
	}
	if len(args) == 0 {
		return inspect(e, nil)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(e.stdout, usage)
		return exitOK, nil
	case "-version", "--version", "version":
		fmt.Fprintf(e.stdout, "loupe %s\n", versionString())
		return exitOK, nil
	case "verify":
		return forCommand(args[0])(verifyCmd(e, args[1:]))
	case "report":
		return forCommand(args[0])(reportCmd(e, args[1:]))
	case "convert":
		return forCommand(args[0])(convertCmd(e, args[1:]))
	case "sample":
		return forCommand(args[0])(sampleCmd(e, args[1:]))
	case "rehydrate":
		return forCommand(args[0])(rehydrateCmd(e, args[1:]))
	case "hook":
		return forCommand(args[0])(hookCmd(e, args[1:]))
	}
	if cmd, ok := mistypedCommand(args[0]); ok {
		return exitBadInput, usagef("unknown command %q; did you mean %q? (no file of that name either)", args[0], cmd)
	}
	return inspect(e, args)
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

const usage = `loupe inspects and verifies lossy context compaction in AI agent transcripts.

For every compaction it derives from the source what the summary had to keep
(commitments, pending tool calls, unresolved errors, identifiers, the user's
standing rules), checks the summary against it, and decides: degrade (the loss
is fine) or violate (the summary must not be consumed).

Usage:
  loupe                         open the built-in sample run in the inspector
  loupe [--from RUNTIME] FILE   open a transcript (a directory picks a session; - is stdin)
  loupe --latest                open the newest session that has a compaction, from the
                                places claude-code, codex, pi and gemini-cli keep them
  loupe verify [flags] PATH...  verify headlessly; exit 0 all degrade, 1 any violates, 2 bad input
                                (--format jsonl: a result line per file, for loupe report)
  loupe report [flags] FILE...  merge result lines of many verify runs (shards) into one report
  loupe convert [--from RUNTIME] FILE
                                write a transcript as loupe JSONL to standard output
  loupe sample [NAME]           list the built-in samples, or write one as loupe JSONL
  loupe rehydrate [flags] FILE  the items a compaction did not keep, as a block to put back
  loupe hook RUNTIME EVENT      run inside a runtime's compaction hooks (reads the hook's JSON)
  loupe hook install RUNTIME    show (or --write) the settings that run loupe in claude-code,
                                codex, gemini, opencode or pi; loupe hook uninstall removes them
  loupe --version               print the version

Run 'loupe verify --help' for the verifier's flags (--format, --group-by,
--only-violations...), 'loupe COMMAND --help' for any command's. Flags may
come before or after the paths.

Limits (a hostile file fails with an error instead of exhausting memory):
  --max-line SIZE, LOUPE_MAX_LINE   longest line read (default 256MiB)
  LOUPE_MAX_RATIO                   how many times its size a compressed
                                    file may grow past 64 MiB (default 250)
`
