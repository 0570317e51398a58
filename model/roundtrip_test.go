package model

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// view returns what an event says, for comparison: its position in the file
// (Line, Offset, Index) is left out and lazy texts are loaded.
func view(t testing.TB, e Event) any {
	t.Helper()
	load := func(x Text) string {
		s, err := x.Load()
		if err != nil {
			t.Fatalf("line %d: Load: %v", e.Header().Line, err)
		}
		return s
	}
	b := *e.Header()
	b.Line, b.Offset, b.Index = 0, 0, 0
	switch ev := e.(type) {
	case *Message:
		c := *ev
		c.Base = b
		return c
	case *ToolCall:
		return struct {
			Base
			ID, Name, Input string
		}{b, ev.ID, ev.Name, load(ev.Input)}
	case *ToolResult:
		return struct {
			Base
			ID      string
			IsError bool
			Text    string
			Job     *Job
		}{b, ev.ID, ev.IsError, load(ev.Text), ev.Job}
	case *Plan:
		c := *ev
		c.Base = b
		return c
	case *CommitmentEvent:
		c := *ev
		c.Base = b
		return c
	case *Compaction:
		c := *ev
		c.Base = b
		return c
	case *Raw:
		var problem string
		if ev.Problem != nil {
			problem = ev.Problem.Severity.String() + " " + ev.Problem.Msg
		}
		return struct {
			Base
			Type, JSON, Reason, Problem string
		}{b, ev.Type, load(ev.JSON), ev.Reason, problem}
	}
	t.Fatalf("unknown event %T", e)
	return nil
}

// assertSameEvents compares two transcripts event by event.
func assertSameEvents(t testing.TB, got, want *Transcript) {
	t.Helper()
	if len(got.Events) != len(want.Events) {
		t.Fatalf("%d events, want %d:\ngot  %v\nwant %v", len(got.Events), len(want.Events), kinds(got), kinds(want))
	}
	for i := range want.Events {
		g, w := view(t, got.Events[i]), view(t, want.Events[i])
		if !reflect.DeepEqual(g, w) {
			t.Errorf("event %d:\ngot  %+v\nwant %+v", i, g, w)
		}
	}
	if len(got.Compactions) != len(want.Compactions) {
		t.Errorf("%d compactions, want %d", len(got.Compactions), len(want.Compactions))
	}
}

func writeString(t testing.TB, tr *Transcript) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, tr); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String()
}

