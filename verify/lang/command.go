package lang

import (
	"strings"
)

// Command is one simple command of a shell line: the program it runs, past
// the wrappers that only change how it runs (environment assignments, sudo,
// timeout, a runtime manager such as "uv run" or "bundle exec"), and its
// arguments as written.
type Command struct {
	Program string
	Args    []string
}

// Sub is the command's subcommand: its first argument that is not a flag
// ("push" in "git push --force origin main"), or "".
func (c Command) Sub() string {
	args := c.Args
	// "git -C dir status", "git -c k=v commit": options of git itself.
	for c.Program == "git" && len(args) > 1 && (args[0] == "-C" || args[0] == "-c") {
		args = args[2:]
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// Positionals are the arguments that say what the command works on: the
// ones that are not flags, and the flags that choose a target, as
// "flag=value" ("make -C services/a build" is [-C=services/a build]).
// Flags of no such weight, and the values of those that take a message or
// an output, are left out.
func (c Command) Positionals() []string {
	var out []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if redirect(a) {
			continue // "2>&1", ">/dev/null": where output goes, not what the command works on
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case targetFlags[name] && hasValue:
			out = append(out, name+"="+value)
		case targetFlags[name] && i+1 < len(c.Args):
			out = append(out, name+"="+c.Args[i+1])
			i++
		case valueFlags[name] && !hasValue && i+1 < len(c.Args):
			i++
		}
	}
	return out
}

// PlainArgs are the arguments that are not redirects.
func PlainArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if !redirect(a) {
			out = append(out, a)
		}
	}
	return out
}

// redirect reports whether an argument is a redirect the parser kept
// (">/dev/null", ">&1", "<in.txt").
func redirect(a string) bool {
	return strings.HasPrefix(a, ">") || strings.HasPrefix(a, "<") || strings.HasPrefix(a, "&>")
}

// targetFlags choose what a command works on (a directory, a file, the
// tests to run): two runs with other values are other runs.
var targetFlags = WordSet("-C", "--directory", "--dir", "-f", "--file", "--manifest-path", "--project", "--workdir",
	"-run", "--run", "-k", "-t", "--grep", "-g", "--filter", "--testNamePattern", "--only", "--package", "-p")

// valueFlags take a value that says nothing of the target: a message, an
// output, a time limit.
var valueFlags = WordSet("-m", "--message", "-o", "--output", "--timeout", "--format", "--title", "--body",
	"--base", "--head", "--repo", "--config", "--name", "--namespace", "-j", "--jobs", "-b", "--branch")

// Commands splits a shell line into its simple commands, on &&, ||, ;, |,
// & and line breaks outside quotes, with each command's wrappers removed.
// A "cd DIR" is a command of its own. The body of a here-document is data,
// not commands.
func Commands(line string) []Command {
	var out []Command
	for _, words := range shellSegments(line) {
		c, ok := unwrap(words)
		switch {
		case !ok:
		case (c.Program == "bash" || c.Program == "sh" || c.Program == "zsh") && len(c.Args) > 1 && (c.Args[0] == "-c" || c.Args[0] == "-lc" || c.Args[0] == "-ec"):
			// "bash -c 'source x.sh && f'": the commands the script runs.
			out = append(out, Commands(c.Args[1])...)
		default:
			out = append(out, c)
		}
	}
	return out
}

// MainCommand is the first command of a line that is not a cd: what the
// line runs.
func MainCommand(line string) Command { return MainOf(Commands(line)) }

// MainOf is MainCommand of a line already split into its commands.
func MainOf(cmds []Command) Command {
	for _, c := range cmds {
		if c.Program != "cd" && c.Program != "pushd" {
			return c
		}
	}
	return Command{}
}

