package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/verify"
)

// handleKey routes a key: the search input first, then quitting, then the
// state's own keys, then overlays, then the global keys, then the focused
// pane.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if m.searching {
		return m.handleSearchInput(msg)
	}
	if m.st == statePicker && m.ch.filtering && msg.String() != "ctrl+c" {
		return m.handlePickerKey(msg) // q is a letter of the filter
	}
	if key.Matches(msg, k.Quit) {
		return tea.Quit
	}
	switch m.st {
	case statePicker:
		return m.handlePickerKey(msg)
	case stateLoading, stateError:
		if key.Matches(msg, k.Back) && m.inSession() {
			return m.backToChooser()
		}
		return nil
	}
	if m.lay.tooSmall {
		return nil
	}
	switch {
	case key.Matches(msg, k.Back):
		return m.back()
	case key.Matches(msg, k.Help):
		m.toggleOverlay(ovHelp)
		return nil
	case key.Matches(msg, k.Search):
		m.searching = true
		m.input.value = ""
		return nil
	}
	if m.ov != ovNone {
		return m.handleOverlayKey(msg)
	}
	switch {
	case key.Matches(msg, k.NextPane):
		m.focus = (m.focus + 1) % numPanes
	case key.Matches(msg, k.PrevPane):
		m.focus = (m.focus + numPanes - 1) % numPanes
	case key.Matches(msg, k.FocusSource):
		m.focus = paneSource
	case key.Matches(msg, k.FocusSummary):
		m.focus = paneSummary
	case key.Matches(msg, k.FocusItems):
		m.focus = paneItems
	case key.Matches(msg, k.PrevCompaction):
		return m.stepCompaction(-1)
	case key.Matches(msg, k.NextCompaction):
		return m.stepCompaction(+1)
	case key.Matches(msg, k.NextViolation):
		if m.search[m.focus].query != "" {
			return m.nextMatch(+1)
		}
		return m.nextViolation(+1)
	case key.Matches(msg, k.PrevViolation):
		if m.search[m.focus].query != "" {
			return m.nextMatch(-1)
		}
		return m.nextViolation(-1)
	case key.Matches(msg, k.Diff):
		return m.openDiff()
	case key.Matches(msg, k.Findings):
		if s := m.notWhilePending("findings"); s != "" {
			return m.setStatus(s)
		}
		m.toggleOverlay(ovFindings)
	case key.Matches(msg, k.Lineage):
		if s := m.notWhilePending("lineage"); s != "" {
			return m.setStatus(s)
		}
		return m.openLineage()
	case key.Matches(msg, k.LineageMap):
		if s := m.notWhilePending("lineage map"); s != "" {
			return m.setStatus(s)
		}
		m.toggleOverlay(ovMap)
	case key.Matches(msg, k.ViolationsOnly):
		return m.toggleViolationsOnly()
	case key.Matches(msg, k.Problems):
		m.toggleOverlay(ovProblems)
	case key.Matches(msg, k.Copy):
		return m.copyCmd()
	case key.Matches(msg, k.Pager):
		return m.pagerCmd()
	case key.Matches(msg, k.Editor):
		return m.editorCmd()
	case key.Matches(msg, k.Open):
		return m.open()
	default:
		m.move(msg)
	}
	return nil
}

// back is esc: it closes an overlay, else clears the focused pane's search,
// else the finding banner, else goes back to the session chooser.
func (m *Model) back() tea.Cmd {
	switch {
	case m.ov != ovNone:
		m.closeOverlay()
	case m.search[m.focus].query != "":
		m.clearSearch(m.focus)
	case m.flag != nil:
		m.flag = nil
		m.src.flag = -1
		m.relayout()
	case m.inSession():
		return m.backToChooser()
	}
	return nil
}

// move applies a movement key to the focused pane: the preservation set
// moves its selection, the others scroll.
func (m *Model) move(msg tea.KeyPressMsg) {
	p := m.panes[m.focus]
	if p == nil {
		return
	}
	if m.focus == paneItems {
		if d, ok := m.selectionStep(msg, m.items, p); ok {
			if r := m.items.ref[d]; r >= 0 {
				m.selectItem(r)
			}
		}
		return
	}
	scroll(p, &m.keys, msg)
}

