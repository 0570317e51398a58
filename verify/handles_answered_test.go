package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// Answered calls are demoted to their event indexes during the sweep; a
// summary or self-report that names one must still find it as the item it
// was: resurrected when presented as running, a stale claim when claimed,
// with the same lineage across compactions.
func TestAnsweredCallsNamedLater(t *testing.T) {
	const run = `{"type":"message","turn":1,"role":"user","text":"Run the checks."}
{"type":"tool_call","turn":2,"id":"c1","name":"bash","input":{"command":"make test"}}
{"type":"tool_result","turn":3,"id":"c1","text":"ok"}
{"type":"tool_call","turn":4,"id":"c2","name":"bash","input":{"command":"make lint"}}
{"type":"tool_result","turn":5,"id":"c2","text":"ok"}
{"type":"tool_call","turn":6,"id":"c5","name":"bash","input":{"command":"make a"}}
{"type":"tool_result","turn":7,"id":"c5","text":"ok"}
{"type":"tool_call","turn":8,"id":"c5","name":"bash","input":{"command":"make b"}}
{"type":"tool_result","turn":9,"id":"c5","text":"ok"}
{"type":"tool_call","turn":10,"id":"c6","name":"bash","input":{"command":"make c"}}
{"type":"tool_result","turn":11,"id":"c6","text":"ok"}
{"type":"tool_call","turn":12,"id":"c6","name":"bash","input":{"command":"make c"}}
{"type":"tool_result","turn":13,"id":"c6","text":"ok"}
{"type":"compaction","turn":20,"seq":1,"summary":"Pending: c1 is still running. Next: wait for c5 and c6.","self_report":{"retained":["c2"]}}
{"type":"tool_call","turn":21,"id":"c7","name":"bash","input":{"command":"make d"}}
{"type":"tool_result","turn":22,"id":"c7","text":"ok"}
{"type":"compaction","turn":30,"seq":2,"summary":"Pending: c1 is still running.","self_report":{"retained":["BASH: MAKE D"]}}
`
	tr, err := model.Read(strings.NewReader(run), model.ReadOptions{Name: "answered.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(tr, Options{})
	if len(res.Compactions) != 2 {
		t.Fatalf("%d compactions, want 2", len(res.Compactions))
	}
	resurrected := func(cr *CompactionResult) []string {
		var out []string
		for _, ir := range cr.Items {
			if ir.Status == Resurrected {
				out = append(out, ir.Item.Key+" "+ir.Item.Text+" ("+ir.Item.ClosedBy+")")
			}
		}
		return out
	}
	want1 := []string{
		"c1 bash: make test (result arrived at turn 3)",
		"c5 bash: make a (result arrived at turn 7)",
		"c5 bash: make b (result arrived at turn 9)",
		"c6 bash: make c (result arrived at turn 13)",
	}
	if got := resurrected(res.Compactions[0]); strings.Join(got, "\n") != strings.Join(want1, "\n") {
		t.Errorf("compaction 1 resurrects\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want1, "\n"))
	}
	if got := resurrected(res.Compactions[1]); len(got) != 1 || got[0] != want1[0] {
		t.Errorf("compaction 2 resurrects %q, want only c1", got)
	}
	stale := func(cr *CompactionResult, want string) {
		t.Helper()
		for _, w := range cr.Warnings {
			if strings.Contains(w.Msg, "stale claim") && strings.Contains(w.Msg, want) {
				return
			}
		}
		t.Errorf("compaction %d: no stale-claim warning with %q in %v", cr.Seq, want, cr.Warnings)
	}
	stale(res.Compactions[0], "closed at turn 5 (result arrived at turn 5)")
	stale(res.Compactions[1], "closed at turn 22 (result arrived at turn 22)")
	for _, lin := range res.Lineage {
		if lin.Item.Key == "c1" {
			if len(lin.Steps) != 2 || lin.Steps[0].Seq != 1 || lin.Steps[1].Seq != 2 {
				t.Errorf("c1's lineage %+v, want one step in each compaction", lin.Steps)
			}
			return
		}
	}
	t.Errorf("no lineage for c1")
}
