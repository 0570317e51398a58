// Package verify decides, for every compaction of a transcript, whether its
// summary kept what it had to keep.
//
// The preservation set is extracted from the source — the raw events before
// the compaction — and never from the summary or the compactor's self-report.
// Each item is matched against the summary (verbatim ids at token boundaries,
// action-focused matching for commitments and constraints, status polarity
// from cue words and known summary layouts), the self-report is reconciled,
// consumers are gated by the item kinds they require, and run-level findings
// (lineage, false completions, orphaned results) are derived.
//
// The package imports only model and its own language layer (verify/lang);
// an agent runtime can use it as a gate before it hands a summary to a
// consumer (Check, Admit). Reports are written by verify/report.
//
// Where each rule lives:
//
//	types.go                  Result, CompactionResult, ItemResult, Status: what a run's verification says
//	basis.go                  how sure the source is that an item is owed (recorded, stated, inferred) and the cue
//	basis_promise.go          the cues that make a promise inferred: narration, manner, a wait, a thing's event, a pronoun object
//	glyph.go                  Statuses and each one's glyph, shared by the inspector and the reports
//	pack.go                   a compaction's item results kept in a few bytes each until the report is written
//	stream.go                 Stream: events in one at a time, each compaction's result out once checked
//	run.go, sweep.go          Run (a loop over Stream); the one pass over the events, dispatching to a tracker per kind
//	prefetch.go               what each event alone determines, computed ahead on a second goroutine
//	commitments.go            when a commitment opens (prose, plan steps, logged events), restatements
//	commitments_index.go      open commitments indexed by head, verb and the words a call must name
//	commitments_work.go       commitment discharge: the call that carries it out, a plan step done while in progress
//	commitments_narration.go  narration and looks the agent's own next calls carry out (also in other languages)
//	commitments_claims.go     completion claims: closing what a call carried out, false completions
//	commitments_match.go      a commitment in a summary; flipped and resurrected commitments
//	commitments_closed.go     closed commitments by head and verb, candidates only where a summary names what sets one apart
//	constraints.go            the user's standing rules: opening, revocation, matching
//	constraints_pruned.go     a rule in a summary scored only on the units that can decide it (bounds)
//	crosslang.go              an item and a summary in different languages: matched through what they share
//	handles.go                handle pairing: pending calls and jobs, orphaned results, matching by id
//	handles_answered.go       calls answered before any compaction, kept as their place in the file (read again when named), not items
//	quote.go                  what an orphaned-result finding quotes of a result (a notice's readable part)
//	intent.go                 what a call was doing, in other words (intent-only matches)
//	errors.go                 when an error opens and closes (same call, workaround, plan step), matching
//	errors_resolve.go         what a successful call resolves: a covering command, git endings, paths, intent
//	errors_index.go           open errors indexed by what can resolve them
//	errors_behind.go          errors the run left behind (another command at the same goal, other work): inferred
//	errors_turns.go           errors the conversation leaves behind (the agent or the user moves on, a turn ends without them): inferred
//	identifiers.go            identifier extraction from open items, matching verbatim
//	evaluate.go               one compaction: sanity, loss ratio, the preservation set, kept events
//	resurrect.go              closed items a summary presents as open again
//	selfreport.go             the compactor's self-report against the source
//	gate.go                   consumers and the verdict (only recorded and stated items count, unless strict)
//	summary.go, match.go      a summary parsed into sections and units; ranking and containment
//	summary_lines.go          a summary line read once: the next summary reads only the lines that changed
//	match_pruned.go           matching that scores only the units that can decide it (postings, bounds)
//	lineagemap.go             every item × every compaction, as the inspector and the reports draw it
//	polarity.go               what a summary says of a matched item: pending, done, negated
//	ids.go                    identifiers in a summary, per class
//	calls.go                  a tool call parsed once: category, command, path, terms
//	api.go                    the library gate: Check, Admit, InvariantViolation
//	rehydrate.go              what to put back into an agent's context after a lossy compaction
//	frame.go                  the frame of every block put into an agent's context: excerpts quoted as inert data
//
// What a text says (tokens, stems, the lexicon, commitment and rule
// phrasing, action parsing, identifier scanning, error lines, commands) is
// in verify/lang, which knows nothing of items or verdicts.
package verify
