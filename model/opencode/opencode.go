// Package opencode imports opencode sessions from its JSON storage tree (the
// layout used before the SQLite database):
//
//	storage/session/<projectID>/<sessionID>.json
//	storage/message/<sessionID>/<messageID>.json
//	storage/part/<messageID>/<partID>.json
//
// A compaction is a user message with a {"type":"compaction"} part, answered
// by an assistant message with summary:true whose text parts are the
// summary. Nothing is deleted: every message before the compaction is its
// source. With tail_start_id the messages from that one on are kept
// verbatim. A tool part still pending or running is a call with no result
// (an open handle).
//
// Open takes the storage directory (the newest session) or a session file.
// See shared/research/formats.md §5.
package opencode

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Name is the format's name for --from.
const Name = "opencode"

func init() {
	registry.Register(registry.Format{
		Name:        Name,
		Description: "opencode: its SQLite store (~/.local/share/opencode/opencode.db, 1.2 on; path#session for one of its sessions), `opencode export` JSON, or the JSON storage of earlier versions (storage/: session/, message/, part/)",
		Detect:      Detect,
		Open:        Open,
		// A database or an export can come through a pipe; a storage tree
		// cannot.
		Read:  readStream,
		Scan:  Scan,
		Homes: Homes,
	})
}

// readStream reads a database or an export from a stream, through a copy
// in a temporary file; errors name the stream, not the copy.
func readStream(r io.Reader, opt model.ReadOptions) (*model.Transcript, error) {
	return kit.ReadByCopy(r, opt, func(path string, o model.ReadOptions) (*model.Transcript, error) {
		t, err := Open(path, o)
		if err != nil {
			return nil, errors.New(strings.ReplaceAll(err.Error(), path, o.Name))
		}
		return t, nil
	})
}

// storageRoot returns the storage directory path belongs to, or "".
func storageRoot(path string, dir bool) string {
	if dir {
		if isDir(filepath.Join(path, "session")) && isDir(filepath.Join(path, "message")) {
			return path
		}
		if s := filepath.Join(path, "storage"); isDir(filepath.Join(s, "session")) && isDir(filepath.Join(s, "message")) {
			return s
		}
		return ""
	}
	// storage/session/<projectID>/<sessionID>.json
	root := filepath.Dir(filepath.Dir(filepath.Dir(path)))
	if filepath.Base(filepath.Dir(filepath.Dir(path))) == "session" && isDir(filepath.Join(root, "message")) {
		return root
	}
	return ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Detect accepts a storage directory or a data directory holding
// opencode.db; a session file inside a storage directory; a SQLite database
// with opencode's tables; an `opencode export` file.
func Detect(path string, head []byte, dir bool) bool {
	if dir {
		return storageRoot(path, true) != "" || isFile(filepath.Join(path, dbName))
	}
	return detectFile(path, head)
}

// Homes returns opencode's storage directory ($XDG_DATA_HOME/opencode/storage
// or ~/.local/share/opencode/storage).
func Homes() []string {
	data := os.Getenv("XDG_DATA_HOME")
	if data == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		data = filepath.Join(h, ".local", "share")
	}
	return []string{filepath.Join(data, "opencode", "storage")}
}

type session struct {
	// src is where its messages are read from: a storage tree, a database
	// or an export.
	src  store
	path string
	// open is what Open takes to read this session alone.
	open    string
	id      string
	title   string
	version string
	dir     string
	parent  string
	created int64
	updated int64
}

func readJSON(path string, p *fastjson.Parser) (*fastjson.Value, []byte, error) {
	data, err := model.ReadWhole(path)
	if err != nil {
		return nil, nil, err
	}
	v, err := p.ParseBytes(data)
	if err != nil {
		msg, _ := kit.SyntaxError(data)
		return nil, data, errors.New(msg)
	}
	return v, data, nil
}

