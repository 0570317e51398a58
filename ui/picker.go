package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/verify"
)

// The session chooser (`loupe DIR`): one row per session, whose verdict
// counts are filled in as a background verification reaches it, one
// session at a time and only while the chooser is on screen. esc in an
// opened session comes back to it.

// chooser is the chooser's state beside its list (m.picker, m.pickPane).
type chooser struct {
	title string // the directory, as the header names it
	info  []sessionInfo
	// checking is the session being verified in the background (-1 for
	// none); next is the first one not yet started.
	checking, next int
	// cur is the session open (or opening), -1 in the chooser.
	cur int
	// cache keeps the last few verified results, so that opening a session
	// the background already verified is instant.
	cache      map[int]cachedRun
	cacheOrder []int
	// filter narrows the rows (filtering while it is typed); sort orders
	// them; help shows the chooser's keys in place of the list.
	filter    lineInput
	filtering bool
	sort      sortOrder
	help      bool
}

// cachedRun is a verified session and the state of its file when read.
type cachedRun struct {
	res *verify.Result
	st  fileStat
}

// maxCachedSessions bounds the verified runs the chooser keeps in memory.
const maxCachedSessions = 3

// sessionInfo is what a verification told about one session.
type sessionInfo struct {
	done                                        bool
	err                                         string
	turns, compactions, violations, falseClaims int
	problems                                    int
}

func infoOf(res *verify.Result) sessionInfo {
	in := sessionInfo{done: true, turns: res.Turns, compactions: len(res.Compactions), violations: res.Violations()}
	for _, f := range res.Findings {
		if f.Kind == verify.FalseCompletion {
			in.falseClaims++
		}
	}
	if res.Transcript != nil {
		in.problems = len(res.Transcript.Problems.Errors())
	}
	return in
}

func (m *Model) newChooser() {
	m.st = statePicker
	m.ch = &chooser{title: m.opt.Title, info: make([]sessionInfo, len(m.opt.Sessions)), checking: -1, cur: -1, cache: map[int]cachedRun{}}
	m.rebuildPicker()
}

// sessionLines are session i's rows: its name, what the listing said, and
// its verdicts once verified (the listing's counts until then, marked ≈
// when they are estimates).
func (m *Model) sessionLines(i int) []line {
	s := m.opt.Sessions[i]
	head := lineOf(oneLine(s.Name), stHeading)
	if s.Project != "" || s.File != "" {
		head = lineOf(oneLine(s.Project), stAccent, pathSep(s.Project, s.File), stSubtle, oneLine(s.File), stHeading)
		if s.Name != "" && s.Name != s.File {
			head = append(head, lineOf("  "+clip(oneLine(s.Name), 80), stPlain)...)
		}
	}
	out := []line{head}
	if s.Detail != "" {
		out = append(out, lineOf("  "+oneLine(s.Detail), stSubtle))
	}
	in := m.ch.info[i]
	switch {
	case in.err != "":
		out = append(out, lineOf("  "+glyphViolate+" could not open: ", stBad, clip(oneLine(in.err), 200), stSubtle))
	case in.done:
		l := lineOf("  "+plural(in.turns, "turn")+" · "+plural(in.compactions, "compaction")+" · ", stPlain)
		switch {
		case in.violations > 0:
			l = append(l, lineOf(fmt.Sprintf("%s %d of %d violate", glyphViolate, in.violations, in.compactions), stBad)...)
		case in.compactions > 0:
			l = append(l, lineOf(glyphDegrade+" all degrade", stOK)...)
		default:
			l = append(l, lineOf("nothing to verify", stSubtle)...)
		}
		if in.falseClaims > 0 {
			l = append(l, lineOf(" · "+glyphFinding+" "+plural(in.falseClaims, "false completion"), stBad)...)
		}
		if in.problems > 0 {
			l = append(l, lineOf(" · ⚠ "+plural(in.problems, "bad line"), stWarn)...)
		}
		out = append(out, l)
	default:
		state := "queued"
		if m.ch.checking == i {
			state = "verifying " + glyphEllipsis
		}
		out = append(out, lineOf("  ≈"+plural(s.Turns, "turn")+" · "+plural(s.Compactions, "compaction")+" · ", stSubtle, state, stAccent))
	}
	return out
}

// refreshSession rebuilds session i's rows after its info changed.
func (m *Model) refreshSession(i int) {
	if b := m.picker.blockOf(i); b >= 0 {
		m.picker.blocks[b] = nil
		m.picker.lazy[b] = func() []line { return m.sessionLines(i) }
	}
}

// nextCheck starts verifying the next session not yet verified, while the
// chooser is on screen and nothing else is being verified.
func (m *Model) nextCheck() tea.Cmd {
	ch := m.ch
	if ch == nil || ch.checking >= 0 || m.st != statePicker {
		return nil
	}
	for ch.next < len(ch.info) && ch.info[ch.next].done || ch.next < len(ch.info) && ch.info[ch.next].err != "" {
		ch.next++
	}
	if ch.next >= len(ch.info) {
		return nil
	}
	ch.checking = ch.next
	ch.next++
	m.refreshSession(ch.checking)
	s := m.opt.Sessions[ch.checking]
	return checkSessionCmd(ch.checking, s.Load, s.Path)
}

