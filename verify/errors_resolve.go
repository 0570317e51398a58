package verify

// What resolves a failed call: a later successful run of the same command
// or a variant of it, a fix then a rerun, an edit redone, the git step
// ended, the program installed, the same work done another way.

import (
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// resolvedBy says why a successful call resolves the failure, or "".
func (f *failure) resolvedBy(ok *callInfo) string {
	switch {
	case f.command != "" && ok.command != "":
		// Every command of a successful line succeeded.
		for _, c := range ok.cmds {
			if withoutWrapper(f.key, c) {
				// "rtk bun run test" refused ("unrecognized subcommand
				// 'bun'"), then "bun run test" passed.
				return "the same command ran without " + f.key.Program + ": " + model.Clip(ok.command, 120) + " succeeded"
			}
			if why := commandResolves(c, f.key, f.usage, f.notFound); why != "" {
				return why + ": " + model.Clip(ok.command, 120) + " succeeded"
			}
			if c.Program == f.key.Program && c.Sub() == f.key.Sub() && f.subjectsIn(ok.command) {
				// "go test ./..." failed in TestX; "go test ./x -run TestX"
				// passes: what failed now passes.
				return "re-ran what failed (" + strings.Join(f.subjs, ", ") + "): " + model.Clip(ok.command, 120) + " succeeded"
			}
		}
		if f.missingProgram && ok.category == toolExec {
			// "command not found": the agent switched to another tool.
			return "worked around (the failed program is not installed): " + model.Clip(ok.command, 120) + " succeeded"
		}
	case f.command == "" && ok.command != "" && workaround(f.verbs, ok):
		// A failed skill or sub-agent ("commit") done by hand instead.
		return "worked around: " + model.Clip(ok.command, 120) + " succeeded"
	case f.category == toolEdit && ok.category == toolEdit && f.path != "" && samePath(f.path, ok.path):
		// "String to replace not found", "File has not been read yet": the
		// edit was redone, perhaps with another tool.
		return "the file was edited successfully (" + model.Clip(ok.path, 120) + ")"
	case f.command == "" && ok.command == "" && f.tool == ok.name && f.tool != "" && sameIntent(f.about, ok.intentText()):
		return "the same " + f.tool + " succeeded"
	}
	return ""
}

// commandResolves says why a successful shell command resolves a failed one,
// or "": the same program and subcommand over the same or a wider set of
// targets, the same targets with other flags, a corrected path after "no
// such file", or, for git, the step that ends a conflicted merge or rebase.
// usage and notFound say whether the failed line was a usage error or a
// missing target (usageError, notFound).
func commandResolves(ok, failed lang.Command, usage, notFound bool) string {
	if ok.Program == "" || ok.Program != failed.Program {
		return ""
	}
	if ok.Program == "git" {
		if why := gitResolves(ok, failed); why != "" {
			return why
		}
	}
	if usage {
		return "the same program ran with a corrected call"
	}
	okPos, failPos := ok.Positionals(), failed.Positionals()
	if len(okPos) > 0 && len(failPos) > 0 && !sameArg(okPos[0], failPos[0]) {
		return "" // another subcommand: "go vet" does not re-run "go test"
	}
	if len(okPos) == 0 && len(failPos) > 0 || len(failPos) == 0 && len(okPos) > 0 {
		return ""
	}
	switch {
	case slices.EqualFunc(okPos, failPos, sameArg):
		// Paths may be spelt from another root: a container mounts the
		// work tree at /w, a cd changes the relative path.
		return "the same command ran again"
	case coversTargets(ok.Args, okPos, failPos):
		return "re-ran over the same or a wider set of targets"
	case notFound:
		return "re-ran with a corrected target"
	}
	return ""
}

// usageError reports whether an error line says the program was called the
// wrong way (an unknown flag, a missing argument): a later successful run
// of the same program is the corrected call.
func usageError(line string) bool {
	l := strings.ToLower(line)
	for _, w := range []string{"usage:", "unknown flag", "unknown option", "unrecognized", "invalid option", "invalid argument",
		"must be provided", "is required", "required flag", "missing argument", "missing required", "too many arguments",
		"no such option", "unexpected keyword argument", "takes no arguments", "unexpected argument", "unknown subcommand",
		"unknown command", "invalid choice", "not a valid"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// navigationSlip reports whether a failed shell line failed at its cd
// ("(eval):cd:1: no such file or directory: session", "bash: cd: web: No
// such file or directory"): the work after it never ran, and the agent's
// next line, from the right directory, is the correction, not a fix.
func navigationSlip(head string) bool {
	line := strings.ToLower(lang.FirstErrorLine(head))
	return strings.Contains(line, "cd:") && (strings.Contains(line, "no such file or directory") || strings.Contains(line, "can't cd to") ||
		strings.Contains(line, "not a directory"))
}

// settled reports whether a failed result only says the desired state is
// already there: a pull request that exists, nothing to commit.
func settled(text string) bool {
	l := strings.ToLower(text)
	for _, w := range []string{"already exists", "nothing to commit", "nothing added to commit", "already up to date",
		"already up-to-date", "no changes added to commit", "already on '", "everything up-to-date"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// coversTargets reports whether positionals okPos cover failPos (their
// first word, the subcommand, is the same): no narrowing filter, and the
// whole suite, a wildcard, or every failed target.
func coversTargets(okArgs, okPos, failPos []string) bool {
	for _, f := range okArgs {
		switch f {
		case "-run", "-k", "--grep", "-t", "--testNamePattern", "-g", "--filter", "-m", "--only":
			return false
		}
	}
	args := okPos[1:]
	if len(args) == 0 {
		return true // the whole suite ("npm test" after "npm test -- checkout.test.js")
	}
	for _, x := range args {
		if x == "./..." || x == "..." || x == "." || x == "all" || x == "--all" {
			return true
		}
	}
	for _, x := range failPos[1:] {
		if !slices.ContainsFunc(args, func(a string) bool { return sameArg(a, x) }) {
			return false
		}
	}
	return true
}

// sameArg reports whether two arguments name the same thing: equal, one
// package script in two modes ("lint:fix", "lint"), or two paths to one
// file.
func sameArg(a, b string) bool {
	return a == b || strings.Contains(a, "/") && strings.Contains(b, "/") && samePath(a, b) ||
		!strings.Contains(a, "/") && (strings.Contains(a, ":") || strings.Contains(b, ":")) && lang.ScriptTask(a) == lang.ScriptTask(b)
}

// gitResolves: a conflicted merge, rebase, cherry-pick or pull is over once
// it is committed, continued, skipped or aborted; a rejected push once a
// push succeeds.
func gitResolves(ok, failed lang.Command) string {
	fs, os := failed.Sub(), ok.Sub()
	switch fs {
	case "merge", "rebase", "cherry-pick", "pull", "revert", "am", "stash":
		switch {
		case os == "commit":
			return "the conflicted " + fs + " was committed"
		case os == fs || os == "merge" || os == "rebase":
			for _, a := range ok.Args {
				if a == "--continue" || a == "--abort" || a == "--skip" || a == "--quit" {
					return "the " + fs + " was ended (" + a + ")"
				}
			}
		case os == "reset":
			return "the " + fs + " was reset"
		}
	case "push":
		if os == "push" {
			return "a later push succeeded"
		}
	}
	return ""
}

// notFound reports whether an error line says its target does not exist.
func notFound(line string) bool {
	l := strings.ToLower(line)
	for _, w := range []string{"no such file", "not found", "does not exist", "doesn't exist", "cannot find", "can't find",
		"could not find", "enoent", "no module named", "no tests ran", "unknown file", "no matches for", "did not match any",
		"pathspec", "is outside repository", "beyond a symbolic link"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// missingProgram reports whether a failure says the program itself is not
// there: the agent will use another one.
func missingProgram(line string) bool {
	l := strings.ToLower(line)
	for _, w := range []string{"command not found", "is not recognized as an internal or external command",
		"executable file not found", "no such file or directory: '", "not installed", "unknown command"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// subjects are the tests and files a failure names: what has to pass.
func (f *failure) subjects() []string {
	var out []string
	for _, t := range f.errTokens {
		if strings.ContainsAny(t, "/.") && lang.HasKnownExt(t) || strings.HasPrefix(t, "Test") || strings.HasPrefix(t, "test_") {
			out = append(out, t)
		}
	}
	return out
}

// subjectsIn reports whether a command names every test and file the
// failure named (and names at least one).
func (f *failure) subjectsIn(command string) bool {
	if len(f.subjs) == 0 {
		return false
	}
	for i, s := range f.subjs {
		if !strings.Contains(command, s) && !strings.Contains(command, f.subjLast[i]) {
			return false
		}
	}
	return true
}

// samePath reports whether two paths name the same file: equal, or one is a
// whole-segment suffix of the other (an absolute path and a relative one).
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	sa, sb := lang.PathSegments(a), lang.PathSegments(b)
	return lang.SuffixOf(sa, sb) || lang.SuffixOf(sb, sa)
}

// sameIntent reports whether two non-shell calls of one tool are the same
// work: most of the failed call's words are in the later one ("Run fast CI",
// then "Re-run fast CI to confirm it passes").
func sameIntent(failed, ok string) bool {
	ft := lang.WordTerms(failed)
	if len(ft) == 0 {
		return false
	}
	have := map[string]bool{}
	for _, t := range lang.WordTerms(ok) {
		have[t] = true
		if base, isRe := lang.ReVerbs[t]; isRe {
			have[lang.TermOf(base)] = true
		}
	}
	n := 0
	for _, t := range ft {
		if have[t] {
			n++
		}
	}
	return n*3 >= len(ft)*2 && n >= 2
}

// stopGone reports whether a failed call was one that stops something (a
// background task, a process, a container) that was already gone: "No task
// found with ID", "no such process". What the call was for holds; a task
// that finished before it was stopped is the common case.
func stopGone(r *model.ToolResult, info *callInfo) bool {
	if !stops(info) {
		return false
	}
	line := strings.ToLower(lang.FirstErrorLine(r.Text.Head()))
	for _, w := range []string{"not found", "no such", "no task", "not running", "already", "does not exist", "doesn't exist", "no process", "no matching"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// stops reports whether a call only stops or kills something running.
func stops(info *callInfo) bool {
	if info.command == "" {
		n := strings.ToLower(info.name)
		return strings.Contains(n, "stop") || strings.Contains(n, "kill") || strings.Contains(n, "cancel")
	}
	if len(info.cmds) == 0 {
		return false
	}
	for _, c := range info.cmds {
		switch c.Program {
		case "kill", "pkill", "killall":
		case "docker", "podman":
			if s := c.Sub(); s != "stop" && s != "kill" && s != "rm" {
				return false
			}
		case "echo", "true", "sleep":
		default:
			return false
		}
	}
	return true
}

// withoutWrapper reports whether ok is the failed command with its first
// word, a wrapper, taken off: its program and arguments are the failed
// one's arguments (redirects aside).
func withoutWrapper(failed, ok lang.Command) bool {
	if ok.Program == "" || failed.Program == ok.Program {
		return false
	}
	args := lang.PlainArgs(failed.Args)
	want := append([]string{ok.Program}, lang.PlainArgs(ok.Args)...)
	return len(args) == len(want) && slices.Equal(args, want)
}
