package hook

import "errors"

// Gemini CLI (research/hooks.md §3). PreCompress is advisory and fires on
// every turn that only considers compressing (#18083): it takes the
// snapshot, and keeps it while the file grows by less than a quarter (the
// lines since are read with the summary), so that only about one turn in
// many pays for reading the transcript; it prints nothing (Gemini CLI wants
// JSON or silence). There is no hook after compression: the next
// BeforeAgent (or AfterTool, within a turn) finds the $set checkpoint the
// compression wrote, verifies its summary and puts the block back as
// hookSpecificOutput.additionalContext, once.

// geminiMarker is in the checkpoint line a compression writes.
const geminiMarker = `"$set"`

func (c *call) gemini() (*plan, error) {
	if c.in.TranscriptPath == "" {
		return nil, errors.New("no transcript_path in the hook input")
	}
	tr := transcript{path: c.in.TranscriptPath, format: "gemini-cli", marker: geminiMarker}
	st, err := c.load(Gemini, sessionOf(c.in.SessionID, tr.path))
	if err != nil {
		return nil, err
	}
	st.Transcript = tr.path
	switch c.ph {
	case phasePre:
		// PreCompress fires on every turn, also right after a compression
		// that no BeforeAgent has verified yet: verify that one now, from
		// the snapshot taken before it, and leave its block pending for the
		// next BeforeAgent; a new snapshot would take it in unverified and
		// its loss would never go back.
		if st.pending() == nil {
			v, err := c.newest(st, tr, false)
			if err != nil {
				return nil, err
			}
			if v != nil {
				r := c.record(v, tr.path)
				o := c.outcomeOf(st, nil, &r)
				return &plan{commit: func() ([]byte, error) {
					_, _, err := c.commit(o)
					return nil, err
				}}, nil
			}
		}
		c.reuse = true
		return c.pre(st, tr, func(string) []byte { return nil })
	case phaseNext, phasePost, phaseStart:
		return c.verifyAndInject(st, tr, false, firstNonEmpty(c.in.HookEventName, "BeforeAgent"))
	}
	return nil, errSilent
}