// shellSegments splits a line into the words of its simple commands. Quotes
// group words and are removed; a backslash escapes the next byte.
func shellSegments(line string) [][]string {
	var segs [][]string
	var words []string
	var w strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	flushSeg := func() {
		flushWord()
		switch {
		case len(words) == 0:
		case len(segs) > 0 && (words[0][0] == '>' || words[0][0] == '<'):
			// Only redirects, after a parenthesis: "(cd x && make) 2>&1"
			// redirects what came before.
			segs[len(segs)-1] = append(segs[len(segs)-1], words...)
			words = nil
		default:
			segs = append(segs, words)
			words = nil
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				j = len(line) - i - 1
			}
			w.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			// In double quotes a backslash escapes " \ $ ` and a newline:
			// rg -n "a|source: \"live\"" is one pattern, not a pipe.
			i = doubleQuoted(line, i+1, &w)
			inWord = true
		case c == '<' && i+1 < len(line) && line[i+1] == '(':
			// Process substitution, diff <(jq . a) <(jq . b): the command
			// inside is a segment of its own.
			flushSeg()
		case c == '<' && !strings.HasPrefix(line[i:], "<<"):
			// An input redirect: its source is one word starting with "<".
			flushWord()
			w.WriteByte('<')
			inWord = true
			for i+1 < len(line) && line[i+1] == ' ' {
				i++
			}
		case c == '\\' && i+1 < len(line):
			if line[i+1] != '\n' {
				w.WriteByte(line[i+1])
				inWord = true
			}
			i++
		case c == '<' && strings.HasPrefix(line[i:], "<<"):
			// A here-document: its body is data until the delimiter line.
			flushSeg()
			next, ok := hereDocEnd(line, i)
			if !ok {
				return segs
			}
			i = next
		case c == '>':
			// A redirect: its target is one word starting with ">" (">out.log",
			// ">>notes.md", ">/dev/null"); "2>" and "&>" lose their number.
			if s := w.String(); inWord && (s == "1" || s == "2" || s == "&") {
				w.Reset()
			} else {
				flushWord()
			}
			w.WriteByte('>')
			inWord = true
			for i+1 < len(line) && (line[i+1] == '>' || line[i+1] == '&' || line[i+1] == '|') {
				i++
				w.WriteByte(line[i])
			}
			for i+1 < len(line) && line[i+1] == ' ' {
				i++
			}
		case c == '&' || c == '|' || c == ';' || c == '\n' || c == '(' || c == ')':
			if c == '&' && i+1 < len(line) && line[i+1] == '>' {
				continue // "&>file": the redirect follows
			}
			flushSeg()
		case c == ' ' || c == '\t' || c == '\r':
			flushWord()
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flushSeg()
	return segs
}

// doubleQuoted writes the text of a double-quoted string that starts at i
// (past its quote) to w, and returns the index of its closing quote (or of
// the line's last byte when it does not close).
func doubleQuoted(line string, i int, w *strings.Builder) int {
	for ; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"':
			return i
		case c == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`\n", line[i+1]) >= 0:
			i++
			if line[i] != '\n' {
				w.WriteByte(line[i])
			}
		default:
			w.WriteByte(c)
		}
	}
	return len(line) - 1
}

// hereDocEnd returns the index of the last byte of the here-document that
// starts with the "<<" at i, or false when it does not end.
func hereDocEnd(line string, i int) (int, bool) {
	rest := strings.TrimLeft(line[i+2:], "-~ ")
	delim := strings.Trim(strings.Fields(rest + " x")[0], `'"`)
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return 0, false
	}
	body := rest[nl+1:]
	end := strings.Index(body, "\n"+delim+"\n")
	switch {
	case strings.HasPrefix(body, delim+"\n"):
		return len(line) - len(body) + len(delim), true
	case end >= 0:
		return len(line) - len(body) + end + len(delim) + 1, true
	}
	return 0, false
}

// runners are wrappers that run the command that follows them; the number
// is how many words they take (not counting flags).
var runners = map[string]int{
	"sudo": 0, "env": 0, "time": 0, "nice": 0, "nohup": 0, "command": 0, "exec": 0, "builtin": 0,
	"timeout": 1, "gtimeout": 1, "xvfb-run": 0, "stdbuf": 0, "caffeinate": 0, "unbuffer": 0,
}

// managers run a command inside a project's toolchain: "uv run pytest" runs
// pytest, "bundle exec rspec" runs rspec.
var managers = map[string]string{
	"uv": "run", "poetry": "run", "pipenv": "run", "pdm": "run", "hatch": "run", "rye": "run",
	"bundle": "exec", "pnpm": "exec", "yarn": "exec", "mise": "exec", "rtx": "exec", "asdf": "exec",
	"direnv": "exec", "conda": "run", "micromamba": "run",
}

