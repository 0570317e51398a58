package verify

// The sweep: one pass over a transcript's events that keeps what is open at
// every point and, at each compaction, checks the summary against it. Each
// item kind has its own tracker, in its own file, owning how its items open,
// what closes them and how a summary is matched against them:
//
//	commitments.go, commitments_work.go, commitments_match.go   commitments and plan steps
//	constraints.go                                               the user's standing rules
//	handles.go                                                   pending tool calls and jobs
//	errors.go                                                    unresolved failures
//	identifiers.go                                               ids the open items depend on

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// entry is what the sweep keeps of an item, whatever its kind.
type entry struct {
	item    *Item
	aliases []string     // other ids the source gives it: plan ids, commitment ids
	idents  []lang.Ident // the identifiers it names (see identifiers.go)
	// lineage: the item's steps, as runs of consecutive compactions that
	// gave it the same status (an item open through hundreds of them is
	// one run, not hundreds of steps)
	steps     []stepRun
	firstLoss int
	lastSeen  int // seq of the last compaction the item was checked in
	// openSeq orders the item's first entry in the open list (listed while
	// it has one): indexes hand their candidates back in that order.
	openSeq int
	listed  bool
	// born is the item's place in the order items were made (ledger.all).
	born int
	// originRef is the runtime's ref of the event the item comes from
	// (item.Event): a compaction that keeps that event verbatim keeps the
	// item (keptItem). The sweep keeps it here so that it need not look
	// back at the event.
	originRef string
}

func (e *entry) base() *entry { return e }

// tracked is an item as its kind's tracker keeps it: a *promise
// (commitments.go), *rule (constraints.go), *pending (handles.go), *failure
// (errors.go) or *named (identifiers.go).
type tracked interface {
	base() *entry
	// match sets the status of the open item in a summary.
	match(l *ledger, d *doc, ir *ItemResult)
	// ref is the call or job id (or, for an identifier, the identifier)
	// the item is known by, "" for none: a runtime that keeps an event
	// verbatim names it, and so may a self-report.
	ref() string
	// weighs reports whether term is a weighted word of what the item says.
	weighs(term string) bool
}

// ledger sweeps a transcript once, keeping what is open at every point. It
// sees each event once, in order (stream.go), and never looks back at an
// earlier one: what a later compaction needs of the past it keeps itself.
type ledger struct {
	opt Options
	res *Result
	// all holds every item in the order it was made (identifiers are
	// derived, and kept by their tracker); open the ones that may still be
	// open, in the order they (re)opened: the order of a preservation set.
	all  []tracked
	open []tracked
	// born counts the items made; allUnsorted is set when a demoted handle
	// was rebuilt at the end of all, demotedLow is the least born of a
	// demoted handle still in all (-1 for none): see handles_answered.go.
	born        int
	allUnsorted bool
	demotedLow  int
	// openKind holds the open list of each tracker's kind (see kindSlot),
	// the same entries in the same order: a tracker walks its own items,
	// not every open one.
	openKind [kindSlots][]tracked
	openSeq  int
	byItem   map[*Item]tracked
	calls    map[int]*callInfo // calls awaiting their result, by event index
	// callAt pairs results with calls: the index of the latest call of
	// each id whose result has not come (model.Pairing, kept as it goes).
	callAt map[string]int
	// cur is the event in hand: an item made now comes from it
	// (originRef).
	cur model.Event
	// source gives back an event the sweep has passed (an answered call a
	// summary names, handles_answered.go), when the transcript keeps its
	// events or can read them again; nil when it can do neither.
	source *model.Transcript
	// spanBytes is the size of the source events since the last
	// compaction event: with the previous summary, what the next
	// compactor read (measure).
	spanBytes int

	// the trackers, one per item kind
	commitments commitmentTracker
	constraints constraintTracker
	handles     handleTracker
	errors      errorTracker
	identifiers identifierTracker

	// the summary in force, for late results
	inForce     *doc
	inForceComp *model.Compaction
	prevSummary string
	consumers   []model.Consumer
	requires    [][]Kind // each consumer's kinds, shared by the results (gate)
	// pre is what was computed ahead for the event in hand (prefetch.go).
	pre *pre
	// stretch counts the user's messages: the agent's work between two of
	// them is one stretch, however a runtime numbers its turns (Claude Code
	// a turn per response, Codex a turn per response, loupe JSONL as
	// written). A look the agent announced is kept by a read later in the
	// same stretch ("I'll start by exploring the codebase", then the reads).
	stretch int
	// workBranch is the branch the agent last made to work on (git checkout
	// -b, switch -c, worktree add), until it checks out another: the work
	// it promises from then on depends on that name.
	workBranch lang.Ident
	// workBranchAt is the event index of the result that made workBranch;
	// workTree: it was made with a worktree of its own (git worktree add),
	// so the work lives in another directory.
	workBranchAt int
	workTree     bool
}