// selectionStep returns the block a movement key selects in a list, and
// scrolls the list itself when it has nothing to select.
func (m *Model) selectionStep(msg tea.KeyPressMsg, v *listView, p *pane) (int, bool) {
	k := &m.keys
	if v.first() < 0 {
		scroll(p, k, msg)
		return 0, false
	}
	half := max(1, p.h/4)
	var d int
	switch {
	case key.Matches(msg, k.Up):
		d = v.step(-1)
	case key.Matches(msg, k.Down):
		d = v.step(+1)
	case key.Matches(msg, k.HalfUp):
		d = v.step(-half)
	case key.Matches(msg, k.HalfDown):
		d = v.step(+half)
	case key.Matches(msg, k.PageUp):
		d = v.step(-2 * half)
	case key.Matches(msg, k.PageDown):
		d = v.step(+2 * half)
	case key.Matches(msg, k.Top):
		d = v.first()
	case key.Matches(msg, k.Bottom):
		d = v.last()
	default:
		return 0, false
	}
	if v.sel < 0 && d < 0 {
		d = v.first()
	}
	return d, d >= 0
}

// scroll applies a movement key to a pane.
func scroll(p *pane, k *KeyMap, msg tea.KeyPressMsg) {
	switch {
	case key.Matches(msg, k.Up):
		p.Up(1)
	case key.Matches(msg, k.Down):
		p.Down(1)
	case key.Matches(msg, k.HalfUp):
		p.Up(max(1, p.h/2))
	case key.Matches(msg, k.HalfDown):
		p.Down(max(1, p.h/2))
	case key.Matches(msg, k.PageUp):
		p.Up(max(1, p.h-1))
	case key.Matches(msg, k.PageDown):
		p.Down(max(1, p.h-1))
	case key.Matches(msg, k.Top):
		p.Top()
	case key.Matches(msg, k.Bottom):
		p.Bottom()
	}
}

func (m *Model) stepCompaction(d int) tea.Cmd {
	if m.res == nil || len(m.res.Compactions) == 0 {
		return nil
	}
	ci := m.ci + d
	for m.vonly && ci >= 0 && ci < len(m.res.Compactions) && m.res.Compactions[ci].Verdict != verify.Violate {
		ci += d // the timeline shows violations only
	}
	if ci < 0 || ci >= len(m.res.Compactions) {
		if done, n := m.verifiedSoFar(); d > 0 && done < n {
			return m.setStatus("the next compactions are still being verified")
		}
		if m.vonly {
			return m.setStatus("no more violating compactions that way (v shows all)")
		}
		return m.setStatus("no more compactions that way")
	}
	return m.selectCompaction(ci)
}

// shownCompactions are the compactions the timeline shows: nil for all,
// the violating ones in violations-only mode.
func (m *Model) shownCompactions() []int {
	if !m.vonly || m.res == nil {
		return nil
	}
	out := []int{}
	for i, c := range m.res.Compactions {
		if c.Verdict == verify.Violate {
			out = append(out, i)
		}
	}
	return out
}

// toggleViolationsOnly hides (or shows again) the degrading compactions in
// the timeline and the verified items in the preservation set, keeping the
// selection when it is still shown.
func (m *Model) toggleViolationsOnly() tea.Cmd {
	if m.res == nil {
		return nil
	}
	m.vonly = !m.vonly
	cr, _ := m.cur()
	keep := m.selItem
	if m.vonly && cr != nil && keep >= 0 && !cr.Items[keep].Counts() {
		keep = -1
		for i, it := range cr.Items {
			if it.Item != nil && it.Counts() {
				keep = i
				break
			}
		}
	}
	top := m.panes[paneItems].top
	m.items = newPreservationView(cr, m.vonly)
	m.panes[paneItems] = newPane(m.items)
	m.search[paneItems] = searchState{}
	m.relayout()
	if keep >= 0 {
		m.selectItem(keep)
	} else {
		m.selItem = -1
		m.panes[paneItems].top = top
		m.panes[paneItems].clampBottom()
	}
	if m.vonly {
		return m.setStatus(fmt.Sprintf("violations only: %d of %d compactions violate; verified items hidden · v shows all", m.res.Violations(), len(m.res.Compactions)))
	}
	return m.setStatus("showing every compaction and item")
}

