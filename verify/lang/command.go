package lang

import "strings"

// ReadOnlyCommands are shell commands that only look.
var ReadOnlyCommands = WordSet("cat", "less", "more", "head", "tail", "grep", "rg", "ag", "ls", "find", "fd",
	"tree", "wc", "diff", "echo", "pwd", "which", "file", "stat", "du", "df", "jq", "bat", "sed -n")

// FirstWord returns the program a shell command runs, past environment
// assignments, sudo, env and a leading "cd DIR &&".
func FirstWord(cmd string) string {
	f := strings.Fields(cmd)
	for len(f) > 0 && (strings.Contains(f[0], "=") || f[0] == "sudo" || f[0] == "env" || f[0] == "cd" || f[0] == "&&") {
		if f[0] == "cd" && len(f) > 2 {
			f = f[2:]
			continue
		}
		f = f[1:]
	}
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// GitReadOnly reports whether a command is a git subcommand that only
// looks (status, log, diff...).
func GitReadOnly(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) < 2 || f[0] != "git" {
		return false
	}
	switch f[1] {
	case "status", "log", "diff", "show", "blame", "branch", "remote", "rev-parse", "ls-files", "grep":
		return true
	}
	return false
}

// NormCommand collapses whitespace and drops flags without values, so
// "go test -v ./x" and "go test ./x" are the same target.
func NormCommand(cmd string) string {
	var out []string
	for _, f := range strings.Fields(cmd) {
		if strings.HasPrefix(f, "-") && !strings.Contains(f, "=") && len(f) <= 3 {
			continue
		}
		if f == "-race" || strings.HasPrefix(f, "-count=") || f == "--verbose" || f == "-timeout" {
			continue
		}
		out = append(out, f)
	}
	return strings.Join(out, " ")
}
