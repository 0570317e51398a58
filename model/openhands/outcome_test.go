package openhands

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// shape is a transcript as the verifier sees it, without what differs
// between the formats by construction: event ids, tool names and inputs.
func shape(t *testing.T, tr *model.Transcript) []string {
	t.Helper()
	pos := map[string]int{} // ref or call id -> the position of its first event
	for i, e := range tr.Events {
		if r := e.Header().Ref; r != "" {
			if _, ok := pos[r]; !ok {
				pos[r] = i
			}
		}
		if c, ok := e.(*model.ToolCall); ok {
			pos[c.ID] = i
		}
	}
	var out []string
	for _, e := range tr.Events {
		switch ev := e.(type) {
		case *model.Message:
			out = append(out, fmt.Sprintf("message %s %q", ev.Role, ev.Text))
		case *model.ToolCall:
			out = append(out, "call "+ev.ID)
		case *model.ToolResult:
			out = append(out, fmt.Sprintf("result %s error=%v %q", ev.ID, ev.IsError, ev.Text.Head()))
		case *model.Plan:
			out = append(out, fmt.Sprintf("plan %+v", ev.Items))
		case *model.Compaction:
			var kept []int
			for _, k := range ev.Kept {
				kept = append(kept, pos[k])
			}
			out = append(out, fmt.Sprintf("compaction %q kept %v", ev.Summary, kept))
		default:
			out = append(out, e.Kind().String())
		}
	}
	return out
}

// TestSameRunBothFormats: a run stored by the OpenHands app (V0) and by the
// agent SDK (V1) gives the same events: the failing test is a failed result
// in both, whether V1 recorded its exit code or not.
func TestSameRunBothFormats(t *testing.T) {
	tests := []struct {
		v0, v1  string
		errors  int
		pending [][]string
	}{
		{"testdata/v0/sid-pair", "testdata/v1/pair", 1, [][]string{nil}},
		{"testdata/v0/sid-pair", "testdata/v1/pair-no-exit-code", 1, [][]string{nil}},
	}
	for _, tt := range tests {
		t.Run(tt.v1, func(t *testing.T) {
			a, err := Open(tt.v0, model.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := Open(tt.v1, model.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sa, sb := shape(t, a), shape(t, b)
			if !slices.Equal(sa, sb) {
				t.Errorf("V0 and V1 differ:\nV0 %s\nV1 %s", strings.Join(sa, "\n   "), strings.Join(sb, "\n   "))
			}
			for _, tr := range []*model.Transcript{a, b} {
				if c := kittest.Count(tr); c.Errors != tt.errors {
					t.Errorf("%s: %d failed results, want %d", tr.Meta.Source, c.Errors, tt.errors)
				}
				if got := kittest.Pending(tr); len(got) != len(tt.pending) || !slices.Equal(got[0], tt.pending[0]) {
					t.Errorf("%s: pending %q, want %q", tr.Meta.Source, got, tt.pending)
				}
			}
		})
	}
}

// TestFailureRule: the one rule, on observations as each format writes them.
func TestFailureRule(t *testing.T) {
	tests := []struct {
		name   string
		v1     bool
		kind   string // V1 event kind
		obs    string // the observation: a V0 event, or a V1 event's observation
		failed bool
	}{
		{"V0 run, exit code 1", false, "", `{"observation":"run","content":"--- FAIL: TestParse","extras":{"metadata":{"exit_code":1}},"success":false}`, true},
		{"V0 run, exit code 0", false, "", `{"observation":"run","content":"ok","extras":{"metadata":{"exit_code":0}},"success":true}`, false},
		{"V0 run, old extras.exit_code", false, "", `{"observation":"run","content":"make: *** [test] Error 2","extras":{"exit_code":2}}`, true},
		{"V0 run, code only in the message", false, "", `{"observation":"run","message":"Command ` + "`make`" + ` executed with exit code 2.","content":"boom"}`, true},
		{"V0 error observation", false, "", `{"observation":"error","content":"File not found"}`, true},
		{"V0 run still going (soft timeout)", false, "", `{"observation":"run","content":"[The command has no new output after 30 seconds.]","extras":{"metadata":{"exit_code":-1}}}`, false},
		{"V0 run, success false overrides code 0", false, "", `{"observation":"run","content":"x","extras":{"metadata":{"exit_code":0}},"success":false}`, true},
		{"V1 terminal, exit code 1", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"FAIL\tdemo"}],"is_error":false,"exit_code":1,"metadata":{"exit_code":1}}`, true},
		{"V1 terminal, only metadata's code", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"x"}],"is_error":false,"exit_code":null,"metadata":{"exit_code":3}}`, true},
		{"V1 terminal, exit code 0 with FAIL in the output", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"--- FAIL: TestFlaky (retried, passed)"}],"exit_code":0}`, false},
		{"V1 terminal, no code, a failing test", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"--- FAIL: TestParse"}],"is_error":false}`, true},
		{"V1 terminal, no code, a traceback", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"Traceback (most recent call last):\n  File \"a.py\"\nValueError"}]}`, true},
		{"V1 terminal, no code, pytest summary", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"===== 2 failed, 10 passed in 0.3s ====="}]}`, true},
		{"V1 terminal, no code, clean output", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"ok  demo 0.01s\nPASS"}]}`, false},
		{"V1 terminal, the code in the text", true, "ObservationEvent", `{"kind":"TerminalObservation","content":[{"type":"text","text":"x\n[Command finished with exit code 1]"}]}`, true},
		{"V1 first SDK shape: output, exit_code", true, "ObservationEvent", `{"kind":"ExecuteBashObservation","output":"boom","exit_code":1}`, true},
		{"V1 tool error", true, "ObservationEvent", `{"kind":"FileEditorObservation","content":[{"type":"text","text":"Invalid path"}],"is_error":true}`, true},
		{"V1 editor view of a file with failure lines", true, "ObservationEvent", `{"kind":"FileEditorObservation","content":[{"type":"text","text":"ERROR: handled below\n--- FAIL: in a fixture"}],"is_error":false}`, false},
		{"V0 read of a file with failure lines", false, "", `{"observation":"read","content":"Traceback (most recent call last):\n(a log kept as a fixture)"}`, false},
		{"V1 agent error", true, "AgentErrorEvent", `{}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imp := &importer{v1: tt.v1, actionCall: map[string]string{}, forgotten: map[string]bool{}}
			imp.b = kit.NewBuilder("x", "x")
			var p fastjson.Parser
			var ev string
			if tt.v1 {
				ev = `{"kind":"` + tt.kind + `","id":"o1","tool_call_id":"c1","error":"boom","observation":` + tt.obs + `}`
			} else {
				ev = tt.obs[:len(tt.obs)-1] + `,"id":2,"cause":1,"tool_call_metadata":{"tool_call_id":"c1"}}`
			}
			v, err := p.Parse(ev)
			if err != nil {
				t.Fatal(err)
			}
			imp.event(v, []byte(ev))
			r, ok := imp.b.Last().(*model.ToolResult)
			if !ok {
				t.Fatalf("not a result: %+v", imp.b.Last())
			}
			if r.IsError != tt.failed {
				t.Errorf("failed = %v, want %v", r.IsError, tt.failed)
			}
		})
	}
}