func (m *Model) nextViolation(d int) tea.Cmd {
	if m.res == nil {
		return nil
	}
	for ci := m.ci + d; ci >= 0 && ci < len(m.res.Compactions); ci += d {
		if m.res.Compactions[ci].Verdict == verify.Violate {
			return m.selectCompaction(ci)
		}
	}
	if done, n := m.verifiedSoFar(); d > 0 && done < n {
		return m.setStatus("no later violating compaction so far: the next ones are still being verified")
	}
	if d > 0 {
		return m.setStatus("no later violating compaction")
	}
	return m.setStatus("no earlier violating compaction")
}

// open is enter/o: in the source it loads the event at the top whole; in
// the preservation set it moves the other panes back to the selected item.
func (m *Model) open() tea.Cmd {
	switch m.focus {
	case paneSource:
		i := m.panes[paneSource].top.b
		if m.t == nil || i >= len(m.t.Events) {
			return nil
		}
		if !m.src.Partial(i) {
			return m.setStatus("this event is shown whole")
		}
		return tea.Batch(m.setStatus("loading the whole event "+glyphEllipsis), loadEventCmd(m.t, i))
	case paneItems:
		if m.selItem >= 0 {
			m.selectItem(m.selItem)
		}
	}
	return nil
}

func (m *Model) handleEventLoaded(msg eventLoadedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setStatus("could not load the event: " + msg.err.Error())
	}
	if m.src == nil || msg.event >= m.src.Len() {
		return nil
	}
	m.src.SetFull(msg.event, msg.lines)
	p := m.panes[paneSource]
	if p.top.b == msg.event {
		p.top = pos{msg.event, 0, 0}
	}
	p.clampBottom()
	return m.setStatus(fmt.Sprintf("loaded the whole event: %s lines", commas(len(msg.lines))))
}

// ---- mouse ----

const wheelRows = 3

// handleWheel scrolls the pane under the pointer.
func (m *Model) handleWheel(ms tea.Mouse) {
	if m.st == statePicker && m.pickPane != nil {
		wheel(m.pickPane, ms)
		return
	}
	if m.st != stateReady || m.lay.tooSmall {
		return
	}
	if m.ov != ovNone {
		wheel(m.ovPane, ms)
		return
	}
	if i := m.paneAt(ms.X, ms.Y); i >= 0 {
		wheel(m.panes[i], ms)
	}
}

func wheel(p *pane, ms tea.Mouse) {
	switch ms.Button {
	case tea.MouseWheelUp:
		p.Up(wheelRows)
	case tea.MouseWheelDown:
		p.Down(wheelRows)
	}
}

// paneAt returns the pane drawn at (x, y), or -1.
func (m *Model) paneAt(x, y int) int {
	for i := range numPanes {
		if m.lay.tabs && i != m.focus {
			continue
		}
		if m.lay.outer[i].contains(x, y) {
			return i
		}
	}
	return -1
}

// handleClick focuses the pane clicked, selects the compaction, tab or item
// under the pointer.
func (m *Model) handleClick(ms tea.Mouse) tea.Cmd {
	if ms.Button != tea.MouseLeft || m.st != stateReady || m.lay.tooSmall {
		return nil
	}
	if ms.Y == m.lay.timeline && m.res != nil {
		_, _, _, _, chips := timelineLayout(m.res.Compactions, m.shownCompactions(), max(0, m.ci), m.w)
		for _, c := range chips {
			if ms.X >= c.x0 && ms.X < c.x1 {
				return m.selectCompaction(c.ci)
			}
		}
		return nil
	}
	if m.ov != ovNone {
		if m.ovView.first() >= 0 && m.lay.overlay.contains(ms.X, ms.Y) {
			if b := m.ovPane.BlockAt(ms.Y - m.lay.overlay.y); b >= 0 && m.ovView.ref[b] >= 0 {
				m.ovView.sel, m.ovPane.sel = b, b
			}
		}
		return nil
	}
	if m.lay.tabs && ms.Y == m.lay.tabBar {
		for i, r := range tabRanges(m.w) {
			if ms.X >= r[0] && ms.X < r[1] {
				m.focus = i
			}
		}
		return nil
	}
	i := m.paneAt(ms.X, ms.Y)
	if i < 0 {
		return nil
	}
	m.focus = i
	if i == paneItems {
		in := m.lay.inner[i]
		if b := m.panes[i].BlockAt(ms.Y - in.y); b >= 0 && m.items.ref[b] >= 0 {
			m.selectItem(m.items.ref[b])
		}
	}
	return nil
}
