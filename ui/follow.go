package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/verify"
)

// Following a live run: while the inspector is open on a file, a tea.Tick
// stats it every FollowEvery; when it has grown by whole lines (or was
// truncated, replaced or rewritten) the Load that opened it runs again in a
// tea.Cmd and the new result replaces the old one, the user's place kept:
// the compaction, the item, the focus, the overlay and the scroll of every
// pane. A marker in the header says the view is live.
//
// The whole file is read and verified again on each change: the reader and
// the verifier are one pass each, so a reload costs what opening the file
// costs (about 0.25 s for the 1.9 MB migration run here), and reloads never
// overlap: changes that land during one are picked up by the next poll.

// defaultFollowEvery is how often a followed file is looked at.
const defaultFollowEvery = time.Second

// fileStat is what a poll learns of the followed file.
type fileStat struct {
	ok     bool
	size   int64
	mod    time.Time
	info   os.FileInfo
	endsNL bool // the last byte is a newline: no line is half written
	isDir  bool
}

// follower is the state of following.
type follower struct {
	// gen numbers the current following; a tick or a reload of an older
	// one (the session was left, following restarted) is dropped.
	gen     int
	on      bool
	path    string
	last    fileStat // what the result on screen was read from
	loading bool
	// halfLine counts polls that saw the file end inside a line; after a
	// few the file is read anyway (the writer may never end it).
	halfLine int
	err      string
	updated  time.Time
}

// maxHalfLinePolls is how long a half-written last line holds a reload.
const maxHalfLinePolls = 3

// startFollow starts following opt.File from st (the file as the result
// was read from it; zero when unknown, and then the first poll sets it).
func (m *Model) startFollow(st fileStat) tea.Cmd {
	fl := &m.follow
	fl.gen++
	fl.on, fl.loading, fl.halfLine, fl.err = false, false, 0, ""
	if !m.opt.Follow || m.opt.File == "" || m.st != stateReady {
		return nil
	}
	fl.on, fl.path, fl.last, fl.updated = true, m.opt.File, st, time.Time{}
	if !st.ok {
		return statCmd(fl.gen, fl.path) // the baseline, at once
	}
	return m.followTick()
}

func (m *Model) stopFollow() {
	m.follow.gen++
	m.follow.on = false
}

func (m *Model) followTick() tea.Cmd {
	gen := m.follow.gen
	every := m.opt.FollowEvery
	if every <= 0 {
		every = defaultFollowEvery
	}
	return tea.Tick(every, func(time.Time) tea.Msg { return followTickMsg{gen: gen} })
}

// handleFollowStat decides what a poll means: nothing new, a half-written
// line to wait for, or a change to reload.
func (m *Model) handleFollowStat(msg followStatMsg) tea.Cmd {
	fl := &m.follow
	if msg.gen != fl.gen || !fl.on || fl.loading {
		return nil
	}
	st := msg.st
	switch {
	case errors.Is(msg.err, fs.ErrNotExist):
		fl.err = "the file is gone; showing what was read"
		return m.followTick()
	case msg.err != nil:
		fl.err = "cannot read the file: " + msg.err.Error()
		return m.followTick()
	case st.isDir:
		fl.on = false
		return m.setStatus("not following: " + oneLine(fl.path) + " is a directory")
	}
	fl.err = ""
	if !fl.last.ok {
		fl.last = st
		return m.followTick()
	}
	why := ""
	switch {
	case !os.SameFile(fl.last.info, st.info):
		why = "the file was replaced"
	case st.size < fl.last.size:
		why = "the file was truncated"
	case st.size > fl.last.size:
		if !st.endsNL && fl.halfLine < maxHalfLinePolls {
			fl.halfLine++ // a writer is mid-line: read it whole next time
			return m.followTick()
		}
		why = "grown"
	case !st.mod.Equal(fl.last.mod):
		why = "the file was rewritten"
	default:
		return m.followTick()
	}
	fl.halfLine = 0
	fl.loading = true
	return reloadCmd(fl.gen, fl.path, m.opt.Load, why)
}

// handleFollowLoaded shows a reloaded result in place of the old one.
func (m *Model) handleFollowLoaded(msg followLoadedMsg) tea.Cmd {
	fl := &m.follow
	if msg.gen != fl.gen || !fl.on {
		return nil
	}
	fl.loading = false
	if msg.err != nil || msg.res == nil {
		err := msg.err
		if err == nil {
			err = errNoResult
		}
		fl.err = "reload failed: " + err.Error()
		return m.followTick()
	}
	fl.last, fl.updated = msg.st, time.Now()
	note := m.applyLive(msg.res, msg.why != "grown")
	if msg.why != "grown" {
		note = msg.why + "; reloaded" + prefixSep(note)
	}
	cmds := []tea.Cmd{m.followTick()}
	if note != "" {
		cmds = append(cmds, m.setStatusTTL(note, 3*m.statusTTL))
	}
	return tea.Batch(cmds...)
}