func newLedger(t *model.Transcript, opt Options) *ledger {
	l := &ledger{
		opt:        opt,
		res:        &Result{Path: t.Path, Format: model.Format, Source: t.Meta.Source, Transcript: t},
		byItem:     map[*Item]tracked{},
		calls:      map[int]*callInfo{},
		callAt:     map[string]int{},
		demotedLow: -1,
	}
	if t.GivesEventsBack() {
		l.source = t
	}
	l.commitments.init(l)
	l.constraints.l = l
	l.handles.init(l)
	l.errors.init(l)
	l.identifiers.init(l)
	return l
}

// opened registers a new item as open. Its tracker made tr around it.
func (l *ledger) opened(tr tracked) {
	it := tr.base().item
	it.Open = true
	it.ClosedEvent = -1
	tr.base().born = l.born
	l.born++
	if l.cur != nil && it.Event == l.cur.Header().Index {
		tr.base().originRef = l.cur.Header().Ref
	}
	l.all = append(l.all, tr)
	l.list(tr)
	l.byItem[it] = tr
}

// list appends an item to the open list and its kind's.
func (l *ledger) list(tr tracked) {
	if e := tr.base(); !e.listed {
		l.openSeq++
		e.openSeq, e.listed = l.openSeq, true
	}
	if p, ok := tr.(*promise); ok {
		l.commitments.idx.add(p)
	}
	l.open = append(l.open, tr)
	if k := kindSlot(tr); k >= 0 {
		l.openKind[k] = append(l.openKind[k], tr)
	}
}

// The trackers' slots in ledger.openKind.
const (
	slotPromise = iota
	slotRule
	slotPending
	slotFailure
	kindSlots
)

func kindSlot(tr tracked) int {
	switch tr.(type) {
	case *promise:
		return slotPromise
	case *rule:
		return slotRule
	case *pending:
		return slotPending
	case *failure:
		return slotFailure
	}
	return -1
}

// close marks an open item closed by event e, and lets its tracker index it
// for the resurrection check.
func (l *ledger) close(tr tracked, e model.Event, why string) {
	it := tr.base().item
	if !it.Open {
		return
	}
	it.Open = false
	it.ClosedTurn = e.Header().Turn
	it.ClosedEvent = e.Header().Index
	it.ClosedBy = why
	switch x := tr.(type) {
	case *promise:
		l.commitments.indexClosed(x)
		l.commitments.idx.noteClosed(len(l.openKind[slotPromise]))
		l.commitments.idx.cool(x)
	case *pending:
		l.handles.indexClosed(x)
	case *failure:
		l.errors.indexClosed(x)
	}
}

// reopen puts a closed item back among the open ones.
func (l *ledger) reopen(tr tracked) {
	it := tr.base().item
	it.Open = true
	it.ClosedBy = ""
	l.list(tr)
}

// openOf yields the items of one kind in the open list, in order. The list
// may hold items closed since it was last pruned: callers check Open.
func openOf[T tracked](l *ledger) iter.Seq[T] {
	var zero T
	k := kindSlot(zero)
	return func(yield func(T) bool) {
		for _, tr := range l.openKind[k] {
			if !yield(tr.(T)) {
				return
			}
		}
	}
}

// pruneOpen drops closed items from the open lists.
func (l *ledger) pruneOpen() {
	l.dropDemoted()
	l.open = pruned(l.open)
	for k := range l.openKind {
		l.openKind[k] = pruned(l.openKind[k])
	}
}

func pruned(trs []tracked) []tracked {
	out := trs[:0]
	for _, tr := range trs {
		if tr.base().item.Open {
			out = append(out, tr)
		} else {
			tr.base().listed = false
		}
	}
	clear(trs[len(out):])
	return out
}

