package formats

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// maxDepth bounds how deep a listing looks for sessions below the directory
// it is given (Codex nests them sessions/YYYY/MM/DD).
const maxDepth = 8

// Skipped is a path a listing passed over, and why.
type Skipped struct {
	Path   string
	Reason string
	// Unreadable is set when the path could not be read (an I/O error, a
	// broken compressed stream, an importer's failure): a session may be
	// missing from the listing. A file in no format loupe reads, an empty
	// file or a pipe is only passed over.
	Unreadable bool
}

// Listing is what a directory holds: every session loupe found, and every
// path it passed over.
type Listing struct {
	Sessions []SessionInfo
	Skipped  []Skipped
}

// Unreadable returns the skipped paths that could not be read.
func (l *Listing) Unreadable() []Skipped {
	var out []Skipped
	for _, s := range l.Skipped {
		if s.Unreadable {
			out = append(out, s)
		}
	}
	return out
}

// List finds every session under dir, in every format loupe reads, at any
// depth up to 8 levels, sorted by path. A directory an importer reads as a
// whole (an OpenHands conversation, an opencode storage) is listed by that
// importer, session by session, and not searched further; a Claude Code
// project is listed by its importer too, and its other files are still
// looked at. Only regular files are read (a named pipe would block):
// anything else is skipped and named, as is a file in no format loupe reads
// and one that cannot be read. Hidden files and directories and
// node_modules are not looked at. Symbolic links are followed, dir itself
// included; a directory reached twice (a link back up the tree, two links
// to one place) is searched once, and named the second time.
//
// With describe unset a file's session has only its Path and Format (what
// opening it needs); set, it is described for a picker (title, start,
// turns...), which costs a read of the file.
func List(dir string, describe bool) (*Listing, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	w := &walker{describe: describe, l: &Listing{}, seen: map[string]string{}}
	w.dir(dir, 0)
	slices.SortStableFunc(w.l.Sessions, func(a, b SessionInfo) int { return cmp.Compare(a.Path, b.Path) })
	return w.l, nil
}

// Sessions lists the sessions a directory holds (see List), described and
// newest first (by start time; sessions with no known start last): for a
// picker. Turns are an estimate for the formats that list without importing
// (Claude Code, Codex). The error reports what could not be read; the list
// holds every session that could.
func Sessions(dir string) ([]SessionInfo, error) {
	l, err := List(dir, true)
	if err != nil {
		return nil, err
	}
	sortSessions(l.Sessions)
	var errs []error
	for _, s := range l.Unreadable() {
		errs = append(errs, errors.New(s.Path+": "+s.Reason))
	}
	return l.Sessions, errors.Join(errs...)
}

func sortSessions(s []SessionInfo) {
	slices.SortStableFunc(s, func(a, b SessionInfo) int {
		switch {
		case a.Start.IsZero() != b.Start.IsZero():
			if a.Start.IsZero() {
				return 1
			}
			return -1
		case !a.Start.Equal(b.Start):
			return b.Start.Compare(a.Start)
		case !a.Updated.Equal(b.Updated):
			return b.Updated.Compare(a.Updated)
		}
		return cmp.Compare(a.Path, b.Path)
	})
}

type walker struct {
	describe bool
	l        *Listing
	// seen maps the real path of every directory searched to the path it
	// was searched as: a symbolic link to a directory is followed once,
	// never round a loop and never into a directory listed already.
	seen map[string]string
}

func (w *walker) skip(path, reason string, unreadable bool) {
	w.l.Skipped = append(w.l.Skipped, Skipped{Path: path, Reason: reason, Unreadable: unreadable})
}

// scanned adds what an importer's listing of path found, and what it could
// not read.
func (w *walker) scanned(path string, infos []SessionInfo, err error) {
	w.l.Sessions = append(w.l.Sessions, infos...)
	if err == nil {
		return
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		w.skip(path, e.Error(), true)
	}
}

