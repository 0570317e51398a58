package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// Every tea.Cmd that does I/O or work proportional to the data lives here.
// Update and View never read a file, never sleep and never walk the
// transcript.

// Progress is how far a load has come: the phase ("reading", "verifying")
// and, while reading, the bytes read and the total (0 when unknown).
type Progress struct {
	Phase       string
	Read, Total int64
	// Unverified, once the transcript is read, is its result before
	// verification (verify.Unverified): the inspector shows the transcript
	// with it, saying that verification runs, until the loader returns.
	Unverified *verify.Result
	// Partial says Unverified holds the first lines of the file only, shown
	// while the rest is read.
	Partial bool
	// Verified are compactions whose results the verifier has handed out
	// (verify.NewStream's each), in file order after those reported
	// before: the inspector shows their verdicts until the loader returns
	// the whole run, those of compactions the transcript on screen does
	// not have yet (the file's beginning is shown) once it has them. The
	// loader never changes them afterwards (they are copies: the stream
	// keeps changing its own items). Reports of them may come from another
	// goroutine than the loader's; the inspector sends them on at most
	// every 50 ms.
	Verified []*verify.CompactionResult
}

// LoadFunc opens, reads and verifies a transcript, reporting progress. The
// inspector runs it off the UI goroutine; it is the only way the ui package
// gets data, so the ui never parses a file itself.
type LoadFunc func(report func(Progress)) (*verify.Result, error)

// loadStartedMsg hands Update the channel a running load reports on.
type loadStartedMsg struct {
	req int
	ch  chan tea.Msg
}

// loadCmd starts load in the background. Progress arrives as progressMsg and
// the end as loadedMsg, both read from the channel by waitLoad. When watch
// names the file that will be followed, it is looked at first, so that
// following starts from the file as it was read.
func loadCmd(req int, load LoadFunc, watch string) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan tea.Msg, 16)
		go func() {
			defer close(ch)
			var st fileStat
			if watch != "" {
				st, _ = statFile(watch)
			}
			last := time.Time{}
			batch := newVerifiedBatch(req, ch)
			res, err := load(func(p Progress) {
				if len(p.Verified) > 0 {
					batch.add(p.Verified) // from the verifier's goroutine
					return
				}
				if p.Unverified != nil {
					ch <- progressMsg{req: req, progress: p} // the first screen: never dropped
					return
				}
				// Progress is best effort: at most ~30 updates a second,
				// and never block the loader on a busy UI.
				if now := time.Now(); now.Sub(last) < 33*time.Millisecond && p.Total != p.Read {
					return
				} else {
					last = now
				}
				select {
				case ch <- progressMsg{req: req, progress: p}:
				default:
				}
			})
			batch.stop() // the whole result replaces what it still holds
			ch <- loadedMsg{req: req, res: res, err: err, st: st}
		}()
		return loadStartedMsg{req: req, ch: ch}
	}
}

// verifiedEvery is how often at most the compactions verified meanwhile
// reach the screen: a run of 10,000 compactions verified in a few seconds
// is a few dozen redraws, not 10,000.
const verifiedEvery = 50 * time.Millisecond

// verifiedBatch gathers the compactions a load reports verified and sends
// them on in one progressMsg at most every verifiedEvery, the first at
// once. The verifier never waits for the UI: it only appends under the
// lock; the batch's own goroutine does the sending.
type verifiedBatch struct {
	req  int
	ch   chan<- tea.Msg
	mu   sync.Mutex
	pend []*verify.CompactionResult
	kick chan struct{} // something was added
	quit chan struct{} // stop: closed by stop
	done chan struct{} // the goroutine has stopped
	once sync.Once
}