// everyKind is a transcript with every event kind and every field the format
// defines, including loupe's extensions.
var everyKind = jsonl(
	`{"type":"meta","format":"loupe/v1","run":"run-7f3","agent":"demo-agent","source":"claude-code 2.1","ts":"2026-03-01T09:00:00Z","consumers":[{"name":"planner","requires":["commitment","constraint"]},{"name":"router","requires":["handle"]},{"name":"auditor","requires":[]}],"prompt_variant":"b","temperature":0.2,"sampled":true,"ignored_object":{"a":1}}`,
	`{"type":"message","turn":1,"ts":"2026-03-01T09:00:01Z","ref":"u-1","role":"user","text":"Add the orders table. Never push to main.\nUse \"pnpm\" — not npm. Tabs\tand <html> & \u2028 stay."}`,
	`{"type":"message","turn":1,"role":"system","text":""}`,
	`{"type":"message","turn":210,"role":"assistant","text":"Schema diff is up for review; will re-run the migration after the schema diff is reviewed."}`,
	`{"type":"plan","turn":212,"ref":"p-9","items":[{"id":"t3","text":"Re-run the migration","status":"pending"},{"text":"Open the PR","status":"in_progress"},{"id":"t1","text":"Write schema","status":"completed"},{"id":"t0","text":"Spike","status":"cancelled"},{"id":"t9","text":"Odd","status":"blocked"}]}`,
	`{"type":"plan","turn":212,"items":[]}`,
	`{"type":"commitment","turn":213,"id":"k1","text":"re-run the migration","status":"open"}`,
	`{"type":"commitment","turn":214,"text":"open the PR","status":"done"}`,
	`{"type":"tool_call","turn":215,"id":"call_8f2a","name":"bash","input":{"command":"make test","env":{"CI":"1"},"n":[1,2.5,null,true]}}`,
	`{"type":"tool_call","turn":215,"id":"call_empty","name":"noop"}`,
	`{"type":"tool_call","turn":215,"id":"call_str","name":"echo","input":"just a string \u00e9"}`,
	`{"type":"tool_result","turn":216,"id":"call_8f2a","is_error":true,"text":"FAIL orders_test.go:41 ...\n--- FAIL: TestOrders (0.01s)"}`,
	`{"type":"tool_result","turn":217,"id":"call_empty","is_error":false,"text":""}`,
	`{"type":"tool_call","turn":218,"id":"call_bg","name":"bash","input":{"command":"make e2e &"}}`,
	`{"type":"tool_result","turn":218,"id":"call_bg","is_error":false,"text":"started job bg-1","job":{"id":"bg-1","state":"running"}}`,
	`{"type":"tool_result","turn":230,"id":"call_str","is_error":false,"text":"done","job":{"id":"bg-1","state":"done"}}`,
	`{"type":"compaction","turn":900,"seq":1,"trigger":"token_budget","summary":"## Pending Tasks\n- schema diff reviewed","self_report":{"retained":["t3","call_8f2a"],"dropped":["t0"],"claim":"decisions and open items preserved"},"tokens_before":182000,"tokens_after":9100,"kept":["u-1","call_bg"]}`,
	`{"type":"compaction","turn":950,"seq":2,"summary":"gAAAAABencrypted==","opaque":true,"self_report":{}}`,
	`{"type":"compaction","turn":960,"seq":3,"summary":""}`,
	`{"type":"raw","turn":961,"ref":"evt-77","reason":"unknown record type","source_type":"file-history-snapshot","data":"{\"type\":\"file-history-snapshot\",\"files\":[1,2]}"}`,
	`{"type":"raw","turn":962,"reason":"no mapping","data":""}`,
	`{"type":"checkpoint","turn":963,"note":"an unknown type is written back as it was"}`,
)

// TestRoundTrip: read → Write → read is lossless for every event kind, and
// the written form is canonical (writing it again gives the same bytes).
func TestRoundTrip(t *testing.T) {
	first := readString(t, everyKind)
	diffLines(t, "problems", problemStrings(first.Problems), []string{
		`warning run.jsonl:5: plan: unknown status "blocked" in "items[4]" (expected pending, in_progress, completed or cancelled)`,
	})
	wantKinds := []string{"message", "message", "message", "plan", "plan", "commitment", "commitment", "tool_call", "tool_call", "tool_call", "tool_result", "tool_result", "tool_call", "tool_result", "tool_result", "compaction", "compaction", "compaction", "raw(file-history-snapshot)", "raw", "raw(checkpoint)"}
	diffLines(t, "kinds", kinds(first), wantKinds)

	written := writeString(t, first)
	second := readString(t, written)
	diffLines(t, "problems after writing", problemStrings(second.Problems), problemStrings(first.Problems))
	assertSameEvents(t, second, first)
	if !reflect.DeepEqual(second.Meta, first.Meta) {
		t.Errorf("meta:\ngot  %+v\nwant %+v", second.Meta, first.Meta)
	}
	if again := writeString(t, second); again != written {
		t.Errorf("writing twice differs:\n%s\n---\n%s", written, again)
	}

	// Spot checks that the reader understood the fields it round-tripped.
	m := first.Meta
	if m.Source != "claude-code 2.1" || m.TS != "2026-03-01T09:00:00Z" || len(m.Consumers) != 3 || m.Consumers[2].Requires != nil {
		t.Errorf("meta %+v", m)
	}
	wantExtra := map[string]string{"prompt_variant": "b", "temperature": "0.2", "sampled": "true"}
	if !reflect.DeepEqual(m.Extra, wantExtra) {
		t.Errorf("meta extra %v, want %v", m.Extra, wantExtra)
	}
	if c := first.Compaction(1); c.SelfReport == nil || c.TokensAfter != 9100 || len(c.Kept) != 2 || c.Trigger != "token_budget" {
		t.Errorf("compaction 1: %+v", c)
	}
	if c := first.Compaction(2); !c.Opaque || c.SelfReport == nil || c.SelfReport.Retained != nil {
		t.Errorf("compaction 2: %+v %+v", c, c.SelfReport)
	}
	if c := first.Compaction(3); c.SelfReport != nil {
		t.Errorf("compaction 3 has no self-report, got %+v", c.SelfReport)
	}
	if r := first.Events[13].(*ToolResult); r.Job == nil || *r.Job != (Job{ID: "bg-1", State: JobRunning}) {
		t.Errorf("job: %+v", r.Job)
	}
	if c := first.Events[7].(*ToolCall); c.Input.Head() != `{"command":"make test","env":{"CI":"1"},"n":[1,2.5,null,true]}` {
		t.Errorf("input %s", c.Input.Head())
	}
	if p := first.Events[3].(*Plan); p.Items[1].ID != "" || p.Items[4].Status != "blocked" {
		t.Errorf("plan %+v", p.Items)
	}
	if c := first.Events[6].(*CommitmentEvent); c.ID != "" || c.Status != CommitmentDone {
		t.Errorf("commitment %+v", c)
	}
	r := first.Events[18].(*Raw)
	if r.Reason != "unknown record type" || r.Type != "file-history-snapshot" || r.Ref != "evt-77" || r.JSON.Head() != `{"type":"file-history-snapshot","files":[1,2]}` {
		t.Errorf("importer raw %+v", r)
	}
	if r := first.Events[20].(*Raw); r.Turn != 962 || r.Reason != "" || r.Problem != nil {
		t.Errorf("unknown type raw %+v", r)
	}
}

