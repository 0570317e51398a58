package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/model"
)

// Search: `/` opens an input in the footer; enter searches the focused pane
// (or the open overlay); n/N step through the matches while a query is set;
// esc clears it. The source is searched by a tea.Cmd, since it is the whole
// transcript; the other panes are small and searched at once.

// maxMatches bounds the matches kept for the small panes.
const maxMatches = 10_000

// searchSlot is where the current search lives: the overlay's slot or the
// focused pane's.
func (m *Model) searchSlot() int {
	if m.ov != ovNone {
		return ovSlot
	}
	return m.focus
}

func (m *Model) slotPane(slot int) *pane {
	if slot == ovSlot {
		return m.ovPane
	}
	return m.panes[slot]
}

func (m *Model) handleSearchInput(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		m.searching = false
		return m.runSearch(m.searchSlot(), m.input.value)
	case "esc":
		m.searching = false
		return nil
	case "ctrl+c":
		return tea.Quit
	}
	m.input.key(msg)
	return nil
}

// lineInput is the one-line search input: typing appends, backspace
// deletes a character, ctrl+w a word, ctrl+u everything. The cursor stays at
// the end.
type lineInput struct {
	value string
}

func (in *lineInput) key(msg tea.KeyPressMsg) {
	switch msg.String() {
	case "backspace", "ctrl+h":
		if r := []rune(in.value); len(r) > 0 {
			in.value = string(r[:len(r)-1])
		}
	case "ctrl+u":
		in.value = ""
	case "ctrl+w", "alt+backspace":
		v := strings.TrimRight(in.value, " ")
		if i := strings.LastIndexByte(v, ' '); i >= 0 {
			in.value = v[:i+1]
		} else {
			in.value = ""
		}
	default:
		if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
			in.insert(msg.Text)
		}
	}
}

// insert appends typed or pasted text, on one line and sanitized.
func (in *lineInput) insert(s string) {
	in.value += strings.Join(strings.Fields(model.Sanitize(s)), " ")
	if strings.HasSuffix(s, " ") && !strings.HasSuffix(in.value, " ") && in.value != "" {
		in.value += " "
	}
}

// view is the input as the footer shows it, and the cursor's column.
func (in *lineInput) view(th *theme, w int) (string, int) {
	s := "/" + in.value
	if ansi.StringWidth(s) > w-1 {
		s = ansi.TruncateLeft(s, ansi.StringWidth(s)-(w-2), glyphEllipsis)
	}
	hint := ""
	if in.value == "" {
		hint = paint(th.footerDesc, " type to search this pane · enter search · esc cancel")
	}
	return fit(paint(th.footerKey, s)+hint, w), ansi.StringWidth(s)
}

// runSearch searches slot for q.
func (m *Model) runSearch(slot int, q string) tea.Cmd {
	p := m.slotPane(slot)
	if p == nil {
		return nil
	}
	// What the last search said ("no match for …") is not about this one.
	m.status = ""
	m.statusSeq++
	if q == "" {
		m.clearSearch(slot)
		return nil
	}
	p.query = q
	if slot == paneSource {
		m.searchReq++
		m.search[slot] = searchState{query: q, pending: true}
		return searchSourceCmd(m.searchReq, m.t, q)
	}
	var ms []pos
	for b := 0; b < p.p.Len() && len(ms) < maxMatches; b++ {
		for l, ln := range p.p.Block(b).lines {
			if indexFold(plainOf(ln), q) >= 0 {
				ms = append(ms, pos{b, l, 0})
			}
		}
	}
	m.search[slot] = searchState{query: q, matches: ms, cur: -1, capped: len(ms) >= maxMatches}
	if len(ms) == 0 {
		return m.setStatus(fmt.Sprintf("no match for %q", q))
	}
	return m.gotoFirstMatch(slot)
}

// gotoFirstMatch jumps to the first match at or below the top of the pane.
func (m *Model) gotoFirstMatch(slot int) tea.Cmd {
	s := &m.search[slot]
	p := m.slotPane(slot)
	s.cur = 0
	for i, q := range s.matches {
		if q.b > p.top.b || (q.b == p.top.b && q.l >= p.top.l) {
			s.cur = i
			break
		}
	}
	m.showMatch(slot)
	return nil
}

func (m *Model) handleSourceSearch(msg searchMsg) {
	if msg.req != m.searchReq || m.search[paneSource].query != msg.query {
		return
	}
	ms := make([]pos, len(msg.matches))
	for i, e := range msg.matches {
		ms[i] = pos{e, 0, 0}
	}
	m.search[paneSource] = searchState{query: msg.query, matches: ms, cur: -1, capped: msg.capped}
	if len(ms) > 0 {
		m.gotoFirstMatch(paneSource)
	}
}

// nextMatch moves to the next (d=1) or previous (d=-1) match, wrapping.
func (m *Model) nextMatch(d int) tea.Cmd {
	slot := m.searchSlot()
	s := &m.search[slot]
	if s.pending {
		return m.setStatus("still searching " + glyphEllipsis)
	}
	if len(s.matches) == 0 {
		return m.setStatus(fmt.Sprintf("no match for %q", s.query))
	}
	s.cur = (s.cur + d + len(s.matches)) % len(s.matches)
	m.showMatch(slot)
	return nil
}

// showMatch scrolls to the current match; in a list it selects the block.
func (m *Model) showMatch(slot int) {
	s := &m.search[slot]
	if s.cur < 0 || s.cur >= len(s.matches) {
		return
	}
	q := s.matches[s.cur]
	switch {
	case slot == paneItems && m.items.ref[q.b] >= 0:
		m.selectItem(m.items.ref[q.b])
		return
	case slot == ovSlot && m.ovView != nil && m.ovView.ref[q.b] >= 0:
		m.ovView.sel, m.ovPane.sel = q.b, q.b
	}
	m.slotPane(slot).ScrollToLine(q.b, q.l, 1)
}

func (m *Model) clearSearch(slot int) {
	m.search[slot] = searchState{}
	if p := m.slotPane(slot); p != nil {
		p.query = ""
	}
}

// searchLabel describes the search of slot for a title or the footer.
func (m *Model) searchLabel(slot int) string {
	s := m.search[slot]
	if s.query == "" {
		return ""
	}
	switch {
	case s.pending:
		return fmt.Sprintf("/%s searching%s", oneLine(s.query), glyphEllipsis)
	case len(s.matches) == 0:
		return fmt.Sprintf("/%s no match", oneLine(s.query))
	}
	more := ""
	if s.capped {
		more = "+"
	}
	return fmt.Sprintf("/%s %d/%d%s", oneLine(s.query), s.cur+1, len(s.matches), more)
}
