package verify

import (
	"cmp"
	"slices"
)

// LineageRow is one item's row of the lineage map: its status in every
// compaction of the run, in order.
type LineageRow struct {
	*Lineage
	// Cells holds the item's status at each compaction, one per
	// r.Compactions in order; "" where the compaction did not check it
	// (before its origin, after it closed).
	Cells []Status
}

// Lost reports whether the item failed to verify in some compaction.
func (r LineageRow) Lost() bool { return r.FirstLoss > 0 }

// LineageMap lays out every item's lineage as a grid, items × compactions:
// the picture of what survived that a postmortem or a prompt comparison
// starts from. The inspector and the reports draw the same rows. Items that
// some compaction lost come first, by kind (report order) and then by the
// compaction that first lost them; the items every summary kept follow,
// by origin.
func (r *Result) LineageMap() []LineageRow {
	col := make(map[int]int, len(r.Compactions))
	for i, c := range r.Compactions {
		col[c.Seq] = i
	}
	rank := make(map[Kind]int, len(Kinds))
	for i, k := range Kinds {
		rank[k] = i
	}
	rows := make([]LineageRow, 0, len(r.Lineage))
	for _, l := range r.Lineage {
		if l == nil || l.Item == nil {
			continue
		}
		row := LineageRow{Lineage: l, Cells: make([]Status, len(r.Compactions))}
		for _, s := range l.Steps {
			if i, ok := col[s.Seq]; ok {
				row.Cells[i] = s.Status
			}
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b LineageRow) int {
		if a.Lost() != b.Lost() {
			if a.Lost() {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(rank[a.Kind], rank[b.Kind]); c != 0 {
			return c
		}
		if a.Lost() {
			if c := cmp.Compare(a.FirstLoss, b.FirstLoss); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Turn, b.Turn)
	})
	return rows
}
