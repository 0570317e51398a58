package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// TestLineageMapOrder: the map has one cell per compaction for every row,
// lost items come first (by kind, then by their first loss), and a cell is
// filled exactly where the item's lineage has a step.
func TestLineageMapOrder(t *testing.T) {
	res, _ := migrationResult(t)
	rows := res.LineageMap()
	if len(rows) != len(res.Lineage) {
		t.Fatalf("%d rows for %d lineages", len(rows), len(res.Lineage))
	}
	seenKept := false
	rank := map[Kind]int{}
	for i, k := range Kinds {
		rank[k] = i
	}
	for i, r := range rows {
		if len(r.Cells) != len(res.Compactions) {
			t.Fatalf("row %d has %d cells for %d compactions", i, len(r.Cells), len(res.Compactions))
		}
		filled := 0
		for _, c := range r.Cells {
			if c != "" {
				filled++
			}
		}
		if filled != len(r.Steps) {
			t.Errorf("row %q: %d cells filled for %d steps", r.Key, filled, len(r.Steps))
		}
		if !r.Lost() {
			seenKept = true
		} else if seenKept {
			t.Errorf("lost row %q comes after a kept one", r.Key)
		}
		if i > 0 && r.Lost() && rows[i-1].Lost() {
			p := rows[i-1]
			if rank[p.Kind] > rank[r.Kind] || p.Kind == r.Kind && p.FirstLoss > r.FirstLoss {
				t.Errorf("lost rows out of order: %q (#%d) before %q (#%d)", p.Key, p.FirstLoss, r.Key, r.FirstLoss)
			}
		}
	}
	if len(rows) == 0 || !rows[0].Lost() {
		t.Fatal("the migration run's map does not start with a lost item")
	}
}

// TestLineageMapReview: a loss that is only review (an inferred item) is
// marked apart: its cell is the review glyph, the row is not "lost" (it
// never counted) and it comes after the counted losses and before the kept.
func TestLineageMapReview(t *testing.T) {
	src := `{"type":"meta","format":"loupe/v1"}
{"type":"message","turn":1,"role":"user","text":"Never push to main."}
{"type":"message","turn":2,"role":"assistant","text":"I'll re-run the migration after the schema diff is reviewed. If the cache is still stale, we'll need to rebuild the CDN manifest."}
{"type":"compaction","turn":3,"seq":1,"trigger":"token_budget","summary":"The user said: never push to main."}
`
	tr, err := model.Read(strings.NewReader(src), model.ReadOptions{Name: "review.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(tr, Options{})
	rows := res.LineageMap()
	var ranks []string
	for _, r := range rows {
		switch {
		case r.Lost():
			ranks = append(ranks, "lost")
			if r.Mark(0) != Dropped.Glyph() {
				t.Errorf("a counted loss is marked %q", r.Mark(0))
			}
		case r.InReview():
			ranks = append(ranks, "review")
			if r.Mark(0) != ReviewGlyph {
				t.Errorf("a review loss is marked %q, want %q", r.Mark(0), ReviewGlyph)
			}
		default:
			ranks = append(ranks, "kept")
		}
	}
	if strings.Join(ranks, ",") != "lost,review,kept" {
		t.Errorf("rows %v, want the migration promise lost, the hypothetical in review, the rule kept", ranks)
	}
}
