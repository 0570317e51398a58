package claudecode

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// callInfo is what the results of a call need to know about it.
type callInfo struct {
	name       string
	jobRef     string // the job a poll or kill call names
	background bool   // Bash with run_in_background
	todos      []model.PlanItem
	hasTodos   bool
	subject    string // TaskCreate / TaskUpdate
	taskID     string // TaskUpdate
	status     string // TaskUpdate
}

type emitter struct {
	imp  *importer
	b    *kit.Builder
	p    fastjson.Parser
	lazy kit.Lazy     // the current file's: large tool outputs stay on disk
	comp kit.Composer // measures a tool output without decoding it
	buf  []byte

	ref, ts    string
	started    bool // the current record has opened its turn
	continuing bool // the current record continues the previous assistant response
	asstMsgID  string
	asstEnd    int
	lastMsg    *model.Message
	lastMsgID  string

	calls      map[string]*callInfo
	jobCall    map[string]string // job id -> the call that started it
	callJob    map[string]string // call id -> the job it started
	jobClosed  map[string]bool   // jobs a result reported done or killed
	queued     []string          // prompts the user queued, not yet in the conversation
	todo       kit.PlanList
	sawTodo    bool // a TodoWrite call was seen: the todos field is not needed
	taskText   map[string]string
	taskStatus map[string]model.PlanStatus

	lastFull    int    // events since this index are in the context (since the last full compaction)
	lastFullRef string // that compaction's ref: its summary is still in the context
	clearedIDs  map[string]bool
	waiting     map[int32][]waitingLine // record -> result lines emitted after it
	mergedRef   map[string]string       // uuid of a line merged into an earlier message -> that message's ref

	versions    []string
	models      []string
	session     string // the session id of the last file read
	fileSession string // of the current file
	agentID     string
	cwd         string
	branch      string
	title       string
	custom      string
}

