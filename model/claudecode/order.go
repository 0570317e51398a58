package claudecode

import (
	"bytes"

	"github.com/loupe-dev/loupe/model/formats/kit"
)

// Claude Code does not always write a tool_result after its tool_use: in
// real files the user line with the result can come first in file order
// (its parentUuid names the assistant line written after it). A result
// answers the call it names by tool_use_id, wherever the call was written,
// so the events are put back in the conversation's order, a call before its
// result: the line with the result waits until the line with the call has
// been emitted. When a compaction lies between them (the result was written
// before the boundary, its call after), the call's line moves up instead, to
// just before the result: the result was in the context the compactor read,
// so its call was too, and it is not in flight at that compaction.

// callOrder is what the first pass learns about results written before
// their calls, and what the second pass does about it.
type callOrder struct {
	// per file, while the first pass reads it
	called   map[string]bool  // call ids seen
	early    map[string]int32 // call id -> record of a result written before any call with that id
	lastComp int32            // the last record that makes a compaction, -1

	// after reads record -> the record after which it is emitted (a
	// result line waiting for its calls).
	after map[int32]int32
	// before reads record -> the call lines emitted just before it, and
	// held keeps those lines (read in the first pass, emitted out of turn).
	before map[int32][]int32
	held   map[int32]kit.Line
}

func newCallOrder() callOrder {
	return callOrder{after: map[int32]int32{}, before: map[int32][]int32{}, held: map[int32]kit.Line{}}
}

func (o *callOrder) startFile() {
	o.called, o.early, o.lastComp = map[string]bool{}, map[string]int32{}, -1
}

func (o *callOrder) compaction(rec int32) { o.lastComp = rec }

// result notes a tool_result naming call id in record rec.
func (o *callOrder) result(id string, rec int32) {
	if id == "" || o.called[id] {
		return
	}
	if _, ok := o.early[id]; !ok {
		o.early[id] = rec
	}
}

// call notes a tool_use with id in record rec, read from line l.
func (o *callOrder) call(id string, rec int32, l kit.Line) {
	if id == "" {
		return
	}
	o.called[id] = true
	r, ok := o.early[id]
	if !ok {
		return
	}
	delete(o.early, id)
	if o.lastComp > r {
		if _, ok := o.held[rec]; !ok {
			held := l
			held.B = bytes.Clone(l.B)
			o.held[rec] = held
			o.before[r] = append(o.before[r], rec)
		}
		return
	}
	if rec > o.after[r] {
		o.after[r] = rec
	}
}

// settle drops the moves that would emit a line the second pass does not
// emit as conversation (a duplicate, a sidechain, a rewound branch), once
// the first pass has decided what each record is.
func (o *callOrder) settle(imp *importer) {
	live := func(i int32) bool {
		return imp.recs[i].act == aEmit && imp.main(int(i))
	}
	for r, c := range o.after {
		if !live(r) || !live(c) {
			delete(o.after, r)
		}
	}
	for r, cs := range o.before {
		keep := cs[:0]
		for _, c := range cs {
			if live(r) && live(c) {
				keep = append(keep, c)
			} else {
				delete(o.held, c)
			}
		}
		if len(keep) == 0 {
			delete(o.before, r)
		} else {
			o.before[r] = keep
		}
	}
	o.called, o.early = nil, nil
}

// moved reports whether record i was emitted ahead of its place.
func (o *callOrder) moved(i int32) bool {
	_, ok := o.held[i]
	return ok
}
