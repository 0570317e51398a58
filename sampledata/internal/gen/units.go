package gen

import (
	"fmt"
	"strings"
	"time"
)

// change sets block of path to text (in generator form: four-space indents,
// ‵ for backquotes). A new block goes after the block named after.
type change struct {
	path, block, after, text string
}

// bug is a mistake in a step's code that a command reveals. The agent reads
// the failure, explains it, applies fix, and runs the same command again.
type bug struct {
	cmd   string
	out   func(e *emitter) string
	diag  string
	fix   []change
	fixed string // how it was fixed, for the summaries
	// confirm makes the agent commit to re-running the tests, and claim it
	// once they pass (a commitment that opens and closes within the step).
	confirm bool
	// pause runs after the failure is explained and before the fix: the
	// story uses it to compact while the error is open.
	pause func()
	// run, when set, is the fix instead of fix: a command (git mv...).
	run  func(e *emitter)
	done bool
}

// step is one piece of work: read, change code, check, test, fix.
type step struct {
	intro  string
	reads  []string
	greps  [][2]string // pattern, dir
	code   []change
	checks []string // commands after the code changes (default: go build ./...)
	tests  []change
	test   string // the go test command after the test changes
	bugs   []*bug
	outro  string
	fact   string
	major  bool
	// outputs gives the success output of commands the engine cannot derive.
	outputs map[string]func(e *emitter) string
}

// runStep plays a step.
func (e *emitter) runStep(s *step) {
	if s.intro != "" {
		e.say(s.intro)
	}
	for _, p := range s.reads {
		e.read(p)
	}
	for _, g := range s.greps {
		e.grep(g[0], g[1])
	}
	e.apply(s.code)
	checks := s.checks
	if checks == nil {
		checks = []string{"go build ./..."}
	}
	for _, cmd := range checks {
		e.check(cmd, s)
	}
	e.apply(s.tests)
	if s.test != "" {
		e.check(s.test, s)
	}
	for _, b := range s.bugs {
		if !b.done {
			panic(fmt.Sprintf("%s: bug on %q never showed", e.name, b.cmd))
		}
	}
	if s.outro != "" {
		e.say(s.outro)
	}
	if s.fact != "" {
		e.fact(s.fact, s.major)
	}
}

// check runs cmd; while a bug of the step shows on it, it fails, and the
// agent fixes it and runs cmd again.
func (e *emitter) check(cmd string, s *step) {
	for _, b := range s.bugs {
		if b.cmd != cmd || b.done {
			continue
		}
		out := b.out(e)
		e.bash(cmd, out, true, e.cmdTime(cmd))
		e.say(b.diag)
		if b.pause != nil {
			b.pause()
		}
		if b.run != nil {
			b.run(e)
		} else {
			fp := b.fix[0].path
			if blk := e.w.file(fp).block(b.fix[0].block); blk != nil {
				e.readAround(fp, firstLine(blk.text))
			} else {
				e.read(fp)
			}
			e.apply(b.fix)
		}
		b.done = true
		var promise *item
		if b.confirm {
			what := testSubject(cmd)
			promise = e.promise("I'll run the "+what+" tests again to confirm.",
				&item{text: "I'll run the " + what + " tests again to confirm.", object: "go test",
					restate: "Run the " + what + " tests again to confirm the fix (pending)",
					needle:  "Run the " + what + " tests again"})
		}
		e.span.fixed = append(e.span.fixed, fixRec{lines: errorLines(out), fix: b.fixed})
		e.action("`%s` failed (%s); %s", cmd, errorLines(out)[len(errorLines(out))-1], b.fixed)
		e.check(cmd, s)
		if promise != nil {
			e.claim(promise, "Ran the "+testSubject(cmd)+" tests again: all pass.")
		}
		return
	}
	e.bash(cmd, e.okOutput(cmd, s), false, e.cmdTime(cmd))
	e.action("`%s` passes", cmd)
}

// testSubject names the package a go test command runs ("orders", "api").
func testSubject(cmd string) string {
	for _, f := range strings.Fields(cmd) {
		if strings.HasPrefix(f, "./internal/") {
			p := strings.TrimPrefix(f, "./internal/")
			p, _, _ = strings.Cut(p, "/")
			return p
		}
	}
	return "full"
}

