package gen

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// world is the fake repository the agent works on: the orders service. Files
// are lists of named blocks (a function, a type, a table) so that edits are
// small patches and reads show the code as it is at that point of the run.
type world struct {
	module string
	branch string
	files  []*file
	// commits made on the branch, newest last.
	commits []commit
}

type commit struct{ sha, full, msg string }

type file struct {
	path   string
	blocks []*block
	gen    bool // generated: the user forbids editing it
	tracked,
	dirty bool
	added, deleted int    // lines changed since the last commit
	edits          []edit // since the last commit, for git diff
}

type block struct{ name, text string }

func (f *file) content() string {
	parts := make([]string, len(f.blocks))
	for i, b := range f.blocks {
		parts[i] = b.text
	}
	return strings.Join(parts, "\n\n") + "\n"
}

func (f *file) block(name string) *block {
	for _, b := range f.blocks {
		if b.name == name {
			return b
		}
	}
	return nil
}

func (w *world) file(p string) *file {
	for _, f := range w.files {
		if f.path == p {
			return f
		}
	}
	return nil
}

// addFile adds a committed file made of blocks given as name, text pairs.
func (w *world) addFile(p string, nameText ...string) *file {
	f := &file{path: p, tracked: true}
	for i := 0; i < len(nameText); i += 2 {
		f.blocks = append(f.blocks, &block{nameText[i], srcFor(p, nameText[i+1])})
	}
	w.files = append(w.files, f)
	return f
}

// srcFor is src for Go files and Makefiles; other files keep their spaces.
func srcFor(p, s string) string {
	if strings.HasSuffix(p, ".go") || path.Base(p) == "Makefile" || path.Base(p) == "go.mod" {
		return src(s)
	}
	return strings.ReplaceAll(strings.Trim(s, "\n"), "‵", "`")
}

// src turns the generator's way of writing code into the code: leading groups
// of four spaces become tabs, and ‵ becomes a backquote (raw strings cannot
// hold one).
func src(s string) string {
	s = strings.Trim(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		n := 0
		for strings.HasPrefix(l[n*4:], "    ") {
			n++
		}
		lines[i] = strings.Repeat("\t", n) + l[n*4:]
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), "‵", "`")
}

// edit is what a tool call changes: an exact replacement in path, or a new
// file when old is empty and created is set.
type edit struct {
	path     string
	old, new string
	created  bool
}

// set gives block name of path the text (already in source form). A missing
// block goes after the block named after ("" appends). A missing file is
// created. It returns the smallest unique replacement that makes the change.
func (w *world) set(p, name, text, after string) edit {
	f := w.file(p)
	if f == nil {
		f = &file{path: p}
		f.blocks = []*block{{name, text}}
		f.dirty = true
		f.added = strings.Count(text, "\n") + 1
		w.files = append(w.files, f)
		return edit{path: p, new: f.content(), created: true}
	}
	before := f.content()
	var old, repl string
	var at int // offset of old in before
	if i := f.index(name); i >= 0 {
		b := f.blocks[i]
		var skip int
		old, repl, skip = hunk(b.text, text)
		at = f.offset(i) + skip
		f.deleted += strings.Count(old, "\n") + 1
		f.added += strings.Count(repl, "\n") + 1
		b.text = text
	} else {
		i := len(f.blocks) - 1
		if j := f.index(after); j >= 0 {
			i = j
		}
		prev := f.blocks[i].text
		lines := strings.Split(prev, "\n")
		old = strings.Join(lines[max(0, len(lines)-2):], "\n")
		repl = old + "\n\n" + text
		at = f.offset(i) + len(prev) - len(old)
		f.blocks = slices.Insert(f.blocks, i+1, &block{name, text})
		f.added += strings.Count(text, "\n") + 2
	}
	old, repl = unique(before, at, old, repl)
	f.dirty = true
	ed := edit{path: p, old: old, new: repl}
	f.edits = append(f.edits, ed)
	return ed
}

func (f *file) index(name string) int {
	for i, b := range f.blocks {
		if b.name == name {
			return i
		}
	}
	return -1
}

// offset returns the byte offset of block i in the file's content.
func (f *file) offset(i int) int {
	n := 0
	for _, b := range f.blocks[:i] {
		n += len(b.text) + 2
	}
	return n
}

