package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// ---- Anthropic Messages (Claude Code) ----

type block struct {
	kind  string // "text" or "tool_use"
	text  string
	name  string
	input map[string]any
}

// anthropicUserText is the user's own words in a message: its last text
// block that is not a system reminder or a local-command record (hook output
// arrives in those).
func anthropicUserText(msg map[string]any) string {
	var own []string
	switch c := msg["content"].(type) {
	case string:
		own = append(own, c)
	case []any:
		for _, b := range c {
			bm := obj(b)
			if str(bm, "type") != "text" {
				continue
			}
			t := str(bm, "text")
			lt := strings.TrimSpace(t)
			if strings.Contains(t, "<system-reminder>") || strings.HasPrefix(lt, "<local-command") || strings.HasPrefix(lt, "<command-") {
				continue
			}
			own = append(own, t)
		}
	}
	if len(own) == 0 {
		return ""
	}
	return strings.ToLower(own[len(own)-1])
}

func anthropicToolResult(msg map[string]any) (string, bool) {
	for _, b := range list(msg, "content") {
		bm := obj(b)
		if str(bm, "type") == "tool_result" {
			out := text(bm["content"])
			return strings.TrimSpace(strings.SplitN(out, "<system-reminder>", 2)[0]), true
		}
	}
	return "", false
}

// anthropicPlan ports fake_anthropic.py's script: the rule name, the
// reply's blocks and its stop reason.
func anthropicPlan(body map[string]any) (string, []block, string) {
	msgs := list(body, "messages")
	var last map[string]any
	if len(msgs) > 0 {
		last = obj(msgs[len(msgs)-1])
	}
	if last != nil && str(last, "role") == "user" {
		u := anthropicUserText(last)
		if isSummaryRequest(u) || (strings.Contains(u, "summary") && strings.Contains(u, "conversation")) {
			return "summary", []block{{kind: "text", text: "<summary>\n" + Summary + "</summary>"}}, "end_turn"
		}
	}
	bash := false
	for _, t := range list(body, "tools") {
		if str(obj(t), "name") == "Bash" {
			bash = true
		}
	}
	if !bash {
		return "aux", []block{{kind: "text", text: "Schema migration work"}}, "end_turn"
	}
	if last == nil {
		return "default", []block{{kind: "text", text: "OK."}}, "end_turn"
	}
	if out, ok := anthropicToolResult(last); ok {
		if out == "next" {
			return "after_tool_chain", []block{{kind: "text", text: "One more check."},
				{kind: "tool_use", name: "Bash", input: map[string]any{"command": "echo after", "description": "Print after"}}}, "tool_use"
		}
		return "final", []block{{kind: "text", text: "The command printed: " + out + ". Waiting for the schema diff review."}}, "end_turn"
	}
	u := anthropicUserText(last)
	switch {
	case strings.Contains(u, "migration"):
		return "task", []block{{kind: "text", text: Promise + " First, a quick check."},
			{kind: "tool_use", name: "Bash", input: map[string]any{"command": "echo hi", "description": "Print hi"}}}, "tool_use"
	case strings.Contains(u, "prod database"):
		return "rule", []block{{kind: "text", text: "Understood: I will never touch the prod database."}}, "end_turn"
	case strings.Contains(u, "next"):
		return "next", []block{{kind: "text", text: "Checking the next step."},
			{kind: "tool_use", name: "Bash", input: map[string]any{"command": "echo next", "description": "Print next"}}}, "tool_use"
	}
	return "default", []block{{kind: "text", text: "OK."}}, "end_turn"
}

