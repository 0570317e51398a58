// Package gemini imports Gemini CLI session recordings:
// ~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl (JSONL since
// 2026-04: a metadata line, message records, {"$set":…} and
// {"$rewindTo":…} records) and the older single-JSON session-*.json.
//
// A compaction is a {"$set":{"messages":[…]}} checkpoint holding a new
// <state_snapshot> summary (the first message before 0.61, the second after
// the session context since); the messages it keeps after the summary are
// listed in Kept. The $set.messages written at a session's start and on
// each resume repeat the conversation and are not compactions. Earlier lines stay in the file and are the source. The
// "info" messages Gemini CLI writes when it compresses ("… (compressed from:
// A to B tokens)", "Context compressed from X% to Y%.") give the token
// counts; before 2026-05 they are the only trace of a compression, which then
// becomes a compaction with no summary. A $set that rewrites the messages
// without a snapshot (tool-output masking) is a compaction with no summary
// whose unchanged messages are kept. $rewindTo turns the rewound messages
// into raw events with a reason.
//
// See shared/research/formats.md §3.
package gemini

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Name is the format's name for --from.
const Name = "gemini-cli"

func init() {
	registry.Register(registry.Format{
		Name:        Name,
		Description: "Gemini CLI session (~/.gemini/tmp/<project>/chats/session-*.jsonl, or the older .json)",
		Detect:      Detect,
		Open:        Open,
		Read:        Read,
		Scan:        Scan,
		Homes:       Homes,
		Owner:       Owner,
	})
}

// Detect accepts a JSONL session (its first line is the metadata record) or
// a legacy JSON session (one object with sessionId, projectHash and
// messages).
func Detect(_ string, head []byte, dir bool) bool {
	if dir {
		return false
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	first := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		first = head[:i]
	}
	var p fastjson.Parser
	if v, err := p.ParseBytes(first); err == nil {
		return v.Exists("sessionId") && v.Exists("projectHash") && (v.Exists("startTime") || v.Exists("messages"))
	}
	// Pretty-printed legacy JSON, or a first line longer than the head.
	return bytes.Contains(head, []byte(`"sessionId"`)) && bytes.Contains(head, []byte(`"projectHash"`)) &&
		(bytes.Contains(head, []byte(`"messages"`)) || bytes.Contains(head, []byte(`"startTime"`)))
}

// Homes returns ~/.gemini/tmp.
func Homes() []string {
	h, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(h, ".gemini", "tmp")}
}

var (
	oldMarkerRE = regexp.MustCompile(`compressed from:?\s*(\d+)\s*to\s*(\d+)\s*tokens`)
	newMarkerRE = regexp.MustCompile(`Context compressed from (\d+(?:\.\d+)?)% to (\d+(?:\.\d+)?)%`)
)

const snapshotTag = "<state_snapshot>"

// msgState is what the importer remembers of a message record.
type msgState struct {
	hash   uint64
	events []int  // indexes of its events
	raw    string // the record as last written, for a rewind
	text   *model.Message
	line   int
	typ    string // user, gemini, info...
	gist   string // what the model sees of it: see gist
}

// gist is what a message says to the model: its text and its function
// responses' output. A resume writes the history again in the API's form
// (content as parts, tool calls as functionCall parts), so two writes of one
// message compare by their gist.
func gist(v *fastjson.Value) string {
	text, responses, _ := parts(v.Get("content"))
	var b strings.Builder
	b.WriteString(text)
	for _, r := range responses {
		out, _ := responseText(r)
		b.WriteString("\x00" + out)
	}
	return b.String()
}

type importer struct {
	// lastSnapID is the id of the message that carried the last
	// compaction's <state_snapshot>.
	lastSnapID string
	b          *kit.Builder
	p          fastjson.Parser

	msgs     map[string]*msgState
	order    []string // ids of the current message list
	calls    map[string]bool
	results  map[string]bool
	lastComp *model.Compaction
	compEnd  int // len(Events) right after the last compaction
	lastIn   int
	todo     kit.PlanList

	session, project, kind, model string
}

func newImporter(path, name string) *importer {
	return &importer{
		b:       kit.NewBuilder(path, name),
		msgs:    map[string]*msgState{},
		calls:   map[string]bool{},
		results: map[string]bool{},
	}
}