// step applies one event. A panic here is loupe's own bug: it is reported
// as a warning on the event's line and the sweep goes on, so one odd event
// cannot hide the rest of the run; a compaction it hits fails closed.
func (l *ledger) step(i int, e model.Event) {
	defer func() {
		if p := recover(); p != nil {
			msg := fmt.Sprintf("internal error while reading this event (please report it): %v", p)
			l.res.Warnings = append(l.res.Warnings, Warning{Line: e.Header().Line, Msg: msg})
			if c, ok := e.(*model.Compaction); ok {
				l.res.Compactions = append(l.res.Compactions, l.failedCheck(c, msg))
			}
		}
	}()
	{
		switch ev := e.(type) {
		case *model.Message:
			switch ev.Role {
			case model.RoleUser:
				l.stretch++
				l.constraints.userMessage(ev)
				l.errors.userChangedCourse(ev)
				l.errors.turnEnded(ev)
				l.errors.userMovedOn()
				l.commitments.answered(ev)
				l.commitments.turnEnded()
			case model.RoleAssistant:
				l.commitments.assistantMessage(ev)
				l.errors.agentMovedOn(ev)
			}
		case *model.Plan:
			for _, step := range l.commitments.plan(ev) {
				l.errors.closeNamedBy(step, ev)
			}
		case *model.CommitmentEvent:
			l.commitments.logged(ev)
		case *model.ToolCall:
			ci := l.callOf(ev)
			l.calls[i] = ci
			l.callAt[ev.ID] = i
			l.shasOf(ci.command)
			l.handles.call(ev, ci)
			l.commitments.call(i, ev, ci)
			l.errors.called()
		case *model.ToolResult:
			l.toolResult(i, ev)
		case *model.Compaction:
			l.commitments.closeActedOn(ev, "acted on (work followed before the compaction at turn %d)")
			l.pruneOpen()
			l.res.Compactions = append(l.res.Compactions, l.evaluate(ev))
		}
	}
}

// branchOf follows the branch the agent works on: one it creates becomes
// the work branch, a checkout of another ends it.
func (l *ledger) branchOf(i int, ci *callInfo) {
	for _, c := range ci.cmds {
		if b := c.NewBranch(); b != "" {
			l.workBranch = lang.Ident{Value: b, Class: lang.ClassBranch}
			l.workBranchAt, l.workTree = i, c.Sub() == "worktree"
		} else if l.workBranch.Value != "" && leavesBranch(c, l.workBranch.Value) {
			l.workBranch = lang.Ident{}
		}
	}
}

// leavesBranch reports whether a git command moves off branch: "git switch
// main", "git checkout main", "git checkout -". Restoring a file ("git
// checkout src/app.go", "git checkout -- .") stays on it.
func leavesBranch(c lang.Command, branch string) bool {
	if c.Program != "git" || slices.Contains(c.Args, "--") {
		return false
	}
	sub := c.Sub()
	if sub != "checkout" && sub != "switch" {
		return false
	}
	var to []string
	for _, a := range c.Args[slices.Index(c.Args, sub)+1:] {
		if a == "-" || !strings.HasPrefix(a, "-") {
			to = append(to, a)
		}
	}
	if len(to) != 1 || to[0] == branch {
		return false
	}
	return sub == "switch" || to[0] == "-" || !strings.ContainsAny(to[0], ".") && !strings.Contains(to[0], "/") || strings.HasPrefix(to[0], "origin/")
}

// failedCheck is the result of a compaction whose check hit an internal
// error: it could not be verified, so it violates for every consumer.
func (l *ledger) failedCheck(c *model.Compaction, why string) *CompactionResult {
	cr := &CompactionResult{Seq: c.Seq, Turn: c.Turn, Event: c.Index, Trigger: c.Trigger, Verdict: Violate, Unverifiable: true,
		Attested: c.SelfReport != nil, Reasons: []string{"could not be verified: " + why}}
	for _, k := range l.consumers {
		cr.Consumers = append(cr.Consumers, ConsumerResult{Name: k.Name, Requires: kindsOf(k.Requires), Why: []string{"the summary could not be verified"}})
	}
	return cr
}

func kindsOf(ks []string) []Kind {
	out := make([]Kind, len(ks))
	for i, k := range ks {
		out[i] = Kind(k)
	}
	return out
}

// toolResult closes the call's handle, opens or resolves errors, confirms the
// commitments the call carried out, and follows the job it reports on.
func (l *ledger) toolResult(i int, r *model.ToolResult) {
	ci, ok := l.callAt[r.ID]
	if ok {
		delete(l.callAt, r.ID)
	} else {
		ci = -1
	}
	l.handles.result(r)
	l.shasOf(r.Text.Head())
	info := l.calls[ci]
	delete(l.calls, ci) // a call has one result; keep memory bounded by what is in flight
	if info != nil {
		if failed(r, info) {
			if info.category != toolRead && !rejected(r) && !settled(r.Text.Head()) && !navigationSlip(r.Text.Head()) && !stopGone(r, info) {
				l.errors.failed(r, info)
			}
		} else {
			l.branchOf(i, info)
			l.errors.succeeded(r, info)
			l.commitments.succeeded(ci, r, info)
		}
	}
	l.handles.job(r, info)
}
