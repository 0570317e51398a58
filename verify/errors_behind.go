package verify

// Errors the run left behind (DESIGN.md, "How sure the source is that an
// item is owed"): an error is stated only while it is still the last word on
// its subject. When the run moves on without resolving it under the rules of
// errors.go — another command succeeds at the same goal, the file is changed
// another way, the agent says it takes another approach, the user changes
// course, or much other work succeeds and the failed program is never run
// again — it stays open but is only inferred: a summary that drops it is
// listed for review, not called violating.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// leftBehindAfter is how many successful shell commands of other programs
// make a failure left behind when its program was never run again: a
// fix-and-rerun loop re-runs it long before.
const leftBehindAfter = 25

// behind is what the error tracker keeps to see the run move on.
type behind struct {
	byGoal map[string][]*failure // open stated failures by goal (see goalOf)
	// byInner holds failed commands by the command they ran inside a
	// container or cluster exec; byScript failed script runs by program.
	byInner, byScript map[string][]*failure
	// byProbe holds failed probes (an inline snippet, a request) by what
	// a later success of the same kind would be (see probeKey).
	byProbe map[string][]*failure
	edits   []*failure // open stated failed edits of a named file
	// byTool holds failed calls of tools that are not shells or file
	// edits (a browser, an MCP server, a sub-agent) by their family (see
	// toolFamily).
	byTool map[string][]*failure
	// sinceAssistant and sinceUser are the failures opened since the last
	// assistant and user message: the ones a message moving on speaks of.
	sinceAssistant, sinceUser []*failure
	// others counts, per open failed command, the successful shell
	// commands of other programs since it.
	others map[*failure]int
	// prompts counts, per open stated failure, the user's messages since
	// it (see userMovedOn).
	prompts map[*failure]int
	// report is the agent's last message with words in it, as long as no
	// call has followed it: the message that ends its turn if the user
	// speaks next (see turnEnded).
	report *model.Message
}

// opened files a new failure for the checks below.
func (b *behind) opened(f *failure, info *callInfo) {
	if b.byGoal == nil {
		b.byGoal, b.others = map[string][]*failure{}, map[*failure]int{}
		b.byInner, b.byScript = map[string][]*failure{}, map[string][]*failure{}
		b.byProbe = map[string][]*failure{}
		b.byTool = map[string][]*failure{}
	}
	if k := toolFamily(info); k != "" {
		b.byTool[k] = append(b.byTool[k], f)
	}
	f.goal, f.program = goalOf(info)
	if f.goal != "" {
		b.byGoal[f.goal] = append(b.byGoal[f.goal], f)
	}
	if info.command != "" {
		f.inner = innerCommand(info.key)
		if f.inner.Program != info.key.Program {
			k := commandText(f.inner)
			b.byInner[k] = append(b.byInner[k], f)
		}
		if scriptOf(f.inner) != "" {
			b.byScript[f.inner.Program] = append(b.byScript[f.inner.Program], f)
		}
		if k := probeKey(f.inner); k != "" {
			b.byProbe[k] = append(b.byProbe[k], f)
		}
	}
	if f.category == toolEdit && f.path != "" {
		b.edits = append(b.edits, f)
	}
	b.sinceAssistant = append(b.sinceAssistant, f)
	b.sinceUser = append(b.sinceUser, f)
	if b.prompts == nil {
		b.prompts = map[*failure]int{}
	}
	b.prompts[f] = 0
	if f.program != "" {
		b.others[f] = 0
	}
}

// stated reports whether a failure is open and still stated: the only ones
// the run can still leave behind.
func (f *failure) stated() bool { return f.item.Open && f.item.Basis != Inferred }

