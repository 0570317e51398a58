package pi

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// branches is what a first import of a branched session found: the ids on
// the path to the last entry, and how many entries are not on it.
type branches struct {
	on  map[string]bool
	off int
}

type importer struct {
	b    *kit.Builder
	p    fastjson.Parser
	lazy kit.Lazy     // large outputs and inputs stay on disk
	comp kit.Composer // measures an output without decoding it
	br   *branches    // nil: every entry is taken
	tree tree

	idx     int            // index of the next record (the header is 0, as in firstKeptEntryIndex)
	kept    []string       // by record index: the ref of a conversation entry that made events, else ""
	idIndex map[string]int // entry id -> record index

	// The record being mapped.
	l       kit.Line
	k       int // its position among the records of its line
	seg     []byte
	ref, ts string
	started bool // it has started a turn

	headers                     int
	version                     int
	session, cwd, agent, title  string
	parentSession, branchedFrom string
	warnedOff                   bool
	needAfter                   *model.Compaction
}

func newImporter(b *kit.Builder, z kit.Lazy, br *branches) *importer {
	b.Lazy = z
	return &importer{b: b, lazy: z, br: br, idIndex: map[string]int{}}
}

// line maps every record of a physical line.
func (imp *importer) line(l kit.Line) {
	imp.b.At(l.N, l.Off)
	last := !l.Terminated // only the last line can lack its newline
	if v, err := imp.p.ParseBytes(l.B); err == nil {
		imp.record(v, l, 0, l.B)
		return
	}
	segs := splitLine(l.B)
	if len(segs) == 1 {
		imp.b.BadLine(l, last)
		return
	}
	k := 0
	for _, s := range segs {
		b := l.B[s.start:s.end]
		if !s.bad {
			if v, err := imp.p.ParseBytes(b); err == nil {
				imp.record(v, l, k, b)
				k++
				continue
			}
		}
		imp.badRun(l, s, k, last && s.end == len(l.B))
	}
}

