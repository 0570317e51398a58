package model

// Pairing links tool calls and their results by id. It is derived from the
// events, never stored in them: this is the one place that decides which calls
// were answered and which were still open at a given point of the run.
type Pairing struct {
	// result[i] is the index of the first result of the call at event i, or -1.
	result map[int]int
	// call[i] is the index of the call answered by the result at event i, or -1
	// when the result has no call before it.
	call map[int]int
	// calls are the indexes of every tool call, in order.
	calls []int
}

func newPairing(events []Event) *Pairing {
	p := &Pairing{result: map[int]int{}, call: map[int]int{}}
	open := map[string]int{} // call id -> index of the latest unanswered call
	for i, e := range events {
		switch ev := e.(type) {
		case *ToolCall:
			p.calls = append(p.calls, i)
			p.result[i] = -1
			open[ev.ID] = i
		case *ToolResult:
			ci, ok := open[ev.ID]
			if !ok {
				p.call[i] = -1
				continue
			}
			p.call[i] = ci
			p.result[ci] = i
			delete(open, ev.ID)
		}
	}
	return p
}

// ResultOf returns the index of the result answering the call at index i, or -1.
func (p *Pairing) ResultOf(i int) int {
	if r, ok := p.result[i]; ok {
		return r
	}
	return -1
}

// CallOf returns the index of the call the result at index i answers, or -1
// when it answers none that came before it.
func (p *Pairing) CallOf(i int) int {
	if c, ok := p.call[i]; ok {
		return c
	}
	return -1
}

// OpenAt returns the indexes of the calls made before event index end whose
// result had not arrived before end: the calls in flight at that point.
func (p *Pairing) OpenAt(end int) []int {
	var out []int
	for _, ci := range p.calls {
		if ci >= end {
			break
		}
		if r := p.result[ci]; r < 0 || r >= end {
			out = append(out, ci)
		}
	}
	return out
}
