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

// maxDepth bounds how deep Sessions looks for sessions below the directory
// it is given (Codex nests them sessions/YYYY/MM/DD).
const maxDepth = 8

// Sessions lists the sessions a directory holds, in every format loupe reads,
// newest first (by start time; sessions with no known start last): for a
// picker. A directory an importer reads as a whole (a Claude Code project,
// an OpenHands conversation, an opencode storage) is listed by that
// importer, session by session; other directories are searched. Turns are
// an estimate for the formats that list without importing (Claude Code,
// Codex). The error reports what could not be read; the list holds every
// session that could.
func Sessions(dir string) ([]SessionInfo, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	var out []SessionInfo
	var errs []error
	walkSessions(dir, 0, &out, &errs)
	sortSessions(out)
	return out, errors.Join(errs...)
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

func walkSessions(dir string, depth int, out *[]SessionInfo, errs *[]error) {
	for _, f := range All()[1:] {
		if f.Detect(dir, nil, true) {
			infos, err := scan(f, dir)
			*out = append(*out, infos...)
			if err != nil {
				*errs = append(*errs, err)
			}
			return
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		*errs = append(*errs, err)
		return
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || name == "node_modules" {
			continue
		}
		p := filepath.Join(dir, name)
		if e.IsDir() {
			if depth < maxDepth {
				walkSessions(p, depth+1, out, errs)
			}
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		f, ok := detectFile(p)
		if !ok {
			continue
		}
		infos, err := scan(f, p)
		*out = append(*out, infos...)
		if err != nil {
			*errs = append(*errs, err)
		}
	}
}

// detectFile finds the format of a file met while listing: an importer's,
// or loupe's own when the file really says so (a meta line or a loupe event
// type; an empty file is not a session).
func detectFile(p string) (Format, bool) {
	head, err := sniff(p)
	if err != nil || len(bytes.TrimSpace(head)) == 0 {
		return Format{}, false
	}
	all := All()
	for _, f := range all[1:] {
		if f.Detect(p, head, false) {
			return f, true
		}
	}
	if Native.Detect(p, head, false) {
		return Native, true
	}
	return Format{}, false
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
			filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() {
					if p != home && strings.HasPrefix(d.Name(), ".") {
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
		head, err := sniff(c.path)
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
