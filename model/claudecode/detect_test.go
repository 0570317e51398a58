package claudecode

import (
	"strings"
	"testing"
)

// Heads shaped like the first lines of real sessions of Claude Code 2.1.x,
// which open with records of any type, known or not.
func TestDetectHeadByEnvelope(t *testing.T) {
	const (
		user = `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"s1","version":"2.1.201","gitBranch":"main","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2026-05-01T10:00:00.000Z"}`
		snap = `{"type":"file-history-snapshot","messageId":"u1","snapshot":{"messageId":"u1","trackedFileBackups":{},"timestamp":"2026-05-01T10:00:00.000Z"},"isSnapshotUpdate":false}`
	)
	tests := []struct {
		name string
		head string
		want bool
	}{
		{"conversation first", user, true},
		{"permission-mode first", `{"type":"permission-mode","permissionMode":"bypassPermissions","sessionId":"s1"}` + "\n" + user, true},
		{"last-prompt first", `{"type":"last-prompt","lastPrompt":"fix the test","sessionId":"s1"}` + "\n" + user, true},
		{"title first", `{"type":"summary","summary":"Fix the parser","leafUuid":"u9"}` + "\n" + user, true},
		{"snapshot first", snap + "\n" + user, true},
		{"queue-operation first", `{"type":"queue-operation","operation":"enqueue","timestamp":"2026-05-01T10:00:00.000Z","sessionId":"s1","content":"check again"}` + "\n" + user, true},
		{"custom-title first", `{"type":"custom-title","customTitle":"parser work","sessionId":"s1"}` + "\n" + user, true},
		{"a type no version of loupe knows", `{"type":"worktree-state","sessionId":"s1","worktree":{"path":"/w"}}` + "\n" + user, true},
		{"unknown record without envelope, then conversation", `{"type":"mode-change","mode":"plan"}` + "\n" + user, true},
		{"a bookkeeping line with no type", `{"pendingBackgroundAgentCount":0}` + "\n" + user, true},
		{"mode and agent-name records", `{"type":"mode","mode":"plan","sessionId":"s1"}` + "\n" + `{"type":"agent-name","agentName":"fixer","sessionId":"s1"}` + "\n" + user, true},
		{"only metadata so far", `{"type":"permission-mode","permissionMode":"default","sessionId":"s1"}` + "\n" + snap, true},
		{"a broken line before the conversation", "{\"type\":\"permission-mo\n" + user, true},
		{"first line cut by the sniff", user[:120], true},
		{"cut metadata line", `{"type":"last-prompt","sessionId":"s1","lastPrompt":"` + strings.Repeat("x", 200), true},
		{"loupe JSONL", `{"type":"meta","format":"loupe/v1"}` + "\n" + `{"type":"message","turn":1,"role":"user","text":"hi"}`, false},
		{"Codex rollout", `{"timestamp":"2025","type":"session_meta","payload":{"id":"x"}}`, false},
		{"Gemini JSONL", `{"sessionId":"g1","projectHash":"00","startTime":"2026"}` + "\n" + `{"id":"m1","timestamp":"2026","type":"user","content":[{"text":"hi"}]}`, false},
		{"a user line without the envelope", `{"type":"user","sessionId":"s1","message":{"content":"hi"}}`, false},
		{"metadata, then a foreign line", `{"type":"permission-mode","sessionId":"s1"}` + "\n" + `{"type":"tool_call","turn":1,"id":"c1","name":"x"}`, false},
		{"snake_case record type", `{"type":"session_start","sessionId":"s1"}`, false},
		{"neutral records only", `{"type":"note","text":"hello"}` + "\n" + `{"count":3}`, false},
		{"a type that is not a string", `{"type":3,"sessionId":"s1"}` + "\n" + user, false},
		{"not JSON", "just some notes\nmore notes", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DetectHead([]byte(tt.head)); got != tt.want {
				t.Errorf("DetectHead = %v, want %v", got, tt.want)
			}
		})
	}
}
