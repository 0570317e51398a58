package gen

import (
	"fmt"
	"path"
	"strings"
	"time"
)

// The agent's tools. Each writes a call and its result, with output derived
// from the world as it is at that moment.

// read reads a whole file, or a window of a long one.
func (e *emitter) read(p string) {
	n := e.w.lines(p)
	if n > 90 {
		from := 1 + e.rng.IntN(n-50)
		e.readAt(p, from, 60)
		return
	}
	e.tool("read_file", p, in("path", p), e.w.numbered(p, 1, 0), false, time.Second)
	e.touched(p, "READ")
}

// readAt reads lines [from, from+n) of p.
func (e *emitter) readAt(p string, from, n int) {
	from = max(1, from)
	e.tool("read_file", p, in("path", p, "offset", from, "limit", n), e.w.numbered(p, from, n), false, time.Second)
	e.touched(p, "READ")
}

// readAround reads the part of p around marker.
func (e *emitter) readAround(p, marker string) {
	line, _ := e.w.lineOf(p, marker)
	e.readAt(p, line-12, 30)
}

// grep searches the repository.
func (e *emitter) grep(pattern, dir string) int {
	out, n := e.w.grep(pattern, dir, 25)
	e.tool("grep", dir, in("pattern", pattern, "path", dir), out, false, time.Second)
	return n
}

// apply makes a batch of changes: a file that does not exist yet is written
// whole with write_file, every other change is an edit_file.
func (e *emitter) apply(cs []change) {
	done := make([]bool, len(cs))
	for i, c := range cs {
		if done[i] {
			continue
		}
		if e.w.file(c.path) != nil {
			e.change(c)
			continue
		}
		for j := i; j < len(cs); j++ {
			if cs[j].path == c.path {
				e.w.set(c.path, cs[j].block, srcFor(c.path, cs[j].text), cs[j].after)
				e.span.changed = append(e.span.changed, c.path+"#"+cs[j].block)
				done[j] = true
			}
		}
		content := e.w.file(c.path).content()
		e.tool("write_file", c.path, in("path", c.path, "content", content),
			"File created successfully at: "+c.path, false, time.Second)
		e.touched(c.path, "CREATED")
	}
}

// change applies one change to the world with write_file or edit_file.
func (e *emitter) change(c change) {
	f := e.w.file(c.path)
	if f != nil && f.gen {
		panic("the agent edits a generated file: " + c.path)
	}
	ed := e.w.set(c.path, c.block, srcFor(c.path, c.text), c.after)
	e.span.changed = append(e.span.changed, c.path+"#"+c.block)
	if ed.created {
		e.tool("write_file", c.path, in("path", c.path, "content", ed.new),
			"File created successfully at: "+c.path, false, time.Second)
		e.touched(c.path, "CREATED")
		return
	}
	line := e.w.lineAt(c.path, ed.new)
	out := fmt.Sprintf("The file %s has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n%s",
		c.path, e.w.numbered(c.path, line-2, strings.Count(ed.new, "\n")+5))
	e.tool("edit_file", c.path, in("path", c.path, "old_string", ed.old, "new_string", ed.new), out, false, time.Second)
	e.touched(c.path, "MODIFIED")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// bash runs a command with the given output.
func (e *emitter) bash(cmd, out string, isErr bool, d time.Duration) string {
	return e.tool("bash", cmd, in("command", cmd), out, isErr, d)
}

// testOK is the output of a passing `go test` of one package with -run and -v.
func (e *emitter) testOK(pkg string, names ...string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "=== RUN   %s\n--- PASS: %s (%.2fs)\n", n, n, float64(e.rng.IntN(40))/100)
	}
	fmt.Fprintf(&b, "PASS\nok  \t%s/%s\t%.3fs\n", Module, pkg, 0.2+float64(e.rng.IntN(4000))/1000)
	return b.String()
}

