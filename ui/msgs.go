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

// statusMsg shows a transient line in the footer.
type statusMsg struct {
	text string
	ttl  time.Duration
}

// clearStatusMsg clears the footer status set at seq.
type clearStatusMsg struct{ seq int }