func (m *Model) handleSessionChecked(msg sessionCheckedMsg) tea.Cmd {
	ch := m.ch
	if ch == nil || msg.i < 0 || msg.i >= len(ch.info) {
		return nil
	}
	if ch.checking == msg.i {
		ch.checking = -1
	}
	if msg.err != nil {
		ch.info[msg.i] = sessionInfo{err: msg.err.Error()}
	} else if msg.res != nil {
		m.remember(msg.i, msg.res, msg.st)
	}
	m.refreshSession(msg.i)
	return m.nextCheck()
}

// remember records what a verified run says and keeps it for a while.
func (m *Model) remember(i int, res *verify.Result, st fileStat) {
	ch := m.ch
	ch.info[i] = infoOf(res)
	if _, ok := ch.cache[i]; !ok {
		if len(ch.cacheOrder) >= maxCachedSessions {
			delete(ch.cache, ch.cacheOrder[0])
			ch.cacheOrder = ch.cacheOrder[1:]
		}
		ch.cacheOrder = append(ch.cacheOrder, i)
	}
	ch.cache[i] = cachedRun{res, st}
}

func (m *Model) handlePickerKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.handleChooserKey(msg); ok {
		return cmd
	}
	if key.Matches(msg, m.keys.Open) && m.picker.sel >= 0 && m.picker.ref[m.picker.sel] >= 0 {
		return m.openSession(m.picker.ref[m.picker.sel])
	}
	if d, ok := m.selectionStep(msg, m.picker, m.pickPane); ok {
		m.picker.sel, m.pickPane.sel = d, d
		m.pickPane.Reveal(d)
	}
	return nil
}

// openSession opens session i: at once when the background verified it,
// else with the loading screen.
func (m *Model) openSession(i int) tea.Cmd {
	s := m.opt.Sessions[i]
	m.ch.cur = i
	m.opt.Title, m.opt.File = s.Name, s.Path
	if run, ok := m.ch.cache[i]; ok {
		m.setResult(run.res)
		return m.startFollow(run.st) // the first poll sees what changed since
	}
	return m.startLoad(s.Load)
}

// inSession reports whether a session opened from the chooser is on
// screen (or loading), so that esc can go back.
func (m *Model) inSession() bool { return m.ch != nil && m.ch.cur >= 0 }

// backToChooser leaves the session for the chooser, with the selection
// where it was; a load still running is dropped, and following stops.
func (m *Model) backToChooser() tea.Cmd {
	ch := m.ch
	if ch.cur >= 0 && m.res != nil && m.st == stateReady {
		m.remember(ch.cur, m.res, m.follow.last) // the turns the user saw
		m.refreshSession(ch.cur)
	}
	ch.cur = -1
	m.loadReq++ // an unfinished load answers no one
	m.stopFollow()
	m.closeOverlay()
	m.flag, m.searching = nil, false
	m.res, m.t, m.src, m.sum, m.items = nil, nil, nil, nil, nil
	m.panes = [numPanes]*pane{}
	m.opt.Title, m.opt.File = ch.title, ""
	m.st = statePicker
	m.relayout()
	return m.nextCheck()
}

func (m *Model) pickerView() string {
	rows := make([]string, m.h)
	head := paint(m.th.header, "loupe") + " · " + oneLine(m.opt.Title) + " holds " + plural(len(m.opt.Sessions), "session")
	done := 0
	for _, in := range m.ch.info {
		if in.done || in.err != "" {
			done++
		}
	}
	if done < len(m.ch.info) {
		head += glyphSeparator + fmt.Sprintf("verified %d of %d %s", done, len(m.ch.info), glyphEllipsis)
	}
	if f := m.ch.filter.value; f != "" {
		head += glyphSeparator + fmt.Sprintf("filter “%s”: %d shown", oneLine(f), m.shownSessions())
	}
	rows[0] = fit(head, m.w)
	title, body := "Choose a session · enter opens · sorted by "+m.ch.sort.String(), m.pickPane.View(m.th)
	if m.ch.help {
		title, body = "Help · esc or ? closes", m.chooserHelp()
	}
	b := box(m.th, title, body, m.lay.body.w, m.lay.body.h, true)
	copy(rows[m.lay.body.y:], b)
	for i, r := range rows {
		if r == "" {
			rows[i] = strings.Repeat(" ", m.w)
		}
	}
	rows[m.lay.footer] = m.chooserFooter()
	return strings.Join(rows, "\n")
}

// shownSessions counts the rows the filter keeps.
func (m *Model) shownSessions() int {
	n := 0
	for _, r := range m.picker.ref {
		if r >= 0 {
			n++
		}
	}
	return n
}

// pathSep joins a project and a file name on the row.
func pathSep(project, file string) string {
	if project == "" || file == "" {
		return ""
	}
	return " / "
}
