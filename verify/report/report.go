package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// Report is one `loupe verify` for the writers: the runs verified, the
// files that could not be verified, and how to present them. Every format
// writes the same Report, so that what a person reads in the text report a
// dashboard finds in the JSON or JUnit one.
type Report struct {
	// Results are the verified runs, in the order they were given.
	Results []*verify.Result
	// Unverified are the files that could not be verified (unreadable, not
	// a transcript loupe reads, lines that do not parse), with why: a
	// report that left them out would pass a run it never read.
	Unverified []Unverified
	// GroupBy, when set, adds the comparison of the runs grouped by this
	// meta field (a prompt variant). The comparison always covers every
	// run, whatever OnlyViolations leaves out.
	GroupBy string
	// OnlyViolations leaves out the compactions that degrade, and the runs
	// with neither a violation nor a finding. Counts in headers and totals
	// still cover everything verified.
	OnlyViolations bool
	// EvidenceAll writes every item's evidence at every compaction: in
	// JSON on every reference, in text with -v every item in full. By
	// default an item retained as before is a reference, its evidence
	// written only when it changed (json_refs.go).
	EvidenceAll bool
	// Parents maps the path of a sub-agent's file to the path of the
	// session file it belongs to, when both are in the report: the
	// sub-agent is reported under its session (Text, Markdown), and its
	// JSON entry names the session (files[].parent).
	Parents map[string]string
}

// tallies counts the runs, each sub-agent's under its session.
func (rep *Report) tallies() []Tally {
	ts := tallies(rep.Results)
	for i := range ts {
		ts[i].Parent = rep.Parents[ts[i].Path]
	}
	return ts
}

// Unverified is a file that could not be verified, and why.
type Unverified struct {
	Path  string
	Error string
}

// shows reports whether a run is in the report: with OnlyViolations, only
// when it has a violating compaction or a run-level finding.
func (rep *Report) shows(r *verify.Result) bool {
	return !rep.OnlyViolations || r.Violations() > 0 || len(r.Findings) > 0
}

// showsCompaction reports whether a compaction is in the report.
func (rep *Report) showsCompaction(c *verify.CompactionResult) bool {
	return !rep.OnlyViolations || c.Verdict == verify.Violate
}

// Write writes the report in one of the formats `loupe verify --format`
// takes: text, json, markdown, junit or html (text options apply to text only).
func (rep *Report) Write(w io.Writer, format string, text TextOptions) error {
	switch format {
	case "json":
		return rep.JSON(w)
	case "markdown":
		return rep.Markdown(w)
	case "junit":
		return rep.JUnit(w)
	case "html":
		return rep.HTML(w)
	}
	return rep.Text(w, text)
}

// ReviewNote is the line every format writes for a review item: lost, but
// only inferred, so listed and not counted, with the cue that made it
// inferred and the source that made it an item. The text is the
// transcript's: each format makes it safe for itself.
func ReviewNote(it *verify.ItemResult) string {
	s := fmt.Sprintf("review (not counted): %s %s: %s (turn %d) · cue: %s", it.Kind, it.Status, model.Clip(it.Item.Label(), 100), it.Turn, it.Cue)
	if ev := strings.TrimSpace(it.Item.Evidence); ev != "" && ev != it.Item.Label() {
		s += " · source: “" + model.Clip(ev, 160) + "”"
	}
	if it.Evidence != nil {
		s += " · in summary: “" + model.Clip(it.Evidence.Text, 120) + "”"
	}
	return s
}

// reviewCounts says how many review items a compaction has, per kind:
// "2 review (1 commitment, 1 error)", or "".
func reviewCounts(c *verify.CompactionResult) string {
	n, by := c.ReviewCount()
	if n == 0 {
		return ""
	}
	var parts []string
	for _, k := range verify.Kinds {
		if by[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", by[k], k))
		}
	}
	return fmt.Sprintf("%d review (%s)", n, strings.Join(parts, ", "))
}