func (imp *importer) emit() (*model.Transcript, error) {
	e := &emitter{
		imp:        imp,
		b:          kit.NewBuilder(imp.files[len(imp.files)-1], imp.name),
		calls:      map[string]*callInfo{},
		jobCall:    map[string]string{},
		callJob:    map[string]string{},
		jobClosed:  map[string]bool{},
		taskText:   map[string]string{},
		taskStatus: map[string]model.PlanStatus{},
		clearedIDs: map[string]bool{},
		mergedRef:  map[string]string{},
		waiting:    map[int32][]waitingLine{},
	}
	i := 0
	var total int64
	for fi, path := range imp.files {
		if len(imp.files) > 1 {
			e.b.File = path
		}
		e.fileSession = ""
		var base int64
		for _, sz := range imp.sizes[:fi] {
			base += sz
		}
		r, z, closeFn, err := kit.OpenLazy(path, imp.opt.LazyAbove, imp.progress(base, 1))
		if err != nil {
			return nil, err
		}
		e.lazy, e.b.Lazy = z, z
		// Lines the runtime appended since the first pass are not this
		// read's: they come with the next one.
		r = io.LimitReader(r, imp.read[fi])
		n, err := kit.ReadLines(r, func(l kit.Line) error {
			if i >= len(imp.recs) || imp.recs[i].file != int32(fi) || imp.recs[i].n != int32(l.N) {
				return fmt.Errorf("line %d changed while it was read", l.N)
			}
			e.inOrder(i, l)
			i++
			return nil
		})
		closeFn()
		total += n
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if i != len(imp.recs) {
		return nil, fmt.Errorf("%s: the file changed while it was read", imp.name)
	}
	if imp.tailBroken {
		e.b.At(0, 0)
		e.b.Warn("", "the conversation path after the last compaction breaks off at a line that is not in the file: rewound branches there, if any, are kept as conversation")
	}
	e.finishMeta()
	return e.b.Finish(total), nil
}

func (e *emitter) finishMeta() {
	m := &e.b.T.Meta
	m.Source = Name
	if len(e.versions) > 0 {
		m.Source += " " + e.versions[0]
		if len(e.versions) > 1 {
			m.Source += "–" + e.versions[len(e.versions)-1]
		}
	}
	m.Run = e.session
	if len(e.models) > 0 {
		m.Agent = e.models[0]
	}
	e.b.SetExtra("cwd", e.cwd)
	e.b.SetExtra("git_branch", e.branch)
	if e.custom != "" {
		e.b.SetExtra("title", e.custom)
	} else {
		e.b.SetExtra("title", e.title)
	}
	if e.imp.subagent {
		// A sub-agent's own transcript: its lines carry the parent's
		// session id.
		e.b.SetExtra("parent_session", e.session)
		if e.agentID != "" {
			m.Run = e.agentID
		}
	}
	if len(e.imp.files) > 1 {
		e.b.SetExtra("files", strings.Join(baseNames(e.imp.files), " "))
	}
}

// inOrder emits record i, read from line l, in the conversation's order
// (see callOrder): the call lines that belong before it first; then the
// record itself, unless it waits for a call written after it or was moved up;
// then the result lines that were waiting for it.
func (e *emitter) inOrder(i int, l kit.Line) {
	o := &e.imp.order
	k := int32(i)
	for _, c := range o.before[k] {
		e.record(int(c), o.held[c])
		e.comp.Release()
	}
	switch {
	case o.moved(k):
		delete(o.held, k)
	case o.after[k] > k:
		held := l
		held.B = bytes.Clone(l.B)
		e.waiting[o.after[k]] = append(e.waiting[o.after[k]], waitingLine{i, held})
	default:
		e.record(i, l)
		e.comp.Release()
	}
	for _, w := range e.waiting[k] {
		e.record(w.rec, w.line)
		e.comp.Release()
	}
	delete(e.waiting, k)
}

// waitingLine is a result line held back until its call is emitted.
type waitingLine struct {
	rec  int
	line kit.Line
}

// add appends an event of the current record, opening the record's turn.
func (e *emitter) add(ev model.Event) {
	if !e.started {
		e.started = true
		if !e.continuing {
			e.b.NextTurn()
		}
	}
	h := ev.Header()
	if h.Ref == "" {
		h.Ref = e.ref
	}
	if h.TS == "" {
		h.TS = e.ts
	}
	e.b.Add(ev)
}

func (e *emitter) record(i int, l kit.Line) {
	imp := e.imp
	rc := &imp.recs[i]
	e.b.At(l.N, l.Off)
	e.started, e.continuing = false, false
	switch {
	case rc.act == aDup:
		e.b.Skip("duplicate line (uuid already read)")
		return
	case rc.act == aSummary:
		return // its text is the compaction's summary
	case rc.kind == kBroken:
		e.b.BadLine(l, !l.Terminated)
		return
	}
	v, err := e.p.ParseBytes(l.B)
	if err != nil {
		e.b.BadLine(l, !l.Terminated)
		return
	}
	typ := kit.Str(v, "type")
	e.ref, e.ts = rc.uuid, kit.Str(v, "timestamp")
	if rc.kind == kUser || rc.kind == kAssistant || rc.kind == kSystem {
		e.context(v)
	}
	switch {
	case rc.act == aBoundary:
		e.compaction(imp.bnds[rc.bnd-1], v)
		return
	case rc.act == aOffBranch:
		reason := "off the conversation path: a branch abandoned by a rewind, not in the agent's context"
		if rc.bnd > 0 {
			reason = fmt.Sprintf("off the path to compaction %d: a branch abandoned by a rewind, not in the context it summarised", rc.bnd)
		}
		e.b.RawLine(typ, reason, l)
		return
	case !imp.main(i):
		e.b.Skip("sidechain line (a sub-agent's own context)")
		return
	}
	switch rc.kind {
	case kUser:
		e.user(v, l)
	case kAssistant:
		e.continuing = rc.msgID != "" && rc.msgID == e.asstMsgID && len(e.b.T.Events) == e.asstEnd
		e.assistant(v, rc.msgID, l)
		e.asstMsgID, e.asstEnd = rc.msgID, len(e.b.T.Events)
	case kSystem:
		e.system(v, l)
	case kProgress:
		if !e.subagentTasks(v) {
			e.b.Skip("progress")
		}
	case kAttachment:
		e.attachment(v, l)
	default:
		switch typ {
		case "summary":
			e.title = kit.Str(v, "summary")
			e.b.Skip("session title")
		case "custom-title", "ai-title":
			for _, k := range []string{"customTitle", "aiTitle", "title", "summary"} {
				if s := kit.Str(v, k); s != "" {
					e.custom = s
					break
				}
			}
			e.b.Skip("session title")
		case "file-history-snapshot":
			e.b.Skip("file-history-snapshot")
		case "queue-operation":
			e.queueOperation(v)
		case "permission-mode", "last-prompt":
			// Session state (the permission mode, the prompt box's text),
			// not conversation.
			e.b.Skip(typ)
		case "atis-latch", "api-request-shape", "api-request-blob", "api-request", "tools-used", "cost-state", "mode":
			// 2.1.3xx bookkeeping: the requests as sent, their cost, the
			// tools used, the mode. What the model read is in the
			// conversation's own records; these are no part of its source.
			e.b.Skip(typ)
		case "":
			e.b.RawLine(typ, "a Claude Code record with no type", l)
		default:
			e.b.RawLine(typ, fmt.Sprintf("unknown Claude Code line type %q", typ), l)
		}
	}
}

// context collects what meta reports.
func (e *emitter) context(v *fastjson.Value) {
	if s := kit.Str(v, "version"); s != "" && !slices.Contains(e.versions, s) {
		e.versions = append(e.versions, s)
	}
	if e.fileSession == "" {
		e.fileSession = kit.Str(v, "sessionId")
		e.session = e.fileSession
	}
	if e.agentID == "" {
		e.agentID = kit.Str(v, "agentId")
	}
	if s := kit.Str(v, "cwd"); s != "" {
		e.cwd = s
	}
	if s := kit.Str(v, "gitBranch"); s != "" {
		e.branch = s
	}
}

func (e *emitter) system(v *fastjson.Value, l kit.Line) {
	sub := kit.Str(v, "subtype")
	switch sub {
	case "stop_hook_summary", "turn_duration", "local_command", "api_error", "informational",
		"away_summary", "memory_saved", "api_metrics", "agents_killed":
		e.b.Skip("system/" + sub)
	default:
		e.b.RawLine("system", fmt.Sprintf("unknown system subtype %q", sub), l)
	}
}

// Text that Claude Code injects into user turns: not the user's words.
var injectedPrefixes = []string{
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"<bash-stdout>", "<bash-stderr>", "<system-reminder>", "<user-prompt-submit-hook>",
}

func userRole(text string, meta bool) model.Role {
	if meta {
		return model.RoleSystem
	}
	t := strings.TrimLeft(text, " \t\r\n")
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(t, p) {
			return model.RoleSystem
		}
	}
	return model.RoleUser
}