// badRun records bytes of a line that holds records but are not one: an
// error, or a warning for a record cut off at the end of the file.
func (imp *importer) badRun(l kit.Line, s segment, after int, truncated bool) {
	b := l.B[s.start:s.end]
	msg, col := kit.SyntaxError(b)
	if json.Valid(b) {
		msg, col = "JSON, but not an object", 0
	}
	p := &model.Problem{Severity: model.Error, File: imp.b.File, Line: l.N, Column: s.start + max(col, 1),
		Msg: fmt.Sprintf("bytes %d-%d of the line, after %d %s, are not a pi entry: %s", s.start+1, s.end, after, plural(after, "record", "records"), msg)}
	reason := "not a pi entry (bytes in a line that holds records)"
	if truncated {
		p.Severity = model.Warning
		p.Msg = "truncated last record (no newline at end of file; was the writer interrupted?): " + msg
		reason = "truncated last record"
	}
	imp.b.T.Problems = append(imp.b.T.Problems, p)
	imp.b.At(l.N, l.Off)
	r := &model.Raw{Reason: reason, JSON: model.NewText(kit.ValidString(b)), Problem: p}
	imp.b.Add(r)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// add appends e as an event of the current record: the record's first
// event starts a turn, and every one carries its timestamp and ref.
func (imp *importer) add(e model.Event) {
	if !imp.started {
		imp.started = true
		imp.b.NextTurn()
	}
	h := e.Header()
	if h.TS == "" {
		h.TS = imp.ts
	}
	if h.Ref == "" {
		h.Ref = imp.ref
	}
	imp.b.Add(e)
}

// raw keeps the current record as a raw event, with the reason. A record
// that is a whole line stays on disk when it is large.
func (imp *importer) raw(typ, reason string) *model.Raw {
	if imp.k == 0 && len(imp.seg) == len(imp.l.B) {
		return imp.rawJSON(typ, reason, imp.lazy.Line(imp.l))
	}
	return imp.rawJSON(typ, reason, model.NewText(kit.ValidString(imp.seg)))
}

// rawJSON is raw for a part of the record (a content block).
func (imp *importer) rawJSON(typ, reason string, data model.Text) *model.Raw {
	r := &model.Raw{Type: typ, Reason: reason, JSON: data}
	imp.add(r)
	return r
}

// warn records a warning about a field of the current record.
func (imp *importer) warn(typ, field, format string, args ...any) {
	imp.b.Problem(model.Warning, typ, field, format, args...)
}

// record maps one record, the k-th of line l (seg is its bytes).
func (imp *importer) record(v *fastjson.Value, l kit.Line, k int, seg []byte) {
	imp.l, imp.k, imp.seg = l, k, seg
	imp.started = false
	imp.ref, imp.ts = "", ""
	if v.Type() != fastjson.TypeObject {
		msg := "a pi entry must be a JSON object"
		p := imp.b.Problem(model.Error, "", "", "%s", msg)
		imp.raw("", msg).Problem = p
		return
	}
	typ := kit.Str(v, "type")
	id := kit.Str(v, "id")
	parent := kit.Str(v, "parentId")
	imp.ts = kit.Str(v, "timestamp")
	idx := imp.idx
	imp.idx++
	imp.kept = append(imp.kept, "")
	if typ == "session" {
		imp.header(v)
		return
	}
	if idx == 0 {
		imp.warn(typ, "type", "the file does not start with a session header")
	}
	imp.ref = id
	if id == "" {
		imp.ref = "E" + strconv.Itoa(idx)
	} else {
		imp.tree.add(id, parent, v.Exists("parentId"))
		imp.idIndex[id] = idx
	}
	if imp.br != nil && id != "" && !imp.br.on[id] {
		imp.offBranch(typ)
		return
	}
	conversation := true
	switch typ {
	case "message":
		imp.message(v)
	case "compaction":
		imp.compaction(v, idx)
		conversation = false
	case "branch_summary":
		imp.add(&model.Message{Role: model.RoleSystem, Text: kit.Str(v, "summary")})
	case "custom_message":
		imp.add(&model.Message{Role: model.RoleSystem, Text: contentText(v.Get("content"))})
	case "thinking_level_change", "model_change", "label":
		imp.b.Skip(typ)
	case "custom":
		imp.b.Skip("custom (extension state)")
	case "session_info":
		if n := kit.Str(v, "name"); n != "" {
			imp.title = n
		}
		imp.b.Skip(typ)
	default:
		imp.raw(typ, fmt.Sprintf("unknown pi entry type %q", short(typ)))
	}
	if conversation && imp.started {
		imp.kept[idx] = imp.ref
	}
}

func (imp *importer) offBranch(typ string) {
	if !imp.warnedOff {
		imp.warnedOff = true
		imp.warn(typ, "parentId", "the session branches (pi /tree): this entry and %d more are not on the branch that ends at the last entry; "+
			"they are kept as raw events, outside the conversation", imp.br.off-1)
	}
	imp.raw(typ, "on another branch of the session (pi /tree): not in the context of the branch imported, the one that ends at the last entry")
}

func (imp *importer) header(v *fastjson.Value) {
	imp.headers++
	if imp.headers > 1 {
		imp.warn("session", "", "a second session header; it is ignored")
		imp.raw("session", "a second session header")
		return
	}
	imp.session = kit.Str(v, "id")
	imp.cwd = kit.Str(v, "cwd")
	imp.version = kit.Int(v, "version")
	if imp.version == 0 {
		imp.version = 1
	}
	imp.agent = kit.Str(v, "modelId")
	imp.parentSession = kit.Str(v, "parentSession")
	imp.branchedFrom = kit.Str(v, "branchedFrom")
	if imp.ts == "" {
		imp.ts = kit.Str(v, "timestamp")
	}
	imp.b.T.Meta.TS = imp.ts
}

func (imp *importer) finish() {
	m := &imp.b.T.Meta
	m.Source = Name
	m.Run = imp.session
	m.Agent = imp.agent
	imp.b.SetExtra("cwd", imp.cwd)
	if imp.version > 0 {
		imp.b.SetExtra("session_version", strconv.Itoa(imp.version))
	}
	imp.b.SetExtra("parent_session", imp.parentSession)
	imp.b.SetExtra("branched_from", imp.branchedFrom)
	imp.b.SetExtra("title", imp.title)
}
