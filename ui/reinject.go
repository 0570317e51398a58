package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The live gate's trace on the timeline: what `loupe hook` put back into
// the agent's context after each compaction of this run, read from loupe's
// state (never from the transcript) by a command after every load.

// Reinjection is what the live gate did after one compaction.
type Reinjection struct {
	Seq int
	// Items is how many items the block put back held.
	Items int
	// State is "injected", "pending" (verified, not put back yet),
	// "nothing" (the summary kept everything) or "superseded".
	State string
	// Via is the hook that put it back ("claude-code PostToolUse").
	Via string
	At  time.Time
}

// ReinjectionsFunc reads the live gate's state for the run being
// inspected (nil, nil when loupe never ran in its hooks).
type ReinjectionsFunc func() ([]Reinjection, error)

// reinjectionsMsg carries the live gate's state for the run.
type reinjectionsMsg struct {
	list []Reinjection
	err  error
}

// reinjectionsCmd reads the live gate's state off the UI goroutine.
func reinjectionsCmd(f ReinjectionsFunc) tea.Cmd {
	if f == nil {
		return nil
	}
	return func() tea.Msg {
		list, err := f()
		return reinjectionsMsg{list: list, err: err}
	}
}

func (m *Model) handleReinjections(msg reinjectionsMsg) {
	if msg.err != nil {
		return // the gate's state is a note beside the run, never a reason to fail
	}
	m.reinj = map[int]Reinjection{}
	for _, r := range msg.list {
		m.reinj[r.Seq] = r
	}
	m.relayout()
}

// reinjectNote says what the gate did after compaction seq ("" when it did
// nothing to say).
func reinjectNote(r Reinjection, ok bool) string {
	if !ok {
		return ""
	}
	switch r.State {
	case "injected":
		at := ""
		if !r.At.IsZero() {
			at = " " + r.At.Local().Format("15:04")
		}
		return fmt.Sprintf("%s re-injected %s at #%d (%s%s)", glyphReinject, plural(r.Items, "item"), r.Seq, oneLine(r.Via), at)
	case "pending":
		return fmt.Sprintf("%s %s to re-inject at #%d", glyphReinject, plural(r.Items, "item"), r.Seq)
	case "superseded":
		return fmt.Sprintf("%s #%d's block was replaced by a later one", glyphReinject, r.Seq)
	}
	return ""
}

// detailRowsLive are the detail rows with what the gate did after the
// selected compaction: on the first row when it fits, else on a row of its
// own.
func (m *Model) detailRowsLive() []string {
	cr, _ := m.cur()
	rows := detailRows(m.th, cr, m.compactionCount(), m.w)
	if cr == nil {
		return rows
	}
	r, ok := m.reinj[cr.Seq]
	note := reinjectNote(r, ok)
	if note == "" {
		return rows
	}
	note = paint(m.th.live, note)
	first := strings.TrimRight(rows[0], " ")
	if ansi.StringWidth(first)+len(glyphSeparator)+ansi.StringWidth(note) <= m.w {
		rows[0] = fit(first+glyphSeparator+note, m.w)
		return rows
	}
	if len(rows) < maxDetailRows {
		return append(rows, fit("  "+note, m.w))
	}
	rows[len(rows)-1] = fit("  "+note, m.w)
	return rows
}

func (m *Model) compactionCount() int {
	_, n := m.verifiedSoFar() // while verifying: every compaction, verified or not
	return n
}

// timelineLive is the timeline row, with the compactions the gate put a
// block back after listed at its end when there is room.
func (m *Model) timelineLive(row string) string {
	if len(m.reinj) == 0 {
		return row
	}
	var seqs []string
	for _, c := range m.res.Compactions {
		if r, ok := m.reinj[c.Seq]; ok && r.State == "injected" {
			seqs = append(seqs, fmt.Sprintf("#%d", c.Seq))
		}
	}
	if len(seqs) == 0 {
		return row
	}
	tail := paint(m.th.live, "  "+glyphReinject+" "+strings.Join(seqs, " "))
	trimmed := strings.TrimRight(row, " ")
	if ansi.StringWidth(trimmed)+ansi.StringWidth(tail) > m.w {
		return row
	}
	return fit(trimmed+tail, m.w)
}
