package report

import (
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/verify"
)

// ReportVersion is the JSON report's schema version. 2 added version,
// verdict and runtime, and made meta.skipped an object (it was the
// string "progress=3 snapshot=1"). 3 writes an item in full once and then
// by reference while a summary retains it unchanged (json_refs.go), adds
// items[].ref and makes a lineage step a run of compactions (through).
const ReportVersion = 3

// The verdicts a file or a whole report gets besides a compaction's
// degrade and violate.
const (
	// VerdictNone is a run with no compaction: nothing to verify.
	VerdictNone = "none"
	// VerdictError is a report where some file could not be verified and
	// none violates.
	VerdictError = "error"
)

// FileVerdict is a run's verdict: violate when any compaction violates,
// degrade when it has compactions and none does, none when it has no
// compaction.
func FileVerdict(r *verify.Result) string {
	switch {
	case r.Violations() > 0:
		return string(verify.Violate)
	case len(r.Compactions) == 0:
		return VerdictNone
	}
	return string(verify.Degrade)
}

// OverallVerdict is the report's verdict: violate when any run violates
// (a file that could not be verified does not hide one that was); else
// error when a file could not be verified; else degrade when some run had
// a compaction; else none. It covers every run, whatever OnlyViolations
// leaves out.
func (rep *Report) OverallVerdict() string {
	v := VerdictNone
	for _, r := range rep.Results {
		switch FileVerdict(r) {
		case string(verify.Violate):
			return string(verify.Violate)
		case string(verify.Degrade):
			v = string(verify.Degrade)
		}
	}
	if len(rep.Unverified) > 0 {
		return VerdictError
	}
	return v
}

// Runtime names what a run's file came from: the format it was read as
// (claude-code, codex, gemini-cli…, or "loupe" for loupe's own format). A
// transcript opened without formats.Open (model.Open, a test) is loupe's.
func Runtime(r *verify.Result) string {
	if r.Transcript != nil && r.Transcript.Runtime != "" {
		return r.Transcript.Runtime
	}
	return nativeRuntime
}

// nativeRuntime is the runtime of a file in loupe's own format (the name
// model/formats gives it).
const nativeRuntime = "loupe"

// skippedCounts reads the importers' packed "type=n type=n" meta field
// into counts per record type; a part that is not type=n counts as 1 of
// itself, so nothing is lost.
func skippedCounts(s string) map[string]int {
	out := map[string]int{}
	for _, part := range strings.Fields(s) {
		k, v, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil {
			out[part]++
			continue
		}
		out[k] += n
	}
	return out
}
