package lang

import (
	"path"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// ExitCodeRe finds an exit status reported in a tool's output ("Exit code:
// 1", "exited with status 2").
var ExitCodeRe = LazyRegexp(`(?i)(?:exit(?:ed)?(?: with)? (?:code|status)|exit_code|returned non-zero exit status|process exited with code)["':= ]+(-?[0-9]+)`)

var errorLineRe = LazyRegexp(`(?i)\b(error|fail|failed|failure|panic|undefined|cannot|can't|not found|exception|traceback|denied|fatal|invalid|no such|refused|timed? ?out|unexpected|mismatch|expected|got|overflowed|will not fit|out of memory)\b`)

// wrapperLineRe matches the lines a build driver prints when a step it ran
// failed: they say that it failed, not why.
var wrapperLineRe = LazyRegexp(`(?i)(returned \d+ exit status|^ninja: build stopped|^make(\[\d+\])?: \*\*\*|exited with status \d+|^npm err! (code|errno|lifecycle)|^error: command failed with exit code|subcommand failed|^\[[\w:.-]+\] error task failed$|^mise error task failed)`)

// FirstErrorLine returns what a failed result says went wrong: the first
// line naming an error class or "error:" (a Python traceback's last line, a
// compiler's "error[E0382]", a test's "--- FAIL: TestX"), else a bare FAIL
// line, else the first line with an error word, else the first non-empty
// line; followed by the next line when it carries the detail (a test's
// "orders_test.go:41: got 0, want 1").
func FirstErrorLine(text string) string {
	// Claude Code wraps its harness's errors in a tag of their own.
	text = strings.NewReplacer("<tool_use_error>", "", "</tool_use_error>", "").Replace(text)
	lines := strings.Split(text, "\n")
	first, best, bestScore, header, classAt, failFile := -1, -1, 0, -1, -1, false
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if classAt >= 0 {
			// An error class was found; a failing test's name a few lines
			// on (bun prints the assertion, then "(fail) suite > test")
			// still outranks it: it says what failed.
			if i-classAt > failNameReach {
				break
			}
			if !failFile && testOutcome(line) > 0 {
				best, bestScore = i, 5
				break
			}
			continue
		}
		if first < 0 {
			first = i
		}
		score := 0
		lower := strings.ToLower(line)
		switch testOutcome(line) {
		case 1:
			if !failFile {
				best, bestScore = i, 5
			}
		case -1:
			// "(pass) planner > throws a typed validation error": a test
			// that passed, whose name holds an error word.
			if first == i {
				first = -1
			}
			continue
		}
		if bestScore == 5 {
			break
		}
		// The regular expressions run only on lines that hold one of
		// their literal words (errorClass, bareFail, errorWord): most
		// lines of a long output hold none.
		switch {
		case strings.HasPrefix(lower, "traceback") || strings.HasPrefix(lower, "exit code") || strings.HasPrefix(lower, "wall time"):
			// A header: the output that follows says what went wrong;
			// only with nothing else is the header the line.
			if first == i {
				first = -1
				if header < 0 {
					header = i
				}
			}
			continue
		case codeFrame(line):
			// "290 |     except json.JSONDecodeError:", "--> routes.py:289":
			// the source a diagnostic quotes under its headline ("F821
			// Undefined name `json`"), whose words are the code's.
			if first == i {
				first = -1
			}
			continue
		case placeholderLine(lower):
			// "stderr:", "(no output)", "$ npm run build": the tool's
			// framing, not what went wrong.
			if first == i {
				first = -1
			}
			continue
		case leadIn(lower) && hasLaterLine(lines[i+1:]):
			// "Error in ./src/app.ts:", "Command failed: make test": where
			// it happened; the next line says what.
			if first == i {
				first = -1
			}
			continue
		case wrapperLine(line, lower) && wrapperLineRe.MatchString(line):
			// "collect2: error: ld returned 1 exit status", "ninja: build
			// stopped": a tool saying that what it ran failed, after the
			// line that says how.
			continue
		case errorClass(lower) && errorClassRe.MatchString(line):
			score = 4
		case strings.HasPrefix(line, "--- FAIL: "):
			// go test's failing test by name: what failed, where the
			// package's "FAIL" line after it only says that something did.
			score = 3
		case line == "FAIL" || line == "FAILED" || line == "ERROR":
			// A marker alone says nothing a summary would repeat.
		case (strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "ERROR")) && bareFailRe.MatchString(line):
			// jest's and vitest's "FAIL src/cart.test.ts": the file, ahead
			// of its tests' names, which then do not outrank it.
			score, failFile = 2, true
		case errorWord(line, lower):
			score = 1
		}
		if score > bestScore {
			best, bestScore = i, score
		}
		if bestScore == 4 {
			classAt = i // only a failing test's name outranks it
		}
	}
	if best < 0 {
		best = first
	}
	if best < 0 {
		best = header
	}
	if best < 0 {
		return ""
	}
	out := strings.TrimSpace(lines[best])
	for _, next := range lines[best+1:] {
		n := strings.TrimSpace(next)
		if n == "" {
			continue
		}
		if codeFrame(n) {
			break // where it is, then the code: the headline says what
		}
		if len(out) < 120 && (strings.HasPrefix(next, " ") || strings.HasPrefix(next, "\t") || strings.HasSuffix(out, ":")) && !bareFailRe.MatchString(n) {
			out += " ⏎ " + n
		}
		break
	}
	return model.Clip(out, 240)
}