// succeededElsewhere weakens the open failures a successful call leaves
// behind without resolving them: another program at the same goal, the
// failed edit's file changed by a command, or enough other work.
func (e *errorTracker) succeededElsewhere(r *model.ToolResult, info *callInfo) {
	b := &e.behind
	if b.byGoal == nil {
		return
	}
	if k := toolFamily(info); k != "" {
		b.byTool[k] = weakenAll(b.byTool[k], func(f *failure) string {
			if f.item.Event >= r.Index {
				return ""
			}
			return fmt.Sprintf("left behind: a later call of the same tool succeeded (%s)", model.Clip(info.name, 60))
		})
	}
	if info.command == "" {
		return
	}
	goal, program := goalOf(info)
	if goal != "" {
		kept := b.byGoal[goal][:0]
		for _, f := range b.byGoal[goal] {
			if !f.stated() {
				continue
			}
			if f.item.Event < r.Index && sameGoalElsewhere(f, goal, program, innerCommand(info.key)) {
				f.item.weaken(fmt.Sprintf("left behind: `%s` later succeeded at the same goal (%s)", model.Clip(info.command, 80), goalWords(goal)))
				continue
			}
			kept = append(kept, f)
		}
		b.byGoal[goal] = kept
	}
	inner := innerCommand(info.key)
	b.byInner[commandText(inner)] = weakenAll(b.byInner[commandText(inner)], func(f *failure) string {
		if commandText(f.inner) != commandText(inner) || f.item.Event >= r.Index {
			return ""
		}
		return fmt.Sprintf("left behind: the same command later succeeded elsewhere (`%s`)", model.Clip(info.command, 80))
	})
	if script := scriptOf(inner); script != "" {
		b.byScript[inner.Program] = weakenAll(b.byScript[inner.Program], func(f *failure) string {
			if old := scriptOf(f.inner); old == script || !sameStem(old, script) {
				return ""
			}
			return fmt.Sprintf("left behind: another script for the same work succeeded (`%s`)", model.Clip(info.command, 80))
		})
	}
	if k := probeKey(inner); k != "" {
		b.byProbe[k] = weakenAll(b.byProbe[k], func(f *failure) string {
			if f.item.Event >= r.Index || commandText(f.inner) == commandText(inner) {
				return ""
			}
			return fmt.Sprintf("left behind: a later %s succeeded (`%s`)", probeWords(k), model.Clip(info.command, 80))
		})
	}
	if info.category == toolRead || info.checks {
		return // looking around is not work that leaves anything behind
	}
	kept := b.edits[:0]
	for _, f := range b.edits {
		if !f.stated() {
			continue
		}
		if changesFile(info, f.path) {
			f.item.weaken(fmt.Sprintf("left behind: the file was changed another way (`%s`)", model.Clip(info.command, 80)))
			continue
		}
		kept = append(kept, f)
	}
	b.edits = kept
	for f, n := range b.others {
		switch {
		case !f.stated():
			delete(b.others, f)
		case program != "" && program != f.program:
			if n+1 >= leftBehindAfter {
				f.item.weaken(fmt.Sprintf("left behind: %d successful commands since, none ran %s again", n+1, f.program))
				delete(b.others, f)
			} else {
				b.others[f] = n + 1
			}
		}
	}
}

// toolFamily is what a later success of the same kind is for a call that
// is neither a shell line nor a file edit: the MCP server of an MCP tool
// ("mcp__playwright__browser_click" → "mcp__playwright"), a browser tool's
// "browser", or the tool itself; "" for shells and edits. A browser click
// that timed out, then the same browser driven on to the next page: the
// run moved on from it.
func toolFamily(info *callInfo) string {
	if info == nil || info.command != "" || info.category == toolEdit || info.category == toolPlan || info.name == "" {
		return ""
	}
	n := strings.ToLower(info.name)
	if rest, ok := strings.CutPrefix(n, "mcp__"); ok {
		if i := strings.Index(rest, "__"); i > 0 {
			return "mcp__" + rest[:i]
		}
		return n
	}
	if strings.HasPrefix(n, "browser_") || strings.HasPrefix(n, "browser-") {
		return "browser"
	}
	return n
}

