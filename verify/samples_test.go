package verify

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
)

// planted mirrors sampledata/testdata/<name>.planted.json: the generator's
// own record of what it planted in each built-in run.
type planted struct {
	Compactions []struct {
		Seq       int       `json:"seq"`
		Verdict   Verdict   `json:"verdict"`
		LossRatio float64   `json:"loss_ratio"`
		Reasons   []plantIt `json:"reasons"`
		Open      []plantIt `json:"open"`
	} `json:"compactions"`
	Findings []struct {
		Kind   FindingKind `json:"kind"`
		Turn   int         `json:"turn"`
		LostAt int         `json:"lost_at"`
	} `json:"findings"`
}

type plantIt struct {
	Kind       Kind    `json:"kind"`
	Key        string  `json:"key"`
	Text       string  `json:"text"`
	Turn       int     `json:"turn"`
	Status     Status  `json:"status"`
	SelfReport Finding `json:"self_report"`
}

// TestSamplesMatchPlanted: on the built-in runs the verifier finds exactly
// the planted violations and findings, and calls every other compaction
// degrade.
func TestSamplesMatchPlanted(t *testing.T) {
	for _, s := range sampledata.All() {
		t.Run(s.Name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "sampledata", "testdata", s.Name+".planted.json"))
			if err != nil {
				t.Skip("no ground truth:", err)
			}
			var want planted
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			r, err := sampledata.Open(s.Name)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			tr, err := model.Read(r, model.ReadOptions{Name: s.Name})
			if err != nil {
				t.Fatal(err)
			}
			res := Run(tr, Options{})
			if len(res.Compactions) != len(want.Compactions) {
				t.Fatalf("%d compactions, want %d", len(res.Compactions), len(want.Compactions))
			}
			for i, wc := range want.Compactions {
				got := res.Compactions[i]
				if got.Seq != wc.Seq || got.Verdict != wc.Verdict {
					t.Errorf("compaction %d: %s, want %s: %v", wc.Seq, got.Verdict, wc.Verdict, got.Reasons)
				}
				// The generator leaves plan updates out of the source size;
				// loupe counts them (the compactor read them too).
				if math.Abs(got.LossRatio-wc.LossRatio) > 0.01 {
					t.Errorf("compaction %d: loss %.4f, want %.4f", wc.Seq, got.LossRatio, wc.LossRatio)
				}
				for _, p := range append(wc.Open, wc.Reasons...) {
					ir := findPlanted(got, p)
					if ir == nil {
						t.Errorf("compaction %d: no %s item for %q (turn %d)", wc.Seq, p.Kind, p.Text, p.Turn)
						continue
					}
					if ir.Status != p.Status {
						t.Errorf("compaction %d: %s %q is %s, want %s (%s)", wc.Seq, p.Kind, p.Text, ir.Status, p.Status, ir.Why)
					}
					if p.SelfReport != "" && ir.SelfReport != p.SelfReport {
						t.Errorf("compaction %d: %s %q self-report %q, want %q", wc.Seq, p.Kind, p.Text, ir.SelfReport, p.SelfReport)
					}
				}
			}
			if len(res.Findings) != len(want.Findings) {
				t.Errorf("%d findings, want %d: %+v", len(res.Findings), len(want.Findings), res.Findings)
			}
			for _, wf := range want.Findings {
				ok := false
				for _, f := range res.Findings {
					ok = ok || (f.Kind == wf.Kind && f.Turn == wf.Turn && f.LostAt == wf.LostAt)
				}
				if !ok {
					t.Errorf("finding %s at turn %d (lost at %d) missing: %+v", wf.Kind, wf.Turn, wf.LostAt, res.Findings)
				}
			}
		})
	}
}

// findPlanted finds the verifier's item for a planted one: same kind, the
// same wording (the item's text, action, the source output of an error), or
// the same plan id when a plan step was merged with the sentence that
// promised it. The origin turn must agree unless the item is a restatement
// merged into an earlier one.
func findPlanted(c *CompactionResult, p plantIt) *ItemResult {
	norm := func(s string) string {
		return strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), ".")))
	}
	want := norm(p.Text)
	same := func(ir *ItemResult) bool {
		for _, have := range []string{ir.Text, ir.Action, ir.Key, ir.Item.Evidence} {
			h := norm(have)
			if h != "" && (strings.Contains(h, want) || strings.Contains(want, h)) {
				return true
			}
		}
		return p.Key != "" && (ir.Key == p.Key || slices.Contains(ir.Aliases, "plan "+p.Key))
	}
	var loose *ItemResult
	for i := range c.Items {
		ir := &c.Items[i]
		if ir.Kind != p.Kind || !same(ir) {
			continue
		}
		if p.Turn == 0 || ir.Turn == p.Turn {
			return ir
		}
		if loose == nil {
			loose = ir
		}
	}
	return loose
}
