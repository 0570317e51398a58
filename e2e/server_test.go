package e2e

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// The scripted model tells each runtime's compaction request from its
// turns by the runtime's own prompt (a miss makes a runtime compact in a
// loop: Codex did 150 times in two minutes), answers in the runtime's wire
// format, and logs every request.
func TestScriptedServer(t *testing.T) {
	srv, err := StartServer(filepath.Join(t.TempDir(), "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cases := []struct {
		name, path, body, decision string
		reply                      []string
	}{
		{"claude task", "/v1/messages?beta=true",
			`{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"Please do the database migration work"}]}]}`,
			"task", []string{"event: message_start", `"name":"Bash"`, `"partial_json":"{\"command\":\"echo hi\"`, "re-run the migration", "event: message_stop"}},
		{"claude compaction", "/v1/messages",
			`{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"CRITICAL: Respond with TEXT ONLY. Your task is to create a detailed summary of the conversation so far"}]}`,
			"summary", []string{KeptMarker, "never touch the prod database"}},
		{"codex task", "/v1/responses",
			`{"model":"m","tools":[{"name":"exec_command"}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Prepare the migration."}]}]}`,
			"task", []string{"event: response.completed", `"name":"exec_command"`, `{\"cmd\":\"echo hi\"}`, `"input_tokens":190000`}},
		{"codex compaction", "/v1/responses",
			`{"model":"m","tools":[],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary"}]}]}`,
			"summary", []string{KeptMarker, `"input_tokens":2000`}},
		{"codex after the summary", "/v1/responses",
			`{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Another language model started to solve this problem and produced a summary: ` + KeptMarker + `"}]}]}`,
			"final", []string{Final}},
		{"opencode compaction", "/v1/chat/completions",
			`{"model":"m","stream":true,"messages":[{"role":"system","content":"You are a context summarization agent."},{"role":"user","content":"Here is the conversation so far"}]}`,
			"summary", []string{"data: [DONE]", KeptMarker}},
		{"pi tool result", "/v1/chat/completions",
			`{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"user","content":"Prepare the migration."},{"role":"tool","content":"hi"}]}`,
			"final", []string{Final}},
		{"gemini task", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
			`{"contents":[{"role":"user","parts":[{"text":"Prepare the migration."}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`,
			"task", []string{`"functionCall":{"args":{"command":"echo hi"`, `"promptTokenCount":190000`}},
		{"gemini compression", "/v1beta/models/gemini-2.5-flash:generateContent",
			`{"systemInstruction":{"parts":[{"text":"You are a specialized system component responsible for distilling chat history"}]},"contents":[{"role":"user","parts":[{"text":"Generate a new <state_snapshot> based on the provided history."}]}]}`,
			"summary", []string{"state_snapshot", "Never touch the prod database"}},
	}
	for i, c := range cases {
		resp, err := http.Post(srv.URL+c.path, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		reqs := srv.Requests()
		if len(reqs) != i+1 || reqs[i].Decision != c.decision {
			t.Errorf("%s: decided %q, want %q", c.name, reqs[len(reqs)-1].Decision, c.decision)
		}
		for _, want := range c.reply {
			if !strings.Contains(string(body), want) {
				t.Errorf("%s: the reply lacks %q:\n%s", c.name, want, body)
			}
		}
		if strings.Contains(c.decision, "summary") && strings.Contains(string(body), "re-run the migration") {
			t.Errorf("%s: the summary keeps the promise it must drop", c.name)
		}
	}
}