func (w *walker) dir(dir string, depth int) {
	real, err := realPath(dir)
	if err == nil {
		if first, ok := w.seen[real]; ok {
			w.skip(dir, "the directory "+first+" again (searched once)", false)
			return
		}
		w.seen[real] = dir
	}
	var group Format // an importer that lists this directory's files
	for _, f := range All()[1:] {
		if f.Detect(dir, nil, true) {
			list := scan
			if !w.describe && f.List != nil {
				list = func(f Format, dir string) ([]SessionInfo, error) { return f.List(dir) }
			}
			infos, err := list(f, dir)
			w.scanned(dir, infos, err)
			if !f.Group {
				return // the directory is one session store
			}
			group = f
			break
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		w.skip(dir, err.Error(), true)
		return
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		p := filepath.Join(dir, name)
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil {
				w.skip(p, "a symbolic link that cannot be followed: "+err.Error(), true)
				continue
			}
			if target, err := realPath(p); err == nil && st.IsDir() && real != "" && within(real, target) {
				// Followed, it would search the tree again from above.
				w.skip(p, "a symbolic link to a directory above it (not followed)", false)
				continue
			}
			mode = st.Mode().Type() // a link to any other directory is followed, once
		}
		switch {
		case mode.IsDir() && group.Name != "":
			// The importer's listing covers its sub-directories (a Claude
			// Code session's sub-agents).
		case mode.IsDir() && depth >= maxDepth:
			w.skip(p, fmt.Sprintf("more than %d directories deep (not searched; give it as its own PATH)", maxDepth), false)
		case mode.IsDir():
			w.dir(p, depth+1)
		case !mode.IsRegular():
			w.skip(p, model.FileKind(mode)+", not a regular file (not read)", false)
		default:
			w.file(p, group)
		}
	}
}

// realPath is path absolute, with no symbolic link in it.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// file lists the session in a regular file met while walking. In a
// directory group has listed, a file in group's format is already accounted
// for (listed, or left out on purpose).
func (w *walker) file(p string, group Format) {
	head, complete, err := sniffFile(p)
	if err != nil {
		w.skip(p, err.Error(), true)
		return
	}
	if complete && len(bytes.TrimSpace(head)) == 0 {
		w.skip(p, "empty file", false)
		return
	}
	f, err := pick(p, "", head, false)
	if err == nil && f.Owner != nil {
		if o := f.Owner(p); o != "" {
			w.skip(p, "only a resume of the session in "+filepath.Base(o)+", which is read for it", false)
			return
		}
	}
	switch {
	case err != nil:
		w.skip(p, err.Error(), false)
	case f.Name == group.Name:
	case !w.describe:
		w.l.Sessions = append(w.l.Sessions, SessionInfo{Path: p, Format: f.Name})
	default:
		infos, err := scan(f, p)
		w.scanned(p, infos, err)
	}
}

// scan lists with the format's Scan, or opens and describes.
func scan(f Format, path string) ([]SessionInfo, error) {
	if f.Scan != nil {
		return f.Scan(path)
	}
	t, err := f.Open(path, model.ReadOptions{})
	if err != nil {
		return nil, err
	}
	return []SessionInfo{Describe(t, path, f.Name)}, nil
}

// Describe makes the SessionInfo of a transcript already open.
func Describe(t *model.Transcript, path, format string) SessionInfo {
	si := SessionInfo{Path: path, Format: format, ID: t.Meta.Run, Title: t.Meta.Extra["title"], Turns: t.Turns(), Compactions: len(t.Compactions)}
	ts := func(s string) time.Time {
		tm, _ := time.Parse(time.RFC3339Nano, s)
		return tm
	}
	if t.Meta.TS != "" {
		si.Start = ts(t.Meta.TS)
	}
	for _, e := range t.Events {
		s := e.Header().TS
		if s == "" {
			continue
		}
		if si.Start.IsZero() {
			si.Start = ts(s)
		}
		si.Updated = ts(s)
	}
	if si.Title == "" {
		for _, e := range t.Events {
			if m, ok := e.(*model.Message); ok && m.Role == model.RoleUser {
				si.Title = kit.FirstLine(m.Text, 80)
				break
			}
		}
	}
	if si.Updated.IsZero() {
		if st, err := os.Stat(path); err == nil {
			si.Updated = st.ModTime()
		}
	}
	return si
}