func anthropicReply(w http.ResponseWriter, body map[string]any, blocks []block, stop string, tokens int) {
	model := str(body, "model")
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	usage := map[string]any{"input_tokens": tokens, "output_tokens": 50, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	var content []any
	for _, b := range blocks {
		if b.kind == "text" {
			content = append(content, map[string]any{"type": "text", "text": b.text})
		} else {
			content = append(content, map[string]any{"type": "tool_use", "id": newID("toolu_"), "name": b.name, "input": b.input})
		}
	}
	msg := map[string]any{"id": newID("msg_"), "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage}
	if stream, _ := body["stream"].(bool); !stream {
		writeJSON(w, msg)
		return
	}
	ev := sse(w)
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	ev("message_start", map[string]any{"type": "message_start", "message": start})
	ev("ping", map[string]any{"type": "ping"})
	for i, c := range content {
		cm := obj(c)
		if str(cm, "type") == "text" {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": cm["text"]}})
		} else {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": cm["id"], "name": cm["name"], "input": map[string]any{}}})
			in, _ := json.Marshal(cm["input"])
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": usage})
	ev("message_stop", map[string]any{"type": "message_stop"})
}

// ---- OpenAI Responses (Codex) ----

func responsesDecide(body map[string]any) string {
	in := list(body, "input")
	var last map[string]any
	if len(in) > 0 {
		last = obj(in[len(in)-1])
	}
	lastUser := ""
	for i := len(in) - 1; i >= 0; i-- {
		it := obj(in[i])
		if str(it, "type") == "message" && str(it, "role") == "user" {
			lastUser = text(it["content"])
			break
		}
	}
	switch {
	case isSummaryRequest(lastUser):
		return "summary"
	case strings.Contains(lastUser, KeptMarker) && str(last, "type") == "message":
		return "final"
	}
	switch str(last, "type") {
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		return "final"
	}
	return "task"
}

func responsesReply(w http.ResponseWriter, body map[string]any, decision string, tokens int) {
	model := str(body, "model")
	message := func(t string) map[string]any {
		return map[string]any{"type": "message", "role": "assistant", "id": newID("msg_"), "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": t, "annotations": []any{}}}}
	}
	var items []map[string]any
	switch decision {
	case "summary":
		items = append(items, message(Summary))
	case "final":
		items = append(items, message(Final))
	default:
		items = append(items, message(Promise))
		var names []string
		for _, t := range list(body, "tools") {
			names = append(names, str(obj(t), "name"))
		}
		tool, args := "shell", map[string]any{"command": []string{"bash", "-lc", "echo hi"}}
		for _, n := range []string{"exec_command", "shell_command"} {
			if contains(names, n) {
				tool = n
				break
			}
		}
		switch tool {
		case "exec_command":
			args = map[string]any{"cmd": "echo hi"}
		case "shell_command":
			args = map[string]any{"command": "echo hi"}
		}
		a, _ := json.Marshal(args)
		items = append(items, map[string]any{"type": "function_call", "id": newID("fc_"), "call_id": newID("call_"),
			"name": tool, "arguments": string(a), "status": "completed"})
	}
	rid := newID("resp_")
	ev := sse(w)
	ev("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": rid, "model": model, "status": "in_progress"}})
	for i, it := range items {
		ev("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": it})
		if it["type"] == "message" {
			ev("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "output_index": i, "item_id": it["id"],
				"content_index": 0, "delta": text(it["content"])})
		}
		ev("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": it})
	}
	usage := map[string]any{"input_tokens": tokens, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 50,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": tokens + 50}
	ev("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": rid, "model": model,
		"status": "completed", "output": items, "usage": usage}})
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// ---- chat completions (opencode, pi) ----

func chatDecide(body map[string]any) string {
	msgs := list(body, "messages")
	var system []string
	lastUser := ""
	for _, m := range msgs {
		mm := obj(m)
		if r := str(mm, "role"); r == "system" || r == "developer" {
			system = append(system, text(mm["content"]))
		}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if mm := obj(msgs[i]); str(mm, "role") == "user" {
			lastUser = text(mm["content"])
			break
		}
	}
	var last map[string]any
	if len(msgs) > 0 {
		last = obj(msgs[len(msgs)-1])
	}
	sys := strings.Join(system, "\n")
	if strings.Contains(sys, "title generator") {
		return "title"
	}
	if len(list(body, "tools")) > 0 {
		sys = "" // a turn's system prompt may mention summaries; the summarizer's has no tools
	}
	if isSummaryRequest(lastUser, sys) {
		return "summary"
	}
	all, _ := json.Marshal(msgs)
	if str(last, "role") == "user" && strings.Contains(string(all), KeptMarker) {
		return "final"
	}
	if str(last, "role") == "tool" {
		return "final"
	}
	return "task"
}

