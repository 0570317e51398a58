package codex

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// Codex 0.171: the new line types are skipped by name and counted, the
// summarizer's reply is not a message of the conversation, and
// tokens_before is the request before the compaction, not the
// summarizer's call.
func TestCodex0171(t *testing.T) {
	tr, err := Open("testdata/live-0.171/rollout-2026-12-01T23-17-02-01a233e5-b6f6-7631-b79b-9c742d1218cf.jsonl", model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Compactions) != 2 {
		t.Fatalf("%d compactions, want 2", len(tr.Compactions))
	}
	for _, c := range tr.Compactions {
		if c.TokensBefore != 190000 {
			t.Errorf("compaction %d: tokens_before %d, want 190000 (the last request before it)", c.Seq, c.TokensBefore)
		}
		if !strings.Contains(c.Summary, "schema diff is being reviewed") {
			t.Errorf("compaction %d: summary %q", c.Seq, c.Summary)
		}
	}
	for _, e := range tr.Events {
		switch e := e.(type) {
		case *model.Raw:
			t.Errorf("raw event: %s (%s)", e.Reason, e.Type)
		case *model.Message:
			if e.Role == model.RoleAssistant && strings.HasPrefix(e.Text, "## Goal") {
				t.Errorf("the summarizer's reply is imported as the agent's message (turn %d)", e.Turn)
			}
		}
	}
	sk := tr.Meta.Extra["skipped"]
	for _, want := range []string{"world_state=3", "token_usage_record=4", "response_item/message (the summarizer's reply)=2", "event_msg/item_completed=8"} {
		if !strings.Contains(sk, want) {
			t.Errorf("skipped %q lacks %s", sk, want)
		}
	}
}
