package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View draws the screen. It renders only what is visible: each pane walks
// its h rows from its top; frames are drawn by hand from precomputed SGR
// prefixes, not with lipgloss per line.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = true
	v.WindowTitle = "loupe — " + oneLine(m.opt.Title)
	if m.searching && !m.lay.tooSmall && m.st == stateReady {
		_, x := m.input.view(m.th, m.w)
		v.Cursor = tea.NewCursor(x, m.lay.footer)
	}
	return v
}

func (m *Model) render() string {
	if m.w == 0 || m.h == 0 {
		return "loupe " + glyphEllipsis
	}
	if m.lay.tooSmall {
		return m.tooSmallView()
	}
	switch m.st {
	case stateLoading:
		return m.loadingView()
	case stateError:
		return m.errorView()
	case statePicker:
		return m.pickerView()
	}
	rows := make([]string, m.h)
	rows[m.lay.header] = headerRow(m.th, m.res, m.opt.Title, m.liveMark(), m.pendingText(), m.w)
	ci := max(0, m.ci)
	if m.res.Pending {
		rows[m.lay.timeline] = m.pendingTimelineRow()
	} else {
		rows[m.lay.timeline] = m.timelineLive(timelineRow(m.th, m.res.Compactions, m.shownCompactions(), ci, m.w))
	}
	for i, r := range m.detailRowsLive() {
		if i < m.lay.detailRows {
			rows[m.lay.detail+i] = r
		}
	}
	body := m.bodyRows()
	copy(rows[m.lay.body.y:], body)
	if m.lay.banner >= 0 {
		rows[m.lay.banner] = m.bannerRow()
	}
	rows[m.lay.footer] = m.footerRow()
	return strings.Join(rows, "\n")
}

func (m *Model) bodyRows() []string {
	if m.ov != ovNone && m.ovPane != nil {
		return box(m.th, m.overlayTitle(), m.ovPane.View(m.th), m.lay.body.w, m.lay.body.h, true)
	}
	if m.lay.tabs {
		out := []string{m.tabBar()}
		return append(out, m.paneRows(m.focus)...)
	}
	cols := make([][]string, numPanes)
	for i := range numPanes {
		r := m.lay.outer[i]
		cols[i] = box(m.th, m.paneTitle(i), m.paneRows(i), r.w, r.h, i == m.focus)
	}
	out := make([]string, m.lay.body.h)
	for y := range out {
		var sb strings.Builder
		for i := range numPanes {
			sb.WriteString(cols[i][y])
		}
		out[y] = sb.String()
	}
	return out
}

// paneRows are the text rows of pane i (the summary's "not in summary"
// banner included).
func (m *Model) paneRows(i int) []string {
	p := m.panes[i]
	in := m.lay.inner[i]
	if p == nil {
		return blankRows(in.w, in.h)
	}
	rows := p.View(m.th)
	if i == paneSummary && m.notInSummary() {
		it := m.curItem()
		key := it.Key
		if key == "" {
			key = it.Text
		}
		b := fit(paint(m.th.sgr[toneNormal][stSelected], " "+glyphViolate+" not in summary: "+clip(oneLine(key), in.w-22)+" "), in.w)
		rows = append([]string{b}, rows...)
	}
	for len(rows) < in.h {
		rows = append(rows, strings.Repeat(" ", in.w))
	}
	return rows[:in.h]
}

func blankRows(w, h int) []string {
	out := make([]string, h)
	for i := range out {
		out[i] = strings.Repeat(" ", max(0, w))
	}
	return out
}

// paneTitle names a pane and where it is.
func (m *Model) paneTitle(i int) string {
	num := strconv.Itoa(i+1) + " "
	var s string
	switch i {
	case paneSource:
		s = num + "Source"
		if cr, _ := m.cur(); cr != nil {
			s += " of #" + strconv.Itoa(cr.Seq)
		}
		if p := m.panes[i]; p != nil && m.t != nil && p.top.b < len(m.t.Events) {
			s += " · " + eventTitle(m.t.Events[p.top.b]) + " · " + strconv.Itoa(p.Percent()) + "%"
		}
	case paneSummary:
		s = num + "Summary"
		if cr, c := m.cur(); cr != nil && c != nil {
			s += " #" + strconv.Itoa(cr.Seq) + " · " + bytesHuman(int64(len(c.Summary)))
		}
	case paneItems:
		s = num + "Preservation set"
		if m.vonly {
			s += " · violations only"
		}
		if cr, _ := m.cur(); cr != nil {
			bad := 0
			for _, it := range cr.Items {
				if it.Counts() {
					bad++
				}
			}
			s += " · " + plural(len(cr.Items), "item")
			if bad > 0 {
				s += " · " + strconv.Itoa(bad) + " unverified"
			}
			if n, _ := cr.ReviewCount(); n > 0 {
				s += " · " + strconv.Itoa(n) + " review"
			}
		}
	}
	if l := m.searchLabel(i); l != "" {
		s += " · " + l
	}
	return s
}