// codeFrame reports whether a trimmed line is part of the source excerpt a
// compiler or linter prints under a diagnostic (rustc, ruff, biome, tsc
// --pretty): "289 |   code", "|   ^^^^", "--> src/app.rs:12:5".
func codeFrame(line string) bool {
	line = strings.TrimSpace(strings.TrimPrefix(line, "> ")) // biome's "> 5 │" marks the line at fault
	if strings.HasPrefix(line, "--> ") || strings.HasPrefix(line, "|") || strings.HasPrefix(line, "│") || strings.HasPrefix(line, "::: ") {
		return true
	}
	k := 0
	for k < len(line) && line[k] >= '0' && line[k] <= '9' {
		k++
	}
	if k == 0 || k > 6 {
		return false
	}
	rest := strings.TrimLeft(line[k:], " ")
	return rest == "|" || rest == "│" || strings.HasPrefix(rest, "| ") || strings.HasPrefix(rest, "|\t") || strings.HasPrefix(rest, "│ ")
}

// SaysWhatFailed reports whether a line FirstErrorLine chose says what
// went wrong (an error word or class, a failing test, an exit status), not
// only that it is the output's first line (a banner, a version).
func SaysWhatFailed(line string) bool {
	lower := strings.ToLower(line)
	return errorWord(line, lower) || errorClass(lower) && errorClassRe.MatchString(line) || testOutcome(line) > 0 ||
		bareFailRe.MatchString(line) || strings.HasPrefix(lower, "exit code") || strings.Contains(lower, "exit status") ||
		strings.Contains(line, "⏎")
}

// failNameReach is how many lines after an error class a failing test's
// name may come and still be taken for the failure's line.
const failNameReach = 40

// taskPrefixRe matches the prefix a monorepo runner puts on each line of a
// task's output ("@acme/core:test: ", "web:lint: ").
var taskPrefixRe = LazyRegexp(`^@?[\w.-]+(?:/[\w.-]+)?:[a-z][\w-]*: `)

// testOutcome reads a (trimmed) line as a test runner's verdict on one
// test: 1 for a failing test by name (bun's "(fail) suite > test", jest's
// "● suite › test", vitest's and mocha's "× test", "✕ test", "✗ test"), -1
// for a passing one ("(pass) …", "✓ …", "✔ …"), 0 for any other line.
func testOutcome(line string) int {
	// cargo's "test config::tests::name ... FAILED", go's "--- FAIL:
	// TestName", pytest's "FAILED tests/x.py::test_name - …".
	if strings.HasPrefix(line, "test ") && strings.HasSuffix(line, " ... FAILED") ||
		strings.HasPrefix(line, "--- FAIL: ") || strings.HasPrefix(line, "FAILED ") && strings.Contains(line, "::") {
		return 1
	}
	if line == "" || line[0] != '(' && line[0] < 0x80 && line[0] != '@' && !strings.Contains(line[:min(len(line), 40)], ": ") {
		return 0 // the common case, cheaply: no marker can start this line
	}
	if m := taskPrefixRe.FindString(line); m != "" {
		line = strings.TrimSpace(line[len(m):])
	}
	switch {
	case strings.HasPrefix(line, "(fail) "), strings.HasPrefix(line, "✕ "), strings.HasPrefix(line, "× "), strings.HasPrefix(line, "✗ "):
		return 1
	case strings.HasPrefix(line, "● ") && strings.Contains(line, " › "):
		return 1
	case strings.HasPrefix(line, "(pass) "), strings.HasPrefix(line, "✓ "), strings.HasPrefix(line, "✔ "), strings.HasPrefix(line, "√ "):
		return -1
	case zeroCountRe.MatchString(line):
		return -1 // " 0 fail", "Errors: 0": a tally of nothing
	}
	return 0
}