// sessions lists the sessions of a storage directory.
func sessions(root string) ([]session, error) {
	var out []session
	var p fastjson.Parser
	projects, err := os.ReadDir(filepath.Join(root, "session"))
	if err != nil {
		return nil, err
	}
	for _, pr := range projects {
		if !pr.IsDir() {
			continue
		}
		dir := filepath.Join(root, "session", pr.Name())
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			if f.IsDir() || !strings.HasSuffix(f.Name(), ".json") {
				continue
			}
			s, err := readSession(filepath.Join(dir, f.Name()), &p)
			if err != nil {
				continue
			}
			out = append(out, s)
		}
	}
	return out, nil
}

func readSession(path string, p *fastjson.Parser) (session, error) {
	v, _, err := readJSON(path, p)
	if err != nil {
		return session{}, err
	}
	return session{
		path:    path,
		id:      kit.Str(v, "id"),
		title:   kit.Str(v, "title"),
		version: kit.Str(v, "version"),
		dir:     kit.Str(v, "directory"),
		parent:  kit.Str(v, "parentID"),
		created: int64(kit.Int(v, "time", "created")),
		updated: int64(kit.Int(v, "time", "updated")),
	}, nil
}

// Open imports a session: the newest of a storage directory or of a
// database, a session file, an `opencode export` file, or one session of a
// database named as path#sessionID.
func Open(path string, opt model.ReadOptions) (*model.Transcript, error) {
	src, want, err := openStore(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	all, err := src.sessions()
	if err != nil {
		return nil, err
	}
	var s session
	var note string
	switch {
	case want != "":
		i := slices.IndexFunc(all, func(s session) bool { return s.id == want })
		if i < 0 {
			return nil, fmt.Errorf("%s: no session %q", src.name(), want)
		}
		s = all[i]
	case len(all) == 0:
		return nil, fmt.Errorf("%s: no opencode sessions", path)
	default:
		slices.SortFunc(all, func(a, b session) int { return cmp.Compare(b.updated, a.updated) })
		s = all[0]
		if len(all) > 1 {
			note = fmt.Sprintf("it holds %d sessions; loupe opened the newest (%s); pick one, or open %s#<session id>, to read another", len(all), s.id, src.name())
		}
	}
	name := opt.Name
	if name == "" {
		name = path
	}
	imp := &importer{b: kit.NewBuilder(path, name)}
	n, err := imp.session(s)
	if err != nil {
		return nil, err
	}
	if note != "" {
		imp.b.T.Problems = append(imp.b.T.Problems, &model.Problem{Severity: model.Warning, File: name, Msg: note})
	}
	return imp.b.Finish(n), nil
}

type message struct {
	path    string
	id      string
	role    string
	parent  string
	summary bool
	created int64
	v       *fastjson.Value
	data    []byte
	parts   []part
}

type part struct {
	path string
	id   string
	v    *fastjson.Value
	data []byte
}

type importer struct {
	b     *kit.Builder
	plan  kit.PlanList
	model string
}

func (imp *importer) session(s session) (int64, error) {
	msgs, total, err := s.src.messages(imp, s)
	if err != nil {
		return 0, err
	}
	slices.SortStableFunc(msgs, func(a, b *message) int {
		if a.created != b.created {
			return cmp.Compare(a.created, b.created)
		}
		return strings.Compare(a.id, b.id)
	})
	// The summary message answering each compaction request.
	summaryOf := map[string]*message{}
	for _, m := range msgs {
		if m.role == "assistant" && m.summary && m.parent != "" {
			summaryOf[m.parent] = m
		}
	}
	used := map[*message]bool{}
	var lastIn int
	for i, m := range msgs {
		if used[m] {
			continue
		}
		imp.b.File = m.path
		imp.b.At(1, 0)
		imp.b.NextTurn()
		ts := msTime(m.created)
		if m.role == "assistant" {
			if mid := kit.Str(m.v, "modelID"); mid != "" && imp.model == "" {
				imp.model = mid
			}
			if n := tokensIn(m.v); n > 0 && !m.summary {
				lastIn = n
			}
		}
		var comp *fastjson.Value
		for _, pt := range m.parts {
			if kit.Str(pt.v, "type") == "compaction" {
				comp = pt.v
			}
		}
		switch {
		case m.role == "user" && comp != nil:
			imp.userParts(m, ts, true)
			sum := summaryOf[m.id]
			c := &model.Compaction{Trigger: "manual", TokensBefore: lastIn}
			if kit.Bool(comp, "auto") {
				c.Trigger = "auto"
			}
			if sum != nil {
				used[sum] = true
				c.Summary = texts(sum)
				// The last request before the compaction measures the context
				// it replaced; the summarizer's own call is that context plus
				// its prompt (or, from a compact endpoint, much less).
				if n := tokensIn(sum.v); n > 0 && c.TokensBefore == 0 {
					c.TokensBefore = n
				}
				c.TokensAfter = kit.Int(sum.v, "tokens", "output")
			}
			if tail := kit.Str(comp, "tail_start_id"); tail != "" {
				var refs []string
				for _, o := range msgs[:i] {
					if o.id >= tail {
						refs = append(refs, o.id)
					}
				}
				c.Kept = kit.Kept(imp.b.T.Events, refs)
			}
			c.Ref, c.TS = m.id, ts
			imp.b.Add(c)
			if sum == nil {
				imp.b.Warn("compaction", "compaction %d: no summary message answers it (interrupted?)", c.Seq)
			}
		case m.role == "user":
			imp.userParts(m, ts, false)
		case m.role == "assistant" && m.summary:
			// A summary with no compaction request before it.
			c := &model.Compaction{Trigger: "unknown", Summary: texts(m), TokensBefore: tokensIn(m.v), TokensAfter: kit.Int(m.v, "tokens", "output")}
			c.Ref, c.TS = m.id, ts
			imp.b.Add(c)
		case m.role == "assistant":
			imp.assistantParts(m, ts)
		default:
			imp.b.RawText(m.role, fmt.Sprintf("unknown message role %q", m.role), string(m.data))
		}
	}
	meta := &imp.b.T.Meta
	meta.Source = Name
	if s.version != "" {
		meta.Source += " " + s.version
	}
	meta.Run = s.id
	meta.Agent = imp.model
	imp.b.File = s.path
	imp.b.SetExtra("title", s.title)
	imp.b.SetExtra("cwd", s.dir)
	imp.b.SetExtra("parent_session", s.parent)
	return total, nil
}

func msTime(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

func tokensIn(v *fastjson.Value) int {
	return kit.Int(v, "tokens", "input") + kit.Int(v, "tokens", "cache", "read") + kit.Int(v, "tokens", "cache", "write")
}

func texts(m *message) string {
	var b strings.Builder
	for _, pt := range m.parts {
		if kit.Str(pt.v, "type") == "text" {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(kit.Str(pt.v, "text"))
		}
	}
	return b.String()
}

func (imp *importer) add(e model.Event, ref, ts string) {
	h := e.Header()
	h.Ref, h.TS = ref, ts
	imp.b.Add(e)
}

func (imp *importer) userParts(m *message, ts string, compaction bool) {
	for _, pt := range m.parts {
		switch t := kit.Str(pt.v, "type"); t {
		case "text":
			role := model.RoleUser
			if kit.Bool(pt.v, "synthetic") {
				role = model.RoleSystem
			}
			imp.add(&model.Message{Role: role, Text: kit.Str(pt.v, "text")}, m.id, ts)
		case "file":
			imp.add(&model.Message{Role: model.RoleUser, Text: "[file " + kit.Str(pt.v, "filename") + "]"}, m.id, ts)
		case "compaction":
			// The request itself: the compaction event stands for it.
		case "agent", "subtask", "snapshot", "patch", "step-start", "step-finish":
			imp.b.Skip("part/" + t)
		default:
			imp.b.RawText(t, fmt.Sprintf("unknown user part type %q", t), string(pt.data))
		}
	}
}

func (imp *importer) assistantParts(m *message, ts string) {
	if e := m.v.Get("error"); e != nil && e.Type() == fastjson.TypeObject {
		imp.add(&model.Message{Role: model.RoleSystem, Text: "error: " + firstNonEmpty(kit.Str(e, "data", "message"), kit.Str(e, "name"))}, m.id, ts)
	}
	for _, pt := range m.parts {
		switch t := kit.Str(pt.v, "type"); t {
		case "text":
			if kit.Bool(pt.v, "synthetic") {
				imp.add(&model.Message{Role: model.RoleSystem, Text: kit.Str(pt.v, "text")}, m.id, ts)
				continue
			}
			imp.add(&model.Message{Role: model.RoleAssistant, Text: kit.Str(pt.v, "text")}, m.id, ts)
		case "tool":
			imp.tool(pt, m.id, ts)
		case "reasoning":
			imp.b.Skip("part/reasoning")
		case "file":
			imp.add(&model.Message{Role: model.RoleAssistant, Text: "[file " + kit.Str(pt.v, "filename") + "]"}, m.id, ts)
		case "step-start", "step-finish", "snapshot", "patch", "retry", "agent", "subtask":
			imp.b.Skip("part/" + t)
		default:
			imp.b.RawText(t, fmt.Sprintf("unknown assistant part type %q", t), string(pt.data))
		}
	}
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// tool maps a tool part: the call, and its result when the state has one.
// pending and running parts have none: they are calls in flight.
func (imp *importer) tool(pt part, ref, ts string) {
	st := pt.v.Get("state")
	id := kit.Str(pt.v, "callID")
	name := kit.Str(pt.v, "tool")
	input := "{}"
	if in := st.Get("input"); in != nil {
		input = kit.JSON(in)
	}
	imp.add(&model.ToolCall{ID: id, Name: name, Input: model.NewText(input)}, ref, ts)
	switch status := kit.Str(st, "status"); status {
	case "completed":
		// A shell that exited non-zero still completes; its exit status is
		// in the metadata.
		failed := kit.Int(st, "metadata", "exit") != 0 || kit.Int(st, "metadata", "exitCode") != 0
		imp.add(&model.ToolResult{ID: id, IsError: failed, Text: model.NewText(kit.Str(st, "output"))}, ref, ts)
		if name == "todowrite" {
			var items []model.PlanItem
			for _, t := range kit.Array(st, "input", "todos") {
				text := kit.Str(t, "content")
				tid := kit.ID(t, "id")
				if tid == "" {
					tid = text
				}
				items = append(items, model.PlanItem{ID: tid, Text: text, Status: kit.Status(kit.Str(t, "status"))})
			}
			if upd := imp.plan.Update(items); len(upd) > 0 {
				imp.add(&model.Plan{Items: upd}, ref, ts)
			}
		}
	case "error":
		imp.add(&model.ToolResult{ID: id, IsError: true, Text: model.NewText(kit.Str(st, "error"))}, ref, ts)
	case "pending", "running":
	default:
		imp.b.Warn("tool", "tool part %s has an unknown state %q; its call is left without a result", kit.Str(pt.v, "id"), status)
	}
}

// Scan lists the sessions of a storage directory or a database (or
// describes one session file or export).
func Scan(path string) ([]registry.SessionInfo, error) {
	src, want, err := openStore(path)
	if err != nil {
		return nil, err
	}
	list, err := src.sessions()
	src.close()
	if err != nil {
		return nil, err
	}
	var out []registry.SessionInfo
	var errs []error
	for _, s := range list {
		if want != "" && s.id != want {
			continue
		}
		p := s.open
		if len(list) == 1 {
			p = path // the one session: the path as given opens it
		}
		t, err := Open(p, model.ReadOptions{})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, registry.SessionInfo{
			Path: p, Format: Name, ID: s.id, Title: s.title, Parent: s.parent,
			Start: time.UnixMilli(s.created).UTC(), Updated: time.UnixMilli(s.updated).UTC(),
			Turns: t.Turns(), Compactions: len(t.Compactions),
		})
	}
	return out, errors.Join(errs...)
}
