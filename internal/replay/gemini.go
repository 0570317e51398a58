package replay

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// Gemini writes t as a Gemini CLI chat recording
// (~/.gemini/tmp/<project>/chats/session-*.jsonl): a metadata line, user and
// gemini message records, each tool call as a gemini record whose call is
// still executing, written again with its result when the result comes (so
// call and result keep their own turns), plan updates as a write_todos call
// on the record of the message they share a turn with, and each compaction
// as a $set checkpoint whose first message is the <state_snapshot> summary
// and the info line Gemini CLI writes after it.
func Gemini(t *model.Transcript, session string) []Record {
	w := &gemWriter{calls: map[string]map[string]any{}}
	w.add(0, map[string]any{"sessionId": session, "projectHash": strings.Repeat("0", 64),
		"startTime": "2026-11-02T09:00:00.000Z", "lastUpdated": "2026-11-02T09:00:00.000Z", "kind": "main"})
	for i, e := range t.Events {
		w.event(i, e)
	}
	w.flush()
	return w.out
}

type gemWriter struct {
	out   []Record
	n     int
	calls map[string]map[string]any // call id -> its record, to write again with the result
	held  map[string]any            // a gemini text record not written yet: a plan update at its turn joins it
	heldT int
	plans planList
}

func (w *gemWriter) flush() {
	if w.held != nil {
		w.add(0, w.held)
		w.held = nil
	}
}

func (w *gemWriter) add(seq int, m map[string]any) {
	w.out = append(w.out, Record{Line: mustJSON(m), Seq: seq})
}

func (w *gemWriter) id() string {
	w.n++
	return fmt.Sprintf("m%05d", w.n)
}

func (w *gemWriter) event(i int, e model.Event) {
	ts := e.Header().TS
	if pl, ok := e.(*model.Plan); !ok || w.held == nil || pl.Turn != w.heldT {
		w.flush()
	}
	switch ev := e.(type) {
	case *model.Message:
		typ := "user"
		if ev.Role == model.RoleAssistant {
			typ = "gemini"
		}
		rec := map[string]any{"id": w.id(), "timestamp": ts, "type": typ, "content": []map[string]string{{"text": ev.Text}}}
		if typ == "gemini" {
			rec["model"] = "gemini-2.5-pro"
			w.held, w.heldT = rec, ev.Turn
			return
		}
		w.add(0, rec)
	case *model.ToolCall:
		call := map[string]any{"id": ev.ID, "name": ev.Name, "args": rawInput(ev), "status": "executing", "timestamp": ts}
		rec := map[string]any{"id": w.id(), "timestamp": ts, "type": "gemini", "content": []map[string]string{},
			"toolCalls": []map[string]any{call}, "model": "gemini-2.5-pro"}
		w.calls[ev.ID] = rec
		w.add(0, rec)
	case *model.ToolResult:
		rec := w.calls[ev.ID]
		if rec == nil {
			return
		}
		call := rec["toolCalls"].([]map[string]any)[0]
		call["status"] = "success"
		if ev.IsError {
			call["status"] = "error"
		}
		call["result"] = []map[string]any{{"functionResponse": map[string]any{"id": ev.ID, "name": call["name"],
			"response": map[string]string{"output": text(ev.Text)}}}}
		w.add(0, rec)
	case *model.Plan:
		w.plans.apply(ev)
		w.todos(i, ev)
	case *model.Compaction:
		summary := ev.Summary
		if !strings.Contains(summary, "<state_snapshot>") {
			summary = "<state_snapshot>\n" + summary + "\n</state_snapshot>"
		}
		set := map[string]any{"$set": map[string]any{"messages": []map[string]any{
			{"id": w.id(), "timestamp": ts, "type": "user", "content": []map[string]string{{"text": summary}}},
			{"id": w.id(), "timestamp": ts, "type": "gemini", "content": []map[string]string{{"text": "Got it. Thanks for the additional context!"}}},
		}, "lastUpdated": ts}}
		w.add(ev.Seq, set)
		w.add(ev.Seq, map[string]any{"id": w.id(), "timestamp": ts, "type": "info", "content": "Context compressed from 90% to 10%."})
	}
}

// todos writes a plan update as a write_todos call: on the held gemini
// record of the message at the same turn, or on a record of its own.
func (w *gemWriter) todos(i int, pl *model.Plan) {
	var todos []map[string]string
	for _, it := range w.plans.list() {
		todos = append(todos, map[string]string{"description": it.Text, "status": string(it.Status)})
	}
	id := fmt.Sprintf("write_todos_%d", i)
	call := map[string]any{"id": id, "name": "write_todos", "args": map[string]any{"todos": todos}, "status": "success",
		"result": []map[string]any{{"functionResponse": map[string]any{"id": id, "name": "write_todos", "response": map[string]string{"output": "Todos updated"}}}}}
	if w.held != nil && w.heldT == pl.Turn {
		w.held["toolCalls"] = []map[string]any{call}
		w.flush()
		return
	}
	w.add(0, map[string]any{"id": w.id(), "timestamp": pl.TS, "type": "gemini", "content": []map[string]string{}, "toolCalls": []map[string]any{call}})
}
