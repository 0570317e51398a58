package hook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The snapshot before a compaction. Reading and verifying a long session
// takes longer than a hook on the agent's path may (a 20 MB Claude Code
// session is over a second here), but the runtime waits on the summarizer
// anyway when it compacts. So the pre-compaction hook reads the transcript
// whole, finds the preservation set, and keeps a minimal source: the events
// the open items come from (the promise, the pending call, the failed
// result and its call, the user's rule, the plan steps as they stand) and
// the finished plan steps a summary might present as open. After the
// compaction, the summary is checked against that minimal source and the
// few lines the transcript gained, in milliseconds.
//
// The minimal source is only used when it reproduces the preservation set:
// the snapshot checks it, widening the context around an item the
// extraction needs more of, and otherwise records that the transcript must
// be read whole again after the compaction.

// snapshotSummary is the summary of the stand-in compaction that makes the
// verifier list the preservation set at the end of a transcript.
const snapshotSummary = "(loupe snapshot: no summary yet)"

// preservation is the preservation set at the end of a transcript.
type preservation struct {
	// cr is the check of a stand-in compaction at the end: its Items are
	// every item open there.
	cr *verify.CompactionResult
	// events are the source the check's Item.Event indexes.
	events []model.Event
}

// preserve finds the preservation set at the end of t. Earlier compactions
// are left out: they are not source, and checking them is wasted work.
func preserve(t *model.Transcript, decide verify.Basis) *preservation {
	src := source(t, len(t.Events))
	stand := &model.Compaction{Seq: len(t.Compactions) + 1, Trigger: "snapshot", Summary: snapshotSummary}
	stand.Turn = t.Turns() + 1
	opt := verify.Options{Consumers: t.Meta.Consumers, Decide: decide}
	return &preservation{cr: verify.Check(src, stand, opt), events: src}
}

// itemKey identifies an item across checks: its kind and key (its ID
// carries event numbers, which differ between the transcript and the
// minimal source).
func itemKey(it *verify.Item) string { return string(it.Kind) + "\x00" + it.Key }

// openKeys are the keys of the open items of a check.
func openKeys(cr *verify.CompactionResult) []string {
	var keys []string
	for i := range cr.Items {
		if it := cr.Items[i].Item; it.Open {
			keys = append(keys, itemKey(it))
		}
	}
	sort.Strings(keys)
	return slices.Compact(keys)
}

// planState is a plan step as the transcript leaves it.
type planState struct {
	id, text          string
	status            model.PlanStatus
	first, firstTurn  int // the event (index in the source) that first listed it
	closed, closeTurn int // the event that closed it (-1 while open)
}

// commitState is a logged commitment as the transcript leaves it.
type commitState struct {
	ev                *model.CommitmentEvent
	first, firstTurn  int
	closed, closeTurn int
}

func planStates(events []model.Event) (map[string]*planState, map[string]*commitState) {
	plans := map[string]*planState{}
	commits := map[string]*commitState{}
	for i, e := range events {
		switch ev := e.(type) {
		case *model.Plan:
			for _, pi := range ev.Items {
				ps := plans[pi.ID]
				if ps == nil {
					ps = &planState{id: pi.ID, first: i, firstTurn: ev.Turn, closed: -1}
					plans[pi.ID] = ps
				}
				if pi.Text != "" {
					ps.text = pi.Text
				}
				if pi.Status.Closed() && !ps.status.Closed() {
					ps.closed, ps.closeTurn = i, ev.Turn
				} else if !pi.Status.Closed() {
					ps.closed = -1
				}
				ps.status = pi.Status
			}
		case *model.CommitmentEvent:
			cs := commits[ev.ID]
			if cs == nil {
				cs = &commitState{first: i, firstTurn: ev.Turn, closed: -1}
				commits[ev.ID] = cs
			}
			cs.ev = ev
			if ev.Status == model.CommitmentDone && cs.closed < 0 {
				cs.closed, cs.closeTurn = i, ev.Turn
			} else if ev.Status != model.CommitmentDone {
				cs.closed = -1
			}
		}
	}
	return plans, commits
}

// minimal builds the minimal source of a preservation set: picked events in
// their order, each at its own turn.
type minimal struct {
	events  []model.Event
	picks   map[int][]model.Event // source index -> the events made from it
	taken   map[int]bool          // source indexes carried as they are
	plans   map[string]*planState
	commits map[string]*commitState
	closed  []string // keys of the finished steps carried, for resurrection
}

