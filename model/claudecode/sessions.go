package claudecode

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// sessionFiles lists the main session files directly in dir (not the
// sub-agents' agent-*.jsonl).
func sessionFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.Type().IsRegular() || !isSessionName(e.Name()) || strings.HasPrefix(e.Name(), "agent-") {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out, nil
}

// fileLinks is what the directory logic needs to know about one file.
type fileLinks struct {
	path  string
	uuids map[string]bool
	refs  []string // parents and logical parents not in the file
	// lrefs are the logical parents of the file's compact boundaries that
	// are not in it: the lines opening the file looks for beside it
	// (findPredecessors).
	lrefs       []string
	first, last string // timestamps
}

func readLinks(path string) (*fileLinks, error) {
	fl := &fileLinks{path: path, uuids: map[string]bool{}}
	r, _, closeFn, err := kit.OpenFile(path, nil)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	var p fastjson.Parser
	var parents, lparents []string
	_, err = kit.ReadLines(r, func(l kit.Line) error {
		v, err := p.ParseBytes(l.B)
		if err != nil {
			return nil
		}
		if u := string(v.GetStringBytes("uuid")); u != "" {
			fl.uuids[u] = true
		}
		if string(v.GetStringBytes("subtype")) == "compact_boundary" {
			if u := string(v.GetStringBytes("logicalParentUuid")); u != "" {
				lparents = append(lparents, u)
			}
		}
		for _, k := range []string{"parentUuid", "logicalParentUuid"} {
			if u := string(v.GetStringBytes(k)); u != "" {
				parents = append(parents, u)
			}
		}
		if ts := string(v.GetStringBytes("timestamp")); ts != "" {
			if fl.first == "" {
				fl.first = ts
			}
			fl.last = ts
		}
		return nil
	})
	for _, u := range parents {
		if !fl.uuids[u] {
			fl.refs = append(fl.refs, u)
		}
	}
	for _, u := range lparents {
		if !fl.uuids[u] {
			fl.lrefs = append(fl.lrefs, u)
		}
	}
	return fl, err
}

// pickDirRun chooses what opening a project directory reads: the newest
// session file together with the files linked to it (lines copied by a
// resume, or parents in another file), oldest first.
func pickDirRun(dir string) (files, notes []string, err error) {
	paths, err := sessionFiles(dir)
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("%s: no Claude Code session files (*.jsonl) in the directory", dir)
	}
	if len(paths) == 1 {
		return paths, nil, nil
	}
	links := make([]*fileLinks, len(paths))
	for i, p := range paths {
		if links[i], err = readLinks(p); err != nil {
			return nil, nil, err
		}
	}
	// Union-find over files that share or reference a uuid.
	parent := make([]int, len(links))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	for i, fl := range links {
		for u := range fl.uuids {
			if j, ok := owner[u]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[u] = i
			}
		}
	}
	for i, fl := range links {
		for _, u := range fl.refs {
			if j, ok := owner[u]; ok {
				parent[find(i)] = find(j)
			}
		}
	}
	newest := 0
	for i, fl := range links {
		if fl.last > links[newest].last {
			newest = i
		}
	}
	var run []*fileLinks
	others := 0
	for i, fl := range links {
		if find(i) == find(newest) {
			run = append(run, fl)
		} else {
			others++
		}
	}
	slices.SortStableFunc(run, func(a, b *fileLinks) int { return strings.Compare(a.first, b.first) })
	for _, fl := range run {
		files = append(files, fl.path)
	}
	if others > 0 {
		notes = append(notes, fmt.Sprintf("the directory holds %d other session file(s); loupe opened the newest session (%s); open a file, or pick one, to read another",
			others, filepath.Base(links[newest].path)))
	}
	return files, notes, nil
}

// findPredecessors returns the other session files of path's directory that
// hold a line a boundary of path points at, oldest first.
func findPredecessors(path string, imp *importer) []string {
	var missing [][]byte
	for _, b := range imp.bnds {
		if !b.micro && !b.lone && b.lparent != "" && imp.resolve(b.lparent) < 0 {
			missing = append(missing, []byte(`"`+b.lparent+`"`))
		}
	}
	siblings, err := sessionFiles(filepath.Dir(path))
	if err != nil {
		return nil
	}
	self, _ := filepath.Abs(path)
	type found struct {
		path, first string
	}
	var out []found
	for _, s := range siblings {
		if abs, _ := filepath.Abs(s); abs == self {
			continue
		}
		if kit.ContainsAny(s, missing) {
			fl, err := readLinks(s)
			if err != nil {
				continue
			}
			out = append(out, found{s, fl.first})
		}
	}
	slices.SortFunc(out, func(a, b found) int { return strings.Compare(a.first, b.first) })
	paths := make([]string, len(out))
	for i, f := range out {
		paths[i] = f.path
	}
	return paths
}