func (e *emitter) user(v *fastjson.Value, l kit.Line) {
	meta := v.GetBool("isMeta")
	content := v.Get("message", "content")
	tur := v.Get("toolUseResult")
	switch {
	case content == nil:
	case kit.IsString(content):
		e.userText(kit.Str(content), meta)
	default:
		blocks := kit.Array(content)
		results := 0
		for _, blk := range blocks {
			if kit.Str(blk, "type") == "tool_result" {
				results++
			}
		}
		if results != 1 {
			tur = nil // it describes one result; which one would be a guess
		}
		var text strings.Builder
		var role model.Role
		flush := func() {
			if text.Len() > 0 {
				e.add(&model.Message{Role: role, Text: text.String()})
				text.Reset()
			}
		}
		for i, blk := range blocks {
			switch bt := kit.Str(blk, "type"); bt {
			case "text":
				s := kit.Str(blk, "text")
				if isNotice(s) {
					flush()
					e.userText(s, meta)
					continue
				}
				r := userRole(s, meta)
				if text.Len() > 0 && r != role {
					flush()
				}
				if text.Len() > 0 {
					text.WriteString("\n")
				}
				role = r
				text.WriteString(s)
			case "image", "document":
				if text.Len() == 0 {
					role = userRole("", meta)
				}
				if text.Len() > 0 {
					text.WriteString("\n")
				}
				text.WriteString("[" + bt + "]")
			case "tool_result":
				flush()
				e.toolResult(blk, tur, i, l)
			default:
				flush()
				e.b.RawText("user", fmt.Sprintf("unknown user content block %q", bt), kit.JSON(blk))
			}
		}
		flush()
	}
	if !e.sawTodo && kit.Has(v, "todos") {
		if items := todoItems(v.Get("todos")); !e.todo.Same(items) {
			if upd := e.todo.Update(items); len(upd) > 0 {
				e.add(&model.Plan{Items: upd})
			}
		}
	}
}

