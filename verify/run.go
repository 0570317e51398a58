package verify

import "github.com/loupe-dev/loupe/model"

// Options tune a verification.
type Options struct {
	// Consumers replaces or adds consumers by name (the command line's
	// --consumer); they override the transcript's meta and the defaults.
	Consumers []model.Consumer
}

// Run verifies every compaction of t. (Work in progress: items are not yet
// extracted.)
func Run(t *model.Transcript, opt Options) *Result {
	r := &Result{Path: t.Path, Format: model.Format, Source: t.Meta.Source, Turns: t.Turns(), Transcript: t}
	for _, c := range t.Compactions {
		r.Compactions = append(r.Compactions, &CompactionResult{
			Seq: c.Seq, Turn: c.Turn, Event: c.Index, Trigger: c.Trigger, Verdict: Degrade,
			SummaryBytes: len(c.Summary), Attested: c.SelfReport != nil,
		})
	}
	return r
}
