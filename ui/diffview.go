package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The diff overlay's state: which diff `d` opens on, switching, retrying,
// and the results that come back from its tea.Cmd.

func (m *Model) openDiff() tea.Cmd {
	cr, c := m.cur()
	if cr == nil || c == nil {
		return m.setStatus("no compaction to diff")
	}
	m.ov = ovDiff
	m.search[ovSlot] = searchState{}
	m.diffMode = m.defaultDiffMode()
	if m.diff != nil && m.diff.seq == cr.Seq && m.diff.mode == m.diffMode && !m.diff.timedOut && m.diff.focus == m.diffFocus(c.Summary) {
		m.refreshOverlay()
		return nil
	}
	return m.startDiff(m.opt.DiffLimit)
}

// prevOf returns the compaction before the selected one and its result,
// when there is one.
func (m *Model) prevOf() (*verify.CompactionResult, *model.Compaction) {
	_, c := m.cur()
	if c == nil {
		return nil, nil
	}
	p := m.t.Previous(c)
	if p == nil {
		return nil, nil
	}
	for _, pr := range m.res.Compactions {
		if pr.Event == p.Index || (pr.Event < 0 && pr.Seq == p.Seq) {
			return pr, p
		}
	}
	return nil, p
}

// lostFromPrev lists what the previous summary carried that the selected
// one lost.
func (m *Model) lostFromPrev() []lostItem {
	cr, _ := m.cur()
	pr, p := m.prevOf()
	if pr == nil || p == nil {
		return nil
	}
	return lostSince(pr, cr, p.Summary)
}

// defaultDiffMode is the diff `d` opens on: the user's choice while the
// view stays open, else the summary diff when the previous summary carried
// an item this one lost (that is where the loss happened), else the span.
func (m *Model) defaultDiffMode() diffMode {
	if m.diffChosen {
		return m.diffMode
	}
	if len(m.lostFromPrev()) > 0 {
		return diffSummary
	}
	return diffSpan
}

// nextLostMark scrolls the summary diff to where the previous summary
// carried the next lost item, cycling.
func (m *Model) nextLostMark() tea.Cmd {
	d := m.diff
	if d == nil || d.mode != diffSummary || len(d.lost) == 0 {
		return nil
	}
	for range len(d.marks) {
		i := m.diffMark % len(d.marks)
		m.diffMark++
		if d.marks[i] >= 0 {
			m.ovPane.ScrollTo(m.diffHead+d.marks[i], 2)
			return m.setStatus(fmt.Sprintf("lost item %d of %d: %s", i+1, len(d.lost), oneLine(d.lost[i].key)))
		}
	}
	return m.setStatus("the lost items' words were not found in the previous summary")
}

// switchDiffMode is s in the diff: span diff ⇄ summary diff.
func (m *Model) switchDiffMode() tea.Cmd {
	next := diffSummary
	if m.diffMode == diffSummary {
		next = diffSpan
	}
	if _, p := m.prevOf(); next == diffSummary && p == nil {
		return m.setStatus("this is the first compaction: there is no previous summary to diff against")
	}
	m.diffMode, m.diffChosen = next, true
	return m.startDiff(m.opt.DiffLimit)
}

func (m *Model) retryDiff() tea.Cmd {
	if m.diff == nil || !m.diff.timedOut {
		return nil
	}
	return m.startDiff(0)
}

func (m *Model) startDiff(limit time.Duration) tea.Cmd {
	cr, c := m.cur()
	if m.diffMode == diffSummary {
		if _, p := m.prevOf(); p == nil {
			m.diffMode = diffSpan // the first compaction has only its span
		}
	}
	m.diffReq++
	m.diffPending = true
	m.diff = nil
	m.diffMark = 0
	m.refreshOverlay()
	if m.diffMode == diffSummary {
		pr, p := m.prevOf()
		prevSeq := p.Seq
		if pr != nil {
			prevSeq = pr.Seq
		}
		return summaryDiffCmd(m.diffReq, prevSeq, cr.Seq, p.Summary, c.Summary, m.lostFromPrev(), limit, m.diffFocus(c.Summary))
	}
	lo, hi := m.t.ReplacedSpan(c)
	return diffCmd(m.diffReq, m.t, cr.Seq, lo, hi, c.Summary, limit, m.diffFocus(c.Summary))
}

// diffFocus is the selected item as the diff highlights it: its origin
// event and its evidence in this summary.
func (m *Model) diffFocus(summary string) diffFocus {
	it := m.curItem()
	if it == nil || it.Item == nil {
		return noFocus
	}
	f := diffFocus{event: it.Event}
	if it.Evidence != nil {
		f.a, f.b = alignSpan(summary, it.Evidence.Start, it.Evidence.End)
	}
	return f
}

func (m *Model) handleDiff(msg diffMsg) {
	if msg.req != m.diffReq {
		return
	}
	m.diffPending = false
	r := msg.res
	m.diff = &r
	if m.ov == ovDiff {
		m.refreshOverlay()
	}
}
