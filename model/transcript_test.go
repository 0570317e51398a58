package model

import (
	"slices"
	"testing"
)

// pairingRun has calls answered in order, out of order, never, twice, and a
// result with no call, around two compactions.
var pairingRun = jsonl(metaLine,
	`{"type":"message","turn":1,"role":"user","text":"go"}`,          // 0
	`{"type":"tool_call","turn":2,"id":"a","name":"bash"}`,           // 1
	`{"type":"tool_call","turn":2,"id":"b","name":"bash"}`,           // 2
	`{"type":"tool_result","turn":3,"id":"b","text":"b done"}`,       // 3
	`{"type":"compaction","turn":4,"seq":1,"summary":"a in flight"}`, // 4
	`{"type":"tool_result","turn":5,"id":"a","text":"a done"}`,       // 5
	`{"type":"tool_result","turn":5,"id":"ghost","text":"?"}`,        // 6
	`{"type":"tool_call","turn":6,"id":"c","name":"bash"}`,           // 7
	`{"type":"checkpoint","turn":6}`,                                 // 8
	`{"type":"compaction","turn":7,"seq":2,"summary":"c in flight"}`, // 9
	`{"type":"tool_call","turn":8,"id":"a","name":"bash"}`,           // 10: id reused
	`{"type":"tool_result","turn":9,"id":"a","text":"second a"}`,     // 11
	`{"type":"tool_result","turn":9,"id":"a","text":"a third time"}`, // 12
	`{"type":"compaction","turn":10,"seq":3,"summary":"s"}`,          // 13
)

func TestPairing(t *testing.T) {
	tr := readString(t, pairingRun)
	p := tr.Pairing()
	if p != tr.Pairing() {
		t.Error("Pairing is not computed once")
	}
	for call, want := range map[int]int{1: 5, 2: 3, 7: -1, 10: 11, 0: -1, 3: -1, 99: -1} {
		if got := p.ResultOf(call); got != want {
			t.Errorf("ResultOf(%d) = %d, want %d", call, got, want)
		}
	}
	for res, want := range map[int]int{3: 2, 5: 1, 6: -1, 11: 10, 12: -1, 1: -1} {
		if got := p.CallOf(res); got != want {
			t.Errorf("CallOf(%d) = %d, want %d", res, got, want)
		}
	}
	for end, want := range map[int][]int{
		0:  nil,
		2:  {1},
		3:  {1, 2},
		4:  {1},     // b answered
		5:  {1},     // at compaction 1, a is in flight
		6:  nil,     // a answered
		9:  {7},     // at compaction 2, c is in flight
		11: {7, 10}, // the reused id is a new call
		14: {7},
	} {
		if got := p.OpenAt(end); !slices.Equal(got, want) {
			t.Errorf("OpenAt(%d) = %v, want %v", end, got, want)
		}
	}
}

func TestSourceAndReplacedSpan(t *testing.T) {
	tr := readString(t, pairingRun)
	c1, c2, c3 := tr.Compaction(1), tr.Compaction(2), tr.Compaction(3)
	if c1 == nil || c2 == nil || c3 == nil || tr.Compaction(4) != nil || tr.Compaction(0) != nil {
		t.Fatal("Compaction(seq)")
	}
	if tr.Previous(c1) != nil || tr.Previous(c2) != c1 || tr.Previous(c3) != c2 || tr.Previous(&Compaction{}) != nil {
		t.Error("Previous")
	}
	indexes := func(es []Event) []int {
		var out []int
		for _, e := range es {
			out = append(out, e.Header().Index)
		}
		return out
	}
	// The source of k is every raw event before it, never a summary.
	if got := indexes(tr.Source(c1)); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("Source(1) = %v", got)
	}
	if got := indexes(tr.Source(c3)); !slices.Equal(got, []int{0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12}) {
		t.Errorf("Source(3) = %v", got)
	}
	if tr.SourceEnd(c2) != 9 {
		t.Errorf("SourceEnd(2) = %d", tr.SourceEnd(c2))
	}
	for _, tc := range []struct {
		c      *Compaction
		lo, hi int
	}{{c1, 0, 4}, {c2, 5, 9}, {c3, 10, 13}} {
		if lo, hi := tr.ReplacedSpan(tc.c); lo != tc.lo || hi != tc.hi {
			t.Errorf("ReplacedSpan(%d) = [%d,%d), want [%d,%d)", tc.c.Seq, lo, hi, tc.lo, tc.hi)
		}
	}
	if !IsSource(tr.Events[8]) || IsSource(c1) {
		t.Error("IsSource")
	}
	if tr.Turns() != 10 {
		t.Errorf("Turns = %d", tr.Turns())
	}
	if (&Transcript{}).Turns() != 0 {
		t.Error("Turns of an empty run")
	}
}

func TestMetaField(t *testing.T) {
	tr := readString(t, jsonl(`{"type":"meta","format":"loupe/v1","run":"r","agent":"a","source":"codex","prompt":"v2","n":3,"ok":false,"obj":{"x":1},"arr":[1],"nul":null}`))
	m := tr.Meta
	for name, want := range map[string]string{
		"format": "loupe/v1", "run": "r", "agent": "a", "source": "codex",
		"prompt": "v2", "n": "3", "ok": "false",
		"obj": "", "arr": "", "nul": "", "missing": "", "type": "",
	} {
		if got := m.Field(name); got != want {
			t.Errorf("Field(%q) = %q, want %q", name, got, want)
		}
	}
	if (Meta{}).Field("anything") != "" {
		t.Error("zero Meta")
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{KindRaw: "raw", KindMessage: "message", KindToolCall: "tool_call", KindToolResult: "tool_result", KindPlan: "plan", KindCommitment: "commitment", KindCompaction: "compaction", Kind(99): "unknown"} {
		if k.String() != want {
			t.Errorf("%d: %q", k, k.String())
		}
	}
	if !PlanCompleted.Closed() || !PlanCancelled.Closed() || PlanPending.Closed() || PlanInProgress.Closed() {
		t.Error("PlanStatus.Closed")
	}
}
