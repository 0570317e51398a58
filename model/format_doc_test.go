package model

import (
	"os"
	"strings"
	"testing"
)

// TestFormatDocExample reads the complete example of docs/format.md: it must
// load without a single problem, contain every event type, and survive a
// round trip.
func TestFormatDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```jsonl\n")
	if !ok {
		t.Fatal("docs/format.md has no ```jsonl block")
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the ```jsonl block is not closed")
	}
	tr := readString(t, block)
	if len(tr.Problems) > 0 {
		t.Fatalf("the example has problems:\n%s", strings.Join(problemStrings(tr.Problems), "\n"))
	}
	seen := map[string]bool{}
	for _, e := range tr.Events {
		seen[e.Kind().String()] = true
		if r, ok := e.(*Raw); ok && r.Reason == "" {
			t.Errorf("line %d: a raw event without a reason (an unknown type?)", r.Line)
		}
	}
	for _, k := range []string{"message", "tool_call", "tool_result", "plan", "commitment", "compaction", "raw"} {
		if !seen[k] {
			t.Errorf("the example has no %s event", k)
		}
	}
	if tr.Meta.Run == "" || len(tr.Meta.Consumers) == 0 || len(tr.Meta.Extra) == 0 {
		t.Errorf("the example's meta lacks run, consumers or an extra field: %+v", tr.Meta)
	}
	assertSameEvents(t, readString(t, writeString(t, tr)), tr)
}