// zeroCountRe matches a runner's tally of no failures.
var zeroCountRe = LazyRegexp(`(?i)^(?:0 (?:fail|failed|failures?|errors?)|(?:fail(?:ed|ures?)?|errors?)[:=] ?0)\b[.,]?$`)

var bareFailRe = LazyRegexp(`^(?:FAIL|FAILED|ERROR)\b`)

// placeholderLine reports whether a (lower-cased, trimmed) line is a tool's
// header or placeholder: "stderr:", "(no output)", a command echo.
func placeholderLine(lower string) bool {
	switch lower {
	case "stderr:", "stdout:", "output:", "(no output)", "<no output>", "no output", "(empty)", "error output:", "[stderr]", "[stdout]", "--- stderr ---", "--- stdout ---":
		return true
	}
	if strings.HasPrefix(lower, "[") {
		// A task runner's echo of what it runs: "[lint] $ golangci-lint run".
		if i := strings.Index(lower, "] $ "); i > 0 && !strings.ContainsAny(lower[:i], " \t") {
			return true
		}
	}
	return strings.HasPrefix(lower, "$ ") || strings.HasPrefix(lower, "> ") && !strings.Contains(lower, "error")
}

// leadInRe matches a generic lead-in that only says where a failure
// happened: "Error in ./src/app.ts:", "An error occurred while running
// the command:", "Command failed: make test".
var leadInRe = LazyRegexp(`^(?:(?:an? )?(?:error|errors|failure|exception)s?(?: occurred| was raised)? (?:in|while|during|at|when|from|running|executing|on)\b.*:|command failed:.*|failed to run:?.*|the following (?:error|errors) occurred:?)$`)

func leadIn(lower string) bool {
	return (strings.Contains(lower, "error") || strings.Contains(lower, "fail") || strings.Contains(lower, "exception")) && leadInRe.MatchString(lower)
}

// hasLaterLine reports whether a non-empty line follows.
func hasLaterLine(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && !placeholderLine(strings.ToLower(strings.TrimSpace(l))) {
			return true
		}
	}
	return false
}

// errorClass reports whether a lower-cased line holds a literal word that
// errorClassRe needs: without one it cannot match. (Its case-insensitive
// words have no letter that folds to a non-ASCII one, so lower-casing
// keeps them.)
func errorClass(lower string) bool {
	return strings.Contains(lower, "error") || strings.Contains(lower, "exception") || strings.Contains(lower, "panic:") ||
		strings.Contains(lower, "--- fail") || strings.Contains(lower, "fatal:")
}

// errorWords are errorLineRe's words, every spelling of each.
var errorWords = []string{"error", "fail", "failed", "failure", "panic", "undefined", "cannot", "can't", "not found",
	"exception", "traceback", "denied", "fatal", "invalid", "no such", "refused", "timeout", "timedout", "time out",
	"timed out", "unexpected", "mismatch", "expected", "got", "overflowed", "will not fit", "out of memory"}

// wrapperWords are literal parts of wrapperLineRe's alternatives, one for
// each.
var wrapperWords = []string{"exit status", "ninja: build stopped", "***", "exited with status", "npm err!",
	"error: command failed with exit code", "subcommand failed", "task failed"}