func (m *Model) overlayTitle() string {
	var s string
	switch m.ov {
	case ovHelp:
		s = "Keys and marks · esc closes"
	case ovFindings:
		s = "Findings · enter jumps · esc closes"
	case ovLineage:
		s = "Lineage · enter goes to the compaction · esc closes"
	case ovMap:
		s = "Lineage map · items × compactions · enter goes to the first loss · esc closes"
	case ovProblems:
		s = "Problems of the file · enter shows the line · esc closes"
	case ovDiff:
		cr, _ := m.cur()
		switch {
		case cr == nil:
			s = "Word diff"
		case m.diffMode == diffSummary:
			prev := "the previous summary"
			if pr, _ := m.prevOf(); pr != nil {
				prev = "summary #" + strconv.Itoa(pr.Seq)
			}
			s = "Word diff: " + prev + " → summary #" + strconv.Itoa(cr.Seq)
		default:
			s = "Word diff: replaced span → summary #" + strconv.Itoa(cr.Seq)
		}
		s += " · esc closes"
	}
	if l := m.searchLabel(ovSlot); l != "" {
		s += " · " + l
	}
	if m.ovPane != nil && m.ovPane.moreBelow() {
		s += " · ↓ more (j, space)"
	}
	return s
}

// box frames rows (each w-2 cells) in a border with a title; the focused
// box has a heavy border and an inverted title, so focus shows without
// colour.
func box(th *theme, title string, rows []string, w, h int, focused bool) []string {
	tl, tr, bl, br, hz, vt := "╭", "╮", "╰", "╯", "─", "│"
	bst, tst := th.border, th.title
	if focused {
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
		bst, tst = th.borderFocus, th.titleFocus
	}
	out := make([]string, 0, h)
	inner := max(0, w-2)
	t := clip(" "+title+" ", max(0, inner-2))
	tw := ansi.StringWidth(t)
	out = append(out, paint(bst, tl+hz)+paint(tst, t)+paint(bst, strings.Repeat(hz, max(0, inner-1-tw))+tr))
	side := paint(bst, vt)
	for i := 0; i < h-2; i++ {
		r := strings.Repeat(" ", inner)
		if i < len(rows) {
			r = rows[i]
		}
		out = append(out, side+r+side)
	}
	out = append(out, paint(bst, bl+strings.Repeat(hz, inner)+br))
	return out
}

// tabRanges are the x ranges of the tabs in the tab bar.
func tabRanges(w int) [numPanes][2]int {
	var out [numPanes][2]int
	x := 0
	for i, n := range paneNames {
		label := " " + strconv.Itoa(i+1) + " " + n + " "
		out[i] = [2]int{x, x + ansi.StringWidth(label) + 2}
		x += ansi.StringWidth(label) + 3
	}
	return out
}

// tabBar names the panes in the narrow layout, the active one inverted and
// in brackets, followed by the active pane's title.
func (m *Model) tabBar() string {
	var sb strings.Builder
	for i, n := range paneNames {
		if i > 0 {
			sb.WriteString(paint(m.th.tabIdle, "│"))
		}
		label := " " + strconv.Itoa(i+1) + " " + n + " "
		if i == m.focus {
			sb.WriteString(paint(m.th.tabActive, "["+label+"]"))
		} else {
			sb.WriteString(paint(m.th.tabIdle, " "+label+" "))
		}
	}
	title := m.paneTitle(m.focus)
	if j := strings.IndexByte(title, ' '); j >= 0 {
		title = title[j+1:]
	}
	sb.WriteString(paint(m.th.footerDesc, "  "+title))
	return fit(sb.String(), m.w)
}

