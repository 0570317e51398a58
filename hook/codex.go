package hook

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Codex CLI (research/hooks.md §2). PreCompact: snapshot (its output may
// only hold the universal fields, so it prints nothing). The compacted item
// is in the rollout before PostCompact and SessionStart(compact) run, so
// either verifies it; SessionStart puts the block back as
// hookSpecificOutput.additionalContext, which Codex adds before the next
// model request. PostCompact tells the user when a summary violates, and,
// with --gate, answers {"continue": false}: Codex then ends the turn before
// the agent acts on the summary. SessionStart also runs on a resume, to put
// back a block a compaction in an earlier process left pending.

// codexMarker is in the rollout line that records a compaction.
const codexMarker = `"compacted"`

func (c *call) codex() (*plan, error) {
	if c.in.TranscriptPath == "" {
		return nil, errors.New("no transcript_path in the hook input (Codex sends null when the session has no rollout)")
	}
	tr := transcript{path: c.in.TranscriptPath, format: "codex", marker: codexMarker}
	st, err := c.load(Codex, sessionOf(c.in.SessionID, tr.path))
	if err != nil {
		return nil, err
	}
	st.Transcript = tr.path
	switch c.ph {
	case phasePre:
		return c.pre(st, tr, func(string) []byte { return nil })
	case phaseStart:
		// A resumed session gets what a compaction in an earlier process
		// left pending: Codex drops a queued SessionStart(compact) when the
		// process ends first (a manual compaction, a --gate stop).
		if c.in.Source != "" && c.in.Source != "compact" && c.in.Source != "resume" {
			return nil, errSilent
		}
		return c.verifyAndInject(st, tr, true, "SessionStart")
	case phasePost:
		return c.codexPost(st, tr)
	case phaseNext:
		return c.verifyAndInject(st, tr, false, firstNonEmpty(c.in.HookEventName, "UserPromptSubmit"))
	}
	return nil, errSilent
}

// codexPost verifies the compaction and, on a violation, warns the user or
// (with --gate) stops the turn. Only the universal fields are allowed in
// PostCompact's output.
func (c *call) codexPost(st *Session, tr transcript) (*plan, error) {
	v, err := c.newest(st, tr, true)
	if err != nil {
		return nil, err
	}
	var found *Record
	if v != nil {
		r := c.record(v, tr.path)
		found = &r
	}
	o := c.outcomeOf(st, nil, found)
	return &plan{commit: func() ([]byte, error) {
		_, latest, err := c.commit(o)
		if err != nil || latest == nil || latest.Verdict != "violate" {
			return nil, err
		}
		if c.req.Gate {
			why := receipt(latest, "loupe stopped the turn so the agent does not act on this summary; the items are put back when the session goes on.")
			// codex exec shows neither field (0.171): the log says why too.
			c.req.Store.Logf(c.now, "%s %s: stopped the turn: %s", c.req.Runtime, c.req.Event, why)
			return jsonLine(map[string]any{"continue": false, "stopReason": why, "systemMessage": why})
		}
		return jsonLine(map[string]any{"systemMessage": receipt(latest, c.putBackWhen(latest))})
	}}, nil
}

func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the answer: %w", err)
	}
	return append(b, '\n'), nil
}