// Open imports a session file in either form. A file that only records a
// resume of a session opens the file that holds its conversation.
func Open(path string, opt model.ReadOptions) (*model.Transcript, error) {
	if o := Owner(path); o != "" {
		t, err := Open(o, model.ReadOptions{LazyAbove: opt.LazyAbove, Progress: opt.Progress})
		if err != nil {
			return nil, err
		}
		t.Problems = append(t.Problems, &model.Problem{Severity: model.Warning, File: o,
			Msg: fmt.Sprintf("%s only records a resume of this session; its conversation is in this file, which loupe read", filepath.Base(path))})
		return t, nil
	}
	name := opt.Name
	if name == "" {
		name = path
	}
	r, _, closeFn, err := kit.OpenFile(path, opt.Progress)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return read(r, path, name)
}

// Read imports a session from a stream of its (decompressed) content: a
// pipe, which can be read only once.
func Read(r io.Reader, opt model.ReadOptions) (*model.Transcript, error) {
	return read(r, opt.Name, opt.Name)
}

func read(r io.Reader, path, name string) (*model.Transcript, error) {
	br := newPeekReader(r)
	imp := newImporter(path, name)
	legacy, err := isLegacy(br)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var n int64
	if legacy {
		// The legacy form is one JSON object rewritten whole: it has to be
		// read whole.
		data, err := model.ReadAllLimited(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		n = int64(len(data))
		imp.legacy(data)
	} else {
		first := true
		n, err = kit.ReadLines(br, func(l kit.Line) error {
			imp.line(l, first)
			first = false
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	imp.finishMeta()
	return imp.b.Finish(n), nil
}

// peekReader lets isLegacy look at the start of the stream.
type peekReader struct {
	r   io.Reader
	buf []byte
}

func newPeekReader(r io.Reader) *peekReader { return &peekReader{r: r} }

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// isLegacy reads the first line: the JSONL form starts with a one-line
// metadata object without messages; the legacy form is one object (often
// pretty-printed over many lines) with messages.
func isLegacy(p *peekReader) (bool, error) {
	var head []byte
	chunk := make([]byte, 64<<10)
	for {
		n, err := p.r.Read(chunk)
		head = append(head, chunk[:n]...)
		if i := bytes.IndexByte(head, '\n'); i >= 0 || err != nil || len(head) > 8<<20 {
			p.buf = head
			line := head
			if i >= 0 {
				line = head[:i]
			}
			var fp fastjson.Parser
			v, perr := fp.ParseBytes(bytes.TrimSpace(line))
			if perr != nil {
				// Not a whole object on the first line: pretty-printed JSON.
				return true, nil
			}
			return v.Exists("messages"), nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, err
		}
	}
}

func (imp *importer) finishMeta() {
	m := &imp.b.T.Meta
	m.Source = Name
	m.Run = imp.session
	m.Agent = imp.model
	imp.b.SetExtra("project_hash", imp.project)
	imp.b.SetExtra("kind", imp.kind)
}

func (imp *importer) metadata(v *fastjson.Value) {
	if s := kit.Str(v, "sessionId"); s != "" {
		imp.session = s
	}
	if s := kit.Str(v, "projectHash"); s != "" {
		imp.project = s
	}
	if s := kit.Str(v, "kind"); s != "" {
		imp.kind = s
	}
}

func (imp *importer) line(l kit.Line, first bool) {
	imp.b.At(l.N, l.Off)
	v, err := imp.p.ParseBytes(l.B)
	if err != nil || v.Type() != fastjson.TypeObject {
		imp.b.BadLine(l, !l.Terminated)
		return
	}
	switch {
	case v.Exists("$set"):
		set := v.Get("$set")
		imp.metadata(set)
		if msgs := set.Get("messages"); msgs != nil {
			imp.setMessages(kit.Array(msgs), l.B)
		} else {
			imp.b.Skip("$set (metadata)")
		}
	case v.Exists("$rewindTo"):
		imp.rewind(kit.Str(v, "$rewindTo"))
	case v.Exists("type") && v.Exists("id"):
		imp.message(v, l.B)
	case first || v.Exists("sessionId") && v.Exists("projectHash"):
		imp.metadata(v)
	default:
		imp.b.Raw("", "unknown Gemini CLI record", l.B)
	}
}

func (imp *importer) legacy(data []byte) {
	imp.b.At(1, 0)
	v, err := imp.p.ParseBytes(data)
	if err != nil || v.Type() != fastjson.TypeObject {
		msg, col := kit.SyntaxError(data)
		p := imp.b.Problem(model.Error, "", "", "%s", msg)
		p.Column = col
		return
	}
	imp.metadata(v)
	for _, m := range kit.Array(v, "messages") {
		imp.message(m, []byte(kit.JSON(m)))
	}
}

func hashOf(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// parts flattens a PartListUnion: text parts are joined, function responses
// returned apart, thoughts left out.
func parts(v *fastjson.Value) (text string, responses []*fastjson.Value, thoughts int) {
	if v == nil {
		return "", nil, 0
	}
	if kit.IsString(v) {
		return kit.Str(v), nil, 0
	}
	list := kit.Array(v)
	if v.Type() == fastjson.TypeObject {
		list = []*fastjson.Value{v}
	}
	var b strings.Builder
	for _, p := range list {
		switch {
		case kit.IsString(p):
			b.WriteString(kit.Str(p))
		case kit.Bool(p, "thought"):
			thoughts++
		case p.Exists("text"):
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(kit.Str(p, "text"))
		case p.Exists("functionResponse"):
			responses = append(responses, p.Get("functionResponse"))
		case p.Exists("inlineData"), p.Exists("fileData"):
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString("[file]")
		}
	}
	return b.String(), responses, thoughts
}

// responseText is the text of a functionResponse's response.
func responseText(r *fastjson.Value) (string, bool) {
	resp := r.Get("response")
	if resp == nil {
		return "", false
	}
	if e := resp.Get("error"); e != nil {
		if kit.IsString(e) {
			return kit.Str(e), true
		}
		return kit.JSON(e), true
	}
	if o := resp.Get("output"); o != nil {
		if kit.IsString(o) {
			return kit.Str(o), false
		}
		return kit.JSON(o), false
	}
	return kit.JSON(resp), false
}

var terminal = map[string]bool{"success": true, "error": true, "cancelled": true, "canceled": true}

func (imp *importer) add(ev model.Event, st *msgState) {
	imp.b.Add(ev)
	if st != nil {
		st.events = append(st.events, ev.Header().Index)
	}
}

// message imports a message record, or the changes of one written again
// (last write wins: new tool results are added where the update is).
func (imp *importer) message(v *fastjson.Value, raw []byte) {
	id := kit.ID(v, "id")
	h := hashOf(raw)
	st := imp.msgs[id]
	update := st != nil
	if update && st.hash == h {
		imp.b.Skip("message written again unchanged")
		return
	}
	if !update {
		st = &msgState{line: imp.b.Line()}
		imp.msgs[id] = st
		imp.order = append(imp.order, id)
	}
	st.hash, st.raw = h, string(raw)
	ts := kit.Str(v, "timestamp")
	base := model.Base{Ref: id, TS: ts}
	typ := kit.Str(v, "type")
	st.typ, st.gist = typ, gist(v)
	text, responses, thoughts := parts(v.Get("content"))
	for range thoughts {
		imp.b.Skip("thought")
	}
	turned := false
	turn := func() {
		if !turned {
			imp.b.NextTurn()
			turned = true
		}
	}
	switch typ {
	case "user", "gemini":
		role := model.RoleUser
		if typ == "gemini" {
			role = model.RoleAssistant
			if m := kit.Str(v, "model"); m != "" && imp.model == "" {
				imp.model = m
			}
			if n := kit.Int(v, "tokens", "input"); n > 0 {
				imp.lastIn = n
			}
		}
		if text != "" {
			if st.text != nil {
				st.text.Text = text
			} else {
				turn()
				m := &model.Message{Base: base, Role: role, Text: text}
				imp.add(m, st)
				st.text = m
			}
		}
		for _, tc := range kit.Array(v, "toolCalls") {
			cid := kit.Str(tc, "id")
			if !imp.calls[cid] {
				turn()
				imp.calls[cid] = true
				args := "{}"
				if a := tc.Get("args"); a != nil {
					args = kit.JSON(a)
				}
				name := kit.Str(tc, "name")
				imp.add(&model.ToolCall{Base: base, ID: cid, Name: name, Input: model.NewText(args)}, st)
			}
			status := kit.Str(tc, "status")
			if imp.results[cid] || !terminal[status] {
				continue
			}
			rtext, isErr := "", status == "error"
			_, rs, _ := parts(tc.Get("result"))
			for _, r := range rs {
				t, e := responseText(r)
				rtext += t
				isErr = isErr || e
			}
			if status != "success" && rtext == "" {
				rtext = "[" + status + "]"
			}
			turn()
			imp.results[cid] = true
			imp.add(&model.ToolResult{Base: base, ID: cid, IsError: isErr, Text: model.NewText(rtext)}, st)
			if kit.Str(tc, "name") == "write_todos" && !isErr {
				imp.todos(tc.Get("args"), base, st)
			}
		}
		for _, r := range responses {
			cid := kit.Str(r, "id")
			if imp.results[cid] {
				continue
			}
			t, e := responseText(r)
			turn()
			imp.results[cid] = true
			imp.add(&model.ToolResult{Base: base, ID: cid, IsError: e, Text: model.NewText(t)}, st)
		}
	case "info":
		imp.info(text, base, st, update)
	case "error", "warning":
		if !update && text != "" {
			turn()
			imp.add(&model.Message{Base: base, Role: model.RoleSystem, Text: text}, st)
		}
	default:
		imp.b.Raw(typ, fmt.Sprintf("unknown message type %q", typ), raw)
		return
	}
	if !turned && typ != "info" {
		imp.b.Skip("message with nothing new (its tool results were already recorded)")
	}
}

func (imp *importer) todos(args *fastjson.Value, base model.Base, st *msgState) {
	var items []model.PlanItem
	for _, t := range kit.Array(args, "todos") {
		text := kit.Str(t, "description")
		items = append(items, model.PlanItem{ID: text, Text: text, Status: kit.Status(kit.Str(t, "status"))})
	}
	if upd := imp.todo.Update(items); len(upd) > 0 {
		imp.add(&model.Plan{Base: base, Items: upd}, st)
	}
}

// info handles the UI's info messages: compression markers, or notes.
func (imp *importer) info(text string, base model.Base, st *msgState, update bool) {
	var before, after int
	marker := false
	if m := oldMarkerRE.FindStringSubmatch(text); m != nil {
		before, _ = strconv.Atoi(m[1])
		after, _ = strconv.Atoi(m[2])
		marker = true
	} else if newMarkerRE.MatchString(text) || text == "" {
		marker = true
	}
	if !marker {
		if !update {
			imp.b.NextTurn()
			imp.add(&model.Message{Base: base, Role: model.RoleSystem, Text: text}, st)
		}
		return
	}
	// Right after a $set compaction: its marker.
	if c := imp.lastComp; c != nil && imp.compEnd == len(imp.b.T.Events) {
		if text == "" {
			c.Trigger = "manual"
		} else if c.Trigger == "" {
			c.Trigger = "auto"
		}
		if before > 0 {
			c.TokensBefore, c.TokensAfter = before, after
		}
		imp.b.Skip("info (compression marker)")
		return
	}
	if text == "" {
		// An empty info item is also what /compress leaves, but alone it
		// proves nothing.
		imp.b.Skip("info (empty)")
		return
	}
	c := &model.Compaction{Base: base, Trigger: "auto", TokensBefore: before, TokensAfter: after}
	if before == 0 {
		c.TokensBefore = imp.lastIn
	}
	imp.compaction(c)
	imp.b.Warn("info", "compaction %d: Gemini CLI recorded the compression but not its summary (versions before 2026-05)", c.Seq)
}

func (imp *importer) compaction(c *model.Compaction) {
	imp.b.NextTurn()
	imp.b.Add(c)
	imp.lastComp = c
	imp.compEnd = len(imp.b.T.Events)
}

// setMessages handles a $set of the whole message list. Gemini CLI writes
// one at a session's start (the session context alone), on every resume
// (the context, then the whole history again) and after a compression (the
// context, the <state_snapshot>, the model's acknowledgement, the kept
// turns). Only two are compactions: a new snapshot, wherever it sits in the
// list, and a rewrite of a message already seen (tool-output masking). A
// list that only repeats or adds messages is a start or a resume.
func (imp *importer) setMessages(msgs []*fastjson.Value, raw []byte) {
	ids := make([]string, len(msgs))
	types := make([]string, len(msgs))
	for i, m := range msgs {
		ids[i] = kit.ID(m, "id")
		types[i] = kit.Str(m, "type")
	}
	snapshot, snap := "", -1
	rewritten := false
	same := make([]bool, len(msgs))
	for i, m := range msgs {
		st := imp.msgs[ids[i]]
		same[i] = st != nil && (st.hash == hashOf([]byte(kit.JSON(m))) || sameContent(st.raw, m))
		// A resume writes a function response again under its call's id:
		// another message, not a rewrite of the call.
		if st != nil && !same[i] && st.typ == types[i] && st.gist != gist(m) {
			rewritten = true
		}
		// A snapshot already seen (a resume writes it again, in another
		// shape) is no new compaction.
		// So is the message that carried the last compaction's snapshot:
		// a read that starts after the history (a hook's tail) has not
		// seen it before, but knows its id.
		seen := same[i] || st != nil && st.gist == gist(m) || ids[i] != "" && ids[i] == imp.lastSnapID
		if snap < 0 && !seen {
			if t, _, _ := parts(m.Get("content")); strings.Contains(t, snapshotTag) {
				snapshot, snap = t, i
			}
		}
	}
	if snap < 0 && !rewritten {
		imp.b.Skip("$set.messages (session start or resume)")
		imp.setOrder(msgs, ids, types)
		return
	}
	var refs []string
	for i := range msgs {
		if snap >= 0 && (i <= snap || i == snap+1 && types[i] == "gemini") {
			continue // the context before it, the summary, the acknowledgement
		}
		if same[i] {
			refs = append(refs, ids[i])
		}
	}
	c := &model.Compaction{Summary: snapshot, TokensBefore: imp.lastIn}
	c.Ref = "$set@" + strconv.Itoa(imp.b.Line())
	if snap >= 0 {
		imp.lastSnapID = ids[snap]
	}
	c.Kept = kit.Kept(imp.b.T.Events, refs)
	if snapshot == "" {
		c.Trigger = "tool_output_masking"
	}
	imp.compaction(c)
	imp.setOrder(msgs, ids, types)
}

// setOrder makes the list the conversation; messages first seen here (the
// session context, the summary) have no events.
func (imp *importer) setOrder(msgs []*fastjson.Value, ids, types []string) {
	imp.order = imp.order[:0]
	for i, m := range msgs {
		id := ids[i]
		imp.order = append(imp.order, id)
		if imp.msgs[id] == nil {
			j := kit.JSON(m)
			imp.msgs[id] = &msgState{hash: hashOf([]byte(j)), raw: j, typ: types[i], gist: gist(m)}
		}
	}
}

// sameContent compares a stored record with a value by re-parsing the
// stored one (key order or spacing may differ between writes).
func sameContent(stored string, v *fastjson.Value) bool {
	var p fastjson.Parser
	s, err := p.Parse(stored)
	if err != nil {
		return false
	}
	return kit.JSON(s) == kit.JSON(v)
}

// rewind drops the message id and everything after it from the
// conversation: their events after the last compaction become raw events.
func (imp *importer) rewind(id string) {
	at := -1
	for i, o := range imp.order {
		if o == id {
			at = i
			break
		}
	}
	if at < 0 {
		imp.b.Warn("$rewindTo", "rewind to message %q, which is not in the conversation", id)
		return
	}
	for _, o := range imp.order[at:] {
		st := imp.msgs[o]
		for _, idx := range st.events {
			if idx < imp.compEnd {
				imp.b.Warn("$rewindTo", "rewind to %q reaches before compaction %d; the events before it stay in its source", id, imp.lastComp.Seq)
				continue
			}
			old := imp.b.T.Events[idx]
			r := &model.Raw{Reason: "rewound: $rewindTo removed this message from the conversation", JSON: model.NewText(kit.ValidString([]byte(st.raw)))}
			h := old.Header()
			r.Base = model.Base{Turn: h.Turn, TS: h.TS, Index: h.Index, Line: h.Line, Offset: h.Offset, Ref: h.Ref}
			imp.b.T.Events[idx] = r
		}
		st.events = nil
	}
	imp.order = imp.order[:at]
}

// Scan describes session files: one, or every session-*.json[l] under a
// directory.
func Scan(path string) ([]registry.SessionInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	describe := func(p string) (registry.SessionInfo, error) {
		t, err := Open(p, model.ReadOptions{})
		if err != nil {
			return registry.SessionInfo{}, err
		}
		si := registry.SessionInfo{Path: p, Format: Name, ID: t.Meta.Run, Turns: t.Turns(), Compactions: len(t.Compactions)}
		for _, e := range t.Events {
			if ts := e.Header().TS; ts != "" {
				if si.Start.IsZero() {
					si.Start, _ = time.Parse(time.RFC3339Nano, ts)
				}
				si.Updated, _ = time.Parse(time.RFC3339Nano, ts)
			}
			if m, ok := e.(*model.Message); ok && m.Role == model.RoleUser && si.Title == "" {
				si.Title = kit.FirstLine(m.Text, 80)
			}
		}
		return si, nil
	}
	if !st.IsDir() {
		si, err := describe(path)
		if err != nil {
			return nil, err
		}
		return []registry.SessionInfo{si}, nil
	}
	var out []registry.SessionInfo
	var errs []error
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".jsonl") {
			return nil
		}
		head, err := kit.Sniff(p, 4<<10)
		if err != nil || !Detect(p, head, false) || Owner(p) != "" {
			return nil // a resume's stub is listed by its session's file
		}
		si, err := describe(p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		out = append(out, si)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return out, errors.Join(errs...)
}
