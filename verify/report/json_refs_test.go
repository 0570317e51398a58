package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// keptRun is a rule and a promise through five compactions: kept by the
// first two (the second summary longer before them, so their evidence
// moves), the promise lost by the third, then both kept by the last two,
// whose summaries are the same.
func keptRun(t *testing.T) *verify.Result {
	t.Helper()
	kept := "Never push to main. Pending: re-run the migration after the schema diff is reviewed."
	return runOf(t, "I'll re-run the migration after the schema diff is reviewed.",
		kept,
		"The orders table exists. "+kept,
		"Never push to main. The orders table exists.",
		"The orders table exists and is indexed. "+kept,
		"The orders table exists and is indexed. "+kept)
}

// runOf is a user's rule, then what the assistant says, then a compaction
// per summary.
func runOf(t *testing.T, said string, summaries ...string) *verify.Result {
	t.Helper()
	lines := []string{
		`{"type":"message","turn":1,"role":"user","text":"Never push to main."}`,
		fmt.Sprintf(`{"type":"message","turn":2,"role":"assistant","text":%q}`, said),
	}
	turn := 3
	for i, s := range summaries {
		lines = append(lines,
			fmt.Sprintf(`{"type":"message","turn":%d,"role":"user","text":"Carry on with step %d."}`, turn, i+1),
			fmt.Sprintf(`{"type":"compaction","turn":%d,"seq":%d,"summary":%q}`, turn+1, i+1, s))
		turn += 2
	}
	tr, err := model.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), model.ReadOptions{Name: "kept.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	return verify.Run(tr, verify.Options{})
}

// rawItems decodes a report's item entries as they are written.
func rawItems(t *testing.T, b []byte) [][]map[string]any {
	t.Helper()
	var doc struct {
		Files []struct {
			Compactions []struct {
				Items []map[string]any `json:"items"`
			} `json:"compactions"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var out [][]map[string]any
	for _, c := range doc.Files[0].Compactions {
		out = append(out, c.Items)
	}
	return out
}

// An item is written in full once, then by reference while summaries keep
// it unchanged; a summary that loses it lists it in full again. Decoded,
// the report holds every item of every compaction in full, as version 2
// wrote them.
func TestItemWrittenOnce(t *testing.T) {
	res := keptRun(t)
	if len(res.Compactions) != 5 {
		t.Fatalf("%d compactions", len(res.Compactions))
	}
	var buf bytes.Buffer
	if err := (&Report{Results: []*verify.Result{res}}).JSON(&buf); err != nil {
		t.Fatal(err)
	}
	comps := rawItems(t, buf.Bytes())
	form := func(it map[string]any) string {
		switch {
		case it["id"] != nil:
			return "full"
		case it["evidence"] != nil:
			return "ref+evidence"
		case it["span"] != nil:
			return "ref+span"
		}
		return "ref"
	}
	want := map[string][]string{ // kind → form per compaction
		"constraint": {"full", "ref+span", "ref+span", "ref+span", "ref"},
		"commitment": {"full", "ref+span", "full", "ref+evidence", "ref"},
	}
	for kind, forms := range want {
		var got []string
		for _, items := range comps {
			for _, it := range items {
				if it["kind"] == kind {
					got = append(got, form(it))
					if it["id"] == nil && (it["key"] == "" || it["text"] == "" || it["text"] == nil || it["turn"] == nil || it["status"] != "retained") {
						t.Errorf("%s reference %v lacks the key, text, turn and status a reader matches on (score.py finds a phrase in key or text)", kind, it)
					}
				}
			}
		}
		if !reflect.DeepEqual(got, forms) {
			t.Errorf("%s entries %v, want %v", kind, got, forms)
		}
	}
	if n := strings.Count(buf.String(), `"evidence"`); n == 0 || n >= 10 {
		t.Errorf("evidence written %d times over 5 compactions × 2 items, want fewer (only where it changed)", n)
	}

	var got JSONReport
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Compactions {
		full := compactionJSON(c)
		dec := got.Files[0].Compactions[i].Items
		if len(dec) != len(full.Items) {
			t.Fatalf("compaction %d: %d items decoded, want %d", c.Seq, len(dec), len(full.Items))
		}
		for j := range dec {
			d, f := dec[j], full.Items[j]
			d.Ref, d.reference, d.evidence, d.sameWhy = 0, false, 0, false
			if !reflect.DeepEqual(d, f) {
				t.Errorf("compaction %d item %d decoded\n %+v\nwant\n %+v", c.Seq, j, d, f)
			}
		}
	}
}

// --evidence all writes the evidence and why of every reference.
func TestEvidenceAll(t *testing.T) {
	var buf bytes.Buffer
	if err := (&Report{Results: []*verify.Result{keptRun(t)}, EvidenceAll: true}).JSON(&buf); err != nil {
		t.Fatal(err)
	}
	refs := 0
	for _, items := range rawItems(t, buf.Bytes()) {
		for _, it := range items {
			if it["id"] != nil {
				continue
			}
			refs++
			if _, ok := it["evidence"]; !ok || it["why"] == nil {
				t.Errorf("reference without its evidence: %v", it)
			}
		}
	}
	if refs == 0 {
		t.Error("no reference: the run keeps its items through five compactions")
	}
}

// With -q the first compaction written lists its items in full, even when
// an earlier one (left out) listed them: a reference always has its entry
// in the report.
func TestOnlyViolationsListsInFull(t *testing.T) {
	var buf bytes.Buffer
	if err := (&Report{Results: []*verify.Result{keptRun(t)}, OnlyViolations: true}).JSON(&buf); err != nil {
		t.Fatal(err)
	}
	comps := rawItems(t, buf.Bytes())
	if len(comps) != 1 {
		t.Fatalf("%d compactions with -q, want the one that loses the promise", len(comps))
	}
	for _, it := range comps[0] {
		if it["id"] == nil {
			t.Errorf("a reference in the first compaction written: %v", it)
		}
	}
	var got JSONReport
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Errorf("the -q report does not decode: %v", err)
	}
}

// A reference with no full entry before it is an error, not a guess.
func TestDanglingReference(t *testing.T) {
	doc := `{"path":"x.jsonl","compactions":[{"seq":1,"items":[{"ref":3,"kind":"commitment","key":"k","turn":2,"status":"retained","score":1,"self_report":null}]}]}`
	var f JSONFile
	if err := json.Unmarshal([]byte(doc), &f); err == nil || !strings.Contains(err.Error(), "ref 3") {
		t.Errorf("err %v, want one naming ref 3", err)
	}
}

// A lineage step covers the consecutive compactions that gave the item
// the same status.
func TestLineageRuns(t *testing.T) {
	f := ToJSON(keptRun(t))
	steps := map[verify.Kind][]JSONStep{}
	for _, lg := range f.Lineage {
		steps[lg.Kind] = lg.Steps
	}
	want := map[verify.Kind][]JSONStep{
		verify.Constraint: {{Seq: 1, Through: 5, Status: verify.Retained}},
		verify.Commitment: {{Seq: 1, Through: 2, Status: verify.Retained}, {Seq: 3, Status: verify.Dropped}, {Seq: 4, Through: 5, Status: verify.Retained}},
	}
	for k, w := range want {
		if !reflect.DeepEqual(steps[k], w) {
			t.Errorf("%s steps %+v, want %+v", k, steps[k], w)
		}
	}
}
