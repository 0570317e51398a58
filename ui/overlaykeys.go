package ui

import (
	"fmt"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
)

// Opening, closing and answering the overlays: help, findings, lineage,
// problems and the diff.

func (m *Model) toggleOverlay(o overlay) {
	if m.ov == o {
		m.closeOverlay()
		return
	}
	m.ov = o
	m.search[ovSlot] = searchState{}
	m.refreshOverlay()
}

func (m *Model) closeOverlay() {
	if m.ov == ovDiff {
		m.diffChosen = false // the next d opens on its default again
	}
	m.ov = ovNone
	m.ovView, m.ovPane, m.mapRows = nil, nil, nil
	m.search[ovSlot] = searchState{}
}

// refreshOverlay rebuilds the open overlay for the current selection.
func (m *Model) refreshOverlay() {
	var v *listView
	switch m.ov {
	case ovNone:
		return
	case ovHelp:
		v = newHelpView(&m.keys, m.lay.overlay.w)
	case ovFindings:
		v = newFindingsView(m.res)
	case ovProblems:
		v = newProblemsView(m.t)
	case ovLineage:
		v = newLineageView(m.res, m.lineageID)
	case ovMap:
		if m.mapRows == nil {
			m.mapRows = m.res.LineageMap()
		}
		v = newLineageMapView(m.res, m.mapRows, max(0, m.ci), m.lay.overlay.w)
	case ovDiff:
		cr, _ := m.cur()
		if m.diff != nil && cr != nil && (m.diff.seq != cr.Seq || m.diff.mode != m.diffMode) {
			m.diff = nil
		}
		v, m.diffHead = newDiffView(m.diff, m.diffPending || m.diff == nil)
	}
	keep := -1
	if m.ovView != nil && m.ovPane != nil && (m.ov == ovFindings || m.ov == ovProblems) {
		keep = m.ovView.sel
	}
	m.ovView = v
	m.ovPane = newPane(v)
	if keep >= 0 && keep < v.Len() && v.ref[keep] >= 0 {
		v.sel = keep
	} else {
		v.sel = v.first()
	}
	if m.ov == ovLineage {
		// Select the compaction being inspected.
		if b := v.blockOf(m.ci); b >= 0 {
			v.sel = b
		}
	}
	m.ovPane.sel = v.sel
	m.relayout()
	if v.sel >= 0 {
		m.ovPane.Reveal(v.sel)
	}
}

func (m *Model) handleOverlayKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Findings):
		m.toggleOverlay(ovFindings)
		return nil
	case key.Matches(msg, k.Problems):
		m.toggleOverlay(ovProblems)
		return nil
	case key.Matches(msg, k.Diff):
		if m.ov == ovDiff {
			m.closeOverlay()
			return nil
		}
		return m.openDiff()
	case key.Matches(msg, k.LineageMap):
		m.toggleOverlay(ovMap)
		return nil
	case key.Matches(msg, k.Lineage):
		if m.ov == ovLineage {
			m.closeOverlay()
			return nil
		}
		return m.openLineage()
	case key.Matches(msg, k.NextMatch) && m.search[ovSlot].query != "":
		return m.nextMatch(+1)
	case key.Matches(msg, k.PrevMatch) && m.search[ovSlot].query != "":
		return m.nextMatch(-1)
	case key.Matches(msg, k.Copy):
		return m.copyCmd()
	case key.Matches(msg, k.Pager):
		return m.pagerCmd()
	case key.Matches(msg, k.Editor):
		return m.editorCmd()
	case key.Matches(msg, k.Open):
		return m.overlayOpen()
	case m.ov == ovDiff && key.Matches(msg, k.Retry):
		return m.retryDiff()
	case m.ov == ovDiff && key.Matches(msg, k.DiffMode):
		return m.switchDiffMode()
	case key.Matches(msg, k.PrevCompaction):
		return m.stepCompaction(-1)
	case key.Matches(msg, k.NextCompaction):
		return m.stepCompaction(+1)
	}
	if m.ovView.first() >= 0 {
		if d, ok := m.selectionStep(msg, m.ovView, m.ovPane); ok {
			m.ovView.sel, m.ovPane.sel = d, d
			m.ovPane.Reveal(d)
		}
		return nil
	}
	scroll(m.ovPane, k, msg)
	return nil
}