// latestFormats are the runtimes whose default locations Latest searches,
// with a cheap test for a compaction marker in a file (confirmed by the
// importer's own listing before a file is chosen) and the names of their
// session files.
var latestFormats = []struct {
	name    string
	markers [][]byte
	file    func(rel string, name string) bool
}{
	{
		name:    "claude-code",
		markers: [][]byte{[]byte(`"compact_boundary"`), []byte(`"microcompact_boundary"`), []byte(`"isCompactSummary":true`)},
		file: func(rel, name string) bool {
			// Main sessions only: not the sub-agents' files.
			return isJSONL(name) && !strings.HasPrefix(name, "agent-") && !strings.Contains(rel, "subagents")
		},
	},
	{
		name:    "codex",
		markers: [][]byte{[]byte(`"type":"compacted"`), []byte(`"context_compacted"`)},
		file:    func(_, name string) bool { return strings.HasPrefix(name, "rollout-") && isJSONL(name) },
	},
	{
		name:    "pi",
		markers: [][]byte{[]byte(`"type":"compaction"`)},
		file:    func(_, name string) bool { return isJSONL(name) },
	},
	{
		name:    "gemini-cli",
		markers: [][]byte{[]byte(`<state_snapshot>`), []byte(`compressed from`), []byte(`Context compressed`)},
		file: func(rel, name string) bool {
			return strings.HasPrefix(name, "session-") && (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl"))
		},
	},
}

func isJSONL(name string) bool {
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.zst") || strings.HasSuffix(name, ".jsonl.gz")
}

// Latest returns the newest session (by file modification time) that has at
// least one compaction, from the runtimes' default locations:
// $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects, $CODEX_HOME/sessions or
// ~/.codex/sessions (and archived_sessions), $PI_CODING_AGENT_DIR/sessions
// or ~/.pi/agent/sessions, and ~/.gemini/tmp.
func Latest() (string, error) {
	type cand struct {
		path  string
		mtime time.Time
		f     Format
		mark  [][]byte
	}
	var cands []cand
	var searched []string
	for _, lf := range latestFormats {
		f, err := Detect("", lf.name)
		if err != nil || f.Homes == nil {
			continue
		}
		for _, home := range f.Homes() {
			if _, err := os.Stat(home); err != nil {
				continue
			}
			searched = append(searched, home)
			// WalkDir does not follow a root that is a symbolic link (a
			// ~/.claude/projects linked elsewhere) unless it ends in a
			// separator; the paths it gives are clean all the same.
			root := home + string(filepath.Separator)
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() {
					if p != root && strings.HasPrefix(d.Name(), ".") {
						return filepath.SkipDir
					}
					return nil
				}
				rel, _ := filepath.Rel(home, p)
				if !lf.file(rel, d.Name()) {
					return nil
				}
				info, err := d.Info()
				if err != nil {
					return nil
				}
				cands = append(cands, cand{p, info.ModTime(), f, lf.markers})
				return nil
			})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return b.mtime.Compare(a.mtime) })
	for _, c := range cands {
		if !kit.ContainsAny(c.path, c.mark) {
			continue
		}
		head, _, err := sniffFile(c.path)
		if err != nil || !c.f.Detect(c.path, head, false) {
			continue
		}
		infos, err := scan(c.f, c.path)
		if err == nil && len(infos) == 1 && infos[0].Compactions > 0 {
			return c.path, nil
		}
	}
	if len(searched) == 0 {
		return "", errors.New("no agent sessions found: none of ~/.claude/projects (or $CLAUDE_CONFIG_DIR), ~/.codex/sessions (or $CODEX_HOME), ~/.pi/agent/sessions (or $PI_CODING_AGENT_DIR) and ~/.gemini/tmp exists")
	}
	return "", fmt.Errorf("no session with a compaction in %s", strings.Join(searched, ", "))
}
