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
	// Review marks the cells where the loss was review (only inferred, not
	// counted).
	Review []bool
}

// Lost reports whether the item failed to verify in some compaction (a
// loss that counted).
func (r LineageRow) Lost() bool { return r.FirstLoss > 0 }

// InReview reports whether the item's only losses were review: listed for a
// person to judge, never counted.
func (r LineageRow) InReview() bool {
	return !r.Lost() && slices.Contains(r.Review, true)
}

// Mark is the glyph of cell i: the status's, or ReviewGlyph for a review
// loss; "" where the compaction did not check the item.
func (r LineageRow) Mark(i int) string {
	switch {
	case r.Cells[i] == "":
		return ""
	case r.Review[i]:
		return ReviewGlyph
	}
	return r.Cells[i].Glyph()
}

// rank orders rows: counted losses, review losses, then the kept.
func (r LineageRow) rank() int {
	switch {
	case r.Lost():
		return 0
	case r.InReview():
		return 1
	}
	return 2
}

// LineageMap lays out every item's lineage as a grid, items × compactions:
// the picture of what survived that a postmortem or a prompt comparison
// starts from. The inspector and the reports draw the same rows. Items that
// some compaction lost come first, by kind (report order) and then by the
// compaction that first lost them; then the items whose only losses were
// review; the items every summary kept follow, by origin.
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
		row := LineageRow{Lineage: l, Cells: make([]Status, len(r.Compactions)), Review: make([]bool, len(r.Compactions))}
		for _, s := range l.StepList() {
			if i, ok := col[s.Seq]; ok {
				row.Cells[i], row.Review[i] = s.Status, s.Review
			}
		}
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b LineageRow) int {
		if c := cmp.Compare(a.rank(), b.rank()); c != 0 {
			return c
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
