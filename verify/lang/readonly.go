package lang

// Which shell commands only look (a failure of one says only that what it
// looked for is not there) and which only check (they carry out no edit).

import (
	"slices"
	"strings"
)

// ReadOnly reports whether every command of a shell line only looks: a
// failure of one says only that what it looked for is not there.
func ReadOnly(line string) bool {
	cmds := Commands(line)
	if len(cmds) == 0 {
		return false
	}
	for _, c := range cmds {
		if !c.readOnly() {
			return false
		}
	}
	return true
}

// readOnlyPrograms only look, whatever their arguments (a redirect into a
// file aside).
var readOnlyPrograms = WordSet("cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack",
	"ls", "fd", "tree", "wc", "diff", "echo", "printf", "pwd", "which", "whereis", "type", "file", "stat",
	"du", "df", "jq", "yq", "bat", "sort", "uniq", "cut", "tr", "column", "nl", "od", "xxd", "hexdump",
	"strings", "readlink", "realpath", "basename", "dirname", "date", "printenv", "whoami", "id", "uname",
	"hostname", "ps", "lsof", "true", "test", "read", "[", "cd", "pushd", "popd", "sleep", "wait", "awk", "comm", "cmp")

// readOnlySubcommands are the subcommands of tools that only look.
var readOnlySubcommands = map[string]map[string]bool{
	"git": WordSet("status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "grep", "ls-tree",
		"cat-file", "describe", "reflog", "shortlog", "merge-base", "rev-list", "name-rev", "ls-remote",
		"whatchanged", "check-ignore", "count-objects", "for-each-ref", "show-ref", "verify-commit"),
	"gh":      WordSet("view", "list", "diff", "checks", "status", "search", "watch"),
	"kubectl": WordSet("get", "describe", "logs", "top", "explain", "version", "api-resources", "auth"),
	"docker":  WordSet("ps", "images", "logs", "inspect", "version", "info", "history"),
	"npm":     WordSet("ls", "list", "view", "info", "outdated", "why", "explain", "search"),
	"pnpm":    WordSet("ls", "list", "why", "outdated"),
	"pip":     WordSet("show", "list", "freeze", "check"),
	"pip3":    WordSet("show", "list", "freeze", "check"),
	"go":      WordSet("list", "env", "version", "doc"),
	"cargo":   WordSet("tree", "metadata", "search"),
}

func (c Command) readOnly() bool {
	if c.Writes() {
		return false
	}
	switch c.Program {
	case "sed":
		for _, a := range c.Args {
			if a == "-i" || strings.HasPrefix(a, "-i") || a == "--in-place" {
				return false
			}
		}
		return true
	case "find":
		for i, a := range c.Args {
			switch a {
			case "-delete", "-ok", "-okdir":
				return false
			case "-exec", "-execdir":
				// "-exec cat {} ;" only looks; "-exec rm {} ;" does not.
				if i+1 >= len(c.Args) || !(Command{Program: programName(c.Args[i+1])}).readOnly() {
					return false
				}
			}
		}
		return true
	case "git":
		sub := c.Sub()
		switch sub {
		case "branch", "tag", "remote", "stash", "worktree", "config":
			// From the subcommand on: "git -C dir config key" is read as
			// "config key".
			return gitListing(sub, c.Args[max(0, slices.Index(c.Args, sub)):])
		}
		return readOnlySubcommands["git"][sub]
	case "gh":
		return ghReadOnly(c.Args)
	case "ssh":
		return sshReadOnly(c.Args)
	}
	if readOnlyPrograms[c.Program] {
		return true
	}
	if subs := readOnlySubcommands[c.Program]; subs != nil {
		return subs[c.Sub()]
	}
	return false
}

// sshOptArgs are the ssh options that take a value.
var sshOptArgs = WordSet("-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w")

// RemoteLine returns the command line an ssh line runs on its host ("ssh
// host 'sudo dockyard.sh verify' 2>&1" runs "sudo dockyard.sh verify"),
// or "" when the line is no single ssh command with a remote command.
// What failed or succeeded is that command: a later ssh that runs it again
// with an env file set re-runs it.
func RemoteLine(line string) string { return RemoteOf(Commands(line)) }

// RemoteOf is RemoteLine of a line already split into its commands.
func RemoteOf(cmds []Command) string {
	if len(cmds) == 0 || cmds[0].Program != "ssh" {
		return ""
	}
	for _, c := range cmds[1:] {
		if !c.readOnly() {
			return "" // "ssh host cat x | patch -p1": the local side works too
		}
	}
	return sshRemote(PlainArgs(cmds[0].Args))
}

