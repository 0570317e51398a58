package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// One deadline bounds a whole hook call: reading standard input, reading
// and verifying the transcript, waiting for the session's lock and writing
// its state. A runtime waits on the hook, so a hook that hangs hangs the
// agent; past the deadline the hook gives up, prints nothing, and says in
// loupe's log what it was doing.

// Caps on standard input. Claude Code, Codex and Gemini CLI send a few
// hundred bytes of JSON (the live payloads are 250 to 600 bytes; Claude
// Code's PostCompact adds the summary, tens of kilobytes); opencode's
// plugin sends the session's messages.
const (
	maxInput         = 8 << 20
	maxOpencodeInput = 64 << 20
)

// inputCap is the most a runtime's hook may send on standard input.
func inputCap(runtime string) int64 {
	if runtime == Opencode {
		return maxOpencodeInput
	}
	return maxInput
}

// errInputTooLarge says standard input went past its cap; nothing past the
// cap was read.
var errInputTooLarge = errors.New("hook input is too large")

// readInput reads r up to limit bytes, holding no more than that.
func readInput(r io.Reader, limit int64) ([]byte, error) {
	var b bytes.Buffer
	n, err := b.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	if n > limit {
		return nil, fmt.Errorf("%w: standard input is over %d MiB; it was not read further", errInputTooLarge, limit>>20)
	}
	return b.Bytes(), nil
}

// Stages of a call, for the log line of a call that ran out of time.
const (
	stageStart int32 = iota
	stageStdin
	stageWork
	stageLock
	stageSave
	stageDone
)

var stageNames = [...]string{
	stageStart: "starting",
	stageStdin: "reading standard input (the runtime did not close it)",
	stageWork:  "reading and verifying the transcript",
	stageLock:  "waiting for the session's lock",
	stageSave:  "writing the session's state",
	stageDone:  "answering",
}

// control is what the caller of a hook and the goroutine doing its work
// share: the deadline, the stage the work is at, and who won the race
// between writing the state and giving up. Once the state is being written
// the call is let finish it (a block claimed in the state must be printed);
// once the call has given up, the state is not written.
type control struct {
	deadline time.Time
	stage    atomic.Int32
	// fate is 0 while undecided, fateCommit once the state is being
	// written, fateAbandon once the caller gave up.
	fate atomic.Int32
}

const (
	fateCommit  = 1
	fateAbandon = 2
)

func newControl(deadline time.Time) *control { return &control{deadline: deadline} }

// errDeadline says the call gave up before writing anything.
var errDeadline = errors.New("the deadline passed before the session's state was written")

// beginSave reports whether the state may be written: false once the
// caller gave up. A nil control (a Store used outside Run) always may.
func (c *control) beginSave() bool {
	if c == nil {
		return true
	}
	c.stage.Store(stageSave)
	return c.fate.CompareAndSwap(0, fateCommit) || c.fate.Load() == fateCommit
}

// abandon reports whether the caller may give up now: false when the state
// is being written.
func (c *control) abandon() bool { return c.fate.CompareAndSwap(0, fateAbandon) }

func (c *control) set(stage int32) {
	if c != nil {
		c.stage.Store(stage)
	}
}

func (c *control) what() string { return stageNames[c.stage.Load()] }

// lockDeadline is when waiting for a lock gives up: a little before the
// call's deadline, so that the log says it was the lock.
func (c *control) lockDeadline(now time.Time) time.Time {
	if c == nil || c.deadline.IsZero() {
		return now.Add(time.Second)
	}
	margin := min(250*time.Millisecond, c.deadline.Sub(now)/10)
	return c.deadline.Add(-margin)
}

// saveGrace is how long past the deadline a call that began writing the
// state is waited for (a write and two fsyncs of a small file).
const saveGrace = 2 * time.Second

// A spool is the private directory in $TMPDIR where a call writes the
// files the importers read (the transcript's new lines, opencode's
// messages), made on first use. It is removed when Run returns, on every
// path: an answer, an error, a panic, the deadline; work that goes on past
// the deadline cannot make it again.
type spool struct {
	mu     sync.Mutex
	dir    string
	closed bool
}

var errSpoolClosed = errors.New("the call is over: its temporary directory is gone")

// remove deletes the spool. A goroutine that outlived the deadline may be
// writing a file in it at that moment, so a failed removal is tried again.
func (s *spool) remove() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.dir == "" {
		return
	}
	for i := 0; i < 3; i++ {
		if os.RemoveAll(s.dir) == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mkdir makes a directory for one use inside the spool.
func (s *spool) mkdir(pattern string) (string, error) {
	if s == nil {
		return os.MkdirTemp("", "loupe-"+pattern)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errSpoolClosed
	}
	if s.dir == "" {
		dir, err := os.MkdirTemp("", "loupe-hook-*")
		if err != nil {
			return "", fmt.Errorf("temporary directory: %w", err)
		}
		s.dir = dir
	}
	return os.MkdirTemp(s.dir, pattern)
}
