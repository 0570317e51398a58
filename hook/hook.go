package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// Runtimes are the runtimes `loupe hook` speaks to, by their command-line
// name.
var Runtimes = []string{ClaudeCode, Codex, Gemini, Opencode, Pi}

// Runtime names.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	Gemini     = "gemini"
	Opencode   = "opencode"
	Pi         = "pi"
)

// RuntimeName maps the names users type onto the runtime's name ("" when
// unknown).
func RuntimeName(s string) string {
	switch strings.ToLower(s) {
	case "claude-code", "claude", "claudecode", "cc":
		return ClaudeCode
	case "codex", "codex-cli":
		return Codex
	case "gemini", "gemini-cli":
		return Gemini
	case "opencode":
		return Opencode
	case "pi", "pi-coding-agent":
		return Pi
	}
	return ""
}

// Request is one call of a hook by a runtime.
type Request struct {
	// Runtime is one of Runtimes; Event the hook's event as the install
	// wrote it (pre-compact, session-start, post-compact, reinject...) or
	// the runtime's own event name.
	Runtime, Event string
	// Input is the JSON the runtime wrote on standard input; Stdin, when
	// set, is read instead, up to a cap, inside the deadline.
	Input []byte
	Stdin io.Reader
	// Gate makes a violating compaction stop the agent where the runtime
	// allows it (Codex PostCompact, opencode auto-continue).
	Gate bool
	// MaxChars caps a block put back (0: verify.DefaultRehydrateChars).
	MaxChars int
	// Decide is the weakest basis whose lost items make a compaction
	// violate and are put back (verify.Options.Decide; "" is stated).
	Decide verify.Basis
	// Deadline bounds the whole call; past it the hook gives up, prints
	// nothing and logs what it was doing (0: the event's default).
	Deadline time.Duration
	// Store is loupe's state directory.
	Store *Store
	// Now is the clock (time.Now when nil).
	Now func() time.Time

	// ctl and spool are Run's, for the call's goroutine.
	ctl   *control
	spool *spool
}

// Default deadlines, below the timeouts `loupe hook install` writes: the
// snapshot before a compaction runs while the runtime waits on a model
// call of tens of seconds; the others sit on the agent's path.
const (
	preDeadline  = 15 * time.Second
	postDeadline = 8 * time.Second
	nextDeadline = 4 * time.Second
)

// plan is what the slow part of a hook decided; commit applies it under the
// session's lock and returns what to print.
type plan struct {
	commit func() ([]byte, error)
}

// Run answers one hook call. It fails open: whatever goes wrong (bad input,
// input over its cap or never closed, an unreadable transcript, a panic, a
// lock that cannot be taken, the deadline), it returns no output, and the
// failure goes to loupe's log. The caller exits 0 in every case. The
// deadline covers the whole call, from reading Stdin to writing the state.
func Run(req Request) []byte {
	if req.Now == nil {
		req.Now = time.Now
	}
	start := req.Now()
	ph := phaseOf(req.Runtime, req.Event)
	deadline := req.Deadline
	if deadline <= 0 {
		deadline = ph.deadline()
	}
	ctl := newControl(time.Now().Add(deadline))
	req.ctl = ctl
	sp := &spool{}
	defer sp.remove()
	req.spool = sp
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
			}
		}()
		out, err := work(req, ph)
		done <- result{out: out, err: err}
	}()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	var res result
	select {
	case res = <-done:
	case <-timer.C:
		if !ctl.abandon() {
			// The state is being written: a block it claims must be printed.
			grace := time.NewTimer(saveGrace)
			defer grace.Stop()
			select {
			case res = <-done:
			case <-grace.C:
				req.Store.Logf(req.Now(), "%s %s: gave up %s past the deadline of %s while writing the session's state; nothing was output",
					req.Runtime, req.Event, saveGrace, deadline)
				return nil
			}
			break
		}
		req.Store.Logf(req.Now(), "%s %s: gave up after %s (deadline) while %s; nothing was output", req.Runtime, req.Event, deadline, ctl.what())
		return nil
	}
	if res.err == nil {
		return res.out
	}
	if !errors.Is(res.err, errSilent) {
		req.Store.Logf(req.Now(), "%s %s: %v (after %s; nothing was output)", req.Runtime, req.Event, res.err, req.Now().Sub(start).Round(time.Millisecond))
	}
	return nil
}