// weakenAll weakens the stated failures of fs for which why says why, and
// returns the ones still open and stated.
func weakenAll(fs []*failure, why func(*failure) string) []*failure {
	kept := fs[:0]
	for _, f := range fs {
		if !f.stated() {
			continue
		}
		if w := why(f); w != "" {
			f.item.weaken(w)
			continue
		}
		kept = append(kept, f)
	}
	return kept
}

// sameGoalElsewhere reports whether a success at a failure's goal is the
// work done another way: another program (npm test, then npx vitest run),
// or for an install, the same packages installed by any means (pip install
// foo==1.2, then uv add foo; npm install, then pnpm install).
func sameGoalElsewhere(f *failure, goal, program string, inner lang.Command) bool {
	if goal != "install" {
		return program != f.program
	}
	failed, now := installNames(f.inner), installNames(inner)
	if len(failed) == 0 {
		return program != f.program
	}
	if commandText(f.inner) == commandText(inner) {
		return false
	}
	for _, n := range failed {
		if slices.Contains(now, n) {
			return true
		}
	}
	return false
}

// installNames are the packages an install command names, without their
// versions or extras ("foo==1.2", "foo[cli]", "foo@^2" are all "foo").
func installNames(c lang.Command) []string {
	var out []string
	pos := c.Positionals()
	for i, a := range pos {
		if i == 0 || strings.Contains(a, "=") && strings.HasPrefix(a, "-") {
			continue // the subcommand; a flag's target
		}
		if c.Program == "uv" && a == "install" || a == "pip" {
			continue
		}
		a = strings.ToLower(a)
		if j := strings.IndexAny(a, "=<>~![ "); j > 0 {
			a = a[:j]
		}
		if j := strings.LastIndexByte(a, '@'); j > 0 {
			a = a[:j]
		}
		if a != "" {
			out = append(out, a)
		}
	}
	return out
}

// probeKey says what kind of probe a command is, for a later one of the
// same kind to leave its failure behind: an inline snippet of an
// interpreter ("python -c …", "node -e …") is "snippet python"; a request
// ("curl https://api.example.com/v1/x") is "request api.example.com". Other
// commands return "".
func probeKey(c lang.Command) string {
	switch c.Program {
	case "python", "python3", "node", "ruby", "perl", "php", "deno", "bun", "Rscript":
		for _, a := range c.Args {
			if a == "-c" || a == "-e" || a == "-r" || a == "--eval" || a == "eval" || a == "-E" {
				return "snippet " + c.Program
			}
		}
	case "curl", "wget", "http", "https", "xh":
		for _, a := range c.Args {
			if a == "-X" || a == "--request" || a == "-d" || strings.HasPrefix(a, "--data") || a == "-F" || a == "--form" || a == "-T" ||
				a == "POST" || a == "PUT" || a == "DELETE" || a == "PATCH" {
				return "" // a request that changes something is work, not a probe
			}
		}
		for _, a := range c.Args {
			if i := strings.Index(a, "://"); i > 0 {
				host := a[i+3:]
				if j := strings.IndexAny(host, "/?#"); j >= 0 {
					host = host[:j]
				}
				return "request " + strings.Trim(host, `'"`)
			}
		}
	}
	return ""
}

func probeWords(k string) string {
	kind, what, _ := strings.Cut(k, " ")
	if kind == "snippet" {
		return what + " snippet"
	}
	return "request to " + what
}

// commandText is a command as one string, for comparing two.
func commandText(c lang.Command) string { return c.Program + " " + strings.Join(c.Args, " ") }

