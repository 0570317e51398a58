package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// DefaultConsumers are the consumers every transcript has unless its meta or
// the caller overrides them (DESIGN.md).
var DefaultConsumers = []model.Consumer{
	{Name: "planner", Requires: []string{string(Commitment), string(Constraint)}},
	{Name: "router", Requires: []string{string(Handle)}},
	{Name: "verifier", Requires: []string{string(Handle), string(Error)}},
}

// consumersFor merges the defaults, the transcript's meta and the options:
// a later definition of a name replaces an earlier one.
func consumersFor(t *model.Transcript, opt Options) []model.Consumer {
	out := slices.Clone(DefaultConsumers)
	put := func(c model.Consumer) {
		for i := range out {
			if out[i].Name == c.Name {
				out[i] = c
				return
			}
		}
		out = append(out, c)
	}
	for _, c := range t.Meta.Consumers {
		put(c)
	}
	for _, c := range opt.Consumers {
		put(c)
	}
	return out
}

// ParseConsumer parses NAME=KIND,KIND as the command line's --consumer takes it.
func ParseConsumer(s string) (model.Consumer, error) {
	name, kinds, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return model.Consumer{}, fmt.Errorf("consumer %q: want NAME=KIND,KIND (kinds: %s)", s, kindList())
	}
	c := model.Consumer{Name: name}
	for _, k := range strings.Split(kinds, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(Kinds, Kind(k)) {
			return model.Consumer{}, fmt.Errorf("consumer %s: unknown item kind %q (kinds: %s)", name, k, kindList())
		}
		c.Requires = append(c.Requires, k)
	}
	return c, nil
}

func kindList() string {
	var s []string
	for _, k := range Kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// gate decides, per consumer, whether it may have the summary: only when
// every item of every kind it requires is verified.
func (l *ledger) gate(cr *CompactionResult) {
	if l.requires == nil {
		// Every compaction's results share each consumer's kinds: a run
		// that compacts every few events kept a list of them per consumer
		// per compaction.
		l.requires = make([][]Kind, len(l.consumers))
		for i, c := range l.consumers {
			if len(c.Requires) > 0 {
				l.requires[i] = kindsOf(c.Requires)
			}
		}
	}
	cr.Consumers = slices.Grow(cr.Consumers, len(l.consumers))
	for i, c := range l.consumers {
		res := ConsumerResult{Name: c.Name, Allowed: true, Requires: l.requires[i]}
		if cr.Unverifiable && len(c.Requires) > 0 {
			res.Allowed = false
			res.Why = append(res.Why, "the summary cannot be verified")
		}
		for _, ir := range cr.Items {
			if !slices.Contains(res.Requires, ir.Kind) || ir.Status.Verified() || ir.Review && (!c.Strict || ir.CrossLanguage) {
				continue
			}
			res.Allowed = false
			res.Why = append(res.Why, fmt.Sprintf("%s %s: %s", ir.Kind, ir.Status, ir.Item.Label()))
		}
		cr.Consumers = append(cr.Consumers, res)
	}
}

// verdict: degrade only when every item is verified, no claim is false and no
// consumer is refused; otherwise violate, with every reason.
func (l *ledger) verdict(cr *CompactionResult) {
	var reasons []string
	// A compaction's reasons name each source sentence once: two rules or
	// promises read from one sentence are one reason (DESIGN.md rulings).
	bySource := map[string]int{}
	more := map[int]int{}
	for _, ir := range cr.Items {
		if !ir.Counts() {
			continue
		}
		src := ir.Item.Evidence
		if src == "" {
			src = ir.Item.Label()
		}
		key := fmt.Sprintf("%d\x00%s", ir.Event, src)
		if i, ok := bySource[key]; ok {
			more[i]++
			continue
		}
		bySource[key] = len(reasons)
		reasons = append(reasons, fmt.Sprintf("%s %s: %s (turn %d)", ir.Kind, statusWords(ir.Status), ir.Item.Label(), ir.Turn))
	}
	for i, n := range more {
		reasons[i] += fmt.Sprintf(" (and %d more item(s) from the same sentence)", n)
	}
	// Sanity reasons came first; self-report reasons were added by reconcile.
	cr.Reasons = append(reasons, cr.Reasons...)
	for _, c := range cr.Consumers {
		if !c.Allowed {
			cr.Reasons = append(cr.Reasons, fmt.Sprintf("consumer %s refused: it requires %s", c.Name, JoinKinds(c.Requires)))
		}
	}
	cr.Verdict = Degrade
	if len(cr.Reasons) > 0 {
		cr.Verdict = Violate
	}
}

// JoinKinds lists kinds for a reason or a report: "commitment, constraint".
func JoinKinds(ks []Kind) string {
	var s []string
	for _, k := range ks {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}