func chatReply(w http.ResponseWriter, body map[string]any, decision string, tokens int) {
	model := str(body, "model")
	usage := map[string]any{"prompt_tokens": tokens, "completion_tokens": 50, "total_tokens": tokens + 50}
	content := Promise
	var calls []any
	switch decision {
	case "summary":
		content = Summary
	case "title":
		content = "Orders-service migration"
	case "final":
		content = Final
	default:
		tool := "bash"
		var names []string
		for _, t := range list(body, "tools") {
			names = append(names, str(obj(obj(t)["function"]), "name"))
		}
		for _, n := range []string{"bash", "shell", "Bash", "run_shell_command"} {
			if contains(names, n) {
				tool = n
				break
			}
		}
		args := map[string]any{"command": "echo hi"}
		for _, t := range list(body, "tools") {
			f := obj(obj(t)["function"])
			if str(f, "name") == tool {
				if _, ok := obj(obj(f["parameters"])["properties"])["description"]; ok {
					args["description"] = "Print hi" // opencode's bash tool requires one
				}
			}
		}
		a, _ := json.Marshal(args)
		calls = []any{map[string]any{"index": 0, "id": newID("call_"), "type": "function",
			"function": map[string]any{"name": tool, "arguments": string(a)}}}
	}
	finish := "stop"
	if calls != nil {
		finish = "tool_calls"
	}
	id, created := newID("chatcmpl-"), time.Now().Unix()
	if stream, _ := body["stream"].(bool); !stream {
		msg := map[string]any{"role": "assistant", "content": content}
		if calls != nil {
			c := obj(calls[0])
			delete(c, "index")
			msg["tool_calls"] = []any{c}
		}
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	ev := sse(w)
	chunk := func(delta map[string]any, fr any) {
		ev("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fr}}})
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	chunk(map[string]any{"content": content}, nil)
	if calls != nil {
		chunk(map[string]any{"tool_calls": calls}, nil)
	}
	chunk(map[string]any{}, finish)
	ev("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": []any{}, "usage": usage})
	w.Write([]byte("data: [DONE]\n\n"))
}

// ---- Gemini (Gemini CLI) ----

func geminiDecide(body map[string]any) string {
	contents := list(body, "contents")
	sysi := obj(body["systemInstruction"])
	if sysi == nil {
		sysi = obj(body["system_instruction"])
	}
	cfg := obj(body["generationConfig"])
	var parts []any
	if len(contents) > 0 {
		parts = list(obj(contents[len(contents)-1]), "parts")
	}
	lastText, fnResponse := "", false
	for _, p := range parts {
		pm := obj(p)
		lastText += str(pm, "text") + "\n"
		if _, ok := pm["functionResponse"]; ok {
			fnResponse = true
		}
	}
	all, _ := json.Marshal(body)
	_, schema := cfg["responseSchema"]
	_, jschema := cfg["responseJsonSchema"]
	switch {
	case strings.Contains(string(all), "next_speaker") && (schema || jschema):
		return "next_speaker"
	case str(cfg, "responseMimeType") == "application/json" || schema || jschema:
		return "json"
	case isSummaryRequest(lastText, text(sysi["parts"])):
		return "summary"
	case strings.Contains(lastText, KeptMarker):
		return "final"
	case fnResponse:
		return "final"
	}
	hist, _ := json.Marshal(contents)
	if strings.Contains(string(hist), KeptMarker) {
		return "final"
	}
	return "task"
}

func geminiReply(w http.ResponseWriter, body map[string]any, decision string, tokens int, stream bool, model string) {
	var parts []any
	switch decision {
	case "summary":
		parts = []any{map[string]any{"text": GeminiSummary}}
	case "final":
		parts = []any{map[string]any{"text": Final}}
	case "next_speaker":
		parts = []any{map[string]any{"text": `{"reasoning":"done","next_speaker":"user"}`}}
	case "json":
		cfg, _ := json.Marshal(body["generationConfig"])
		t := "{}"
		if strings.Contains(string(cfg), "model_choice") {
			t = `{"reasoning":"simple","model_choice":"flash"}`
		}
		parts = []any{map[string]any{"text": t}}
	default:
		parts = []any{map[string]any{"text": Promise},
			map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": "echo hi", "description": "print hi"}}}}
	}
	resp := map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": tokens, "candidatesTokenCount": 50, "totalTokenCount": tokens + 50}, "modelVersion": model}
	if !stream {
		writeJSON(w, resp)
		return
	}
	sse(w)("", resp)
}