// work is a hook call inside its deadline: read the input, decide, commit.
func work(req Request, ph phase) ([]byte, error) {
	if req.Stdin != nil {
		req.ctl.set(stageStdin)
		in, err := readInput(req.Stdin, inputCap(req.Runtime))
		if err != nil {
			return nil, err
		}
		req.Input = in
	}
	req.ctl.set(stageWork)
	pl, err := prepare(req, ph)
	if err != nil || pl == nil || pl.commit == nil {
		return nil, err
	}
	out, err := pl.commit()
	req.ctl.set(stageDone)
	return out, err
}

type result struct {
	out []byte
	err error
}

// errSilent is a reason to do nothing that is not worth a log line.
var errSilent = errors.New("nothing to do")

// phase is what an event means to loupe.
type phase int

const (
	phaseUnknown phase = iota
	// phasePre: a compaction is about to run (snapshot).
	phasePre
	// phaseStart: the context was just rebuilt after a compaction.
	phaseStart
	// phasePost: the compaction finished.
	phasePost
	// phaseNext: the agent goes on (a tool ran, a prompt came): put back
	// what is pending.
	phaseNext
	// phaseGate: opencode asks whether to auto-continue.
	phaseGate
)

func (p phase) deadline() time.Duration {
	switch p {
	case phasePre:
		return preDeadline
	case phaseNext, phaseGate:
		return nextDeadline
	}
	return postDeadline
}

// phaseOf maps a runtime's event name (as installed, or the runtime's own)
// onto a phase.
func phaseOf(runtime, event string) phase {
	e := strings.ToLower(strings.NewReplacer("-", "", "_", "", ".", "").Replace(event))
	switch e {
	case "precompact", "precompress", "compacting", "sessioncompacting", "sessionbeforecompact":
		return phasePre
	case "sessionstart", "start":
		return phaseStart
	case "postcompact", "compacted", "sessioncompacted", "sessioncompact":
		return phasePost
	case "reinject", "next", "posttooluse", "pretooluse", "posttoolbatch", "userpromptsubmit",
		"beforeagent", "aftertool", "system", "systemtransform", "chatsystemtransform",
		"agentstart", "beforeagentstart":
		return phaseNext
	case "autocontinue", "compactionautocontinue", "gate":
		return phaseGate
	}
	return phaseUnknown
}

// input is the part of a hook's JSON loupe reads; the runtimes share most
// of these names.
type input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	Trigger        string `json:"trigger"`
	Source         string `json:"source"`
	CompactSummary string `json:"compact_summary"`
	// opencode's plugin.
	OpencodeSession string          `json:"sessionID"`
	Storage         string          `json:"storage"`
	Messages        json.RawMessage `json:"messages"`
	SessionInfo     json.RawMessage `json:"session"`
}

func parseInput(b []byte) (*input, error) {
	var in input
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, fmt.Errorf("hook input is not JSON: %w", err)
	}
	return &in, nil
}

// testHook, when set by a test, runs at the start of every hook call (to
// make one panic or stall). Atomic because a stalled call's goroutine
// outlives Run and still reads it while the test restores it.
var testHook atomic.Pointer[func()]

// testSpooled, when set by a test, runs once a tail copy is in the spool.
var testSpooled atomic.Pointer[func()]

// prepare does the slow part of a hook call: read, verify, decide.
func prepare(req Request, ph phase) (*plan, error) {
	if h := testHook.Load(); h != nil {
		(*h)()
	}
	if ph == phaseUnknown {
		return nil, fmt.Errorf("unknown event %q for %s", req.Event, req.Runtime)
	}
	in, err := parseInput(req.Input)
	if err != nil {
		return nil, err
	}
	c := &call{req: req, ph: ph, in: in, now: req.Now()}
	switch req.Runtime {
	case ClaudeCode:
		return c.claudeCode()
	case Codex:
		return c.codex()
	case Gemini:
		return c.gemini()
	case Opencode:
		return c.opencode()
	case Pi:
		return c.pi()
	}
	return nil, fmt.Errorf("unknown runtime %q", req.Runtime)
}

// call is one hook call being answered.
type call struct {
	req  Request
	ph   phase
	in   *input
	now  time.Time
	base base
	// reuse keeps an unused snapshot the transcript has not outgrown
	// (Gemini CLI's PreCompress fires on every turn).
	reuse bool
	// rescanned says the transcript was read whole after a compaction line
	// turned up in its new part: how far it was searched must be saved.
	rescanned bool
}

// opts are the verification options of this call.
func (c *call) opts(consumers []model.Consumer) verify.Options {
	return verify.Options{Consumers: consumers, Decide: c.req.Decide}
}

func (c *call) maxChars() int {
	if c.req.MaxChars > 0 {
		return c.req.MaxChars
	}
	return verify.DefaultRehydrateChars
}
