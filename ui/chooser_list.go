package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The chooser's list as a person narrows it: `/` filters as you type (every
// word must appear in the session's project, file, name, runtime, id or
// detail), `s` cycles the order (newest first, most violations first, by
// name), `?` shows the chooser's keys. The rows are rebuilt from the
// sessions' indexes, so a filter or a sort never loses a verdict the
// background has filled in.

// sortOrder is how the chooser orders its rows.
type sortOrder int

const (
	sortNewest sortOrder = iota
	sortViolations
	sortName
	numSortOrders
)

func (o sortOrder) String() string {
	switch o {
	case sortViolations:
		return "most violations"
	case sortName:
		return "name"
	}
	return "newest"
}

// chooserKeys are the chooser's own keys; they feed its footer and its help.
type chooserKeys struct {
	Filter, Sort, Open, Clear, Help key.Binding
}

func defaultChooserKeys() chooserKeys {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return chooserKeys{
		Filter: b([]string{"/"}, "/", "filter as you type (project, file, runtime, id)"),
		Sort:   b([]string{"s"}, "s", "sort: newest, most violations, name"),
		Open:   b([]string{"enter", "o"}, "enter", "open the session (esc comes back here)"),
		Clear:  b([]string{"esc"}, "esc", "clear the filter / close help"),
		Help:   b([]string{"?"}, "?", "help"),
	}
}

// matches reports whether session i holds every word of the filter.
func (m *Model) matches(i int, words []string) bool {
	if len(words) == 0 {
		return true
	}
	s := m.opt.Sessions[i]
	hay := strings.ToLower(strings.Join([]string{s.Project, s.File, s.Name, s.Format, s.ID, s.Detail}, "\x00"))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// visibleSessions returns the sessions the filter keeps, in the chosen
// order.
func (m *Model) visibleSessions() []int {
	ch := m.ch
	words := strings.Fields(strings.ToLower(ch.filter.value))
	out := make([]int, 0, len(m.opt.Sessions))
	for i := range m.opt.Sessions {
		if m.matches(i, words) {
			out = append(out, i)
		}
	}
	ss := m.opt.Sessions
	newest := func(a, b int) int {
		switch za, zb := ss[a].Start.IsZero(), ss[b].Start.IsZero(); {
		case za != zb:
			if za {
				return 1
			}
			return -1
		case !ss[a].Start.Equal(ss[b].Start):
			return ss[b].Start.Compare(ss[a].Start)
		}
		return cmp.Compare(a, b) // the listing's own order
	}
	switch ch.sort {
	case sortViolations:
		// Sessions not yet verified go last: their counts are not known.
		slices.SortStableFunc(out, func(a, b int) int {
			ia, ib := ch.info[a], ch.info[b]
			if ia.done != ib.done {
				if ia.done {
					return -1
				}
				return 1
			}
			if c := cmp.Compare(ib.violations, ia.violations); c != 0 {
				return c
			}
			if c := cmp.Compare(ib.falseClaims, ia.falseClaims); c != 0 {
				return c
			}
			return newest(a, b)
		})
	case sortName:
		slices.SortStableFunc(out, func(a, b int) int {
			return cmp.Or(cmp.Compare(strings.ToLower(ss[a].Name), strings.ToLower(ss[b].Name)), cmp.Compare(a, b))
		})
	default:
		slices.SortStableFunc(out, newest)
	}
	return out
}

// rebuildPicker lays the rows out again after the filter or the order
// changed, keeping the selected session selected when it is still shown.
func (m *Model) rebuildPicker() {
	keep := -1
	if m.picker != nil && m.picker.sel >= 0 {
		keep = m.picker.ref[m.picker.sel]
	}
	v := &listView{sel: -1, gutter: true}
	for _, i := range m.visibleSessions() {
		v.addLazy(i, func() []line { return m.sessionLines(i) })
	}
	if len(v.ref) == 0 {
		v.add(-1, lineOf("no session matches “"+oneLine(m.ch.filter.value)+"” · esc clears the filter", stSubtle))
	}
	v.sel = v.blockOf(keep)
	if v.sel < 0 {
		v.sel = v.first()
	}
	w, h := 1, 1
	if m.pickPane != nil {
		w, h = m.pickPane.w, m.pickPane.h
	}
	m.picker = v
	m.pickPane = newPane(v)
	m.pickPane.w, m.pickPane.h = w, h
	m.pickPane.sel = v.sel
	if v.sel >= 0 {
		m.pickPane.Reveal(v.sel)
	}
}

// handleChooserKey answers the chooser's own keys; ok is false for a key
// it leaves to the list (moving, opening).
func (m *Model) handleChooserKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	ch, k := m.ch, &m.chKeys
	if ch.filtering {
		switch msg.String() {
		case "enter":
			ch.filtering = false
		case "esc":
			ch.filtering = false
			ch.filter.value = ""
			m.rebuildPicker()
		case "up", "down", "ctrl+n", "ctrl+p":
			return nil, false // move while the filter is being typed
		default:
			before := ch.filter.value
			ch.filter.key(msg)
			if ch.filter.value != before {
				m.rebuildPicker()
			}
		}
		return nil, true
	}
	if ch.help {
		if key.Matches(msg, k.Help) || key.Matches(msg, k.Clear) {
			ch.help = false
		}
		return nil, true
	}
	switch {
	case key.Matches(msg, k.Filter):
		ch.filtering = true
	case key.Matches(msg, k.Help):
		ch.help = true
	case key.Matches(msg, k.Sort):
		ch.sort = (ch.sort + 1) % numSortOrders
		m.rebuildPicker()
	case key.Matches(msg, k.Clear) && ch.filter.value != "":
		ch.filter.value = ""
		m.rebuildPicker()
	default:
		return nil, false
	}
	return nil, true
}

// chooserHelp is the `?` screen of the chooser.
func (m *Model) chooserHelp() []string {
	k, g := &m.chKeys, &m.keys
	rows := []string{paint(m.th.header, "The session chooser"), ""}
	for _, b := range []key.Binding{g.Up, g.Down, g.PageDown, g.PageUp, g.Top, g.Bottom, k.Open, k.Filter, k.Sort, k.Clear, k.Help, g.Quit} {
		h := b.Help()
		rows = append(rows, fmt.Sprintf("  %-12s %s", h.Key, h.Desc))
	}
	return append(rows, "",
		"  Each row: project and file, then the runtime, when the session started,",
		"  its turns and compactions, and its verdicts once the background has",
		"  verified it (≈ marks the listing's estimate until then).",
		"  While filtering, ↑/↓ move and enter keeps the filter; esc clears it.")
}

// chooserFooter is the chooser's footer: the filter being typed, or its keys.
func (m *Model) chooserFooter() string {
	ch := m.ch
	if ch.filtering {
		return fit(paint(m.th.footerKey, "filter: ")+oneLine(ch.filter.value)+"█"+paint(m.th.footerDesc, "  enter keeps · esc clears"), m.w)
	}
	items := []footItem{{"j/k", "select", extra}, {"enter", "open", keep}, {"/", "filter", important}, {"s", "sort: " + ch.sort.String(), important}}
	if ch.filter.value != "" {
		items = append(items, footItem{"esc", "clear filter", important})
	}
	return m.renderFooter(append(items, footItem{"?", "help", keep}, footItem{"q", "quit", keep}))
}
