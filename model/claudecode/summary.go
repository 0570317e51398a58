package claudecode

import "strings"

// The runtime wraps the compactor's output: a fixed preamble before it, and
// after it a pointer to the full transcript and an instruction to go on.
const trailerMarker = "\n\nIf you need specific details from before compaction"

// SplitSummary splits a Claude Code compaction summary, as written in the
// session file, into the runtime's preamble ("This session is being
// continued from a previous conversation…" up to the blank line that ends
// it), the compactor's own text, and the runtime's trailer (the
// transcript-path hint and "Please continue the conversation…"). The parts
// concatenate to s; an unknown layout is all body.
func SplitSummary(s string) (preamble, body, trailer string) {
	body = s
	if strings.HasPrefix(body, preambleText) {
		if i := strings.Index(body, "\n\n"); i >= 0 {
			preamble, body = body[:i+2], body[i+2:]
		}
	}
	if i := strings.LastIndex(body, trailerMarker); i >= 0 {
		body, trailer = body[:i], body[i:]
	} else if i := strings.LastIndex(body, "\nPlease continue the conversation from where we left off"); i >= 0 {
		body, trailer = body[:i], body[i:]
	}
	return preamble, body, trailer
}

const preambleText = preamble