// bannerRow is the finding jumped to: the claim, where the item was made
// and the compaction that lost it.
func (m *Model) bannerRow() string {
	f := m.flag
	word, _ := findingWord(f.Kind)
	s := fmt.Sprintf("%s %s at %s", glyphFinding, word, turnLabel(f.Turn))
	if f.OriginTurn > 0 {
		s += " · made at " + turnLabel(f.OriginTurn)
	}
	if f.LostAt > 0 {
		s += " · lost at #" + strconv.Itoa(f.LostAt)
	}
	s += " · esc clears"
	if f.Text != "" {
		s += " · “" + clip(oneLine(f.Text), 80) + "”"
	}
	return fit(paint(m.th.sgr[toneNormal][stBad], s), m.w)
}

// footerRow is the search input, a status, or the short help of the focus.
func (m *Model) footerRow() string {
	if m.searching {
		s, _ := m.input.view(m.th, m.w)
		return s
	}
	if m.status != "" {
		return fit(paint(m.th.status, oneLine(m.status)), m.w)
	}
	return m.renderFooter(m.footerItems())
}

// footItem is one key of the footer. rank says what goes first when the
// row is too narrow: keep (0) stays at any width; 1 goes after 2.
type footItem struct {
	keys, desc string
	rank       int
}

const (
	keep      = 0
	important = 1
	extra     = 2
)

// footerItems are the keys the footer offers for what is on screen.
func (m *Model) footerItems() []footItem {
	k := &m.keys
	var items []footItem
	add := func(rank int, keys, desc string) { items = append(items, footItem{keys, desc, rank}) }
	hb := func(rank int, b key.Binding) { add(rank, b.Help().Key, b.Help().Desc) }
	pair := func(rank int, a, b key.Binding, desc string) { add(rank, a.Keys()[0]+"/"+b.Keys()[0], desc) }
	if l := m.searchLabel(m.searchSlot()); l != "" {
		add(keep, l, "")
		pair(important, k.NextMatch, k.PrevMatch, "match")
		add(important, k.Back.Help().Key, "clear")
	}
	switch m.ov {
	case ovHelp:
		add(keep, k.Back.Help().Key, "close")
	case ovFindings:
		pair(extra, k.Down, k.Up, "select")
		add(important, k.Open.Keys()[0], "jump to the turn")
		add(extra, k.Copy.Help().Key, "copy")
		add(extra, k.Pager.Help().Key, "pager")
		add(extra, k.Editor.Help().Key, "editor")
		add(keep, k.Back.Help().Key, "close")
	case ovLineage:
		pair(extra, k.Down, k.Up, "select")
		add(important, k.Open.Keys()[0], "go to compaction")
		add(keep, k.Back.Help().Key, "close")
	case ovMap:
		pair(extra, k.Down, k.Up, "select")
		add(important, k.Open.Keys()[0], "go to the first loss")
		add(keep, k.Back.Help().Key, "close")
	case ovProblems:
		pair(extra, k.Down, k.Up, "select")
		add(important, k.Open.Keys()[0], "show the line")
		add(keep, k.Back.Help().Key, "close")
	case ovDiff:
		pair(extra, k.Down, k.Up, "scroll")
		if m.diff != nil && m.diff.timedOut {
			add(keep, k.Retry.Help().Key, "retry without a limit")
		}
		if m.diff != nil && m.diff.mode == diffSummary && len(m.diff.lost) > 0 {
			add(keep, k.Open.Keys()[0], "next lost item")
		}
		if m.diffMode == diffSummary {
			add(keep, k.DiffMode.Help().Key, "span diff")
		} else if pr, _ := m.prevOf(); pr != nil {
			// The first compaction has no summary before it to compare.
			add(keep, k.DiffMode.Help().Key, "summary diff")
		}
		hb(extra, k.Search)
		add(keep, k.Back.Help().Key, "close")
	default:
		hb(important, k.NextPane)
		switch m.focus {
		case paneItems:
			pair(extra, k.Down, k.Up, "item")
			hb(extra, k.Lineage)
			add(extra, k.Copy.Help().Key, "copy")
		case paneSource:
			pair(extra, k.Down, k.Up, "scroll")
			add(extra, k.Open.Keys()[1], "load event")
			add(extra, k.Pager.Help().Key, "pager")
			add(extra, k.Editor.Help().Key, "editor")
		default:
			pair(extra, k.Down, k.Up, "scroll")
			add(extra, k.Copy.Help().Key, "copy")
		}
		if m.res != nil && len(m.res.Compactions) > 0 {
			add(important, k.PrevCompaction.Keys()[0]+" "+k.NextCompaction.Keys()[0], "compaction")
			pair(important, k.NextViolation, k.PrevViolation, "violation")
			add(important, k.Diff.Keys()[0], "diff")
		}
		add(keep, k.Findings.Keys()[0], "findings")
		if m.inSession() && m.flag == nil && m.search[m.focus].query == "" {
			add(important, k.Back.Help().Key, "sessions")
		}
		if m.vonly {
			add(important, k.ViolationsOnly.Help().Key, "show all")
		} else {
			add(extra, k.ViolationsOnly.Help().Key, "violations only")
		}
		if m.res != nil && len(m.res.Compactions) > 0 {
			add(extra, k.LineageMap.Keys()[0], "lineage map")
		}
		hb(extra, k.Search)
	}
	add(keep, k.Help.Help().Key, "help")
	add(keep, k.Quit.Help().Key, "quit")
	return items
}

