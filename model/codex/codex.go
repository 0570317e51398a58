// Package codex imports OpenAI Codex CLI rollouts: the JSONL (optionally
// zstd- or gzip-compressed) that Codex appends under
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl.
//
// Every line is an envelope {timestamp, type, payload}. Conversation comes
// from response_item lines only; event_msg lines repeat it for the UI and are
// used only for markers (context_compacted) and token counts, so nothing is
// imported twice. A compaction is a compacted line: a local compaction keeps
// its summary in message; a remote (server-side) one keeps only an encrypted
// compaction item in replacement_history, which becomes an opaque compaction
// the verifier cannot read. The history before the compacted line stays in
// the file and is the compaction's source.
//
// Codex writes no ids on messages: their ref is their line number ("L12"),
// so that a compaction's Kept can name the messages replacement_history
// carried over verbatim. Calls and results keep their call_id.
//
// See shared/research/formats.md §2.
package codex

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Name is the format's name for --from.
const Name = "codex"

func init() {
	registry.Register(registry.Format{
		Name:        Name,
		Description: "OpenAI Codex CLI rollout JSONL, plain or .zst ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl)",
		Detect:      Detect,
		Open:        Open,
		Read:        Read,
		Scan:        Scan,
		Homes:       Homes,
	})
}

var envelopeTypes = map[string]bool{
	"session_meta": true, "response_item": true, "compacted": true, "turn_context": true, "event_msg": true,
}

// Detect accepts a file whose first line is a rollout envelope.
func Detect(_ string, head []byte, dir bool) bool {
	if dir {
		return false
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	var p fastjson.Parser
	for i, line := range bytes.Split(head, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		v, err := p.ParseBytes(line)
		if err != nil {
			// A first line longer than the head (session_meta carries the
			// whole base instructions).
			return i == 0 && bytes.HasPrefix(line, []byte(`{"timestamp":"`)) &&
				bytes.Contains(line[:min(len(line), 200)], []byte(`"type":"session_meta"`))
		}
		return v.Type() == fastjson.TypeObject && v.Exists("timestamp") && v.Exists("payload") &&
			envelopeTypes[string(v.GetStringBytes("type"))]
	}
	return false
}

// Homes returns $CODEX_HOME/sessions (default ~/.codex/sessions) and the
// archived sessions beside it.
func Homes() []string {
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		home = filepath.Join(h, ".codex")
	}
	return []string{filepath.Join(home, "sessions"), filepath.Join(home, "archived_sessions")}
}

var (
	runningRE = regexp.MustCompile(`Process running with session ID (\d+)`)
	legacyOut = []byte(`{"output":`)
)

// Prefixes of tool outputs that report a failure without an exit code.
var errorPrefixes = []string{
	"failed to parse function arguments", "unsupported call", "execution error:",
	"apply_patch verification failed", "Failed to apply patch", "error: ",
}

type importer struct {
	b    *kit.Builder
	p    fastjson.Parser
	lazy kit.Lazy     // large outputs and inputs stay on disk
	comp kit.Composer // measures an output without decoding it

	line    int
	ts      string
	started bool
	// inResponse: the last event added was the model's own output (its
	// text, a call it made), so the model's next output item continues the
	// same response and its turn (see add).
	inResponse bool
	calls      map[string]string // call id -> tool name
	execSess   map[string]string // call id -> unified-exec session id it polls (write_stdin)
	plan       kit.PlanList
	plans      map[string][]model.PlanItem // update_plan call id -> its list, applied at the result

	msgRefs     map[uint64][]string // hash of role+text -> refs of the messages with it
	lastUser    string              // text of the last user message
	sinceUser   int                 // tool outputs since the last user message
	asstSince   bool                // an assistant message since the last user message
	lastInput   int                 // input tokens of the last token_count
	needAfter   *model.Compaction   // waiting for the next non-zero token count
	lastCompIdx int                 // index of the last compaction, -1
	opaqueItem  *model.Compaction   // made from a response_item compaction, not yet confirmed by a compacted line
	lastAsst    *asstReply          // the last assistant message, while it may be the summarizer's reply

	version, session, model, cwd, originator, parent, forked string
}