// unwrap strips what only changes how a command runs, and returns the
// command it runs; ok is false for a segment that runs nothing (a bare
// assignment).
func unwrap(words []string) (Command, bool) {
	for len(words) > 0 {
		w := words[0]
		switch {
		case isAssignment(w), shellPrefixes[w]:
			// "do git status", "if [ -f x ]", "! grep -q y": the keyword
			// only says when or how often the command runs.
			words = words[1:]
		case shellHeaders[w]:
			// "for f in *.go", "done", "fi": no command of their own.
			return Command{}, false
		case runners[w] > 0 || w == "sudo" || w == "env" || runners[w] == 0 && hasRunner(w):
			n := runners[w]
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0], "-") || isAssignment(words[0])) {
				words = words[1:]
			}
			if n > 0 && len(words) > 0 {
				words = words[1:]
			}
		case (w == "npx" || w == "bunx" || w == "pnpx") && len(words) > 1:
			words = packageRunner(words[1:])
		case managers[w] != "" && len(words) > 2 && words[1] == managers[w]:
			words = skipFlags(words[2:])
			if len(words) > 0 && words[0] == "--" {
				words = words[1:]
			}
			if len(words) > 0 {
				// "bun run lint:fix" and "bun run lint" run one check, the
				// first fixing what it can: the same task again.
				words = append([]string{ScriptTask(words[0])}, words[1:]...)
			}
		case (w == "pnpm" || w == "yarn") && len(words) > 1 && words[1] == "dlx":
			words = packageRunner(words[2:])
		case containerTools[w] && len(words) > 2 && (words[1] == "run" || words[1] == "exec"):
			// "docker run --rm -v $PWD:/w ghcr.io/acme/ffmpeg-svtav1:7.0 -i
			// in.mp4 ...": the image's program, with the arguments after it.
			rest := skipContainerFlags(words[2:])
			if len(rest) == 0 {
				return Command{Program: w, Args: words[1:]}, true
			}
			image, args := rest[0], rest[1:]
			if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
				words = args
				continue
			}
			return Command{Program: imageProgram(image), Args: args}, true
		case (strings.HasPrefix(w, "python") || w == "py") && len(words) > 2 && words[1] == "-m":
			words = words[2:]
		default:
			return Command{Program: programName(w), Args: words[1:]}, true
		}
	}
	return Command{}, false
}

// shellPrefixes are the reserved words that start a compound command's
// part, ahead of the command it runs.
var shellPrefixes = WordSet("do", "then", "else", "elif", "if", "while", "until", "!", "{", "time")

// shellHeaders are the reserved words whose segment runs no command: a loop
// or case header, and the words that close a compound command.
var shellHeaders = WordSet("for", "select", "case", "in", "done", "fi", "esac", "}")

func hasRunner(w string) bool { _, ok := runners[w]; return ok }

// containerTools run a command inside a container image.
var containerTools = WordSet("docker", "podman", "nerdctl")

// containerValueFlags take a value as the next word.
var containerValueFlags = WordSet("-v", "--volume", "-e", "--env", "-w", "--workdir", "--name", "-p", "--publish",
	"--network", "--net", "--platform", "-u", "--user", "--entrypoint", "--mount", "--env-file", "-l", "--label",
	"--cpus", "-m", "--memory", "--gpus", "--pull", "--shm-size", "--add-host", "--hostname", "-h")

func skipContainerFlags(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "-") {
		if containerValueFlags[words[0]] && len(words) > 1 {
			words = words[1:]
		}
		words = words[1:]
	}
	return words
}

// imageProgram is the program an image is named after: "ffmpeg" of
// "ghcr.io/acme/ffmpeg-svtav1:7.0", "terraform" of "hashicorp/terraform".
func imageProgram(image string) string {
	name := programName(image)
	if i := strings.IndexAny(name, ":@"); i > 0 {
		name = name[:i]
	}
	if i := strings.IndexAny(name, "-_."); i > 0 {
		name = name[:i]
	}
	return name
}

// ScriptTask drops a package script's mode suffix ("lint:fix", "format:check",
// "typecheck:ci" → lint, format, typecheck); other suffixes name another
// task ("test:e2e") and stay.
func ScriptTask(name string) string {
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		switch name[i+1:] {
		case "fix", "check", "write", "ci", "watch":
			return name[:i]
		}
	}
	return name
}

