package report

// The human reports follow the JSON report's rule (json_refs.go): an item
// is written in full when it first appears or changes, and a compaction
// that finds it as the one before did says so in a line, instead of
// writing it again. A run that keeps twenty items open through a thousand
// compactions is then a thousand short lines, not twenty thousand long ones.

import (
	"fmt"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// itemState is what a human report writes of an item at one compaction.
type itemState struct {
	status                verify.Status
	review                bool
	basis                 verify.Basis
	cue, text, label, why string
	evidence              string
}

func stateOf(it *verify.ItemResult) itemState {
	s := itemState{status: it.Status, review: it.Review, basis: it.Basis, cue: it.Cue, text: it.Text, label: it.Item.Label(), why: it.Why}
	if it.Evidence != nil {
		s.evidence = it.Evidence.Section + "\x00" + it.Evidence.Text
	}
	return s
}

// sinceMemo follows the compactions a report writes, in order, and tells
// which of a compaction's items are as they were at the previous one.
type sinceMemo struct {
	// all writes every item in full (--evidence all): nothing is the same.
	all       bool
	prev, cur map[refKey]written
}

// written is an item's state at the compaction written last, and the
// seq of the compaction where it was last written in full.
type written struct {
	state itemState
	full  int
}

func newSinceMemo(all bool) *sinceMemo {
	return &sinceMemo{all: all, cur: map[refKey]written{}}
}

// compaction records c's items and returns, for each, 0 when it is to be
// written in full (new, or changed since the compaction written before),
// else the seq of the compaction where it was written in full.
func (m *sinceMemo) compaction(c *verify.CompactionResult) (since []int) {
	items := c.ItemResults()
	m.prev, m.cur = m.cur, make(map[refKey]written, len(items))
	dup := map[string]int{}
	since = make([]int, len(items))
	for i := range items {
		it := &items[i]
		k := refKey{it.ID, dup[it.ID]}
		dup[it.ID]++
		w := written{state: stateOf(it), full: c.Seq}
		if p, ok := m.prev[k]; ok && p.state == w.state && !m.all {
			w.full, since[i] = p.full, p.full
		}
		m.cur[k] = w
	}
	return since
}

// ReviewNoteSince is a review item's line when the compaction written
// before listed it the same: what it is, and where its full note is.
func ReviewNoteSince(it *verify.ItemResult, since int) string {
	return fmt.Sprintf("review (not counted): %s %s: %s (turn %d), unchanged since #%d", it.Kind, it.Status, model.Clip(it.Item.Label(), 60), it.Turn, since)
}

// reviewNote is the full note, or the short one when the item was
// written in full at compaction since.
func reviewNote(it *verify.ItemResult, since int) string {
	if since > 0 {
		return ReviewNoteSince(it, since)
	}
	return ReviewNote(it)
}

// unchangedLine says how many items a compaction found as they were
// written in full at or before compaction since.
func unchangedLine(n, since int) string {
	return fmt.Sprintf("%s unchanged since #%d", verify.Plural(n, "item"), since)
}
