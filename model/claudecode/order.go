package claudecode

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/loupe-dev/loupe/model/formats/kit"
)

// Claude Code may write a tool_result line before the line of its tool_use
// (reported on real sessions, though none of the 13 in loupe's corpus does;
// the result's parentUuid then names the assistant line written after it).
// A result
// answers the call it names by tool_use_id, wherever the call was written,
// so the events are put back in the conversation's order, a call before its
// result: the line with the result waits until the line with the call has
// been emitted. When a compaction lies between them (the result was written
// before the boundary, its call after), the call's line moves up instead, to
// just before the result: the result was in the context the compactor read,
// so its call was too, and it is not in flight at that compaction.

// A call with no result line at all before a compaction had returned all the
// same: Claude Code compacts only once the calls of a response have returned
// (auto-compaction runs before the next request, /compact between turns),
// so such a call was not in flight. In real sessions (2.1.29 to 2.1.56) the
// result of the last call before an auto-compaction is sometimes never
// written — the boundary's logicalParentUuid names it, and the summary
// reports what it said — and read in file order the call looked pending. A
// result is made for it just before the compaction, saying that its text is
// not in the file (an error when a PostToolUseFailure hook ran for it).

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

	// unanswered reads call id -> its record, for calls no result names
	// (yet); failedHook holds the calls a PostToolUseFailure hook ran for.
	unanswered map[string]int32
	failedHook map[string]bool
	// lost reads boundary record -> the calls before it with no result
	// line anywhere, in the order they were made.
	lost map[int32][]string
}

func newCallOrder() callOrder {
	return callOrder{after: map[int32]int32{}, before: map[int32][]int32{}, held: map[int32]kit.Line{},
		unanswered: map[string]int32{}, failedHook: map[string]bool{}, lost: map[int32][]string{}}
}

func (o *callOrder) startFile() {
	o.called, o.early, o.lastComp = map[string]bool{}, map[string]int32{}, -1
}

func (o *callOrder) compaction(rec int32) { o.lastComp = rec }

// result notes a tool_result naming call id in record rec.
func (o *callOrder) result(id string, rec int32) {
	delete(o.unanswered, id)
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
		o.unanswered[id] = rec
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

// lastUnanswered returns the last record in [lo, hi) of the thread with a
// call no result answers, or -1.
func (o *callOrder) lastUnanswered(imp *importer, lo, hi int) int {
	last := -1
	for _, c := range o.unanswered {
		if i := int(c); i >= lo && i < hi && i > last && imp.main(i) {
			last = i
		}
	}
	return last
}

// hook notes a hook that ran after a call returned.
func (o *callOrder) hook(event, id string) {
	if event == "PostToolUseFailure" && id != "" {
		o.failedHook[id] = true
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
	// Calls no result ever named: their result is lost, before the first
	// full compaction after them.
	var full []int32
	for _, b := range imp.bnds {
		if !b.micro && !b.lone {
			full = append(full, int32(b.rec))
		}
	}
	type lostCall struct {
		id  string
		rec int32
	}
	var calls []lostCall
	for id, c := range o.unanswered {
		if live(c) {
			calls = append(calls, lostCall{id, c})
		}
	}
	slices.SortFunc(calls, func(a, b lostCall) int { return cmp.Compare(a.rec, b.rec) })
	for _, c := range calls {
		i, _ := slices.BinarySearch(full, c.rec)
		if i < len(full) && imp.recs[full[i]].file == imp.recs[c.rec].file {
			o.lost[full[i]] = append(o.lost[full[i]], c.id)
		}
	}
	o.called, o.early, o.unanswered = nil, nil, nil
}

// moved reports whether record i was emitted ahead of its place.
func (o *callOrder) moved(i int32) bool {
	_, ok := o.held[i]
	return ok
}