func prefixSep(s string) string {
	if s == "" {
		return ""
	}
	return " · " + s
}

// place is where the user is: what applyLive keeps across a reload.
type place struct {
	seq, focus    int
	itemID        string
	tops          [numPanes]pos
	ov            overlay
	lineageID     string
	ovTop         pos
	ovSel         int
	flag          *verify.RunFinding
	search        [numPanes + 1]searchState
	oldCompaction int
	oldEvents     int
}

func (m *Model) savePlace() place {
	p := place{seq: -1, focus: m.focus, ov: m.ov, lineageID: m.lineageID, ovSel: -1, flag: m.flag, search: m.search,
		oldCompaction: len(m.res.Compactions), oldEvents: len(m.t.Events)}
	if cr, _ := m.cur(); cr != nil {
		p.seq = cr.Seq
	}
	if it := m.curItem(); it != nil {
		p.itemID = it.ID
	}
	for i, pn := range m.panes {
		if pn != nil {
			p.tops[i] = pn.top
		}
	}
	if m.ovPane != nil {
		p.ovTop, p.ovSel = m.ovPane.top, m.ovView.sel
	}
	return p
}

// applyLive replaces the result with res, keeping the user's place, and
// says what is new (a compaction that landed, with its verdict). reset is
// set when the file was truncated or replaced: the old positions may point
// at other events, so searches are cleared.
func (m *Model) applyLive(res *verify.Result, reset bool) string {
	p := m.savePlace()
	m.res, m.t = res, res.Transcript
	m.src = newSourceView(m.t)
	m.panes[paneSource] = newPane(m.src)
	ci := -1
	for i, c := range res.Compactions {
		if c.Seq == p.seq {
			ci = i
		}
	}
	if ci < 0 {
		ci = firstViolation(res) // nothing was selected (or it is gone)
	}
	m.ci = -1
	m.relayout()
	if ci >= 0 {
		if m.ov == ovDiff {
			m.ov = ovNone // the diff of an unchanged compaction stays as it is
		}
		m.selectCompaction(ci)
		m.ov = p.ov
		if p.itemID != "" {
			m.selectItemByID(p.itemID)
		}
	}
	m.restorePlace(p, reset)
	return landedNote(res, p.oldCompaction, p.oldEvents)
}

// restorePlace puts back the focus, the scroll of every pane, the finding
// banner, the searches and the overlay after a reload.
func (m *Model) restorePlace(p place, reset bool) {
	m.focus = p.focus
	for i, pn := range m.panes {
		if pn != nil {
			pn.top = p.tops[i]
			pn.clampBottom()
		}
	}
	m.lineageID = p.lineageID
	if p.flag != nil && p.flag.Event < len(m.t.Events) {
		m.src.flag = p.flag.Event
	} else {
		m.flag = nil
	}
	if !reset {
		m.search = p.search
		for i, pn := range m.panes {
			if pn != nil {
				pn.query = p.search[i].query
			}
		}
	}
	if p.ov != ovNone && p.ov != ovDiff {
		m.refreshOverlay()
		if m.ovPane != nil {
			m.ovPane.top = p.ovTop
			if p.ovSel >= 0 && p.ovSel < m.ovView.Len() && m.ovView.ref[p.ovSel] >= 0 {
				m.ovView.sel, m.ovPane.sel = p.ovSel, p.ovSel
			}
			m.ovPane.clampBottom()
		}
	}
	m.relayout()
}

// landedNote says what a reload brought: the compactions that landed and
// the verdict of the last, or the count of new events.
func landedNote(res *verify.Result, oldN, oldEvents int) string {
	if n := len(res.Compactions); n > oldN {
		c := res.Compactions[n-1]
		what := "compaction #" + strconv.Itoa(c.Seq)
		if n-oldN > 1 {
			what = fmt.Sprintf("%d compactions (#%d–#%d)", n-oldN, res.Compactions[oldN].Seq, c.Seq)
		}
		verdict := glyphDegrade + " degrade"
		if c.Verdict == verify.Violate {
			verdict = glyphViolate + " violate"
			if len(c.Reasons) > 0 {
				verdict += ": " + oneLine(c.Reasons[0])
			}
		}
		return fmt.Sprintf("%s landed at %s: %s · ] goes there", what, turnLabel(c.Turn), verdict)
	}
	if d := len(res.Transcript.Events) - oldEvents; d > 0 {
		return "+" + plural(d, "event")
	}
	return ""
}

// firstViolation is the compaction a result opens on.
func firstViolation(res *verify.Result) int {
	for i, c := range res.Compactions {
		if c.Verdict == verify.Violate {
			return i
		}
	}
	if len(res.Compactions) == 0 {
		return -1
	}
	return 0
}

// liveMark is the header's marker while following.
func (m *Model) liveMark() string {
	fl := &m.follow
	if !fl.on {
		return ""
	}
	switch {
	case fl.err != "":
		return "● live · " + fl.err
	case fl.loading:
		return "● live · reading " + glyphEllipsis
	}
	return "● live"
}
