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
// The package imports only model and the standard library; an agent runtime
// can use it as a gate before it hands a summary to a consumer.
package verify
