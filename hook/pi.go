package hook

import (
	"errors"
	"io/fs"
	"os"
)

// pi (its extension events; integrations/pi/loupe.ts sends them here with
// the session file as transcript_path). session_before_compact: snapshot;
// pi 0.73 gives an extension no way to add to the summarizer's
// instructions short of writing the summary itself, so nothing is printed.
// session_compact: the compaction entry is in the session file; verify it
// and, when it violates, say so ({"systemMessage"}, shown by the
// extension) or, with --gate, ask for the agent to stop
// ({"continue": false}). before_agent_start: put the block back, once, as
// hookSpecificOutput.additionalContext, which the extension adds to the
// session as a message the model reads.

// piMarker is in the session line that records a compaction.
const piMarker = `"type":"compaction"`

func (c *call) pi() (*plan, error) {
	if c.in.TranscriptPath == "" {
		return nil, errors.New("no transcript_path in the hook input (pi runs in memory without a session file)")
	}
	if c.ph == phaseNext {
		// A session's first prompt: pi writes the session file only once
		// the first reply is in. Nothing can be owed yet; no log line.
		if _, err := os.Stat(c.in.TranscriptPath); errors.Is(err, fs.ErrNotExist) {
			return nil, errSilent
		}
	}
	tr := transcript{path: c.in.TranscriptPath, format: "pi", marker: piMarker}
	st, err := c.load(Pi, sessionOf(c.in.SessionID, tr.path))
	if err != nil {
		return nil, err
	}
	st.Transcript = tr.path
	switch c.ph {
	case phasePre:
		return c.pre(st, tr, func(string) []byte { return nil })
	case phasePost:
		return c.codexPost(st, tr)
	case phaseNext, phaseStart:
		return c.verifyAndInject(st, tr, false, firstNonEmpty(c.in.HookEventName, "before_agent_start"))
	}
	return nil, errSilent
}