func newMinimal(events []model.Event) *minimal {
	m := &minimal{events: events, picks: map[int][]model.Event{}, taken: map[int]bool{}}
	m.plans, m.commits = planStates(events)
	return m
}

// take carries events[i] as it is (large texts cut to what the verifier
// reads of them: their head and tail).
func (m *minimal) take(i int) {
	if i < 0 || i >= len(m.events) || m.taken[i] {
		return
	}
	m.taken[i] = true
	m.picks[i] = append(m.picks[i], shrink(m.events[i]))
}

// takeCall carries the call a result answers (the last call with its id
// before i).
func (m *minimal) takeCall(i int, id string) {
	for j := min(i, len(m.events)-1); j >= 0; j-- {
		if c, ok := m.events[j].(*model.ToolCall); ok && c.ID == id {
			m.take(j)
			return
		}
	}
}

// planStep carries plan step id as the transcript leaves it: listed at its
// first turn, and closed at the turn that closed it.
func (m *minimal) planStep(id string) {
	ps := m.plans[id]
	if ps == nil {
		return
	}
	open := ps.status
	if ps.closed >= 0 {
		open = model.PlanPending
	}
	m.addPlan(ps.first, ps.firstTurn, model.PlanItem{ID: id, Text: ps.text, Status: open})
	if ps.closed >= 0 {
		m.addPlan(ps.closed, ps.closeTurn, model.PlanItem{ID: id, Text: ps.text, Status: ps.status})
	}
}

func (m *minimal) addPlan(at, turn int, pi model.PlanItem) {
	for _, e := range m.picks[at] {
		if p, ok := e.(*model.Plan); ok && p != m.events[at] {
			for _, have := range p.Items {
				if have.ID == pi.ID && have.Status == pi.Status {
					return
				}
			}
			p.Items = append(p.Items, pi)
			return
		}
	}
	p := &model.Plan{Items: []model.PlanItem{pi}}
	p.Base = *m.events[at].Header()
	m.picks[at] = append(m.picks[at], p)
}

func (m *minimal) commitment(id string) {
	cs := m.commits[id]
	if cs == nil {
		return
	}
	open := *cs.ev
	open.Base = *m.events[cs.first].Header()
	if cs.closed >= 0 {
		open.Status = model.CommitmentOpen
	}
	m.picks[cs.first] = append(m.picks[cs.first], &open)
	if cs.closed >= 0 {
		done := *cs.ev
		done.Base = *m.events[cs.closed].Header()
		m.picks[cs.closed] = append(m.picks[cs.closed], &done)
	}
}

// item carries what item it comes from.
func (m *minimal) item(it *verify.Item) {
	switch {
	case strings.HasPrefix(it.Origin, "plan "):
		m.planStep(strings.TrimPrefix(it.Origin, "plan "))
	case strings.HasPrefix(it.Origin, "commitment "):
		m.commitment(strings.TrimPrefix(it.Origin, "commitment "))
	case it.Kind == verify.Identifier && it.Origin == verify.WorkBranchOrigin:
		// The call that made the branch, and its result.
		m.take(it.Event)
		if r, ok := eventAt(m.events, it.Event).(*model.ToolResult); ok {
			m.takeCall(it.Event, r.ID)
		}
	case it.Kind == verify.Identifier:
		// Made from the open items that name it.
	default:
		m.take(it.Event)
	}
	for _, a := range it.Aliases {
		if id, ok := strings.CutPrefix(a, "plan "); ok {
			m.planStep(id)
		}
	}
	switch r := eventAt(m.events, it.Event).(type) {
	case *model.ToolResult:
		if it.Kind != verify.Identifier {
			m.takeCall(it.Event, r.ID)
		}
	}
}

// widen carries the events around an item whose extraction needs more
// context than its origin.
func (m *minimal) widen(it *verify.Item) {
	for i := max(0, it.Event-4); i < min(len(m.events), it.Event+40); i++ {
		m.take(i)
	}
}

