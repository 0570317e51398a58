package replay

import (
	"fmt"

	"github.com/loupe-dev/loupe/model"
)

// Codex writes t as a Codex CLI rollout ($CODEX_HOME/sessions/.../rollout-
// *.jsonl): a session_meta line, response_item messages, function_call and
// function_call_output lines (outputs in the {"output","metadata":
// {"exit_code"}} form, so a failed call reads as failed), plan updates as
// update_plan calls, and each compaction as a local compacted line with its
// summary and the context_compacted event after it. A plan update takes a
// call and its output, two lines of their own: in a Codex replay the turns
// after each plan update are two later than in the run.
func Codex(t *model.Transcript, session, cwd string) []Record {
	var out []Record
	add := func(seq int, ts, typ string, payload any) {
		if ts == "" {
			ts = "2026-11-02T09:00:00.000Z"
		}
		out = append(out, Record{Line: mustJSON(map[string]any{"timestamp": ts, "type": typ, "payload": payload}), Seq: seq})
	}
	add(0, "", "session_meta", map[string]any{"id": session, "timestamp": "2026-11-02T09:00:00.000Z", "cwd": cwd,
		"originator": "codex_cli_rs", "cli_version": "0.149.0", "source": "cli", "model_provider": "openai"})
	var plans planList
	for i, e := range t.Events {
		ts := e.Header().TS
		switch ev := e.(type) {
		case *model.Message:
			role, kind := "user", "input_text"
			switch ev.Role {
			case model.RoleAssistant:
				role, kind = "assistant", "output_text"
			case model.RoleSystem:
				role = "developer"
			}
			add(0, ts, "response_item", map[string]any{"type": "message", "role": role,
				"content": []map[string]string{{"type": kind, "text": ev.Text}}})
		case *model.ToolCall:
			add(0, ts, "response_item", map[string]any{"type": "function_call", "name": ev.Name,
				"arguments": string(rawInput(ev)), "call_id": ev.ID})
		case *model.ToolResult:
			code := 0
			if ev.IsError {
				code = 1
			}
			// Codex writes "output" first; the importer reads this form by it.
			output := fmt.Sprintf(`{"output":%s,"metadata":{"exit_code":%d,"duration_seconds":0.1}}`, mustJSON(text(ev.Text)), code)
			add(0, ts, "response_item", map[string]any{"type": "function_call_output", "call_id": ev.ID, "output": output})
		case *model.Plan:
			plans.apply(ev)
			var steps []map[string]string
			for _, it := range plans.list() {
				steps = append(steps, map[string]string{"step": it.Text, "status": string(it.Status)})
			}
			id := fmt.Sprintf("call_plan_%d", i)
			add(0, ts, "response_item", map[string]any{"type": "function_call", "name": "update_plan",
				"arguments": string(mustJSON(map[string]any{"plan": steps})), "call_id": id})
			add(0, ts, "response_item", map[string]any{"type": "function_call_output", "call_id": id, "output": "Plan updated"})
		case *model.Compaction:
			add(ev.Seq, ts, "compacted", map[string]any{"message": ev.Summary})
			add(ev.Seq, ts, "event_msg", map[string]any{"type": "context_compacted"})
		}
	}
	return out
}