func newVerifiedBatch(req int, ch chan<- tea.Msg) *verifiedBatch {
	b := &verifiedBatch{req: req, ch: ch, kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go b.run()
	return b
}

func (b *verifiedBatch) add(rs []*verify.CompactionResult) {
	b.mu.Lock()
	b.pend = append(b.pend, rs...)
	b.mu.Unlock()
	select {
	case b.kick <- struct{}{}:
	default: // already kicked
	}
}

func (b *verifiedBatch) run() {
	defer close(b.done)
	for {
		select {
		case <-b.kick:
		case <-b.quit:
			return
		}
		b.mu.Lock()
		rs := b.pend
		b.pend = nil
		b.mu.Unlock()
		if len(rs) > 0 {
			select {
			case b.ch <- progressMsg{req: b.req, progress: Progress{Verified: rs}}:
			case <-b.quit:
				return
			}
		}
		select {
		case <-time.After(verifiedEvery):
		case <-b.quit:
			return
		}
	}
}

// stop ends the batch; nothing is sent after it returns.
func (b *verifiedBatch) stop() {
	b.once.Do(func() { close(b.quit) })
	<-b.done
}

// checkSessionCmd verifies session i of the chooser in the background,
// with no progress: the chooser fills in the row when it is done. path is
// looked at first, for following the session if it is opened.
func checkSessionCmd(i int, load LoadFunc, path string) tea.Cmd {
	return func() tea.Msg {
		var st fileStat
		if path != "" {
			st, _ = statFile(path)
		}
		res, err := load(func(Progress) {})
		if err == nil && res == nil {
			err = errNoResult
		}
		return sessionCheckedMsg{i: i, res: res, err: err, st: st}
	}
}

// statFile looks at a followed file: its size, time, identity and whether
// its last byte ends a line.
func statFile(path string) (fileStat, error) {
	// A named pipe is never opened just to be looked at: that blocks until
	// something writes to it, and what it gives is gone.
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		return fileStat{ok: true, mod: info.ModTime(), info: info}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return fileStat{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fileStat{}, err
	}
	st := fileStat{ok: true, size: info.Size(), mod: info.ModTime(), info: info, isDir: info.IsDir()}
	if !st.isDir && st.size > 0 {
		var b [1]byte
		if _, err := f.ReadAt(b[:], st.size-1); err == nil {
			st.endsNL = b[0] == '\n'
		}
	}
	return st, nil
}

// statCmd polls a followed file.
func statCmd(gen int, path string) tea.Cmd {
	return func() tea.Msg {
		st, err := statFile(path)
		return followStatMsg{gen: gen, st: st, err: err}
	}
}

// reloadCmd reads and verifies a followed file again with the Load that
// opened it, noting the file's state first: what is appended during the
// read is seen by the next poll.
func reloadCmd(gen int, path string, load LoadFunc, why string) tea.Cmd {
	return func() tea.Msg {
		st, err := statFile(path)
		if err != nil {
			return followLoadedMsg{gen: gen, err: err, why: why}
		}
		res, err := load(func(Progress) {})
		return followLoadedMsg{gen: gen, res: res, err: err, st: st, why: why}
	}
}

// waitLoad reads the next message of a running load.
func waitLoad(ch chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		return msg
	}
}

// loadEventCmd reads the whole text of event i (a lazy tool output may be
// megabytes on disk) and splits it into sanitized, display-limited lines.
func loadEventCmd(t *model.Transcript, i int) tea.Cmd {
	return func() tea.Msg {
		e := t.Events[i]
		s, err := eventText(e)
		if err != nil {
			return eventLoadedMsg{event: i, err: err}
		}
		st := stPlain
		if r, ok := e.(*model.ToolResult); ok && r.IsError {
			st = stError
		}
		lines, _ := textLines(s, st, 0)
		return eventLoadedMsg{event: i, lines: lines}
	}
}

// diffCmd computes the word diff of a replaced span against its summary.
func diffCmd(req int, t *model.Transcript, seq, lo, hi int, summary string, limit time.Duration, focus diffFocus) tea.Cmd {
	return func() tea.Msg {
		return diffMsg{req: req, res: computeDiff(t, seq, lo, hi, summary, limit, focus)}
	}
}

// summaryDiffCmd computes the word diff of the previous summary against
// this one, with the lost items marked.
func summaryDiffCmd(req, prevSeq, seq int, prevSummary, summary string, lost []lostItem, limit time.Duration, focus diffFocus) tea.Cmd {
	return func() tea.Msg {
		return diffMsg{req: req, res: computeSummaryDiff(prevSeq, seq, prevSummary, summary, lost, limit, focus)}
	}
}

// maxSourceMatches bounds the matches a source search returns.
const maxSourceMatches = 100_000