// packageRunner returns the words of what npx, bunx or pnpm dlx runs: the
// package's program with its version dropped ("npx prettier@3 --check",
// "npx @biomejs/biome check", "npx --package @biomejs/biome@1 biome
// check" all run biome or prettier), so a run pinned to another version
// is the same command again.
func packageRunner(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "-") && words[0] != "--" {
		if (words[0] == "--package" || words[0] == "-p") && len(words) > 1 {
			words = words[1:]
		}
		words = words[1:]
	}
	if len(words) > 0 {
		w := programName(words[0])
		if i := strings.LastIndexByte(w, '@'); i > 0 {
			w = w[:i]
		}
		words = append([]string{w}, words[1:]...)
	}
	return words
}

func skipFlags(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "-") && words[0] != "--" {
		words = words[1:]
	}
	return words
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for _, c := range w[:i] {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// programName is the program's name without its directory ("./bin/rake" is
// rake, "/usr/bin/python3" is python3).
func programName(w string) string {
	if i := strings.LastIndexByte(w, '/'); i >= 0 && i < len(w)-1 {
		return w[i+1:]
	}
	return w
}

// Writes reports whether the command redirects its output into a file.
func (c Command) Writes() bool {
	for _, a := range c.Args {
		if t := strings.TrimLeft(a, ">|"); strings.HasPrefix(a, ">") && t != "/dev/null" && !strings.HasPrefix(t, "&") {
			return true
		}
	}
	return false
}

// KeyCommand is the command of a line that says what it did: the last one
// that is not a cd, a look or a sink for output ("git add x && git commit
// && git push" pushes; "go test ./... | tee out.log" tests). In a chain of
// "&&", that is where a failure is usually reported from.
func KeyCommand(line string) Command { return KeyOf(Commands(line)) }

// KeyOf is KeyCommand of a line already split into its commands.
func KeyOf(cmds []Command) Command {
	for i := len(cmds) - 1; i >= 0; i-- {
		c := cmds[i]
		if c.Program != "tee" && c.Program != "cd" && c.Program != "pushd" && !shellBuiltins[c.Program] && !c.readOnly() {
			return c
		}
	}
	return MainOf(cmds)
}

// shellBuiltins end or set up a script's run ("...; exit 1", "set -e"):
// never the command that did its work.
var shellBuiltins = WordSet("exit", "return", "set", "export", "unset", "local", "shift", "trap", "false", "break", "continue")

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

// NewBranch returns the branch a git command creates to work on ("git
// checkout -b feat/x", "git switch -c feat/x", "git worktree add -b feat/x
// ../wt", "git worktree add ../wt feat/x"), or "".
func (c Command) NewBranch() string {
	if c.Program != "git" {
		return ""
	}
	sub := c.Sub()
	var args []string
	for i, a := range c.Args {
		if a == sub {
			args = c.Args[i+1:]
			break
		}
	}
	switch sub {
	case "checkout", "switch":
		for i, a := range args {
			if (a == "-b" || a == "-B" || a == "-c" || a == "-C" || a == "--create") && i+1 < len(args) {
				return args[i+1]
			}
		}
	case "worktree":
		if len(args) == 0 || args[0] != "add" {
			return ""
		}
		var pos []string
		for i := 1; i < len(args); i++ {
			switch a := args[i]; {
			case a == "-b" || a == "-B":
				if i+1 < len(args) {
					return args[i+1]
				}
			case strings.HasPrefix(a, "-"):
			default:
				pos = append(pos, a)
			}
		}
		// "git worktree add DIR BRANCH" checks out a branch that exists;
		// "DIR origin/main", "DIR HEAD~1" or a commit make no branch of
		// their own (a detached tree).
		if len(pos) == 2 && !refNotBranch(pos[1]) {
			return pos[1]
		}
	}
	return ""
}

// refNotBranch reports whether a git ref names something other than a local
// branch to work on: a remote-tracking ref, HEAD and its ancestors, a tag
// or a commit id.
func refNotBranch(ref string) bool {
	for _, p := range []string{"origin/", "upstream/", "refs/remotes/", "refs/tags/", "HEAD", "@"} {
		if strings.HasPrefix(ref, p) {
			return true
		}
	}
	if len(ref) >= 7 && strings.Trim(strings.ToLower(ref), "0123456789abcdef") == "" {
		return true
	}
	return strings.ContainsAny(ref, "~^")
}