// asstReply is an assistant message as it was added, with what the
// importer knew before it: Codex 0.171 writes the summarizer's reply as an
// assistant message just before the compacted line, and it is no part of
// the conversation.
type asstReply struct {
	m           *model.Message
	key         uint64
	inputBefore int
	asstBefore  bool
}

// Open imports a rollout file.
func Open(path string, opt model.ReadOptions) (*model.Transcript, error) {
	name := opt.Name
	if name == "" {
		name = path
	}
	r, z, closeFn, err := kit.OpenLazy(path, opt.LazyAbove, opt.Progress)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return read(r, z, path, name)
}

// Read imports a rollout from a stream of its (decompressed) content: a
// pipe, which can be read only once. Everything stays in memory.
func Read(r io.Reader, opt model.ReadOptions) (*model.Transcript, error) {
	return read(r, kit.Lazy{}, opt.Name, opt.Name)
}

func read(r io.Reader, z kit.Lazy, path, name string) (*model.Transcript, error) {
	imp := &importer{
		b:           kit.NewBuilder(path, name),
		calls:       map[string]string{},
		execSess:    map[string]string{},
		plans:       map[string][]model.PlanItem{},
		msgRefs:     map[uint64][]string{},
		lastCompIdx: -1,
		lazy:        z,
	}
	imp.b.Lazy = z
	n, err := kit.ReadLines(r, func(l kit.Line) error {
		// Only the last line can lack its newline.
		imp.lineOf(l, !l.Terminated)
		imp.comp.Release()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	imp.finishMeta()
	return imp.b.Finish(n), nil
}

// add appends an event of the current line, opening the line's turn. A
// turn is one model response, as Claude Code's importer reads a message id:
// Codex writes a response's text and each call it makes as lines of their
// own, and a promise narrated in the text and carried out by the call beside
// it is one response ("I'll run the tests" + the test command), not a
// promise left open. Anything else (a call's output, a user message, a
// compaction) ends the response.
func (imp *importer) add(e model.Event) {
	if !imp.started {
		imp.started = true
		out := modelOutput(e)
		if !out || !imp.inResponse {
			imp.b.NextTurn()
		}
		imp.inResponse = out
	}
	if h := e.Header(); h.TS == "" {
		h.TS = imp.ts
	}
	imp.b.Add(e)
	if _, ok := e.(*model.Compaction); !ok {
		imp.opaqueItem = nil
	}
}

// modelOutput reports whether e is what a model response writes: the
// assistant's text or a call it makes.
func modelOutput(e model.Event) bool {
	switch x := e.(type) {
	case *model.Message:
		return x.Role == model.RoleAssistant
	case *model.ToolCall:
		return true
	}
	return false
}

func (imp *importer) lineOf(l kit.Line, last bool) {
	imp.b.At(l.N, l.Off)
	imp.line = l.N
	imp.started = false
	v, err := imp.p.ParseBytes(l.B)
	if err != nil || v.Type() != fastjson.TypeObject {
		imp.b.BadLine(l, last)
		return
	}
	imp.ts = kit.Str(v, "timestamp")
	typ := kit.Str(v, "type")
	pl := v.Get("payload")
	switch typ {
	case "session_meta":
		imp.sessionMeta(pl)
	case "turn_context":
		if m := kit.Str(pl, "model"); m != "" && imp.model == "" {
			imp.model = m
		}
		imp.b.Skip("turn_context")
	case "world_state", "token_usage_record":
		// 0.171: the settings the turn ran with, and the usage of each model
		// call (the token_count events carry the same numbers).
		imp.b.Skip(typ)
	case "response_item":
		imp.responseItem(pl, l)
	case "compacted":
		imp.compacted(pl)
	case "event_msg":
		imp.eventMsg(pl, l)
	default:
		imp.b.RawLine(typ, fmt.Sprintf("unknown rollout line type %q", typ), l)
	}
}

func (imp *importer) sessionMeta(pl *fastjson.Value) {
	if imp.session == "" {
		imp.session = kit.Str(pl, "id")
	}
	if v := kit.Str(pl, "cli_version"); v != "" {
		imp.version = v
	}
	imp.cwd = kit.Str(pl, "cwd")
	imp.originator = kit.Str(pl, "originator")
	imp.forked = kit.Str(pl, "forked_from_id")
	if src := pl.Get("source"); src != nil && src.Type() == fastjson.TypeObject {
		// A sub-agent's rollout: {"subagent": "review"|...}
		imp.parent = kit.JSON(src)
	}
}

func (imp *importer) finishMeta() {
	m := &imp.b.T.Meta
	m.Source = Name
	if imp.version != "" {
		m.Source += " " + imp.version
	}
	m.Run = imp.session
	m.Agent = imp.model
	imp.b.SetExtra("cwd", imp.cwd)
	imp.b.SetExtra("originator", imp.originator)
	imp.b.SetExtra("forked_from", imp.forked)
	imp.b.SetExtra("subagent_source", imp.parent)
}

// messageText flattens a message's content items.
func messageText(content *fastjson.Value) string {
	var k kit.Composer
	composeMessage(&k, content)
	return k.String()
}

// composeMessage adds the flattened content items to k: a string as it is,
// items one per line (their text, "[image]" or "[type]").
func composeMessage(k *kit.Composer, content *fastjson.Value) {
	if k.Str(content) {
		return
	}
	for _, it := range kit.Array(content) {
		if !k.Empty() {
			k.Lit("\n")
		}
		switch t := kit.Str(it, "type"); t {
		case "input_text", "output_text", "text", "summary_text":
			k.Str(it.Get("text"))
		case "input_image", "output_image", "image":
			k.Lit("[image]")
		default:
			k.Lit("[" + t + "]")
		}
	}
}

// Context Codex injects as user or developer messages: not the user's words.
var injected = []string{
	"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<permissions instructions>",
	"<turn_aborted>", "<subagent_notification>",
}

func role(r, text string) model.Role {
	switch r {
	case "assistant":
		return model.RoleAssistant
	case "user":
		t := strings.TrimLeft(text, " \t\r\n")
		for _, p := range injected {
			if strings.HasPrefix(t, p) {
				return model.RoleSystem
			}
		}
		return model.RoleUser
	}
	return model.RoleSystem
}

func msgKey(role model.Role, text string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(role))
	h.Write([]byte{0})
	h.Write([]byte(text))
	return h.Sum64()
}

func (imp *importer) ref() string { return "L" + strconv.Itoa(imp.line) }

func (imp *importer) responseItem(pl *fastjson.Value, l kit.Line) {
	switch t := kit.Str(pl, "type"); t {
	case "message":
		text := messageText(pl.Get("content"))
		r := role(kit.Str(pl, "role"), text)
		m := &model.Message{Role: r, Text: text, Commentary: r == model.RoleAssistant && kit.Str(pl, "phase") == "commentary"}
		m.Ref = imp.ref()
		imp.add(m)
		k := msgKey(r, text)
		imp.msgRefs[k] = append(imp.msgRefs[k], m.Ref)
		imp.lastAsst = nil
		if r == model.RoleAssistant {
			imp.lastAsst = &asstReply{m: m, key: k, inputBefore: imp.lastInput, asstBefore: imp.asstSince}
		}
		switch r {
		case model.RoleUser:
			imp.lastUser, imp.sinceUser, imp.asstSince = text, 0, false
		case model.RoleAssistant:
			imp.asstSince = true
		}
	case "reasoning":
		imp.b.Skip("reasoning")
	case "function_call":
		id, name := kit.Str(pl, "call_id"), kit.Str(pl, "name")
		imp.call(id, name, callInput(t, pl), l)
		switch name {
		case "update_plan", "write_stdin":
			var p fastjson.Parser
			av, err := p.Parse(kit.Str(pl, "arguments"))
			switch {
			case err != nil:
			case name == "update_plan":
				imp.plans[id] = planItems(av)
			default:
				if s := kit.ID(av, "session_id"); s != "" {
					imp.execSess[id] = s
				}
			}
		}
	case "custom_tool_call":
		imp.call(kit.Str(pl, "call_id"), kit.Str(pl, "name"), callInput(t, pl), l)
	case "local_shell_call":
		id := kit.Str(pl, "call_id")
		if id == "" {
			id = kit.Str(pl, "id")
		}
		imp.call(id, "local_shell", callInput(t, pl), l)
	case "web_search_call":
		// The search runs on the server; its results are not written.
		id := kit.Str(pl, "id")
		if id == "" {
			id = "web_search@" + imp.ref()
		}
		imp.call(id, "web_search", callInput(t, pl), l)
		// It ran inside the response that wrote it: with no status it is
		// done, not in flight.
		if st := kit.Str(pl, "status"); st == "" || st == "completed" || st == "failed" {
			if st == "" {
				st = "done"
			}
			r := &model.ToolResult{ID: id, IsError: st == "failed", Text: model.NewText("(web search " + st + "; Codex does not record its results)")}
			r.Ref = id
			imp.add(r)
		}
	case "function_call_output", "custom_tool_call_output":
		imp.output(kit.Str(pl, "call_id"), pl.Get("output"), l)
	case "ghost_snapshot":
		imp.b.Skip("ghost_snapshot")
	case "compaction", "compaction_summary":
		// A server-side compaction returned in the response stream.
		c := &model.Compaction{Trigger: "auto", Opaque: true}
		c.Ref = imp.ref()
		imp.compaction(c)
		imp.opaqueItem = c
	default:
		imp.b.RawLine("response_item", fmt.Sprintf("unknown response item type %q", t), l)
	}
}

// callInput is the input of a call item of type t as loupe stores it:
// function arguments as compact JSON (or, when they are not JSON, as a JSON
// string), a custom tool's input as a JSON string, an action's JSON.
func callInput(t string, pl *fastjson.Value) string {
	switch t {
	case "function_call":
		args := kit.Str(pl, "arguments")
		input, ok := kit.CompactJSON(args)
		if !ok {
			input = string(kit.AppendJSONString(nil, args))
		}
		return input
	case "custom_tool_call":
		return string(kit.AppendJSONString(nil, kit.Str(pl, "input")))
	}
	if a := pl.Get("action"); a != nil {
		return kit.JSON(a)
	}
	return "{}"
}

// inputAt makes a call's input again from its line.
func inputAt(line []byte) (string, error) {
	var p fastjson.Parser
	v, err := p.ParseBytes(line)
	if err != nil {
		return "", err
	}
	pl := v.Get("payload")
	return callInput(kit.Str(pl, "type"), pl), nil
}

func (imp *importer) call(id, name, input string, l kit.Line) {
	imp.calls[id] = name
	c := &model.ToolCall{ID: id, Name: name, Input: imp.lazy.InputText(l, input, inputAt)}
	c.Ref = id
	imp.add(c)
}

func planItems(args *fastjson.Value) []model.PlanItem {
	var items []model.PlanItem
	for _, s := range kit.Array(args, "plan") {
		text := kit.Str(s, "step")
		items = append(items, model.PlanItem{ID: text, Text: text, Status: kit.Status(kit.Str(s, "status"))})
	}
	return items
}

// outputText reads a call output: a string (possibly the legacy
// {"output","metadata":{"exit_code"}} JSON), content items, or an object
// {content, success}. It reports whether the output says the call failed.
func outputText(out *fastjson.Value) (text string, failed bool) {
	if out == nil {
		return "", false
	}
	switch {
	case kit.IsString(out):
		text = kit.Str(out)
	case out.Type() == fastjson.TypeArray:
		text = messageText(out)
	case out.Type() == fastjson.TypeObject:
		if c := out.Get("content"); c != nil {
			text, _ = outputText(c)
		} else {
			text = kit.JSON(out)
		}
		if s := out.Get("success"); s != nil && s.Type() == fastjson.TypeFalse {
			return text, true
		}
	default:
		text = kit.JSON(out)
	}
	if strings.HasPrefix(text, string(legacyOut)) {
		var p fastjson.Parser
		if v, err := p.Parse(text); err == nil && v.Exists("output") {
			code := v.Get("metadata", "exit_code")
			inner := kit.Str(v, "output")
			if code != nil {
				n, _ := code.Int()
				return inner, n != 0
			}
			return inner, false
		}
	}
	return text, failedText(text)
}

// failedText reports whether an output's text says the call failed: a
// non-zero exit code near its start, or an error message. It reads no more
// than the first kit.ExitCodeScan bytes.
func failedText(text string) bool {
	if n, ok := kit.ExitCode(text); ok {
		return n != 0
	}
	for _, p := range errorPrefixes {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// outputAt makes a call output's text again from its line.
func outputAt(line []byte) (string, error) {
	var p fastjson.Parser
	v, err := p.ParseBytes(line)
	if err != nil {
		return "", err
	}
	text, _ := outputText(v.Get("payload", "output"))
	return text, nil
}

// runningLit is what runningRE needs in a text to match.
const runningLit = "Process running with session ID "

// outputOf returns the text of a call output of line l, whether the call
// failed, and probe: the text, or when it stays on disk undecoded its first
// kit.ExitCodeScan bytes. An output that is a string or content items (and
// not the legacy JSON wrapping) is measured first: a large one stays on disk
// without being decoded unless a running process's session id may be in it,
// and a small one is decoded once.
func (imp *importer) outputOf(out *fastjson.Value, l kit.Line) (text model.Text, failed bool, probe string) {
	k := &imp.comp
	k.Reset()
	composed := out != nil && k.Str(out)
	if !composed && out != nil && out.GetArray() != nil {
		composeMessage(k, out)
		composed = true
	}
	if composed && k.Valid() && !k.HasPrefix(string(legacyOut)) {
		if imp.lazy.Want(k.Upper()) && imp.lazy.Want(k.Len()) && !k.MayContain(runningLit) {
			probe = k.Head(kit.ExitCodeScan)
			return k.Text(imp.lazy, l, outputAt), failedText(probe), probe
		}
		s := k.String()
		return imp.lazy.Text(l, s, outputAt), failedText(s), s
	}
	s, failed := outputText(out)
	return imp.lazy.Text(l, s, outputAt), failed, s
}

func (imp *importer) output(id string, out *fastjson.Value, l kit.Line) {
	text, failed, probe := imp.outputOf(out, l)
	r := &model.ToolResult{ID: id, IsError: failed, Text: text}
	r.Ref = id
	// Unified exec: a process still running is a handle, named by its
	// session id; a later poll that shows it exited closes it. (When probe
	// is only the start of the text, the text has no runningLit.)
	if m := runningRE.FindStringSubmatch(probe); m != nil {
		r.Job = &model.Job{ID: m[1], State: model.JobRunning}
	} else if s, ok := imp.execSess[id]; ok {
		if _, exited := kit.ExitCode(probe); exited {
			r.Job = &model.Job{ID: s, State: model.JobDone}
		}
	}
	imp.sinceUser++
	imp.add(r)
	if items, ok := imp.plans[id]; ok {
		delete(imp.plans, id)
		if !failed {
			if upd := imp.plan.Update(items); len(upd) > 0 {
				imp.add(&model.Plan{Items: upd})
			}
		}
	}
}

func (imp *importer) trigger() string {
	u := strings.TrimSpace(imp.lastUser)
	switch {
	case !imp.asstSince && (u == "/compact" || strings.HasPrefix(u, "/compact ")):
		return "manual"
	case imp.sinceUser > 0 && !imp.asstSince:
		// In the middle of a turn, after tool output: auto-compaction.
		return "auto"
	}
	return ""
}

func (imp *importer) compaction(c *model.Compaction) {
	c.TokensBefore = imp.lastInput
	imp.add(c)
	imp.needAfter = c
	imp.lastCompIdx = c.Index
}

// dropSummarizerReply takes back the assistant message added last when it
// is the summarizer's reply to the compaction request: its text ends the
// compacted line's message (the summary, after Codex's prefix). What the
// importer knew before it is restored: the last input tokens are the
// conversation's, not the summarizer's call.
func (imp *importer) dropSummarizerReply(msg string) {
	a := imp.lastAsst
	imp.lastAsst = nil
	if a == nil || imp.b.Last() != model.Event(a.m) {
		return
	}
	text := strings.TrimSpace(a.m.Text)
	if text == "" || !strings.HasSuffix(strings.TrimSpace(msg), text) {
		return
	}
	imp.b.T.Events = imp.b.T.Events[:len(imp.b.T.Events)-1]
	if refs := imp.msgRefs[a.key]; len(refs) > 0 && refs[len(refs)-1] == a.m.Ref {
		imp.msgRefs[a.key] = refs[:len(refs)-1]
	}
	imp.lastInput, imp.asstSince = a.inputBefore, a.asstBefore
	imp.b.Skip("response_item/message (the summarizer's reply)")
}

func (imp *importer) compacted(pl *fastjson.Value) {
	msg := kit.Str(pl, "message")
	imp.dropSummarizerReply(msg)
	hist := kit.Array(pl, "replacement_history")
	opaque := false
	var refs []string
	for _, it := range hist {
		switch kit.Str(it, "type") {
		case "compaction", "compaction_summary":
			opaque = true
		case "message":
			text := messageText(it.Get("content"))
			r := role(kit.Str(it, "role"), text)
			if got := imp.msgRefs[msgKey(r, text)]; len(got) > 0 {
				refs = append(refs, got...)
			}
		case "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "local_shell_call":
			refs = append(refs, kit.Str(it, "call_id"))
		}
	}
	kept := kit.Kept(imp.b.T.Events, refs)
	if c := imp.opaqueItem; c != nil {
		// The compacted line that records the item already imported.
		c.Kept = kept
		if msg != "" {
			c.Summary, c.Opaque = msg, false
		}
		imp.opaqueItem = nil
		return
	}
	c := &model.Compaction{Trigger: imp.trigger(), Summary: msg, Kept: kept}
	c.Ref = "L" + strconv.Itoa(imp.line)
	if msg == "" && opaque {
		c.Opaque = true
	}
	imp.compaction(c)
	if msg == "" && !opaque {
		imp.b.Warn("compacted", "compaction %d: no summary message and no compaction item", c.Seq)
	}
}

func (imp *importer) eventMsg(pl *fastjson.Value, l kit.Line) {
	t := kit.Str(pl, "type")
	switch t {
	case "token_count":
		n := kit.Int(pl, "info", "last_token_usage", "input_tokens")
		if n > 0 {
			imp.lastInput = n
			if c := imp.needAfter; c != nil {
				c.TokensAfter = n
				imp.needAfter = nil
			}
		}
		imp.b.Skip("event_msg/token_count")
	case "context_compacted":
		if imp.lastCompIdx >= 0 && imp.lastCompIdx == len(imp.b.T.Events)-1 {
			imp.b.Skip("event_msg/context_compacted")
			return
		}
		// A marker with no compacted line before it: the compaction
		// happened, but its summary was not written.
		c := &model.Compaction{Trigger: imp.trigger()}
		c.Ref = "L" + strconv.Itoa(imp.line)
		imp.compaction(c)
		imp.b.Warn("event_msg", "compaction %d: context_compacted with no compacted line before it; no summary", c.Seq)
	case "thread_rolled_back":
		imp.b.RawLine("event_msg", "rollback: the last user turns left the agent's context, but loupe keeps them in the source", l)
	default:
		imp.b.Skip("event_msg/" + t)
	}
}

// Scan describes rollouts: one file, or every rollout under a directory
// (sessions/YYYY/MM/DD/...).
func Scan(path string) ([]registry.SessionInfo, error) {
	return kit.ScanPath(path, rollouts, scanFile)
}

// rollouts lists the rollout files under dir, in lexical order.
func rollouts(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasPrefix(d.Name(), "rollout-") {
			return nil
		}
		head, err := kit.Sniff(p, 4<<10)
		if err != nil || !Detect(p, head, false) {
			return nil
		}
		files = append(files, p)
		return nil
	})
	return files, err
}

func scanFile(path string) (registry.SessionInfo, error) {
	si := registry.SessionInfo{Path: path, Format: Name}
	compacted := false // a compacted line not yet followed by its context_compacted
	var err error
	si.Start, si.Updated, err = kit.ScanJSONLines(path, func(v *fastjson.Value) {
		pl := v.Get("payload")
		switch string(v.GetStringBytes("type")) {
		case "session_meta":
			if si.ID == "" {
				si.ID = string(pl.GetStringBytes("id"))
			}
		case "response_item":
			si.Turns++
			if string(pl.GetStringBytes("type")) == "message" && string(pl.GetStringBytes("role")) == "user" && si.Title == "" {
				text := messageText(pl.Get("content"))
				if role("user", text) == model.RoleUser {
					si.Title = kit.FirstLine(text, 80)
				}
			}
		case "compacted":
			si.Compactions++
			si.Turns++
			compacted = true
		case "event_msg":
			if string(pl.GetStringBytes("type")) == "context_compacted" {
				if !compacted {
					si.Compactions++
					si.Turns++
				}
				compacted = false
			}
		}
	})
	return si, err
}