// Scan lists the sessions at path: one file, or a project directory with its
// session files and their sub-agents' files (the compaction runs,
// agent-acompact-*, are not sessions and are left out).
//
// A session continued in a new file (a resume that forks at a compaction)
// is one run: opening its newest file reads the older ones it points into,
// so the older files are not listed apart and a directory's run is
// verified and counted once.
func Scan(path string) ([]registry.SessionInfo, error) {
	return scanWith(path, scanFile)
}

// List is Scan with only each session's Path and Format: the files are not
// read through (a listing that opens each session anyway).
func List(path string) ([]registry.SessionInfo, error) {
	return scanWith(path, func(p string) (registry.SessionInfo, error) {
		return registry.SessionInfo{Path: p, Format: Name}, nil
	})
}

// scanWith lists the sessions at path, each described by scan.
func scanWith(path string, scan func(string) (registry.SessionInfo, error)) ([]registry.SessionInfo, error) {
	infos, err := kit.ScanPath(path, projectFiles, scan)
	if st, serr := os.Stat(path); serr != nil || !st.IsDir() || len(infos) < 2 {
		return infos, err
	}
	gone := continued(path)
	byPath := map[string]*registry.SessionInfo{}
	for i := range infos {
		byPath[infos[i].Path] = &infos[i]
	}
	// The newest file stands for the run: it starts when the first file
	// did, and takes its title when it has none of its own.
	for old, next := range gone {
		o, n := byPath[old], byPath[next]
		if o == nil || n == nil {
			continue
		}
		if !o.Start.IsZero() && (n.Start.IsZero() || o.Start.Before(n.Start)) {
			n.Start = o.Start
		}
		if n.Title == "" {
			n.Title = o.Title
		}
	}
	kept := infos[:0]
	for _, si := range infos {
		if _, ok := gone[si.Path]; !ok {
			kept = append(kept, si)
		}
	}
	return kept, err
}

// continued maps each session file of dir that another file of dir
// continues to that file: one of its compact boundaries points into it, so
// opening the later file reads it too (findPredecessors). A file that
// cannot be read is kept (its own reading reports why).
func continued(dir string) map[string]string {
	paths, err := sessionFiles(dir)
	if err != nil || len(paths) < 2 {
		return nil
	}
	owner := map[string]string{}
	var links []*fileLinks
	for _, p := range paths {
		fl, err := readLinks(p)
		if err != nil {
			continue
		}
		links = append(links, fl)
		for u := range fl.uuids {
			if _, dup := owner[u]; !dup {
				owner[u] = p
			}
		}
	}
	gone := map[string]string{}
	for _, fl := range links {
		for _, u := range fl.lrefs {
			if p, ok := owner[u]; ok && p != fl.path {
				gone[p] = fl.path
			}
		}
	}
	// A chain of three: the oldest file stands under the newest.
	for old, next := range gone {
		for seen := 0; seen < len(gone); seen++ {
			n, ok := gone[next]
			if !ok {
				break
			}
			next = n
		}
		gone[old] = next
	}
	return gone
}

// projectFiles lists the session files of a project directory and its
// sub-agents' files, leaving out the compaction runs and the files that are
// not Claude Code sessions: a directory may hold other runtimes' files (a
// listing looks at those itself). A sub-agent's file that cannot be read is
// reported in the error; one directly in dir is left to the caller, which
// meets it while looking at the directory's other files.
func projectFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type candidate struct {
		path   string
		report bool // a sub-agent's: an error reading it is reported
	}
	var cands []candidate
	for _, e := range ents {
		name := e.Name()
		switch {
		case e.Type().IsRegular() && isSessionName(name) && !strings.HasPrefix(name, "agent-acompact"):
			cands = append(cands, candidate{filepath.Join(dir, name), false})
		case e.IsDir():
			sub := filepath.Join(dir, name, "subagents")
			subs, _ := os.ReadDir(sub)
			for _, s := range subs {
				if s.Type().IsRegular() && isSessionName(s.Name()) && !strings.HasPrefix(s.Name(), "agent-acompact") {
					cands = append(cands, candidate{filepath.Join(sub, s.Name()), true})
				}
			}
		}
	}
	// Each file's head is read to tell a session from another runtime's
	// file: tens of thousands of sub-agents' files in a project, read
	// one core each.
	ok := make([]bool, len(cands))
	errs := make([]error, len(cands))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(cands)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				head, err := kit.Sniff(cands[i].path, 64<<10)
				if err != nil && cands[i].report {
					errs[i] = fmt.Errorf("%s: %w", cands[i].path, err)
				}
				ok[i] = err == nil && DetectHead(head)
			}
		}()
	}
	for i := range cands {
		next <- i
	}
	close(next)
	wg.Wait()
	var files []string
	for i, c := range cands {
		if ok[i] {
			files = append(files, c.path)
		}
	}
	return files, errors.Join(errs...)
}

