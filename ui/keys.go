package ui

import "charm.land/bubbles/v2/key"

// KeyMap is every key the inspector answers to. Update matches keys only
// through these bindings, and the footer and the full help are generated
// from them, so the two cannot disagree.
type KeyMap struct {
	Up, Down, HalfUp, HalfDown, PageUp, PageDown, Top, Bottom key.Binding

	NextPane, PrevPane, FocusSource, FocusSummary, FocusItems key.Binding

	PrevCompaction, NextCompaction key.Binding
	NextViolation, PrevViolation   key.Binding

	Open, Diff, DiffMode, Findings, Lineage, LineageMap, Retry key.Binding

	Search, NextMatch, PrevMatch key.Binding

	Copy, Pager, Editor key.Binding

	ViolationsOnly, Problems key.Binding

	Help, Back, Quit key.Binding
}

// DefaultKeyMap returns the inspector's keys: vim keys and arrows both.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		Up:       b([]string{"k", "up"}, "↑/k", "up"),
		Down:     b([]string{"j", "down"}, "↓/j", "down"),
		HalfUp:   b([]string{"ctrl+u"}, "ctrl+u", "half page up"),
		HalfDown: b([]string{"ctrl+d"}, "ctrl+d", "half page down"),
		PageUp:   b([]string{"pgup", "ctrl+b"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+f", "space"}, "pgdn/space", "page down"),
		Top:      b([]string{"g", "home"}, "g/home", "top"),
		Bottom:   b([]string{"G", "end", "shift+g"}, "G/end", "bottom"),

		NextPane:     b([]string{"tab"}, "tab", "next pane"),
		PrevPane:     b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		FocusSource:  b([]string{"1"}, "1", "source pane"),
		FocusSummary: b([]string{"2"}, "2", "summary pane"),
		FocusItems:   b([]string{"3"}, "3", "preservation pane"),

		PrevCompaction: b([]string{"["}, "[", "previous compaction"),
		NextCompaction: b([]string{"]"}, "]", "next compaction"),
		NextViolation:  b([]string{"n"}, "n", "next violation"),
		PrevViolation:  b([]string{"N", "shift+n"}, "N", "previous violation"),

		Open:       b([]string{"enter", "o"}, "enter/o", "jump / load whole event"),
		Diff:       b([]string{"d"}, "d", "word diff (the previous summary's when it lost an item, else the span's)"),
		DiffMode:   b([]string{"s"}, "s", "diff: switch span ⇄ previous summary"),
		Findings:   b([]string{"f"}, "f", "findings"),
		Lineage:    b([]string{"l"}, "l", "lineage of the item"),
		LineageMap: b([]string{"m"}, "m", "lineage map: every item × every compaction"),
		Retry:      b([]string{"r"}, "r", "diff: retry without a time limit"),

		Search:    b([]string{"/"}, "/", "search this pane"),
		NextMatch: b([]string{"n"}, "n/N", "next/previous match"),
		PrevMatch: b([]string{"N", "shift+n"}, "N", "previous match"),

		ViolationsOnly: b([]string{"v"}, "v", "violations only (timeline, preservation set)"),
		Problems:       b([]string{"!"}, "!", "lines that did not parse, and other problems of the file"),

		Copy:   b([]string{"y"}, "y", "copy (OSC 52, tmux buffer, a file)"),
		Pager:  b([]string{"p"}, "p", "open the event in $PAGER"),
		Editor: b([]string{"e"}, "e", "open the file in $EDITOR at the event's line"),

		Help: b([]string{"?"}, "?", "help"),
		Back: b([]string{"esc"}, "esc", "back"),
		Quit: b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// FullHelp is the `?` screen, in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.HalfDown, k.HalfUp, k.PageDown, k.PageUp, k.Top, k.Bottom},
		{k.NextPane, k.PrevPane, k.FocusSource, k.FocusSummary, k.FocusItems, k.PrevCompaction, k.NextCompaction, k.NextViolation, k.PrevViolation},
		{k.Open, k.Diff, k.DiffMode, k.Retry, k.Findings, k.Lineage, k.LineageMap, k.ViolationsOnly, k.Problems, k.Search, k.NextMatch, k.Copy, k.Pager, k.Editor},
		{k.Help, k.Back, k.Quit},
	}
}