func (e *emitter) assistant(v *fastjson.Value, msgID string, l kit.Line) {
	msg := v.Get("message")
	if m := kit.Str(msg, "model"); m != "" && m != "<synthetic>" && !slices.Contains(e.models, m) {
		e.models = append(e.models, m)
	}
	apiErr := v.GetBool("isApiErrorMessage")
	content := msg.Get("content")
	if kit.IsString(content) {
		e.assistantText(kit.Str(content), msgID, apiErr)
		return
	}
	for i, blk := range kit.Array(content) {
		switch bt := kit.Str(blk, "type"); {
		case bt == "text":
			e.assistantText(kit.Str(blk, "text"), msgID, apiErr)
		case bt == "thinking" || bt == "redacted_thinking":
			e.b.Skip("thinking block")
		case bt == "tool_use" || bt == "server_tool_use" || bt == "mcp_tool_use":
			e.toolCall(blk, i, l)
		case strings.HasSuffix(bt, "_tool_result"):
			// A server tool's result comes back inside the response.
			c := blk.Get("content")
			isErr := kit.Bool(blk, "is_error") || strings.Contains(kit.Str(c, "type"), "error")
			t, _ := e.result(c, i, l, false)
			e.add(&model.ToolResult{ID: kit.Str(blk, "tool_use_id"), IsError: isErr, Text: t})
		default:
			e.b.RawText("assistant", fmt.Sprintf("unknown assistant content block %q", bt), kit.JSON(blk))
		}
	}
}

func (e *emitter) assistantText(s, msgID string, apiErr bool) {
	if apiErr {
		e.add(&model.Message{Role: model.RoleSystem, Text: s})
		return
	}
	// One response written as several lines (one per content block): its
	// consecutive text blocks read as one message.
	if e.lastMsg != nil && msgID != "" && e.lastMsgID == msgID && e.b.Last() == model.Event(e.lastMsg) {
		e.lastMsg.Text += "\n\n" + s
		if e.ref != e.lastMsg.Ref {
			e.mergedRef[e.ref] = e.lastMsg.Ref
		}
		return
	}
	m := &model.Message{Role: model.RoleAssistant, Text: s}
	e.add(m)
	e.lastMsg, e.lastMsgID = m, msgID
}

func (e *emitter) toolCall(blk *fastjson.Value, i int, l kit.Line) {
	id := kit.Str(blk, "id")
	name := kit.Str(blk, "name")
	in := blk.Get("input")
	c := newCallInfo(name, in)
	if name == "TodoWrite" {
		e.sawTodo = true
	}
	e.calls[id] = c
	e.add(&model.ToolCall{ID: id, Name: name, Input: e.input(in, i, l)})
}

// newCallInfo reads what the results of a call need to know from its input.
func newCallInfo(name string, in *fastjson.Value) *callInfo {
	c := &callInfo{name: name}
	for _, k := range []string{"task_id", "bash_id", "shell_id", "agentId", "agent_id"} {
		if s := kit.Str(in, k); s != "" {
			c.jobRef = s
			break
		}
	}
	c.background = kit.Bool(in, "run_in_background")
	switch name {
	case "TodoWrite":
		c.todos = todoItems(in.Get("todos"))
		c.hasTodos = kit.Has(in, "todos")
	case "TaskCreate":
		c.subject = kit.Str(in, "subject")
	case "TaskUpdate":
		c.taskID = kit.ID(in, "taskId")
		c.status = kit.Str(in, "status")
		c.subject = kit.Str(in, "subject")
	}
	return c
}

// inputText is a tool_use's input as loupe stores it: compact JSON.
func inputText(in *fastjson.Value) string {
	if in == nil {
		return "{}"
	}
	return kit.JSON(in)
}

// inputAt makes the input of the tool_use in block i again from its line,
// reading the fields newCallInfo reads first, as the import did (reading a
// value can change how fastjson writes it back).
func inputAt(i int) kit.Extract {
	key := strconv.Itoa(i)
	return func(line []byte) (string, error) {
		var p fastjson.Parser
		v, err := p.ParseBytes(line)
		if err != nil {
			return "", err
		}
		blk := v.Get("message", "content", key)
		in := blk.Get("input")
		newCallInfo(kit.Str(blk, "name"), in)
		return inputText(in), nil
	}
}

// input returns the input of the tool_use in block i of line l: on disk when
// it is very large (kit.Lazy.WantInput).
func (e *emitter) input(in *fastjson.Value, i int, l kit.Line) model.Text {
	if in == nil || !e.lazy.On() {
		return model.NewText(inputText(in))
	}
	e.buf = in.MarshalTo(e.buf[:0])
	defer func() {
		if cap(e.buf) > 1<<20 {
			e.buf = nil
		}
	}()
	b := e.buf
	if !e.lazy.WantInput(len(b)) || !utf8.Valid(b) {
		return e.lazy.InputText(l, kit.ValidString(b), inputAt(i))
	}
	return e.lazy.Parts(l, string(b[:model.HeadBytes+utf8.UTFMax]), string(b[len(b)-model.TailBytes-utf8.UTFMax:]), len(b), inputAt(i))
}