// TestWriteImporterEvents writes events as an importer builds them (no line,
// a Raw with a reason whose data spans lines) and reads them back.
func TestWriteImporterEvents(t *testing.T) {
	tr := &Transcript{
		Meta: Meta{Format: Format, Source: "codex 0.9", Extra: map[string]string{"variant": "a"}},
		Events: []Event{
			&Message{Base: Base{Turn: 1, Ref: "r1"}, Role: RoleUser, Text: "hi\u2029there"},
			&ToolCall{Base: Base{Turn: 2}, ID: "c1", Name: "shell", Input: NewText(`{"cmd":["ls","-la"]}`)},
			&ToolResult{Base: Base{Turn: 3}, ID: "c1", Text: NewText("bad \xff byte"), Job: &Job{ID: "j", State: JobKilled}},
			&Raw{Base: Base{Turn: 4}, Type: "reasoning", Reason: "encrypted reasoning", JSON: NewText("{\"type\":\"reasoning\",\n\"x\":1}")},
			&Compaction{Base: Base{Turn: 5}, Seq: 1, Summary: "s", Kept: []string{"c1"}},
		},
	}
	written := writeString(t, tr)
	back := readString(t, written)
	if len(back.Problems) > 0 {
		t.Fatalf("problems: %v\n%s", problemStrings(back.Problems), written)
	}
	if n := strings.Count(written, "\n"); n != 6 {
		t.Errorf("%d lines, want 6:\n%s", n, written)
	}
	want := *tr
	want.Events = append([]Event(nil), tr.Events...)
	want.Compactions = []*Compaction{tr.Events[4].(*Compaction)}
	want.Events[2] = &ToolResult{Base: Base{Turn: 3}, ID: "c1", Text: NewText("bad \uFFFD byte"), Job: &Job{ID: "j", State: JobKilled}}
	assertSameEvents(t, back, &want)
	if !reflect.DeepEqual(back.Meta, tr.Meta) {
		t.Errorf("meta %+v", back.Meta)
	}
	if !strings.Contains(written, `"text":"hi\u2029there"`) {
		t.Errorf("U+2029 is escaped so the line is safe for JavaScript tools: %s", written)
	}
}
