package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// What is selected, and moving the panes to it: the compaction, the item
// of its preservation set, the item's origin in the source and its evidence
// in the summary.

// setResult shows res, opening on its first violating compaction.
func (m *Model) setResult(res *verify.Result) {
	if m.res == nil || !m.res.Pending || m.t != res.Transcript || m.src == nil {
		m.src = newSourceView(res.Transcript)
		m.panes[paneSource] = newPane(m.src)
	} // else: the verdicts of the run shown while they were computed; the reader keeps their place
	m.res, m.t, m.st = res, res.Transcript, stateReady
	m.ci = -1
	first := 0
	for i, c := range res.Compactions {
		if c.Verdict == verify.Violate {
			first = i
			break
		}
	}
	if len(res.Compactions) == 0 {
		first = -1
	}
	m.relayout()
	m.selectCompaction(first)
}

// cur returns the selected compaction's result and event.
func (m *Model) cur() (*verify.CompactionResult, *model.Compaction) {
	if m.res == nil || m.ci < 0 || m.ci >= len(m.res.Compactions) {
		return nil, nil
	}
	cr := m.res.Compactions[m.ci]
	var c *model.Compaction
	if m.t != nil && cr.Event >= 0 && cr.Event < len(m.t.Events) {
		c, _ = m.t.Events[cr.Event].(*model.Compaction)
	}
	if c == nil && m.t != nil {
		c = m.t.Compaction(cr.Seq)
	}
	return cr, c
}

// curItem returns the selected item, or nil.
func (m *Model) curItem() *verify.ItemResult {
	cr, _ := m.cur()
	if cr == nil || m.selItem < 0 || m.selItem >= len(cr.Items) {
		return nil
	}
	return &cr.Items[m.selItem]
}

// notInSummary reports whether the selected item has no evidence, so the
// summary pane shows a "not in summary" banner.
func (m *Model) notInSummary() bool {
	it := m.curItem()
	return it != nil && it.Evidence == nil
}

// selectCompaction shows compaction ci and selects its first unverified
// item (or its first item), moving the other panes to it. An open diff
// follows: the command computes the new one.
func (m *Model) selectCompaction(ci int) tea.Cmd {
	if m.res == nil || ci >= len(m.res.Compactions) {
		return nil
	}
	if ci < 0 && len(m.res.Compactions) > 0 {
		return nil
	}
	m.ci = ci
	cr, c := m.cur()
	ev := -1
	var items []verify.ItemResult
	if cr != nil {
		items = cr.Items
		if c != nil {
			ev = c.Index
		}
	}
	m.src.SetCompaction(ev, items)
	m.sum = newSummaryView(c, cr)
	m.items = newPreservationView(cr, m.vonly)
	if m.res.Pending && cr == nil {
		m.items = pendingView(len(m.t.Compactions))
	}
	m.panes[paneSummary] = newPane(m.sum)
	m.panes[paneItems] = newPane(m.items)
	m.search[paneSummary], m.search[paneItems] = searchState{}, searchState{}
	m.relayout()

	sel := -1
	for i, it := range items {
		if it.Item != nil && it.Counts() {
			sel = i
			break
		}
	}
	for i, it := range items {
		if sel < 0 && it.Item != nil && !it.Status.Verified() {
			sel = i // only review items are lost: the first of them
		}
	}
	if sel < 0 && len(items) > 0 {
		sel = 0
	}
	if sel >= 0 {
		m.selectItem(sel)
		if p := m.panes[paneItems]; p.top != (pos{}) {
			// Not on the first page: show it near the top, under its heading.
			p.ScrollTo(m.items.sel, 1)
		}
	} else {
		m.selItem = -1
		m.src.sel = -1
		if ev >= 0 {
			lo, _ := m.t.ReplacedSpan(c)
			m.panes[paneSource].ScrollTo(lo, 0)
		}
	}
	if m.ov == ovDiff && cr != nil && c != nil {
		m.diffMode = m.defaultDiffMode()
		return m.startDiff(m.opt.DiffLimit)
	}
	m.refreshOverlay()
	return nil
}

// selectItem selects item idx of the compaction and moves the other panes:
// the source to its origin, the summary to its evidence (or a "not in
// summary" banner).
func (m *Model) selectItem(idx int) {
	cr, _ := m.cur()
	if cr == nil || idx < 0 || idx >= len(cr.Items) {
		return
	}
	m.selItem = idx
	it := cr.Items[idx]
	b := m.items.blockOf(idx)
	if b < 0 && m.vonly {
		// A jump (lineage, finding) to a verified item: show every item
		// rather than select one that is not on screen.
		m.vonly = false
		m.items = newPreservationView(cr, false)
		m.panes[paneItems] = newPane(m.items)
		m.relayout()
		b = m.items.blockOf(idx)
	}
	m.items.sel = b
	m.panes[paneItems].sel = b
	m.panes[paneItems].Reveal(b)

	m.src.sel = it.Event
	m.panes[paneSource].ScrollTo(it.Event, 0)

	sp := m.panes[paneSummary]
	sp.hiTag = m.sum.tagOf(idx)
	m.sum.sel = -1
	m.relayout() // the "not in summary" banner takes a row
	if it.Evidence != nil {
		a, _ := alignSpan(m.sum.raw, it.Evidence.Start, it.Evidence.End)
		l := m.sum.lineAt(a)
		m.sum.sel = l
		sp.ScrollTo(l, sp.h/3)
	}
}
