package model

import (
	"cmp"
	"fmt"
	"slices"
)

// check adds the consistency warnings that need no verification logic: turns
// that go backwards, compaction seqs that skip, results without a call, call
// ids used twice.
func check(t *Transcript) {
	name := t.Path
	warn := func(e Event, field, format string, args ...any) {
		p := &Problem{Severity: Warning, File: name, Line: e.Header().Line, Type: e.Kind().String(), Field: field}
		p.Msg = fmt.Sprintf(format, args...)
		t.Problems = append(t.Problems, p)
	}
	// Turns are compared with the previous event's, not with the largest so
	// far: one wrong turn gives one warning, not one for every event after it.
	prevTurn, prevLine, havePrev := 0, 0, false
	lastSeq, haveSeq := 0, false
	seen := map[string]int{} // call id -> line of its first call
	pairing := t.Pairing()
	for i, e := range t.Events {
		h := e.Header()
		if _, raw := e.(*Raw); !raw {
			if havePrev && h.Turn < prevTurn {
				warn(e, "turn", "turn %d goes back (line %d has turn %d)", h.Turn, prevLine, prevTurn)
			}
			prevTurn, prevLine, havePrev = h.Turn, h.Line, true
		}
		switch ev := e.(type) {
		case *Compaction:
			if haveSeq && ev.Seq != lastSeq+1 {
				warn(e, "seq", "compaction seq %d follows seq %d (expected %d)", ev.Seq, lastSeq, lastSeq+1)
			}
			lastSeq, haveSeq = ev.Seq, true
		case *ToolCall:
			if line, dup := seen[ev.ID]; dup {
				warn(e, "id", "call id %q was already used at line %d", ev.ID, line)
			} else {
				seen[ev.ID] = h.Line
			}
		case *ToolResult:
			if pairing.CallOf(i) < 0 {
				if _, called := seen[ev.ID]; called {
					warn(e, "id", "a second result for call %q", ev.ID)
				} else {
					warn(e, "id", "result for call %q, which was never made", ev.ID)
				}
			}
		}
	}
	slices.SortStableFunc(t.Problems, func(a, b *Problem) int { return cmp.Compare(a.Line, b.Line) })
}
