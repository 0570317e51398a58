package verify

import "testing"

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
