package verify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// TestResurrectionNamesTheSibling: of many closed steps of one kind, a
// summary that lists one of them as pending again resurrects that one
// (named by what sets it apart), and a summary that names the kind's words
// without any step's own word resurrects none.
func TestResurrectionNamesTheSibling(t *testing.T) {
	pkgs := []string{"billing", "catalog", "invoices", "shipping", "ledger", "payroll", "reports", "search"}
	var b strings.Builder
	b.WriteString(`{"type":"meta","format":"loupe/v1","run":"siblings"}` + "\n")
	turn := 1
	line := func(s string) { b.WriteString(s + "\n"); turn++ }
	for i, p := range pkgs {
		line(fmt.Sprintf(`{"type":"message","turn":%d,"role":"assistant","text":"Next I need to move the %s handler to the v2 router."}`, turn, p))
		line(fmt.Sprintf(`{"type":"tool_call","turn":%d,"id":"c%d","name":"edit_file","input":{"path":"orders/%s/handler.go"}}`, turn, i, p))
		line(fmt.Sprintf(`{"type":"tool_result","turn":%d,"id":"c%d","text":"wrote orders/%s/handler.go"}`, turn, i, p))
		line(fmt.Sprintf(`{"type":"message","turn":%d,"role":"assistant","text":"Moved the %s handler to the v2 router."}`, turn, p))
	}
	line(fmt.Sprintf(`{"type":"compaction","turn":%d,"seq":1,"summary":"Pending Tasks:\n- move the ledger handler to the v2 router\n"}`, turn))
	line(fmt.Sprintf(`{"type":"compaction","turn":%d,"seq":2,"summary":"Pending Tasks:\n- move handlers to the v2 router\n"}`, turn))
	tr, err := model.Read(strings.NewReader(b.String()), model.ReadOptions{Name: "siblings.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(tr, Options{})
	resurrected := func(c *CompactionResult) []string {
		var out []string
		for _, ir := range c.Items {
			if ir.Item != nil && ir.Status == Resurrected {
				out = append(out, ir.Key)
			}
		}
		return out
	}
	if got := resurrected(res.Compactions[0]); len(got) != 1 || !strings.Contains(got[0], "ledger") {
		t.Errorf("#1 lists the ledger step as pending: resurrected %q, want the ledger step only", got)
	}
	if got := resurrected(res.Compactions[1]); len(got) != 0 {
		t.Errorf("#2 names no step of its own: resurrected %q, want none", got)
	}
}
