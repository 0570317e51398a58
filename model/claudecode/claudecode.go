// Package claudecode imports Claude Code session files: the JSONL that Claude
// Code appends under ~/.claude/projects/<project>/<session>.jsonl (and its
// sub-agents' files), or a whole project directory.
//
// A compaction is the compact_boundary system line and the isCompactSummary
// user line written right after it; the history it summarised stays in the
// same file, before the boundary. The file is a tree (uuid/parentUuid): a
// rewind leaves the abandoned branch in the file. The source of each
// compaction is rebuilt by walking from the boundary's logicalParentUuid back
// through parentUuid, pulling back the sibling lines of parallel tool calls
// (one API response written as several lines sharing message.id) and their
// results. Conversation lines before the boundary that are not on that path
// become raw events with a reason, so that the source of compaction k — every
// non-compaction event before it — is what the compactor read. When the
// logical parent is missing (it happens in real files), the source falls back
// to file order.
//
// See shared/research/formats.md §1 for the format and the evidence.
package claudecode

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Name is the format's name for --from.
const Name = "claude-code"

func init() {
	registry.Register(registry.Format{
		Name:        Name,
		Description: "Claude Code session JSONL (~/.claude/projects/<project>/<session>.jsonl, or the project directory)",
		Detect:      Detect,
		Open:        Open,
		Read:        Read,
		Scan:        Scan,
		List:        List,
		Homes:       Homes,
		Group:       true,
	})
}

// Detect reports whether head is the start of a Claude Code session file, or
// dir a directory holding such files.
func Detect(path string, head []byte, dir bool) bool {
	if dir {
		return detectDir(path)
	}
	return DetectHead(head)
}

func detectDir(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	checked := 0
	for _, e := range ents {
		if !e.Type().IsRegular() || !isSessionName(e.Name()) {
			continue
		}
		head, err := kit.Sniff(filepath.Join(dir, e.Name()), 64<<10)
		if err == nil && DetectHead(head) {
			return true
		}
		if checked++; checked >= 3 {
			break
		}
	}
	return false
}

// isSessionName accepts the names Claude Code gives session files (plain or
// compressed by the user).
func isSessionName(name string) bool {
	for _, ext := range []string{".jsonl", ".jsonl.zst", ".jsonl.gz"} {
		if strings.HasSuffix(name, ext) {
			return !strings.HasPrefix(name, ".")
		}
	}
	return false
}

// Open imports a session file, or a project directory (its newest session
// together with the sessions it continues). Files whose lines continue a
// session from another file of the same directory (a resume that forked at
// compaction) are loaded with it, de-duplicating lines copied across files by
// uuid.
func Open(path string, opt model.ReadOptions) (*model.Transcript, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	name := opt.Name
	if name == "" {
		name = path
	}
	var files []string
	var notes []string
	if st.IsDir() {
		files, notes, err = pickDirRun(path)
		if err != nil {
			return nil, err
		}
	} else {
		files = []string{path}
	}
	imp := newImporter(name, opt)
	if err := imp.index(files); err != nil {
		return nil, err
	}
	if !st.IsDir() && imp.missingLogicalParents() {
		// A resume that starts a new file at compaction points into the
		// previous file: load it too when it is beside this one.
		if more := findPredecessors(path, imp); len(more) > 0 {
			imp = newImporter(name, opt)
			if err := imp.index(append(more, path)); err != nil {
				return nil, err
			}
			notes = append(notes, "the source of a compaction is in "+strings.Join(baseNames(more), ", ")+": loaded with this session")
		}
	}
	t, err := imp.emit()
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		t.Problems = append(t.Problems, &model.Problem{Severity: model.Warning, File: name, Msg: n})
	}
	return t, nil
}

// Read imports a session from a stream of its decompressed content (a
// pipe): through a temporary copy, since the importer reads its file twice
// (an index of the tree, then the events).
func Read(r io.Reader, opt model.ReadOptions) (*model.Transcript, error) {
	return kit.ReadByCopy(r, opt, Open)
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// Homes returns the directory Claude Code keeps its projects in:
// $CLAUDE_CONFIG_DIR/projects, or ~/.claude/projects.
func Homes() []string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return []string{filepath.Join(d, "projects")}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(home, ".claude", "projects")}
}