// hunk returns the lines of a that differ from b, with one line of context
// on each side when there is one, their replacement, and the byte offset in a
// where the old lines start.
func hunk(a, b string) (string, string, int) {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	lo := max(0, pre-1)
	ahi, bhi := min(len(al), len(al)-suf+1), min(len(bl), len(bl)-suf+1)
	skip := 0
	for _, l := range al[:lo] {
		skip += len(l) + 1
	}
	return strings.Join(al[lo:ahi], "\n"), strings.Join(bl[lo:bhi], "\n"), skip
}

// unique widens old (and repl alike) by the whole lines of content around
// offset at until old occurs once in content.
func unique(content string, at int, old, repl string) (string, string) {
	if content[at:at+len(old)] != old {
		panic("unique: old is not at its offset")
	}
	for strings.Count(content, old) > 1 {
		if at > 0 {
			ls := strings.LastIndex(content[:at-1], "\n") + 1
			old, repl = content[ls:at]+old, content[ls:at]+repl
			at = ls
			continue
		}
		end := at + len(old)
		le := strings.Index(content[end+1:], "\n")
		if le < 0 {
			break
		}
		old, repl = old+content[end:end+1+le], repl+content[end:end+1+le]
	}
	return old, repl
}

// numbered renders lines [from, from+n) of path as `cat -n` does (1-based;
// n <= 0 means to the end).
func (w *world) numbered(p string, from, n int) string {
	lines := strings.Split(strings.TrimSuffix(w.file(p).content(), "\n"), "\n")
	from = max(1, from)
	to := len(lines)
	if n > 0 {
		to = min(len(lines), from+n-1)
	}
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i, lines[i-1])
	}
	return b.String()
}

// lines returns how many lines path has.
func (w *world) lines(p string) int {
	return strings.Count(w.file(p).content(), "\n")
}

// lineOf returns the 1-based line and column of the first occurrence of
// marker in path (columns count bytes with a tab as 1, as the Go compiler
// does).
func (w *world) lineOf(p, marker string) (int, int) {
	for i, l := range strings.Split(w.file(p).content(), "\n") {
		if c := strings.Index(l, marker); c >= 0 {
			return i + 1, c + 1
		}
	}
	panic(fmt.Sprintf("lineOf: %q not in %s", marker, p))
}

// lineAt returns the 1-based line where text starts in path.
func (w *world) lineAt(p, text string) int {
	c := w.file(p).content()
	i := strings.Index(c, text)
	if i < 0 {
		panic(fmt.Sprintf("lineAt: text not in %s", p))
	}
	return strings.Count(c[:i], "\n") + 1
}

// grep returns the lines of files under dir that contain pattern, as
// `grep -rn` prints them, at most limit of them.
func (w *world) grep(pattern, dir string, limit int) (string, int) {
	var b strings.Builder
	n := 0
	for _, f := range w.sorted() {
		if dir != "." && !strings.HasPrefix(f.path, strings.TrimSuffix(dir, "/")+"/") {
			continue
		}
		for i, l := range strings.Split(f.content(), "\n") {
			if strings.Contains(l, pattern) {
				n++
				if n <= limit {
					fmt.Fprintf(&b, "%s:%d:%s\n", f.path, i+1, l)
				}
			}
		}
	}
	if n > limit {
		fmt.Fprintf(&b, "... %d more matches\n", n-limit)
	}
	if n == 0 {
		return "No matches found", 0
	}
	return b.String(), n
}

func (w *world) sorted() []*file {
	fs := slices.Clone(w.files)
	slices.SortFunc(fs, func(a, b *file) int { return strings.Compare(a.path, b.path) })
	return fs
}

// packages returns the Go packages of the module, sorted, and whether each
// has tests.
func (w *world) packages() ([]string, map[string]bool) {
	tests := map[string]bool{}
	var pkgs []string
	for _, f := range w.sorted() {
		if !strings.HasSuffix(f.path, ".go") {
			continue
		}
		dir := path.Dir(f.path)
		if _, seen := tests[dir]; !seen {
			pkgs = append(pkgs, dir)
			tests[dir] = false
		}
		if strings.HasSuffix(f.path, "_test.go") {
			tests[dir] = true
		}
	}
	slices.Sort(pkgs)
	return pkgs, tests
}

// dirty returns the changed files, sorted, split into tracked and new.
func (w *world) dirty() (modified, untracked []*file) {
	for _, f := range w.sorted() {
		switch {
		case f.dirty && f.tracked:
			modified = append(modified, f)
		case f.dirty:
			untracked = append(untracked, f)
		}
	}
	return modified, untracked
}

// rename moves a file (git mv).
func (w *world) rename(from, to string) {
	f := w.file(from)
	f.path, f.dirty = to, true
}
