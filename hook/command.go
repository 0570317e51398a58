package hook

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"unicode/utf8"
)

// The hook command loupe writes into a runtime's settings, and how loupe
// knows its own entries again.
//
// Claude Code, Codex and Gemini CLI hand the command string to a shell on
// Linux and macOS (bash -c, $SHELL -lc, bash -c), so the path to loupe is
// quoted for POSIX sh: in single quotes, a ' written as '\''. A $ is
// followed by '' (an empty quoted word, so the text is unchanged for the
// shell) because Gemini CLI replaces $GEMINI_PROJECT_DIR and
// $CLAUDE_PROJECT_DIR in the command text before the shell sees it, inside
// quotes or not.
//
// Every command ends with managedMarker, a shell comment: the shell ignores
// it, and it is what tells loupe's entries from another tool's hook that
// merely runs something called loupe.

// managedMarker ends every hook command loupe writes.
const managedMarker = "# loupe-managed"

// markerRE matches managedMarker at the end of a command, as a comment
// (after a blank), with spacing a user may have changed.
var markerRE = regexp.MustCompile(`[ \t]#[ \t]*loupe-managed[ \t]*$`)

// shellSafe are the bytes a word may hold unquoted.
func shellSafe(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_@%+=:,./-", c) >= 0) {
			return false
		}
	}
	return true
}

// shellQuote quotes s as one word for POSIX sh (and bash, zsh, fish, which
// read single quotes the same way for everything but a backslash).
func shellQuote(s string) string {
	if shellSafe(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('\'')
	for _, c := range []byte(s) {
		switch c {
		case '\'':
			b.WriteString(`'\''`)
		case '$':
			b.WriteString(`$''`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// checkCommand refuses a command loupe cannot write safely.
func checkCommand(cmd string) error {
	switch {
	case cmd == "":
		return errors.New("no command to run loupe: pass --command PATH")
	case strings.ContainsRune(cmd, 0):
		return fmt.Errorf("the command %q holds a NUL byte, which no shell can run", cmd)
	case !utf8.ValidString(cmd):
		return fmt.Errorf("the command %q is not valid UTF-8, which a JSON settings file cannot hold: pass --command with a path that is", cmd)
	case runtime.GOOS == "windows" && !shellSafe(cmd):
		// cmd.exe and PowerShell quote differently from sh, and which one
		// a runtime uses on Windows varies.
		return fmt.Errorf("the command %q needs quoting, which loupe does not write for Windows shells: put loupe on PATH (--command loupe)", cmd)
	}
	return nil
}

// command is the hook command line for arg.
func command(opt InstallOptions, arg string) string {
	return shellQuote(opt.Command) + " hook " + opt.Runtime + " " + arg + " " + managedMarker
}

// isLoupeCommand reports whether cmd, a handler of event in runtime's
// settings, is one of loupe's own: it carries the marker, or it is exactly
// what loupe wrote before there was a marker.
func isLoupeCommand(cmd, runtime, event string) bool {
	return markerRE.MatchString(cmd) || isLegacyCommand(cmd, runtime, event)
}

// legacyQuote is how loupe quoted the command before it quoted for sh.
func legacyQuote(cmd string) string {
	if strings.ContainsAny(cmd, " \t'\"$") {
		return "'" + strings.ReplaceAll(cmd, "'", `'\''`) + "'"
	}
	return cmd
}

// isLegacyCommand reports whether cmd is byte for byte what an earlier
// loupe wrote for event: PATH hook RUNTIME ARG, with PATH quoted the old
// way and naming a program called loupe*, and ARG the one that version
// wrote for that event.
func isLegacyCommand(cmd, runtime, event string) bool {
	for _, gate := range []bool{false, true} {
		for _, h := range handlers(runtime, gate) {
			if h.event != event {
				continue
			}
			prefix, ok := strings.CutSuffix(cmd, " hook "+runtime+" "+h.arg)
			if !ok {
				continue
			}
			path := prefix
			if len(prefix) >= 2 && prefix[0] == '\'' && prefix[len(prefix)-1] == '\'' {
				path = strings.ReplaceAll(prefix[1:len(prefix)-1], `'\''`, `'`)
			}
			if path != "" && legacyQuote(path) == prefix && strings.HasPrefix(filepath.Base(path), "loupe") {
				return true
			}
		}
	}
	return false
}