// okOutput is the output of cmd when it succeeds.
func (e *emitter) okOutput(cmd string, s *step) string {
	if s != nil {
		if out, ok := s.outputs[cmd]; ok {
			return out(e)
		}
	}
	switch {
	case cmd == "go build ./..." || cmd == "go vet ./..." || strings.HasPrefix(cmd, "git add"):
		return ""
	case cmd == "go test ./..." || cmd == "go test -race ./...":
		return e.suite()
	case strings.HasPrefix(cmd, "go test "):
		pkg, names := parseTest(cmd)
		if len(names) == 0 {
			return fmt.Sprintf("ok  \t%s/%s\t%.3fs\n", Module, pkg, 0.5+float64(e.rng.IntN(9000))/1000)
		}
		return e.testOK(pkg, names...)
	}
	panic("no output known for " + cmd)
}

// parseTest returns the package of a go test command and the test names of
// its -run pattern.
func parseTest(cmd string) (string, []string) {
	var pkg string
	var names []string
	fs := strings.Fields(cmd)
	for i, f := range fs {
		switch {
		case strings.HasPrefix(f, "./"):
			pkg = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(f, "./"), "..."), "/")
		case f == "-run" && i+1 < len(fs):
			pat := strings.Trim(fs[i+1], "'^$")
			for _, n := range strings.Split(pat, "|") {
				if strings.HasPrefix(n, "Test") {
					names = append(names, strings.Trim(n, "$^"))
				}
			}
		}
	}
	return pkg, names
}

func (e *emitter) cmdTime(cmd string) time.Duration {
	switch {
	case strings.Contains(cmd, "Integration"):
		return time.Duration(90+e.rng.IntN(120)) * time.Second
	case strings.HasPrefix(cmd, "go test"):
		return time.Duration(4+e.rng.IntN(20)) * time.Second
	case strings.HasPrefix(cmd, "go "), strings.HasPrefix(cmd, "make"):
		return time.Duration(2+e.rng.IntN(8)) * time.Second
	}
	return time.Duration(1+e.rng.IntN(3)) * time.Second
}

// commitWork commits every dirty file with msg, running go vet first when
// the user asked for it (and often anyway).
func (e *emitter) commitWork(msg string) string {
	mod, untracked := e.w.dirty()
	files := append(append([]*file{}, mod...), untracked...)
	if len(files) == 0 {
		return ""
	}
	if e.rng.IntN(3) > 0 {
		e.gitStatus()
	}
	switch r := e.rng.IntN(4); {
	case len(mod) == 0:
	case r == 0:
		stat, _, _ := e.diffStat(mod)
		e.bash("git diff --stat", stat, false, time.Second)
	case r == 1 && len(e.diff(mod)) < 6000:
		e.bash("git diff", e.diff(mod), false, time.Second)
	}
	if e.vet || e.rng.IntN(2) == 0 {
		e.bash("go vet ./...", "", false, e.cmdTime("go vet ./..."))
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	e.bash("git add "+strings.Join(paths, " "), "", false, time.Second)
	_, ins, del := e.diffStat(files)
	sha := e.newSHA()
	var b strings.Builder
	fmt.Fprintf(&b, "[%s %s] %s\n %s, %d insertions(+), %d deletions(-)\n", e.w.branch, sha, msg, filesChanged(len(files)), ins, del)
	for _, f := range untracked {
		fmt.Fprintf(&b, " create mode 100644 %s\n", f.path)
	}
	e.bash("git commit -m "+shellQuote(msg), b.String(), false, time.Second)
	for _, f := range files {
		f.dirty, f.tracked, f.added, f.deleted, f.edits = false, true, 0, 0, nil
	}
	e.w.commits = append(e.w.commits, commit{sha, sha + e.hex(33), msg})
	e.action("committed %s %q (%d files)", sha, msg, len(files))
	return sha
}

// push pushes the branch (never main).
func (e *emitter) push() {
	last := e.w.commits[len(e.w.commits)-1].sha
	var out string
	if e.pushed == "" {
		out = fmt.Sprintf("remote: \nremote: Create a pull request for '%[1]s' on GitHub by visiting:\nremote:      https://github.com/acme/orders/pull/new/%[1]s\nremote: \nTo github.com:acme/orders.git\n * [new branch]      %[1]s -> %[1]s\nbranch '%[1]s' set up to track 'origin/%[1]s'.\n", e.w.branch)
		e.bash("git push -u origin "+e.w.branch, out, false, 3*time.Second)
	} else {
		out = fmt.Sprintf("To github.com:acme/orders.git\n   %s..%s  %s -> %s\n", e.pushed, last, e.w.branch, e.w.branch)
		e.bash("git push origin "+e.w.branch, out, false, 3*time.Second)
	}
	e.pushed = last
	e.action("pushed %s to origin (at %s)", e.w.branch, last)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