// overlayOpen is enter in an overlay: jump to a finding, to a compaction
// of the lineage, to the line of a problem, or to the next lost item of a
// summary diff.
func (m *Model) overlayOpen() tea.Cmd {
	if m.ov == ovDiff {
		return m.nextLostMark()
	}
	if m.ovView == nil || m.ovView.sel < 0 {
		return nil
	}
	ref := m.ovView.ref[m.ovView.sel]
	switch m.ov {
	case ovFindings:
		return m.jumpToFinding(ref)
	case ovProblems:
		return m.jumpToProblem(ref)
	case ovLineage:
		id := m.lineageID
		m.closeOverlay()
		cmd := m.selectCompaction(ref)
		m.selectItemByID(id)
		return cmd
	case ovMap:
		return m.openMapRow(ref)
	}
	return nil
}

// selectItemByID selects the item with the given identity in the current
// compaction, if it is there.
func (m *Model) selectItemByID(id string) bool {
	cr, _ := m.cur()
	if cr == nil || id == "" {
		return false
	}
	for i, it := range cr.Items {
		if it.Item != nil && it.ID == id {
			m.selectItem(i)
			return true
		}
	}
	return false
}

// jumpToFinding shows finding fi: the compaction that lost the item with
// the item selected (its origin marked in the source), and the source at
// the turn of the claim, flagged ⚑, with a banner saying all three.
func (m *Model) jumpToFinding(fi int) tea.Cmd {
	if m.res == nil || fi < 0 || fi >= len(m.res.Findings) {
		return nil
	}
	f := m.res.Findings[fi]
	m.closeOverlay()
	if f.LostAt > 0 {
		for ci, c := range m.res.Compactions {
			if c.Seq == f.LostAt {
				m.selectCompaction(ci) // closed overlay: no diff to follow
				break
			}
		}
	}
	m.selectItemByID(f.ItemID)
	m.flag = &f
	m.src.flag = f.Event
	m.relayout()
	if f.Event >= 0 && f.Event < m.src.Len() {
		m.panes[paneSource].ScrollTo(f.Event, 2) // with the turn before it
	}
	m.focus = paneSource
	return nil
}

// jumpToProblem shows the line of problem pi in the source: the event read
// from it (a line that did not parse is kept as a raw event).
func (m *Model) jumpToProblem(pi int) tea.Cmd {
	if m.t == nil || pi < 0 || pi >= len(m.t.Problems) {
		return nil
	}
	p := m.t.Problems[pi]
	ev := eventAtLine(m.t, p.Line)
	if ev < 0 {
		return m.setStatus(fmt.Sprintf("line %d is not an event of the source (%s)", p.Line, oneLine(p.Msg)))
	}
	m.closeOverlay()
	m.focus = paneSource
	m.panes[paneSource].ScrollTo(ev, 1)
	return m.setStatus(fmt.Sprintf("line %d: %s", p.Line, oneLine(p.Msg)))
}

// eventAtLine finds the event read from a line of the file by binary
// search (events are in file order), or -1.
func eventAtLine(t *model.Transcript, ln int) int {
	if ln <= 0 {
		return -1
	}
	i := sort.Search(len(t.Events), func(i int) bool { return t.Events[i].Header().Line >= ln })
	if i < len(t.Events) && t.Events[i].Header().Line == ln {
		return i
	}
	return -1
}

func (m *Model) openLineage() tea.Cmd {
	it := m.curItem()
	if it == nil {
		return m.setStatus("select an item in the preservation set first")
	}
	m.lineageID = it.ID
	m.ov = ovLineage
	m.search[ovSlot] = searchState{}
	m.refreshOverlay()
	return nil
}

// openMapRow is enter on a row of the lineage map: the compaction that
// first lost the item (the first that checked it, when none lost it), with
// the item selected.
func (m *Model) openMapRow(ref int) tea.Cmd {
	if ref < 0 || ref >= len(m.mapRows) {
		return nil
	}
	r := m.mapRows[ref]
	target := -1
	for ci, c := range m.res.Compactions {
		if r.Cells[ci] != "" && (target < 0 || c.Seq == r.FirstLoss) {
			target = ci
		}
	}
	if target < 0 {
		return nil
	}
	id := r.ID
	m.closeOverlay()
	cmd := m.selectCompaction(target)
	m.selectItemByID(id)
	return cmd
}