// renderFooter writes items in one row of m.w cells, leaving out the least
// needed first (the last of the highest rank), so that help, quit and the
// findings stay however narrow the terminal is.
func (m *Model) renderFooter(items []footItem) string {
	width := func(items []footItem) int {
		n := 0
		for i, it := range items {
			if i > 0 {
				n += 3
			}
			n += ansi.StringWidth(it.keys)
			if it.desc != "" {
				n += 1 + ansi.StringWidth(it.desc)
			}
		}
		return n
	}
	for width(items) > m.w {
		drop := -1
		for i, it := range items {
			if it.rank > keep && (drop < 0 || it.rank >= items[drop].rank) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		items = append(items[:drop:drop], items[drop+1:]...)
	}
	var sb strings.Builder
	for i, it := range items {
		if i > 0 {
			sb.WriteString(paint(m.th.footerDesc, " · "))
		}
		sb.WriteString(paint(m.th.footerKey, it.keys))
		if it.desc != "" {
			sb.WriteString(" " + paint(m.th.footerDesc, it.desc))
		}
	}
	return fit(sb.String(), m.w)
}

// ---- screens before the result ----

func (m *Model) centered(lines []string) string {
	rows := make([]string, m.h)
	top := max(0, (m.h-len(lines))/2)
	for i := range rows {
		s := ""
		if j := i - top; j >= 0 && j < len(lines) {
			s = lines[j]
			if w := ansi.StringWidth(s); w < m.w {
				s = strings.Repeat(" ", (m.w-w)/2) + s
			}
		}
		rows[i] = fit(s, m.w)
	}
	return strings.Join(rows, "\n")
}

func (m *Model) tooSmallView() string {
	return m.centered([]string{
		paint(m.th.header, "loupe needs a bigger terminal"),
		fmt.Sprintf("at least %d×%d; this one is %d×%d", minWidth, minHeight, m.w, m.h),
		paint(m.th.footerDesc, "enlarge it, or press q to quit"),
	})
}

func (m *Model) loadingView() string {
	p := m.progress
	lines := []string{paint(m.th.header, "loupe") + " · " + oneLine(m.opt.Title), ""}
	switch {
	case p.Phase == "reading" && p.Total > 0:
		frac := float64(p.Read) / float64(p.Total)
		frac = min(1, max(0, frac))
		bw := min(50, m.w-12)
		full := int(frac * float64(bw))
		lines = append(lines,
			fmt.Sprintf("reading %s of %s", bytesHuman(p.Read), bytesHuman(p.Total)),
			paint(m.th.barSpan, strings.Repeat("█", full))+paint(m.th.footerDesc, strings.Repeat("░", bw-full))+fmt.Sprintf(" %3d%%", int(frac*100)))
	case p.Phase == "reading":
		lines = append(lines, fmt.Sprintf("reading %s %s", bytesHuman(p.Read), glyphEllipsis))
	default:
		lines = append(lines, oneLine(p.Phase)+" "+glyphEllipsis)
	}
	lines = append(lines, "", paint(m.th.footerDesc, "q quits"))
	return m.centered(lines)
}

func (m *Model) errorView() string {
	msg := "unknown error"
	if m.err != nil {
		msg = m.err.Error()
	}
	return m.centered([]string{
		paint(m.th.chipBad, glyphViolate+" loupe could not open "+oneLine(m.opt.Title)),
		clip(oneLine(msg), m.w-4),
		"",
		paint(m.th.footerDesc, "q quits"),
	})
}
