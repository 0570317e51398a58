package replay

import (
	"fmt"

	"github.com/loupe-dev/loupe/model"
)

// ClaudeCode writes t as a Claude Code session file
// (~/.claude/projects/<project>/<session>.jsonl): user and assistant records
// chained by parentUuid, tool calls as tool_use blocks and their results as
// tool_result blocks, plan updates as the todos field of the next user
// record, and each compaction as a compact_boundary line and the
// isCompactSummary line after it, wrapped in Claude Code's preamble and
// trailer. path is the transcript path the trailer names.
func ClaudeCode(t *model.Transcript, session, cwd, path string) []Record {
	w := &ccWriter{session: session, cwd: cwd, path: path}
	for _, e := range t.Events {
		w.event(e)
	}
	return w.out
}

type ccWriter struct {
	session, cwd, path string
	out                []Record
	n                  int
	parent             string
	todos              planList
	todosDirty         bool
}

func (w *ccWriter) uuid() string {
	w.n++
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", len(w.session), w.n)
}

// base is what every conversation record carries.
func (w *ccWriter) base(typ, ts string) map[string]any {
	if ts == "" {
		ts = "2026-11-02T09:00:00Z"
	}
	m := map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": w.cwd,
		"sessionId": w.session, "version": "2.1.39", "gitBranch": "feature/orders-table", "type": typ, "timestamp": ts}
	if w.parent != "" {
		m["parentUuid"] = w.parent
	}
	return m
}

func (w *ccWriter) emit(m map[string]any, seq int) {
	id := w.uuid()
	m["uuid"] = id
	w.parent = id
	w.out = append(w.out, Record{Line: mustJSON(m), Seq: seq})
}

// user writes a user record, carrying the todo list when a plan changed.
func (w *ccWriter) user(ts string, content any, meta bool) {
	m := w.base("user", ts)
	m["message"] = map[string]any{"role": "user", "content": content}
	if meta {
		m["isMeta"] = true
	}
	if w.todosDirty {
		var todos []map[string]string
		for _, it := range w.todos.list() {
			todos = append(todos, map[string]string{"id": it.ID, "content": it.Text, "status": string(it.Status), "activeForm": it.Text})
		}
		m["todos"] = todos
		w.todosDirty = false
	}
	w.emit(m, 0)
}

func (w *ccWriter) assistant(ts string, content []map[string]any, stop string) {
	m := w.base("assistant", ts)
	m["message"] = map[string]any{"id": fmt.Sprintf("msg_%06d", w.n+1), "type": "message", "role": "assistant",
		"model": "claude-sonnet-4-5", "content": content, "stop_reason": stop,
		"usage": map[string]int{"input_tokens": 10, "output_tokens": 10}}
	m["requestId"] = fmt.Sprintf("req_%06d", w.n+1)
	w.emit(m, 0)
}

func (w *ccWriter) event(e model.Event) {
	ts := e.Header().TS
	switch ev := e.(type) {
	case *model.Message:
		switch ev.Role {
		case model.RoleAssistant:
			w.assistant(ts, []map[string]any{{"type": "text", "text": ev.Text}}, "end_turn")
		case model.RoleUser:
			w.user(ts, ev.Text, false)
		default:
			w.user(ts, ev.Text, true)
		}
	case *model.ToolCall:
		w.assistant(ts, []map[string]any{{"type": "tool_use", "id": ev.ID, "name": ev.Name, "input": rawInput(ev)}}, "tool_use")
	case *model.ToolResult:
		w.user(ts, []map[string]any{{"type": "tool_result", "tool_use_id": ev.ID, "content": text(ev.Text), "is_error": ev.IsError}}, false)
	case *model.Plan:
		w.todos.apply(ev)
		w.todosDirty = true
	case *model.Compaction:
		w.compaction(ev)
	}
}

func (w *ccWriter) compaction(c *model.Compaction) {
	b := w.base("system", c.TS)
	b["parentUuid"] = nil
	b["logicalParentUuid"] = w.parent
	b["subtype"] = "compact_boundary"
	b["content"] = "Conversation compacted"
	b["isMeta"] = false
	b["level"] = "info"
	trigger := c.Trigger
	if trigger != "manual" {
		trigger = "auto"
	}
	b["compactMetadata"] = map[string]any{"trigger": trigger, "preTokens": c.TokensBefore}
	w.emit(b, c.Seq)
	s := w.base("user", c.TS)
	s["message"] = map[string]any{"role": "user", "content": ClaudeSummary(c.Summary, w.path)}
	s["isVisibleInTranscriptOnly"] = true
	s["isCompactSummary"] = true
	w.emit(s, c.Seq)
}

// ClaudeSummary wraps a compactor's summary as Claude Code stores it: its
// preamble before, and the pointer to the transcript and the instruction to
// go on after.
func ClaudeSummary(summary, path string) string {
	return "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n" +
		summary +
		"\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: " + path +
		"\nPlease continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on."
}
