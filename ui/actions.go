package ui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The actions that leave the inspector: copy (y), $PAGER (p) and $EDITOR
// (e). Each says where its result went, since a terminal never confirms a
// clipboard write and an editor needs a file.

// copyCmd copies the selection, sanitized: by OSC 52, to tmux's paste
// buffer when tmux would drop OSC 52, and to a file, then says which.
func (m *Model) copyCmd() tea.Cmd {
	var s string
	switch {
	case m.ov == ovFindings && m.ovView != nil && m.ovView.sel >= 0:
		f := m.res.Findings[m.ovView.ref[m.ovView.sel]]
		s = fmt.Sprintf("%s at turn %d: %s\n%s\n", f.Kind, f.Turn, f.Text, f.Why)
	case m.ov != ovNone:
		return m.setStatus("nothing to copy here")
	case m.focus == paneItems && m.curItem() != nil:
		s = itemText(m.curItem())
	case m.focus == paneSummary:
		if it := m.curItem(); it != nil && it.Evidence != nil {
			s = it.Evidence.Text
		} else if _, c := m.cur(); c != nil {
			s = c.Summary
		}
	case m.focus == paneSource && m.t != nil && m.src.Len() > 0:
		e := m.t.Events[m.panes[paneSource].top.b]
		s = eventTitle(e) + "\n" + eventPreview(e)
	}
	if s == "" {
		return m.setStatus("nothing to copy")
	}
	s = model.Sanitize(s)
	m.setStatus("copying " + bytesHuman(int64(len(s))) + " " + glyphEllipsis)
	return tea.Batch(tea.SetClipboard(s), clipboardCmd(m.opt.ClipDir, m.opt.Tmux, s))
}

// copiedText says where a copy went, the places first so that a narrow
// footer cuts only the explanation.
func copiedText(msg copiedMsg) string {
	size := bytesHuman(int64(msg.n))
	saved := ""
	switch {
	case msg.path != "":
		saved = "saved in " + msg.path
	case msg.err != nil:
		saved = "could not save a copy: " + msg.err.Error()
	}
	var parts []string
	switch {
	case msg.tmuxBuffer:
		parts = append(parts, "copied "+size+" to tmux's paste buffer (prefix ] pastes)", saved,
			"tmux drops OSC 52 from programs (set-clipboard "+msg.tmuxMode+")")
	case msg.tmuxMode != "":
		parts = append(parts, "copied "+size+": OSC 52 sent through tmux (cannot confirm)", saved)
	default:
		parts = append(parts, "copied "+size+": OSC 52 sent (the terminal cannot confirm it)", saved)
	}
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

// itemText is an item as text for the clipboard.
func itemText(it *verify.ItemResult) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s · %s · %s\n", it.Kind, statusWord(it.Status), it.Key)
	if it.Text != "" {
		fmt.Fprintf(&sb, "%q\n", it.Text)
	}
	fmt.Fprintf(&sb, "origin: turn %d (%s)\n", it.Turn, it.Origin)
	if it.SelfReport != verify.NoClaim {
		fmt.Fprintf(&sb, "self-report: %s\n", selfReportWord(it.SelfReport))
	}
	if it.Evidence != nil {
		fmt.Fprintf(&sb, "evidence: %q\n", it.Evidence.Text)
	} else {
		sb.WriteString("evidence: not in summary\n")
	}
	if it.Why != "" {
		sb.WriteString(it.Why + "\n")
	}
	return sb.String()
}

// selectedEvent is the event p and e act on: the finding's claim in the
// findings, the item's origin in the preservation set, the compaction in
// the summary, the top event in the source; -1 for none.
func (m *Model) selectedEvent() (int, bool) {
	if m.t == nil {
		return -1, false
	}
	ev := -1
	switch {
	case m.ov == ovFindings && m.ovView != nil && m.ovView.sel >= 0:
		ev = m.res.Findings[m.ovView.ref[m.ovView.sel]].Event
	case m.ov == ovProblems && m.ovView != nil && m.ovView.sel >= 0:
		ev = eventAtLine(m.t, m.t.Problems[m.ovView.ref[m.ovView.sel]].Line)
	case m.ov != ovNone:
		return -1, false
	case m.focus == paneItems && m.curItem() != nil:
		ev = m.curItem().Event
	case m.focus == paneSummary:
		if _, c := m.cur(); c != nil {
			ev = c.Index
		}
	case m.focus == paneSource:
		ev = m.panes[paneSource].top.b
	}
	return ev, ev >= 0 && ev < len(m.t.Events)
}

// pagerCmd opens the selected event in $PAGER.
func (m *Model) pagerCmd() tea.Cmd {
	ev, ok := m.selectedEvent()
	if !ok {
		return m.setStatus("nothing to open here")
	}
	e := m.t.Events[ev]
	return pagerFileCmd(m.opt.TempDir, eventTitle(e), func() (string, error) { return eventText(e) })
}

// editorCmd opens the file the run came from in $EDITOR at the selected
// event's line, or says why it cannot.
func (m *Model) editorCmd() tea.Cmd {
	ev, ok := m.selectedEvent()
	if !ok {
		return m.setStatus("nothing to open here")
	}
	ln := m.t.Events[ev].Header().Line
	if m.opt.File == "" {
		return m.setStatus("this run did not come from a file (" + oneLine(m.opt.Title) + "): nothing to open in $EDITOR · p shows the event in $PAGER")
	}
	// The line first: a narrow footer cuts a long path's end.
	where := oneLine(m.opt.File)
	if ln > 0 {
		where = "line " + strconv.Itoa(ln) + " of " + where
	}
	if len(m.opt.Editor) == 0 {
		return m.setStatusTTL("no $VISUAL or $EDITOR is set: the event is at "+where+" · p shows it in $PAGER", 2*m.statusTTL)
	}
	return editorCmd(m.opt.Editor, m.opt.File, ln)
}

// editorArgs are the arguments that open file at line ln (0: the top) for
// an editor, by its name: most take +N, a few file:N or -g file:N.
func editorArgs(editor []string, file string, ln int) []string {
	args := append([]string(nil), editor[1:]...)
	if ln <= 0 {
		return append(args, file)
	}
	n := strconv.Itoa(ln)
	switch strings.TrimSuffix(filepath.Base(editor[0]), ".exe") {
	case "code", "code-insiders", "codium", "cursor", "windsurf":
		return append(args, "-g", file+":"+n)
	case "subl", "zed", "hx", "helix":
		return append(args, file+":"+n)
	case "idea", "goland", "pycharm", "webstorm":
		return append(args, "--line", n, file)
	}
	return append(args, "+"+n, file)
}

// EditorFromEnv splits $VISUAL, else $EDITOR, into a command; nil when
// neither is set.
func EditorFromEnv(visual, editor string) []string {
	if f := strings.Fields(visual); len(f) > 0 {
		return f
	}
	return strings.Fields(editor)
}
