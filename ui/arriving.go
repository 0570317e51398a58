package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/verify"
)

// Verdicts as they arrive (issue 20): while the run is verified, the
// shown result is the transcript's Unverified one (Pending), and the
// compactions whose results the verifier has handed out (arrived, in file
// order) are its compactions, as many as the transcript shown has: the
// verifier may be ahead of the reading, whose beginning is shown
// meanwhile. The timeline, the detail row and the panes show those like a
// verified run's; the others are still "verifying". The loader's whole
// result then replaces them (setVerified).

// addVerified appends the results of compactions just verified. While the
// reader has not touched anything, the selection follows the verdicts to
// the first violation (the compaction a verified run opens on), keeping
// the source where it is; after a key or a click it stays where it is.
func (m *Model) addVerified(rs []*verify.CompactionResult) {
	m.arrived = append(m.arrived, rs...)
	if m.res == nil || !m.res.Pending || m.st != stateReady {
		return // the transcript is not shown yet
	}
	if !m.withArrived(m.res) {
		return
	}
	if m.ci >= 0 && !m.autoPick {
		return
	}
	ci := firstViolation(m.res)
	if ci == m.ci {
		return
	}
	src := m.panes[paneSource]
	var top pos
	if src != nil {
		top = src.top
	}
	m.selectCompaction(ci)
	if src := m.panes[paneSource]; src != nil {
		src.top = top
		src.clampBottom()
	}
	m.autoPick = true
}

// withArrived gives the unverified result u the compactions verified so
// far that its transcript has, reporting whether that added some.
func (m *Model) withArrived(u *verify.Result) bool {
	k := min(len(m.arrived), len(u.Transcript.Compactions))
	if k <= len(u.Compactions) {
		return false
	}
	u.Compactions = m.arrived[:k:k]
	return true
}

// setVerified shows the whole run's result. When the reader picked a
// compaction while the verdicts arrived, they keep it and their place;
// else it opens as a verified run does, on the first violation.
func (m *Model) setVerified(res *verify.Result) {
	picked := m.res != nil && m.res.Pending && !m.autoPick && m.ci >= 0 && m.t == res.Transcript
	m.autoPick = false
	if picked {
		m.applyLive(res, false)
		m.st = stateReady
		return
	}
	m.setResult(res)
}

// verifiedSoFar is how many compactions of the shown run have their
// verdict, and how many there are.
func (m *Model) verifiedSoFar() (done, n int) {
	if m.res == nil {
		return 0, 0
	}
	done = len(m.res.Compactions)
	if m.res.Pending && m.t != nil {
		n = len(m.t.Compactions)
	}
	return done, max(n, done)
}

// pendingTimelineRow is the timeline while the run is verified: the
// compactions verified so far, then how many are still verifying.
func (m *Model) pendingTimelineRow() string {
	done, n := m.verifiedSoFar()
	if done == 0 {
		return fit(paint(m.th.footerDesc, "compactions  "+m.pendingText()), m.w)
	}
	tail := ""
	if rest := n - done; rest > 0 {
		tail = paint(m.th.live, "  verifying "+commas(rest)+" more "+glyphEllipsis)
	}
	tw := ansi.StringWidth(tail)
	row := timelineRow(m.th, m.res.Compactions, m.shownCompactions(), max(0, m.ci), max(1, m.w-tw))
	return fit(strings.TrimRight(row, " ")+tail, m.w)
}

// notWhilePending is what a key that needs the whole run says while it is
// verified ("" once it is).
func (m *Model) notWhilePending(what string) string {
	if m.res == nil || !m.res.Pending {
		return ""
	}
	return what + ": shown once every compaction is verified"
}
