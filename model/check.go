package model

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
)

// checker adds the consistency warnings that need no verification logic:
// turns that go backwards, compaction seqs that skip, results without a
// call, call ids used twice. It sees the events one at a time, in order
// (event), and adds its warnings to the transcript's problems at the end
// (finish): a reader that does not keep the events checks them the same.
type checker struct {
	problems Problems
	// Turns are compared with the previous event's, not with the largest
	// so far: one wrong turn gives one warning, not one for every event
	// after it.
	prevTurn, prevLine int
	havePrev           bool
	lastSeq            int
	haveSeq            bool
	// seen files the call ids met by a hash (a long run makes millions of
	// calls, and its ids need not be kept for this): the line of the first
	// call of each. Two ids of one 64-bit hash would warn falsely, once in
	// billions of runs.
	seen map[uint64]int32
	seed maphash.Seed
	// inFlight pairs results with calls as Pairing does: the call ids
	// whose latest call has no result yet.
	inFlight map[string]bool
}

func (c *checker) warn(e Event, field, format string, args ...any) {
	p := &Problem{Severity: Warning, Line: e.Header().Line, Type: e.Kind().String(), Field: field}
	p.Msg = fmt.Sprintf(format, args...)
	c.problems = append(c.problems, p)
}

func (c *checker) event(e Event) {
	if c.seen == nil {
		c.seen, c.inFlight, c.seed = map[uint64]int32{}, map[string]bool{}, maphash.MakeSeed()
	}
	h := e.Header()
	if _, raw := e.(*Raw); !raw {
		if c.havePrev && h.Turn < c.prevTurn {
			c.warn(e, "turn", "turn %d goes back (line %d has turn %d)", h.Turn, c.prevLine, c.prevTurn)
		}
		c.prevTurn, c.prevLine, c.havePrev = h.Turn, h.Line, true
	}
	switch ev := e.(type) {
	case *Compaction:
		if c.haveSeq && ev.Seq != c.lastSeq+1 {
			c.warn(e, "seq", "compaction seq %d follows seq %d (expected %d)", ev.Seq, c.lastSeq, c.lastSeq+1)
		}
		c.lastSeq, c.haveSeq = ev.Seq, true
	case *ToolCall:
		c.inFlight[ev.ID] = true
		k := maphash.String(c.seed, ev.ID)
		if line, dup := c.seen[k]; dup {
			c.warn(e, "id", "call id %q was already used at line %d", ev.ID, line)
		} else {
			c.seen[k] = int32(h.Line)
		}
	case *ToolResult:
		if c.inFlight[ev.ID] {
			delete(c.inFlight, ev.ID)
			break
		}
		if _, called := c.seen[maphash.String(c.seed, ev.ID)]; called {
			c.warn(e, "id", "a second result for call %q", ev.ID)
		} else {
			c.warn(e, "id", "result for call %q, which was never made", ev.ID)
		}
	}
}

// finish adds the warnings to t's problems, every problem in line order.
func (c *checker) finish(t *Transcript) {
	for _, p := range c.problems {
		p.File = t.Path
	}
	t.Problems = append(t.Problems, c.problems...)
	c.problems = nil
	slices.SortStableFunc(t.Problems, func(a, b *Problem) int { return cmp.Compare(a.Line, b.Line) })
}