// searchSourceCmd finds the events whose in-memory text contains query,
// ignoring ASCII case. It walks the whole transcript, so it runs here.
func searchSourceCmd(req int, t *model.Transcript, query string) tea.Cmd {
	return func() tea.Msg {
		var out []int
		for i, e := range t.Events {
			if indexFold(eventTitle(e), query) >= 0 || indexFold(eventPreview(e), query) >= 0 {
				out = append(out, i)
				if len(out) >= maxSourceMatches {
					return searchMsg{req: req, query: query, matches: out, capped: true}
				}
			}
		}
		return searchMsg{req: req, query: query, matches: out}
	}
}

// pagerFileCmd writes text (loaded from disk when it must be, then
// sanitized) to a temporary file for $PAGER.
func pagerFileCmd(dir, title string, text func() (string, error)) tea.Cmd {
	return func() tea.Msg {
		s, err := text()
		if err != nil {
			return pagerReadyMsg{err: err}
		}
		f, err := os.CreateTemp(dir, "loupe-*.txt")
		if err != nil {
			return pagerReadyMsg{err: err}
		}
		_, err = f.WriteString(model.Sanitize(title) + "\n\n" + model.Sanitize(s) + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return pagerReadyMsg{err: err}
		}
		return pagerReadyMsg{path: f.Name()}
	}
}

// pagerExecCmd suspends the inspector and runs the pager on path.
func pagerExecCmd(pager []string, path string) tea.Cmd {
	if len(pager) == 0 {
		pager = []string{"less", "-R"}
	}
	args := append(append([]string(nil), pager[1:]...), path)
	c := exec.Command(pager[0], args...)
	return tea.ExecProcess(c, func(err error) tea.Msg { return pagerDoneMsg{path: path, err: err} })
}

// editorCmd suspends the inspector and runs the editor on file at line ln.
// It checks first that file is a file: some importers read a directory.
func editorCmd(editor []string, file string, ln int) tea.Cmd {
	if st, err := os.Stat(file); err != nil {
		return func() tea.Msg { return editorDoneMsg{err: err} }
	} else if st.IsDir() {
		return func() tea.Msg {
			return editorDoneMsg{err: fmt.Errorf("the run was read from the directory %s: there is no single file to open", model.Sanitize(file))}
		}
	}
	args := editorArgs(editor, file, ln)
	c := exec.Command(editor[0], args...)
	return tea.ExecProcess(c, func(err error) tea.Msg { return editorDoneMsg{editor: editor[0], err: err} })
}

// clipboardCmd keeps what y copied where it can be found: tmux's paste
// buffer when tmux drops OSC 52 from programs (its default, set-clipboard
// external), and a file in the user's cache directory, since no terminal
// confirms an OSC 52 write.
func clipboardCmd(dir string, tmux bool, s string) tea.Cmd {
	return func() tea.Msg {
		msg := copiedMsg{n: len(s)}
		if tmux {
			out, err := exec.Command("tmux", "show-options", "-gv", "set-clipboard").Output()
			if err == nil {
				msg.tmuxMode = strings.TrimSpace(string(out))
			}
			if msg.tmuxMode != "on" {
				load := exec.Command("tmux", "load-buffer", "-")
				load.Stdin = strings.NewReader(s)
				msg.tmuxBuffer = load.Run() == nil
				if msg.tmuxMode == "" {
					msg.tmuxMode = "unknown"
				}
			}
		}
		if dir == "" {
			if c, err := os.UserCacheDir(); err == nil {
				dir = filepath.Join(c, "loupe")
			} else {
				dir = filepath.Join(os.TempDir(), "loupe")
			}
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			msg.err = err
			return msg
		}
		path := filepath.Join(dir, "clipboard.txt")
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			msg.err = err
			return msg
		}
		msg.path = path
		if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(path, home+string(filepath.Separator)) {
			msg.path = "~" + path[len(home):] // shorter in a narrow footer
		}
		return msg
	}
}

// removeCmd deletes a temporary file.
func removeCmd(path string) tea.Cmd {
	return func() tea.Msg {
		os.Remove(path)
		return nil
	}
}

// clearStatusCmd clears the footer status after ttl.
func clearStatusCmd(seq int, ttl time.Duration) tea.Cmd {
	return tea.Tick(ttl, func(time.Time) tea.Msg { return clearStatusMsg{seq: seq} })
}

// PagerFromEnv splits $PAGER into a command; empty means less -R.
func PagerFromEnv(v string) []string {
	f := strings.Fields(v)
	if len(f) == 0 {
		return []string{"less", "-R"}
	}
	return f
}