// scriptOf is the script an interpreter runs ("python fetch_v2.py" runs
// fetch_v2.py), or "".
func scriptOf(c lang.Command) string {
	if !interpreters[c.Program] {
		return ""
	}
	for _, a := range c.Positionals() {
		if strings.Contains(a, ".") && !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// sameStem reports whether two scripts' names share a word of their own
// ("fetch_data.py" and "fetch_data_v2.py"): the second is the first redone.
func sameStem(a, b string) bool {
	words := func(p string) []string {
		base := strings.ToLower(lastSegment(p))
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			base = base[:i]
		}
		var out []string
		for _, w := range strings.FieldsFunc(base, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			if len(w) >= 4 && !genericScriptWords[w] {
				out = append(out, w)
			}
		}
		return out
	}
	for _, w := range words(a) {
		if slices.Contains(words(b), w) {
			return true
		}
	}
	return false
}

var (
	interpreters       = lang.WordSet("python", "python3", "node", "ts-node", "tsx", "deno", "ruby", "perl", "php", "Rscript", "julia", "bash", "sh", "zsh", "pwsh", "powershell")
	genericScriptWords = lang.WordSet("test", "tests", "main", "script", "scripts", "index", "run", "check", "temp", "tmp", "debug")
)

// changesFile reports whether a shell line writes a file: a redirection, an
// in-place edit, a copy, a move or a patch naming it.
func changesFile(info *callInfo, path string) bool {
	last := lastSegment(path)
	if last == "" || !strings.Contains(info.command, last) {
		return false
	}
	for _, c := range info.cmds {
		switch {
		case c.Writes():
		case (c.Program == "sed" || c.Program == "perl") && hasArgPrefix(c.Args, "-i", "-pi"):
		case c.Program == "cp" || c.Program == "mv" || c.Program == "tee" || c.Program == "patch" || c.Program == "install":
		case c.Program == "git" && (c.Sub() == "apply" || c.Sub() == "checkout" || c.Sub() == "restore"):
		case strings.Contains(strings.ToLower(c.Program), "set-content") || strings.Contains(strings.ToLower(c.Program), "out-file"):
		default:
			continue
		}
		return true
	}
	return false
}

func hasArgPrefix(args []string, ps ...string) bool {
	for _, a := range args {
		for _, p := range ps {
			if strings.HasPrefix(a, p) {
				return true
			}
		}
	}
	return false
}

// goalOf is what a call was for, in words that do not depend on the program
// that did it: "test", "build", "install", "lint", "format", "typecheck",
// "migrate"; and the program itself (past wrappers and containers). A call
// with no recognised goal returns "".
func goalOf(info *callInfo) (goal, program string) {
	if info == nil || info.command == "" {
		return "", ""
	}
	c := innerCommand(info.key)
	if c.Program == "" {
		return "", ""
	}
	return commandGoal(c), c.Program
}

// innerCommand is the command a container or cluster exec runs: "docker
// compose exec web pytest" runs pytest; "kubectl exec pod -- go test" runs
// go. Other commands are themselves.
func innerCommand(c lang.Command) lang.Command {
	args := c.Args
	switch {
	case (c.Program == "docker" || c.Program == "podman") && len(args) > 2 && args[0] == "compose" && (args[1] == "exec" || args[1] == "run"),
		c.Program == "docker-compose" && len(args) > 1 && (args[0] == "exec" || args[0] == "run"):
		if c.Program != "docker-compose" {
			args = args[1:]
		}
		rest := args[1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			rest = rest[1:]
		}
		if len(rest) > 1 {
			return lang.Command{Program: rest[1], Args: rest[2:]}
		}
	case (c.Program == "kubectl" || c.Program == "oc") && len(args) > 0 && args[0] == "exec":
		for i, a := range args {
			if a == "--" && i+1 < len(args) {
				return lang.Command{Program: args[i+1], Args: args[i+2:]}
			}
		}
	}
	return c
}

// commandGoal classifies a command by what it is for.
// taskRunners run a project's named tasks ("mise run test:ci", "task
// lint"): the task's name says the goal, as a package script's does.
var taskRunners = map[string]bool{"mise": true, "task": true, "moon": true, "earthly": true, "nx": true, "turbo": true}

func commandGoal(c lang.Command) string {
	p, sub := strings.ToLower(c.Program), c.Sub()
	script := sub
	if (sub == "run" || sub == "run-script") && len(c.Positionals()) > 1 {
		script = c.Positionals()[1]
	}
	script = strings.SplitN(script, ":", 2)[0]
	switch {
	case testRunners[p], p == "invoke-pester",
		(p == "go" || p == "cargo" || p == "dotnet" || p == "mix" || p == "swift" || p == "deno" || p == "bun") && sub == "test",
		jsManagers[p] && (script == "test" || script == "t" || sub == "test"),
		(p == "make" || p == "just" || p == "mvn" || p == "gradle" || p == "./gradlew" || p == "gradlew" || p == "rake") && (sub == "test" || sub == "check"),
		taskRunners[p] && (script == "test" || sub == "test"),
		p == "python" && sub == "-m" && len(c.Args) > 1 && c.Args[1] == "pytest":
		return "test"
	case (p == "go" || p == "cargo" || p == "dotnet" || p == "swift") && sub == "build",
		jsManagers[p] && script == "build",
		p == "tsc" && !hasArgPrefix(c.Args, "--noEmit"), p == "webpack", p == "vite" && sub == "build", p == "next" && sub == "build",
		(p == "mvn" || p == "gradle" || p == "gradlew" || p == "./gradlew") && (sub == "package" || sub == "build" || sub == "compile" || sub == "install"),
		p == "cmake" && hasArgPrefix(c.Args, "--build"), p == "ninja", p == "msbuild":
		return "build"
	case jsManagers[p] && (sub == "install" || sub == "i" || sub == "ci" || sub == "add"),
		(p == "pip" || p == "pip3" || p == "pipx" || p == "apt" || p == "apt-get" || p == "brew" || p == "dnf" || p == "yum" || p == "apk" || p == "gem" || p == "choco" || p == "winget" || p == "install-module" || p == "install-package") && (sub == "install" || p == "install-module" || p == "install-package" || sub == "add"),
		(p == "uv" || p == "poetry" || p == "pdm") && (sub == "add" || sub == "sync" || sub == "install" || sub == "pip"),
		p == "cargo" && (sub == "add" || sub == "fetch" || sub == "install"),
		p == "go" && (sub == "get" || sub == "mod" || sub == "install"),
		(p == "bundle" || p == "composer") && sub == "install":
		return "install"
	case taskRunners[p] && (script == "build" || sub == "build"):
		return "build"
	case lintTools[p], p == "go" && sub == "vet", p == "cargo" && sub == "clippy", jsManagers[p] && script == "lint", taskRunners[p] && (script == "lint" || sub == "lint"):
		return "lint"
	case p == "mypy" || p == "pyright" || p == "tsc" || jsManagers[p] && (script == "typecheck" || script == "type-check" || script == "tsc"), p == "cargo" && sub == "check":
		return "typecheck"
	case p == "prettier" || p == "black" || p == "gofmt" || p == "goimports" || p == "cargo" && sub == "fmt" || jsManagers[p] && script == "format":
		return "format"
	case sub == "migrate" || strings.Contains(sub, "db:migrate") || p == "alembic" && sub == "upgrade" || p == "prisma" && sub == "migrate" || p == "flyway" && sub == "migrate":
		return "migrate"
	}
	return ""
}

// goalWords spells a goal for a cue.
func goalWords(goal string) string {
	switch goal {
	case "test":
		return "running the tests"
	case "install":
		return "installing the dependencies"
	case "typecheck":
		return "type-checking"
	}
	return goal
}

var (
	testRunners = lang.WordSet("pytest", "py.test", "jest", "vitest", "mocha", "ava", "tap", "rspec", "phpunit", "tox", "nox",
		"ctest", "gotestsum", "playwright", "cypress", "karma", "nosetests", "unittest", "bats")
	jsManagers = lang.WordSet("npm", "pnpm", "yarn", "bun")
	lintTools  = lang.WordSet("eslint", "ruff", "flake8", "pylint", "golangci-lint", "staticcheck", "rubocop", "shellcheck",
		"stylelint", "biome", "oxlint", "hadolint", "markdownlint", "clippy-driver")
)
