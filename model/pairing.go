package model

// Pairing links tool calls and their results by id. It is derived from the
// events, never stored in them: this is the one place that decides which calls
// were answered and which were still open at a given point of the run.
type Pairing struct {
	// pair[i] links the event at index i to its partner: a call answered by
	// the result at index r holds r+1, a result answering the call at index
	// c holds -(c+1), anything else 0. One int32 per event, not two maps
	// keyed by index: a run of millions of tiny calls keeps this for the
	// whole verification.
	pair []int32
	// calls are the indexes of every tool call, in order.
	calls []int32
}

func newPairing(events []Event) *Pairing {
	p := &Pairing{pair: make([]int32, len(events))}
	open := map[string]int{} // call id -> index of the latest unanswered call
	for i, e := range events {
		switch ev := e.(type) {
		case *ToolCall:
			p.calls = append(p.calls, int32(i))
			open[ev.ID] = i
		case *ToolResult:
			ci, ok := open[ev.ID]
			if !ok {
				continue
			}
			p.pair[i] = -int32(ci + 1)
			p.pair[ci] = int32(i + 1)
			delete(open, ev.ID)
		}
	}
	return p
}

// ResultOf returns the index of the result answering the call at index i, or -1.
func (p *Pairing) ResultOf(i int) int {
	if i >= 0 && i < len(p.pair) && p.pair[i] > 0 {
		return int(p.pair[i]) - 1
	}
	return -1
}

// CallOf returns the index of the call the result at index i answers, or -1
// when it answers none that came before it.
func (p *Pairing) CallOf(i int) int {
	if i >= 0 && i < len(p.pair) && p.pair[i] < 0 {
		return int(-p.pair[i]) - 1
	}
	return -1
}

// OpenAt returns the indexes of the calls made before event index end whose
// result had not arrived before end: the calls in flight at that point.
func (p *Pairing) OpenAt(end int) []int {
	var out []int
	for _, c := range p.calls {
		ci := int(c)
		if ci >= end {
			break
		}
		if r := p.ResultOf(ci); r < 0 || r >= end {
			out = append(out, ci)
		}
	}
	return out
}
