package ui

import (
	"time"

	"github.com/loupe-dev/loupe/verify"
)

// Every message the inspector sends itself. Results of background work carry
// the request number they answer, and Update drops stale ones.

// progressMsg reports the load's progress; the load goes on.
type progressMsg struct {
	req      int
	progress Progress
}

// loadedMsg carries the verified transcript.
type loadedMsg struct {
	req int
	res *verify.Result
	err error
	st  fileStat // the followed file before the read, when there is one
}

// eventLoadedMsg carries the whole text of one event, already split into
// sanitized lines off the UI goroutine.
type eventLoadedMsg struct {
	event int
	lines []line
	err   error
}

// diffMsg carries a finished (or timed-out) word diff.
type diffMsg struct {
	req int
	res diffResult
}

// searchMsg carries the events of the source that match a query.
type searchMsg struct {
	req     int
	query   string
	matches []int
	capped  bool
}

// pagerReadyMsg says the text for $PAGER is in a temporary file.
type pagerReadyMsg struct {
	path string
	err  error
}

// pagerDoneMsg says the pager exited.
type pagerDoneMsg struct {
	path string
	err  error
}

// editorDoneMsg says the editor exited (or could not start).
type editorDoneMsg struct {
	editor string
	err    error
}

// copiedMsg says where a copy went besides OSC 52: tmux's paste buffer
// (with tmux's set-clipboard mode) and a file.
type copiedMsg struct {
	n          int
	tmuxMode   string
	tmuxBuffer bool
	path       string
	err        error
}

// sessionCheckedMsg carries the background verification of session i of
// the chooser.
type sessionCheckedMsg struct {
	i   int
	res *verify.Result
	err error
	st  fileStat
}

// followTickMsg is the poll of a followed file.
type followTickMsg struct{ gen int }

// followStatMsg is what the poll found.
type followStatMsg struct {
	gen int
	st  fileStat
	err error
}

// followLoadedMsg carries the result of reading a followed file again; st
// is the file as it was before the read began.
type followLoadedMsg struct {
	gen int
	res *verify.Result
	err error
	st  fileStat
	why string
}

// statusMsg shows a transient line in the footer.
type statusMsg struct {
	text string
	ttl  time.Duration
}

// clearStatusMsg clears the footer status set at seq.
type clearStatusMsg struct{ seq int }