// wrapperLine reports whether wrapperLineRe can match a line: an ASCII
// line must hold one of wrapperWords once lower-cased.
func wrapperLine(line, lower string) bool {
	if !isASCII(line) {
		return true
	}
	for _, w := range wrapperWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// errorWord reports whether errorLineRe matches a line. An ASCII line is
// scanned for errorWords between word boundaries, once lower-cased: the
// expression's backtracking over every line of a long log was a large
// share of reading failures. A line with other bytes is left to the
// expression ("ſ" folds to "s" under (?i), not under ToLower).
func errorWord(line, lower string) bool {
	if !isASCII(line) {
		return errorLineRe.MatchString(line)
	}
	for _, w := range errorWords {
		for from := 0; ; {
			i := strings.Index(lower[from:], w)
			if i < 0 {
				break
			}
			i += from
			end := i + len(w)
			if (i == 0 || !isReWordByte(lower[i-1])) && (end == len(lower) || !isReWordByte(lower[end])) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// isReWordByte is \w of Go's regexp: an ASCII letter, digit or underscore.
func isReWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

var errorClassRe = LazyRegexp(`\b[A-Z]\w*(?:Error|Exception)\b|(?i)\berror(?:\[\w+\])?:|\bpanic:|--- FAIL|\bfatal:`)

// testNameRe finds test names: TestX, test_x, a::b::c.
var testNameRe = LazyRegexp(`\bTest[A-Z]\w*|\btest_\w+|\b\w+(?:::\w+)+`)

// ErrorTokens are the words that identify a failure: those of its error
// line, and the failing tests and the files with a line number that the
// first lines of the output name ("hold_sweeper_test.exs:88",
// "spec/format_spec.rb:27", "CONFLICT ... in cmd/dupsnap/flags.go").
func ErrorTokens(line, output string) []string {
	out := distinctive(line)
	lines := strings.Split(output, "\n")
	if len(lines) > 40 {
		lines = lines[:40]
	}
	for _, l := range lines {
		if strings.Contains(l, "Test") || strings.Contains(l, "test_") || strings.Contains(l, "::") {
			for _, m := range testNameRe.FindAllString(l, -1) {
				out = AppendUnique(out, m)
			}
		}
		lower := strings.ToLower(l)
		if !(strings.Contains(l, ":") || strings.Contains(lower, "conflict") || strings.Contains(lower, "fail") || strings.Contains(lower, "error")) {
			continue
		}
		for _, id := range ExtractIdents(l) {
			if id.Class == ClassPath && HasKnownExt(id.Value) && !libraryPath(id.Value) {
				out = AppendUnique(out, id.Value)
				// A stack frame's absolute path: a summary names the file.
				// (Only there: a relative path's mention holds its base
				// name, and one mention would count twice.)
				if b := path.Base(id.Value); strings.HasPrefix(id.Value, "/") && distinctiveBase(b) {
					out = AppendUnique(out, b)
				}
			}
		}
	}
	if len(out) > 12 {
		out = out[:12]
	}
	return out
}

// distinctiveBase reports whether a file's base name tells it apart in a
// project: "plugin.test.ts" does, "index.ts" does not.
func distinctiveBase(b string) bool {
	stem, _, _ := strings.Cut(b, ".")
	switch strings.ToLower(stem) {
	case "index", "main", "mod", "lib", "init", "__init__", "app", "util", "utils", "types", "test", "tests", "setup", "config", "":
		return false
	}
	return len(stem) >= 3
}

// libraryPath reports whether a path is in a toolchain or dependency, not
// the project: a stack frame a summary never needs to name.
func libraryPath(p string) bool {
	for _, s := range []string{"/usr/", "site-packages", "node_modules", "/go/src/", "/.cargo/", "/rustc/", "/lib/python", "vendor/", "/gems/"} {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

var (
	symbolRe = LazyRegexp(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Za-z]+_[A-Za-z0-9_]+\b|\b[A-Z]{1,4}\d{2,5}\b|\b[A-Z][A-Z_]{3,}\b|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{2,5})?|:\d{2,5}\b`)
	quotedRe = LazyRegexp("['\"`]([^'\"`\\s]{2,60})['\"`]")
	// commonCaps are upper-case words that say nothing about which error it is.
	commonCaps = WordSet("FAIL", "FAILED", "ERROR", "ERRORS", "PASS", "WARN", "WARNING", "INFO", "DEBUG", "TODO",
		"NOTE", "HTTP", "HTTPS", "JSON", "YAML", "HTML", "NULL", "TRUE", "FALSE", "NONE", "EXIT", "PANIC", "FATAL")
)

// Distinctive returns the names a text carries that set what it speaks of
// apart from its siblings: paths and file names, dotted, snake_case and
// CamelCase symbols, codes, quoted names.
func Distinctive(text string) []string { return distinctive(text) }

// distinctive returns the tokens of an error line that identify it: paths,
// dotted symbols, CamelCase names, test names, error codes.
func distinctive(line string) []string {
	var out []string
	for _, id := range ExtractIdents(line) {
		if id.Class == ClassPath {
			out = AppendUnique(out, id.Value)
		}
	}
	for _, m := range symbolRe.FindAllString(line, -1) {
		m = strings.TrimPrefix(m, ":")
		if _, isPath := NormPath(m, true); isPath || commonCaps[m] {
			continue
		}
		out = AppendUnique(out, m)
	}
	for _, m := range quotedRe.FindAllStringSubmatch(line, -1) {
		out = AppendUnique(out, m[1])
	}
	return out
}
