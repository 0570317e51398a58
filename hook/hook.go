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
	// Input is the JSON the runtime wrote on standard input.
	Input []byte
	// Gate makes a violating compaction stop the agent where the runtime
	// allows it (Codex PostCompact, opencode auto-continue).
	Gate bool
	// MaxChars caps a block put back (0: verify.DefaultRehydrateChars).
	MaxChars int
	// Deadline bounds the work; past it the hook gives up silently (0:
	// the event's default).
	Deadline time.Duration
	// Store is loupe's state directory.
	Store *Store
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Default deadlines, below the timeouts `loupe hook install` writes: the
// snapshot before a compaction runs while the runtime waits on a model
// call of tens of seconds; the others sit on the agent's path.
const (
	preDeadline  = 15 * time.Second
	postDeadline = 8 * time.Second
	nextDeadline = 4 * time.Second
)

// maxInput caps what is read from standard input (opencode's plugin sends
// the session's messages).
const maxInput = 256 << 20

// ReadInput reads a hook's standard input, up to maxInput.
func ReadInput(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("hook input is over %d MiB", maxInput>>20)
	}
	return b, nil
}

// plan is what the slow part of a hook decided; commit applies it under the
// session's lock and returns what to print.
type plan struct {
	commit func() ([]byte, error)
}

// Run answers one hook call. It fails open: whatever goes wrong (bad input,
// an unreadable transcript, a panic, the deadline), it returns no output,
// and the failure goes to loupe's log. The caller exits 0 in every case.
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
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
			}
		}()
		pl, err := prepare(req, ph)
		done <- result{plan: pl, err: err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(deadline):
		req.Store.Logf(req.Now(), "%s %s: gave up after %s (deadline); nothing was output", req.Runtime, req.Event, deadline)
		return nil
	}
	if res.err == nil && res.plan != nil && res.plan.commit != nil {
		var out []byte
		out, res.err = safeCommit(res.plan.commit)
		if res.err == nil {
			return out
		}
	}
	if res.err != nil && !errors.Is(res.err, errSilent) {
		req.Store.Logf(req.Now(), "%s %s: %v (after %s; nothing was output)", req.Runtime, req.Event, res.err, req.Now().Sub(start).Round(time.Millisecond))
	}
	return nil
}

type result struct {
	plan *plan
	err  error
}

// errSilent is a reason to do nothing that is not worth a log line.
var errSilent = errors.New("nothing to do")

func safeCommit(f func() ([]byte, error)) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return f()
}

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

func (c *call) maxChars() int {
	if c.req.MaxChars > 0 {
		return c.req.MaxChars
	}
	return verify.DefaultRehydrateChars
}