// testFail is the output of a failing test.
func (e *emitter) testFail(pkg, name string, lines ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- FAIL: %s (%.2fs)\n", name, float64(1+e.rng.IntN(30))/100)
	for _, l := range lines {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	fmt.Fprintf(&b, "FAIL\nFAIL\t%s/%s\t%.3fs\nFAIL\n", Module, pkg, 0.2+float64(e.rng.IntN(4000))/1000)
	return b.String()
}

// failAt is the output of test failing with msg at the line of its test
// file p that holds marker ("orders_test.go:12: msg"); the package is p's
// directory.
func failAt(p, test, marker, msg string) func(*emitter) string {
	return func(e *emitter) string {
		l, _ := e.w.lineOf(p, marker)
		return e.testFail(path.Dir(p), test, fmt.Sprintf("%s:%d: %s", path.Base(p), l, msg))
	}
}

// buildFail is the output of a failed build of pkg.
func buildFail(pkg string, lines ...string) string {
	return "# " + Module + "/" + pkg + "\n" + strings.Join(lines, "\n") + "\n"
}

// suite is the output of `go test ./...` with every package passing.
func (e *emitter) suite() string {
	pkgs, tests := e.w.packages()
	var b strings.Builder
	for _, p := range pkgs {
		if !tests[p] {
			fmt.Fprintf(&b, "?   \t%s/%s\t[no test files]\n", Module, p)
			continue
		}
		fmt.Fprintf(&b, "ok  \t%s/%s\t%.3fs\n", Module, p, 0.3+float64(e.rng.IntN(9000))/1000)
	}
	return b.String()
}

// gitStatus runs git status.
func (e *emitter) gitStatus() {
	mod, untracked := e.w.dirty()
	var b strings.Builder
	fmt.Fprintf(&b, "On branch %s\n", e.w.branch)
	if len(mod) > 0 {
		b.WriteString("Changes not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n  (use \"git restore <file>...\" to discard changes in working directory)\n")
		for _, f := range mod {
			fmt.Fprintf(&b, "\tmodified:   %s\n", f.path)
		}
	}
	if len(untracked) > 0 {
		b.WriteString("\nUntracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n")
		for _, f := range untracked {
			fmt.Fprintf(&b, "\t%s\n", f.path)
		}
	}
	if len(mod)+len(untracked) == 0 {
		b.WriteString("nothing to commit, working tree clean\n")
	} else {
		b.WriteString("\nno changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
	}
	e.bash("git status", b.String(), false, time.Second)
}

// diffStat returns git's --stat lines for the dirty files and the totals.
func (e *emitter) diffStat(files []*file) (string, int, int) {
	var b strings.Builder
	ins, del := 0, 0
	for _, f := range files {
		n := f.added + f.deleted
		fmt.Fprintf(&b, " %-40s | %3d %s%s\n", f.path, n, strings.Repeat("+", min(f.added, 40)), strings.Repeat("-", min(f.deleted, 20)))
		ins += f.added
		del += f.deleted
	}
	fmt.Fprintf(&b, " %s, %d insertions(+), %d deletions(-)\n", filesChanged(len(files)), ins, del)
	return b.String(), ins, del
}

// newSHA returns a fresh abbreviated commit hash.
func (e *emitter) newSHA() string {
	for {
		sha := fmt.Sprintf("%07x", e.rng.Uint32()&0xfffffff)
		if !e.ids["sha:"+sha] {
			e.ids["sha:"+sha] = true
			return sha
		}
	}
}

// hex returns n random hex digits.
func (e *emitter) hex(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(hexDigits[e.rng.IntN(16)])
	}
	return b.String()
}

const hexDigits = "0123456789abcdef"

// diff renders the uncommitted edits of files as git diff does.
func (e *emitter) diff(files []*file) string {
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "diff --git a/%[1]s b/%[1]s\nindex %s..%s 100644\n--- a/%[1]s\n+++ b/%[1]s\n", f.path, e.hex(7), e.hex(7))
		for _, ed := range f.edits {
			if strings.Count(f.content(), ed.new) != 1 {
				continue // changed again since
			}
			line := e.w.lineAt(f.path, ed.new)
			ol, nl := strings.Split(ed.old, "\n"), strings.Split(ed.new, "\n")
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", line, len(ol), line, len(nl))
			pre := 0
			for pre < len(ol) && pre < len(nl) && ol[pre] == nl[pre] {
				pre++
			}
			suf := 0
			for suf < len(ol)-pre && suf < len(nl)-pre && ol[len(ol)-1-suf] == nl[len(nl)-1-suf] {
				suf++
			}
			for _, l := range ol[:pre] {
				b.WriteString(" " + l + "\n")
			}
			for _, l := range ol[pre : len(ol)-suf] {
				b.WriteString("-" + l + "\n")
			}
			for _, l := range nl[pre : len(nl)-suf] {
				b.WriteString("+" + l + "\n")
			}
			for _, l := range ol[len(ol)-suf:] {
				b.WriteString(" " + l + "\n")
			}
		}
	}
	return b.String()
}

func filesChanged(n int) string {
	if n == 1 {
		return "1 file changed"
	}
	return fmt.Sprintf("%d files changed", n)
}
