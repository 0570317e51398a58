package verify

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// Check verifies one compaction against its source, for an agent runtime
// that wants to gate a summary before it hands it to a consumer. source is
// the persisted raw events before the compaction, in order (earlier
// compaction events may be among them; they are not source, but their
// summaries are what the compactor read). The events are not modified.
//
// The preservation set is derived from source alone: the caller does not
// (and cannot) hand it in, and the compactor's self-report is only compared
// with it.
func Check(source []model.Event, c *model.Compaction, opt Options) *CompactionResult {
	events := make([]model.Event, 0, len(source)+1)
	t := &model.Transcript{Path: "(runtime)"}
	for _, e := range source {
		events = append(events, cloneEvent(e, len(events)))
	}
	events = append(events, cloneEvent(c, len(events)))
	t.Events = events
	for _, e := range events {
		if cc, ok := e.(*model.Compaction); ok {
			t.Compactions = append(t.Compactions, cc)
		}
	}
	// A later compaction checked from the raw events alone: the earlier
	// ones, and what they lost, are not in the source.
	opt.lossUnknown = c.Seq > len(t.Compactions)
	res := Run(t, opt)
	return res.Compactions[len(res.Compactions)-1]
}

// cloneEvent copies an event with its index set to i, so that Check can
// number events without touching the caller's.
func cloneEvent(e model.Event, i int) model.Event {
	var out model.Event
	switch ev := e.(type) {
	case *model.Message:
		out = clone(ev)
	case *model.ToolCall:
		out = clone(ev)
	case *model.ToolResult:
		out = clone(ev)
	case *model.Plan:
		out = clone(ev)
	case *model.CommitmentEvent:
		out = clone(ev)
	case *model.Compaction:
		out = clone(ev)
	case *model.Raw:
		out = clone(ev)
	default:
		panic(fmt.Sprintf("verify: unknown event type %T", e))
	}
	out.Header().Index = i
	return out
}

func clone[T any](p *T) *T {
	c := *p
	return &c
}

// InvariantViolation is the error Admit returns when a summary must not be
// consumed. It lists every reason, not only the first.
type InvariantViolation struct {
	// Seq is the compaction's seq.
	Seq int
	// Consumer is the consumer that asked.
	Consumer string
	// Reasons are every reason the compaction violates, then why this
	// consumer in particular is refused.
	Reasons []string
}

// Error summarizes the violation on one line per reason.
func (e *InvariantViolation) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "compaction %d must not be consumed by %s (%d reasons)", e.Seq, e.Consumer, len(e.Reasons))
	for _, r := range e.Reasons {
		b.WriteString("\n  - ")
		b.WriteString(r)
	}
	return b.String()
}

// Admit is the gate: it returns nil when consumer may have the summary, and
// an *InvariantViolation otherwise. A violating compaction is refused to
// every consumer (the runtime should rehydrate from source or halt); a
// consumer the check does not know is refused too, since nobody declared
// what it depends on.
func (r *CompactionResult) Admit(consumer string) error {
	var cons *ConsumerResult
	for i := range r.Consumers {
		if r.Consumers[i].Name == consumer {
			cons = &r.Consumers[i]
		}
	}
	if cons == nil {
		return &InvariantViolation{Seq: r.Seq, Consumer: consumer,
			Reasons: []string{fmt.Sprintf("consumer %q is not declared: declare the item kinds it requires", consumer)}}
	}
	if r.Verdict == Degrade && cons.Allowed {
		return nil
	}
	v := &InvariantViolation{Seq: r.Seq, Consumer: consumer, Reasons: append([]string(nil), r.Reasons...)}
	for _, why := range cons.Why {
		v.Reasons = append(v.Reasons, consumer+" requires what is not verified: "+why)
	}
	return v
}
