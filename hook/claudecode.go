package hook

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/loupe-dev/loupe/verify"
)

// Claude Code (research/hooks.md §1). PreCompact: snapshot, and the items
// that must survive on standard output, which Claude Code adds to the
// summarizer's instructions. SessionStart with source "compact" runs before
// the summary is written, PostCompact after it, and neither can always see
// it in the transcript: whichever finds the compaction first verifies it
// (PostCompact falls back to the compact_summary it is handed), and the
// block goes back through SessionStart when it is known by then, else
// through the next PostToolUse or UserPromptSubmit, as
// hookSpecificOutput.additionalContext, once.

// claudeMarker is in every line that records a compaction (compact_boundary
// and microcompact_boundary).
const claudeMarker = "compact_boundary"

func (c *call) claudeCode() (*plan, error) {
	if c.in.TranscriptPath == "" {
		return nil, errors.New("no transcript_path in the hook input")
	}
	if c.ph == phaseNext || c.ph == phaseStart {
		// A session's first prompt: Claude Code writes the transcript only
		// after UserPromptSubmit. Nothing can be owed yet; no log line.
		if _, err := os.Stat(c.in.TranscriptPath); errors.Is(err, fs.ErrNotExist) {
			return nil, errSilent
		}
	}
	tr := transcript{path: c.in.TranscriptPath, format: "claude-code", marker: claudeMarker}
	st, err := c.load(ClaudeCode, sessionOf(c.in.SessionID, tr.path))
	if err != nil {
		return nil, err
	}
	st.Transcript = tr.path
	switch c.ph {
	case phasePre:
		return c.pre(st, tr, func(steer string) []byte { return plainLine(steer) })
	case phaseStart:
		if c.in.Source != "" && c.in.Source != "compact" {
			return nil, errSilent
		}
		return c.verifyAndInject(st, tr, true, "SessionStart")
	case phasePost:
		return c.claudePost(st, tr)
	case phaseNext:
		return c.verifyAndInject(st, tr, false, firstNonEmpty(c.in.HookEventName, "PostToolUse"))
	}
	return nil, errSilent
}

// claudePost verifies the compaction (from the transcript, or from the
// summary the hook is handed) and tells the user; PostCompact's output
// never reaches the model.
func (c *call) claudePost(st *Session, tr transcript) (*plan, error) {
	v, err := c.newest(st, tr, true)
	if err != nil {
		return nil, err
	}
	if v == nil && c.in.CompactSummary != "" && !c.alreadyVerified(st) {
		if v, err = c.fromPayload(st, tr, c.in.CompactSummary); err != nil {
			return nil, err
		}
	}
	var found *Record
	if v != nil {
		r := c.record(v, tr.path)
		found = &r
	}
	o := c.outcomeOf(st, nil, found)
	earlier := c.justVerified(st)
	return &plan{commit: func() ([]byte, error) {
		_, latest, err := c.commit(o)
		if err != nil {
			return nil, err
		}
		if latest == nil {
			latest = earlier // SessionStart verified it a moment ago
		}
		if latest == nil {
			return nil, nil
		}
		return plainLine(receipt(latest, c.putBackWhen(latest))), nil
	}}, nil
}

// justVerified is the session's newest record when an earlier hook of the
// same compaction made it (nil otherwise).
func (c *call) justVerified(st *Session) *Record {
	r := st.record(st.lastSeq())
	if r == nil || c.now.Sub(r.VerifiedAt) > recentCompaction {
		return nil
	}
	cp := *r
	return &cp
}

func (c *call) putBackWhen(r *Record) string {
	switch r.State {
	case stateInjected:
		return "They were put back into the agent's context."
	case statePending:
		return "They will be put back into the agent's context at its next step."
	}
	return ""
}

// alreadyVerified reports whether the compaction the snapshot was taken for
// has been verified by an earlier hook.
func (c *call) alreadyVerified(st *Session) bool {
	s := st.Snapshot
	return s != nil && s.Used && st.lastSeq() > s.Compactions
}

// pre takes the snapshot and answers with the steering text render makes
// of the items that must survive.
func (c *call) pre(st *Session, tr transcript, render func(steer string) []byte) (*plan, error) {
	p, err := c.snapshot(st, tr)
	if err != nil {
		return nil, err
	}
	steer := ""
	if p != nil {
		steer = steering(p, c.maxChars()/2)
	} else if s := st.Snapshot; s != nil {
		st.Snapshot = nil // unchanged: the snapshot on disk stays as it is
	}
	o := c.outcomeOf(st, st.Snapshot, nil)
	return &plan{commit: func() ([]byte, error) {
		if _, _, err := c.commit(o); err != nil {
			return nil, err
		}
		if steer == "" {
			return nil, nil
		}
		return render(steer), nil
	}}, nil
}

// verifyAndInject verifies a new compaction if there is one and puts back
// the pending block through event (the runtime's hookEventName).
func (c *call) verifyAndInject(st *Session, tr transcript, explicit bool, event string) (*plan, error) {
	var found *Record
	if st.pending() == nil {
		v, err := c.newest(st, tr, explicit)
		if err != nil {
			return nil, err
		}
		if v != nil {
			r := c.record(v, tr.path)
			found = &r
		}
	}
	o := c.outcomeOf(st, nil, found)
	o.claim = c.req.Runtime + " " + event
	return &plan{commit: func() ([]byte, error) {
		claimed, _, err := c.commit(o)
		if err != nil || claimed == nil {
			return nil, err
		}
		return additionalContext(event, claimed.Block)
	}}, nil
}

// additionalContext is the hookSpecificOutput Claude Code, Codex and Gemini
// CLI read context from.
func additionalContext(event, text string) ([]byte, error) {
	b, err := json.Marshal(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": event, "additionalContext": text}})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// steering is the framed list of items the summary must keep, for the
// runtimes that add a hook's text to the summarizer's instructions.
func steering(p *preservation, maxChars int) string {
	rh := verify.Rehydrate(p.cr, p.events, verify.RehydrateOptions{MaxChars: max(maxChars, verify.MinRehydrateChars), Purpose: verify.Steer})
	if len(rh.Items) == 0 {
		return ""
	}
	return rh.Text
}

func plainLine(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(strings.TrimRight(s, "\n") + "\n")
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
