package ui

import (
	"fmt"
	"sort"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
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
		m.toggleOverlay(ovFindings)
	case key.Matches(msg, k.Lineage):
		return m.openLineage()
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
	if m.vonly && cr != nil && keep >= 0 && cr.Items[keep].Status.Verified() {
		keep = -1
		for i, it := range cr.Items {
			if it.Item != nil && !it.Status.Verified() {
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

// ---- overlays ----

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
	m.ovView, m.ovPane = nil, nil
	m.search[ovSlot] = searchState{}
}

// refreshOverlay rebuilds the open overlay for the current selection.
func (m *Model) refreshOverlay() {
	var v *listView
	switch m.ov {
	case ovNone:
		return
	case ovHelp:
		v = newHelpView(&m.keys)
	case ovFindings:
		v = newFindingsView(m.res)
	case ovProblems:
		v = newProblemsView(m.t)
	case ovLineage:
		v = newLineageView(m.res, m.lineageID)
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

func (m *Model) openDiff() tea.Cmd {
	cr, c := m.cur()
	if cr == nil || c == nil {
		return m.setStatus("no compaction to diff")
	}
	m.ov = ovDiff
	m.search[ovSlot] = searchState{}
	m.diffMode = m.defaultDiffMode()
	if m.diff != nil && m.diff.seq == cr.Seq && m.diff.mode == m.diffMode && !m.diff.timedOut {
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
		return summaryDiffCmd(m.diffReq, prevSeq, cr.Seq, p.Summary, c.Summary, m.lostFromPrev(), limit)
	}
	lo, hi := m.t.ReplacedSpan(c)
	return diffCmd(m.diffReq, m.t, cr.Seq, lo, hi, c.Summary, limit)
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
