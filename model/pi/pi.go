// Package pi imports the session files of pi, Mario Zechner's coding agent
// (github.com/badlogic/pi-mono, packages/coding-agent): the JSONL that pi
// appends under ~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl
// ($PI_CODING_AGENT_DIR/sessions).
//
// The first record is the session header {"type":"session","id","cwd",…};
// then entries in the order pi appended them: messages (user, assistant,
// toolResult, bashExecution, custom), compactions, branch summaries and
// settings changes. Two session formats exist:
//
//   - v1 (pi up to 0.30, no "version" in the header): entries have no ids;
//     a compaction names the first entry it kept by its position in the file
//     (firstKeptEntryIndex, the header being entry 0).
//   - v2 and v3 (pi 0.31 on): entries have an id and a parentId and form a
//     tree (pi's /tree goes back to an earlier entry and continues from
//     there); a compaction names its first kept entry by id
//     (firstKeptEntryId). The agent's context is the path from the last
//     entry to the root.
//
// A compaction replaced the context with its summary followed by the kept
// tail: the entries from the first kept one up to the compaction stay in
// context verbatim, and the summary is written from the entries before the
// cut only (and the previous summary). The kept tail becomes the
// compaction's Kept, so that the verifier counts what it holds as retained.
//
// Refs: an entry's id, or for v1 "E" and its index ("E293", the number
// firstKeptEntryIndex uses). Every event made from an entry carries its ref;
// calls and results keep pi's tool call id.
package pi

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Name is the format's name for --from.
const Name = "pi"

func init() {
	registry.Register(registry.Format{
		Name:        Name,
		Description: "pi coding agent session JSONL (~/.pi/agent/sessions/--<cwd>--/*.jsonl)",
		Detect:      Detect,
		Open:        Open,
		Read:        Read,
		Scan:        Scan,
		Homes:       Homes,
	})
}

// Detect accepts a file whose first record is a pi session header: type
// "session" with an id and a cwd.
func Detect(_ string, head []byte, dir bool) bool {
	if dir {
		return false
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	line = bytes.TrimSpace(line)
	segs := splitLine(line)
	if len(segs) == 0 || segs[0].bad {
		return false
	}
	var p fastjson.Parser
	v, err := p.ParseBytes(line[segs[0].start:segs[0].end])
	if err != nil {
		return false
	}
	return string(v.GetStringBytes("type")) == "session" && v.Get("id") != nil && v.Get("cwd") != nil
}

// Homes returns $PI_CODING_AGENT_DIR/sessions (default ~/.pi/agent/sessions).
func Homes() []string {
	dir := os.Getenv("PI_CODING_AGENT_DIR")
	if dir == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(h, ".pi", "agent")
	}
	return []string{filepath.Join(dir, "sessions")}
}

// Open imports a pi session file (plain, gzip or zstd).
func Open(path string, opt model.ReadOptions) (*model.Transcript, error) {
	t, br, err := open(path, opt, nil)
	if err != nil || br == nil {
		return t, err
	}
	// The session branches: import again, with the entries off the path
	// to the last entry kept aside.
	t, _, err = open(path, opt, br)
	return t, err
}

// Read imports a session from a stream of its decompressed content (a
// pipe): through a temporary copy, since a branched session is imported
// twice.
func Read(r io.Reader, opt model.ReadOptions) (*model.Transcript, error) {
	return kit.ReadByCopy(r, opt, Open)
}

// open imports the file once. When br is nil every entry is taken; if the
// entries then turn out to form more than one branch, it returns instead
// the path to the last entry, for a second import.
func open(path string, opt model.ReadOptions, br *branches) (*model.Transcript, *branches, error) {
	name := opt.Name
	if name == "" {
		name = path
	}
	r, z, closeFn, err := kit.OpenLazy(path, opt.LazyAbove, opt.Progress)
	if err != nil {
		return nil, nil, err
	}
	defer closeFn()
	imp := newImporter(kit.NewBuilder(path, name), z, br)
	n, err := kit.ReadLines(r, func(l kit.Line) error {
		imp.line(l)
		imp.comp.Release()
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if br == nil && !imp.tree.linear() {
		on, off := imp.tree.path()
		return nil, &branches{on: on, off: off}, nil
	}
	imp.finish()
	return imp.b.Finish(n), nil, nil
}
