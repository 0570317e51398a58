package verify

import (
	"sort"

	"github.com/loupe-dev/loupe/model"
)

// Options tune a verification.
type Options struct {
	// Consumers replaces or adds consumers by name (the command line's
	// --consumer); they override the transcript's meta and the defaults.
	Consumers []model.Consumer
	// Strict counts inferred items like the others (the command line's
	// --strict): a lost one violates instead of being listed for review.
	Strict bool
	// Decide is the weakest basis whose lost items decide the verdict (the
	// command line's --decide): Stated by default, as DESIGN.md says;
	// Recorded for a reader who wants only what the runtime recorded to
	// violate (on real runs nobody tuned loupe on, stated items were most
	// of the false alarms); Inferred is Strict. Weaker items are review.
	Decide Basis
	// Packer, when set, packs each compaction's item results as it is
	// checked, and the lineage's steps (CompactionResult.PackItems,
	// Lineage.StepList): for a caller that holds a long run's result until
	// it writes a report that reads them back, as the JSON writers do.
	Packer *Packer
	// lossUnknown: the source lacks earlier compactions the run had
	// (Check of a later compaction from raw events alone), so whether one
	// lost a plan step cannot be told; a step that vanishes from the plan
	// then stays open (fail closed).
	lossUnknown bool
}

// Run verifies every compaction of t: one pass over the events keeps what is
// open; at each compaction the open items are matched against its summary.
// It is the stream (stream.go) fed with t's events.
func Run(t *model.Transcript, opt Options) *Result {
	s := NewStream(t, opt, nil)
	for _, e := range t.Events {
		s.Push(e)
	}
	return s.Finish()
}

// Unverified is the result of a transcript that is read but not yet
// verified (Pending): the inspector shows the transcript with it while Run
// works, then replaces it with Run's result.
func Unverified(t *model.Transcript) *Result {
	return &Result{Path: t.Path, Format: model.Format, Source: t.Meta.Source, Turns: t.Turns(), Transcript: t, Pending: true}
}

// lineage collects, for every item checked by at least one compaction, its
// status in each summary from its origin until it closed.
func (l *ledger) lineage() {
	add := func(tr tracked) {
		e := tr.base()
		if len(e.steps) == 0 {
			return
		}
		lg := &Lineage{Item: e.item, FirstLoss: e.firstLoss}
		if l.opt.Packer != nil {
			lg.runs, lg.comps = e.steps, l.res.Compactions
		} else {
			lg.Steps = expandSteps(e.steps, l.res.Compactions)
		}
		l.res.Lineage = append(l.res.Lineage, lg)
	}
	for _, tr := range l.items() {
		add(tr)
	}
	var ids []*named
	for _, n := range l.identifiers.idents {
		ids = append(ids, n)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].item.ID < ids[j].item.ID })
	for _, n := range ids {
		add(n)
	}
	sort.SliceStable(l.res.Lineage, func(i, j int) bool { return l.res.Lineage[i].Turn < l.res.Lineage[j].Turn })
}