// sshRemote returns the remote command of ssh's arguments, after its
// options and the host, or "" when there is none (an interactive shell).
func sshRemote(args []string) string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if sshOptArgs[args[i]] {
			i++
		}
		i++
	}
	if i+1 >= len(args) {
		return ""
	}
	return strings.Join(args[i+1:], " ")
}

// sshReadOnly reports whether an ssh line only looks on the remote host:
// "ssh root@host tail -5 /var/log/nginx/access.log | grep x" reads a log
// there. With no remote command it opens a shell, which is not a look.
func sshReadOnly(args []string) bool {
	remote := sshRemote(args)
	return remote != "" && ReadOnly(remote)
}

// gitListing reports whether a git branch/tag/remote/stash/worktree/config
// command only lists.
func gitListing(sub string, args []string) bool {
	rest := args[1:]
	switch sub {
	case "stash", "worktree":
		return len(rest) > 0 && rest[0] == "list" || sub == "stash" && len(rest) > 0 && rest[0] == "show"
	case "config":
		var names []string
		for _, a := range rest {
			switch {
			case a == "--get" || a == "--list" || a == "-l" || a == "--get-all" || a == "--get-regexp":
				return true
			case a == "--global" || a == "--system" || a == "--local" || a == "--worktree" || strings.HasPrefix(a, ">"):
			case strings.HasPrefix(a, "-"):
				return false // --unset, --add, --file …: not a plain read
			default:
				names = append(names, a)
			}
		}
		// "git config gc.auto": a key alone reads it (and exits 1 when it
		// is not set); a key and a value writes it.
		return len(names) == 1
	}
	changes := map[string][]string{
		"branch": {"-d", "-D", "-m", "-M", "-c", "-C", "-f", "--delete", "--move", "--copy", "--force", "-u", "--set-upstream-to", "--unset-upstream"},
		"tag":    {"-a", "-s", "-d", "-f", "-m", "--delete", "--force", "--annotate", "--sign"},
		"remote": {"add", "remove", "rm", "rename", "set-url", "set-head", "prune", "update"},
	}[sub]
	for _, a := range rest {
		if slices.Contains(changes, a) {
			return false
		}
		if !strings.HasPrefix(a, "-") && sub != "remote" {
			return false // "git branch new-name", "git tag v1.2"
		}
	}
	return true
}

// ghReadOnly reports whether a GitHub CLI command only looks: a view, list,
// diff or status subcommand, or an API call that sends nothing.
func ghReadOnly(args []string) bool {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-X" || a == "--method":
			if i+1 < len(args) && !strings.EqualFold(args[i+1], "GET") {
				return false
			}
			i++
		case a == "-f" || a == "-F" || a == "--field" || a == "--raw-field" || a == "--input":
			return false
		case !strings.HasPrefix(a, "-"):
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 {
		return false
	}
	if pos[0] == "api" || pos[0] == "search" || pos[0] == "status" {
		return true
	}
	if pos[0] == "auth" {
		return len(pos) > 1 && pos[1] == "status"
	}
	return len(pos) > 1 && readOnlySubcommands["gh"][pos[1]]
}

// Inspects reports whether every command of a shell line only looks or
// checks: it reads, or it runs a check that changes nothing ("cue vet",
// "terraform plan", "go test", "kubectl wait"). Such a line does not carry
// out an edit, whatever file it names.
func Inspects(line string) bool {
	cmds := Commands(line)
	if len(cmds) == 0 {
		return false
	}
	for _, c := range cmds {
		if c.readOnly() || !c.Writes() && (inspectSubcommands[c.Sub()] || inspectPrograms[c.Program] || c.inspectArg()) {
			continue
		}
		return false
	}
	return true
}

// inspectArg reports whether an argument makes the command a look: an
// action word of the cloud CLIs ("aws autoscaling describe-auto-scaling-groups",
// "gcloud ... list") or a dry run.
func (c Command) inspectArg() bool {
	for _, a := range c.Args {
		if a == "--dry-run" || a == "--check" || a == "--dryrun" {
			return true
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		for _, p := range []string{"describe-", "get-", "list-", "show-"} {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

// inspectSubcommands are subcommands that check or show, in any tool.
var inspectSubcommands = WordSet("vet", "check", "lint", "validate", "eval", "show", "get", "list", "ls",
	"describe", "status", "diff", "plan", "verify", "view", "inspect", "print", "dump", "explain", "info",
	"version", "help", "test", "doctor", "audit", "outdated", "why", "search", "query", "logs", "log",
	"top", "watch", "wait", "checks")

// inspectPrograms are programs that only check.
var inspectPrograms = WordSet("pytest", "jest", "vitest", "mypy", "pyright", "eslint", "shellcheck",
	"hadolint", "tflint", "yamllint", "markdownlint", "golangci-lint", "staticcheck", "ping", "dig", "nslookup")