// finished carries the closed plan steps and logged commitments, so that a
// summary presenting them as open is caught.
func (m *minimal) finished() {
	for id, ps := range m.plans {
		if ps.closed >= 0 && ps.status == model.PlanCompleted {
			m.planStep(id)
			m.closed = append(m.closed, string(verify.Commitment)+"\x00"+id)
		}
	}
	for id, cs := range m.commits {
		if cs.closed >= 0 {
			m.commitment(id)
			m.closed = append(m.closed, string(verify.Commitment)+"\x00"+id)
		}
	}
}

// build returns the picked events in source order.
func (m *minimal) build() []model.Event {
	idx := make([]int, 0, len(m.picks))
	for i := range m.picks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var out []model.Event
	for _, i := range idx {
		out = append(out, m.picks[i]...)
	}
	return out
}

func eventAt(events []model.Event, i int) model.Event {
	if i < 0 || i >= len(events) {
		return nil
	}
	return events[i]
}

// shrink copies e, keeping of a large text only the head and tail the
// verifier reads.
func shrink(e model.Event) model.Event {
	cut := func(t model.Text) model.Text {
		if t.Complete() {
			return t
		}
		return model.NewText(t.Head() + "\n[…]\n" + t.Tail())
	}
	switch ev := e.(type) {
	case *model.ToolResult:
		c := *ev
		c.Text = cut(c.Text)
		return &c
	case *model.ToolCall:
		c := *ev
		c.Input = cut(c.Input)
		return &c
	case *model.Message:
		c := *ev
		return &c
	}
	return e
}

// minimalSource builds and checks the minimal source of p. fast is false
// when even the widened minimal source does not give the same preservation
// set: the transcript is then read whole after the compaction.
func minimalSource(p *preservation, consumers []model.Consumer) (events []model.Event, closed []string, fast bool) {
	m := newMinimal(p.events)
	for i := range p.cr.Items {
		m.item(p.cr.Items[i].Item)
	}
	m.finished()
	want := openKeys(p.cr)
	for round := 0; round < 2; round++ {
		events = m.build()
		missing := missingKeys(want, events, p.cr.Seq, consumers)
		if len(missing) == 0 {
			return events, m.closed, true
		}
		for i := range p.cr.Items {
			if it := p.cr.Items[i].Item; slices.Contains(missing, itemKey(it)) {
				m.widen(it)
			}
		}
	}
	return events, m.closed, false
}

// missingKeys are the keys of want that a check of events does not find
// open.
func missingKeys(want []string, events []model.Event, seq int, consumers []model.Consumer) []string {
	stand := &model.Compaction{Seq: seq, Trigger: "snapshot", Summary: snapshotSummary}
	if n := len(events); n > 0 {
		stand.Turn = events[n-1].Header().Turn + 1
	}
	got := openKeys(verify.Check(events, stand, verify.Options{Consumers: consumers}))
	var missing []string
	for _, k := range want {
		if _, ok := slices.BinarySearch(got, k); !ok {
			missing = append(missing, k)
		}
	}
	return missing
}

// writeMinimal writes the minimal source as loupe JSONL, and returns its
// checksum for the state.
func writeMinimal(path string, meta model.Meta, events []model.Event) (string, error) {
	var b bytes.Buffer
	meta.Format = model.Format
	if err := model.Write(&b, &model.Transcript{Meta: meta, Events: events}); err != nil {
		return "", err
	}
	return checksum(b.Bytes()), writeAtomic(path, b.Bytes())
}

func checksum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readChecked reads a file the state names with its checksum: a file cut
// short or changed is errDamaged, never read as the snapshot.
func readChecked(path, sum string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	if sum == "" || checksum(b) != sum {
		return nil, fmt.Errorf("%w: %s does not match its checksum", errDamaged, path)
	}
	return b, nil
}

// readMinimal reads a minimal source back, checking it is the one written.
func readMinimal(path, sum string) ([]model.Event, error) {
	t, err := readMinimalTranscript(path, sum)
	if err != nil {
		return nil, err
	}
	return t.Events, nil
}

// readMinimalTranscript reads a minimal source back with its meta.
func readMinimalTranscript(path, sum string) (*model.Transcript, error) {
	b, err := readChecked(path, sum)
	if err != nil {
		return nil, err
	}
	t, err := model.Read(bytes.NewReader(b), model.ReadOptions{Name: path, LazyAbove: -1})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	if errs := t.Problems.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("%w: %v", errDamaged, errs[0])
	}
	return t, nil
}
