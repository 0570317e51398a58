package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A new Claude Code session's first prompt comes before its transcript is
// written (seen in 2.1.332): UserPromptSubmit and SessionStart answer
// nothing and leave no line in loupe's log.
func TestClaudeFirstPromptIsSilent(t *testing.T) {
	store := &Store{Dir: filepath.Join(t.TempDir(), "loupe")}
	missing := filepath.Join(t.TempDir(), "projects", "p", "0b1d.jsonl")
	for _, event := range []string{"reinject", "session-start"} {
		in := fmt.Sprintf(`{"session_id":"0b1d","transcript_path":%q,"cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"hi","source":"startup"}`, missing)
		if out := Run(Request{Runtime: ClaudeCode, Event: event, Input: []byte(in), Store: store}); len(out) != 0 {
			t.Errorf("%s: printed %q", event, out)
		}
	}
	if log, err := os.ReadFile(store.logFile()); err == nil {
		t.Errorf("hook.log after a first prompt:\n%s", log)
	}
}