// scanFile describes one session file without importing it: the turn count
// is an estimate (one per user line, assistant response and compaction).
func scanFile(path string) (registry.SessionInfo, error) {
	si := registry.SessionInfo{Path: path, Format: Name}
	var lastMsg, title, firstUser, agent string
	conv, side := 0, 0
	start, updated, err := kit.ScanJSONLines(path, func(v *fastjson.Value) {
		if si.ID == "" {
			si.ID = string(v.GetStringBytes("sessionId"))
		}
		switch string(v.GetStringBytes("type")) {
		case "user":
			conv++
			if v.GetBool("isSidechain") {
				side++
				if a := string(v.GetStringBytes("agentId")); a != "" {
					agent = a
				}
			}
			if v.GetBool("isCompactSummary") {
				return
			}
			si.Turns++
			if firstUser == "" && !v.GetBool("isMeta") {
				c := v.Get("message", "content")
				s := kit.Str(c)
				if !kit.IsString(c) {
					for _, blk := range kit.Array(c) {
						if kit.Str(blk, "type") == "text" {
							s = kit.Str(blk, "text")
							break
						}
					}
				}
				if s != "" && userRole(s, false) == "user" && !strings.HasPrefix(s, "<") {
					firstUser = kit.FirstLine(s, 80)
				}
			}
		case "assistant":
			conv++
			if v.GetBool("isSidechain") {
				side++
			}
			if id := string(v.GetStringBytes("message", "id")); id == "" || id != lastMsg {
				si.Turns++
				lastMsg = id
			}
		case "system":
			switch string(v.GetStringBytes("subtype")) {
			case "compact_boundary", "microcompact_boundary":
				if !v.GetBool("isSidechain") || side > 0 && side == conv {
					si.Compactions++
					si.Turns++
				}
			}
		case "summary":
			title = kit.Str(v, "summary")
		case "custom-title", "ai-title":
			for _, k := range []string{"customTitle", "aiTitle", "title"} {
				if s := kit.Str(v, k); s != "" {
					title = s
					break
				}
			}
		}
	})
	if err != nil {
		return si, err
	}
	if conv > 0 && side == conv {
		si.Parent, si.ID = si.ID, agent
	}
	si.Title = title
	if si.Title == "" {
		si.Title = firstUser
	}
	si.Start, si.Updated = start, updated
	if si.Updated.IsZero() {
		if st, err := os.Stat(path); err == nil {
			si.Updated = st.ModTime()
		}
	}
	return si, nil
}

// SubagentSession reports whether path is a sub-agent's file in the layout
// of Claude Code 2.1 (<project>/<session>/subagents/agent-<id>.jsonl), and
// returns <project>/<session>: its session file is that path with a
// session file's extension (.jsonl, or compressed). A compaction run
// (agent-acompact-*) is not a sub-agent.
func SubagentSession(path string) (string, bool) {
	dir, name := filepath.Split(path)
	dir = filepath.Clean(dir)
	if filepath.Base(dir) != "subagents" || !strings.HasPrefix(name, "agent-") ||
		strings.HasPrefix(name, "agent-acompact") || !isSessionName(name) {
		return "", false
	}
	session := filepath.Dir(dir)
	if b := filepath.Base(session); b == "." || b == string(filepath.Separator) {
		return "", false
	}
	return session, true
}

// SessionStem is a session file's path without its extension (.jsonl, or
// compressed): what SubagentSession returns for its sub-agents.
func SessionStem(path string) string {
	for _, ext := range []string{".jsonl.zst", ".jsonl.gz", ".jsonl"} {
		if s, ok := strings.CutSuffix(path, ext); ok {
			return s
		}
	}
	return path
}
