package report

import (
	"fmt"

	"github.com/loupe-dev/loupe/verify"
)

// Tally is what the totals, the comparison of groups and the drop rates
// need of one verified run: counts, not the run. A report of runs verified
// here tallies its results (TallyOf); `loupe report` reads the tallies of
// runs verified elsewhere from their result lines (JSONLine), and both
// print them with the same code, so that merged shards give the same
// tables as one run over every file.
type Tally struct {
	Path    string `json:"-"`
	Runtime string `json:"-"`
	// Parent is the session file a sub-agent's file belongs to ("" for a
	// file of its own).
	Parent string `json:"-"`
	// Fields are the run's meta fields as text (what --group-by groups
	// on), without "skipped".
	Fields      map[string]string `json:"-"`
	Turns       int               `json:"-"`
	Compactions int               `json:"compactions"`
	Violations  int               `json:"violations"`
	// Findings counts the run-level findings per kind.
	Findings map[verify.FindingKind]int `json:"findings"`
	// Items and Lost count the items each compaction checked, and those
	// it did not verify (review items are checked, not lost), per kind.
	Items map[verify.Kind]int `json:"items"`
	Lost  map[verify.Kind]int `json:"lost"`
	// Losses are the compactions' loss ratios, unrounded: a median over
	// many files needs each of them.
	Losses []float64 `json:"losses"`
	// Source is what the text report prints beside the path.
	Source string `json:"-"`

	result *verify.Result // the run tallied, nil for a merged line
}

// TallyOf counts a run.
func TallyOf(r *verify.Result) Tally {
	t := Tally{Path: r.Path, Runtime: Runtime(r), Turns: r.Turns, Source: r.Source, result: r,
		Items: map[verify.Kind]int{}, Lost: map[verify.Kind]int{}, Losses: []float64{}, Findings: map[verify.FindingKind]int{}}
	for _, f := range r.Findings {
		t.Findings[f.Kind]++
	}
	if r.Transcript != nil {
		t.Fields = map[string]string{}
		for k, v := range metaFields(r.Transcript.Meta) {
			if s, ok := v.(string); ok && k != "skipped" {
				t.Fields[k] = s
			}
		}
	}
	for _, c := range r.Compactions {
		t.Compactions++
		if c.Verdict == verify.Violate {
			t.Violations++
		}
		t.Losses = append(t.Losses, c.LossRatio)
		for _, it := range c.ItemResults() {
			t.Items[it.Kind]++
			if it.Counts() { // review items are listed, not lost
				t.Lost[it.Kind]++
			}
		}
	}
	return t
}

// tallies counts every run.
func tallies(results []*verify.Result) []Tally {
	out := make([]Tally, len(results))
	for i, r := range results {
		out[i] = TallyOf(r)
	}
	return out
}

// Verdict is the run's verdict, as FileVerdict gives it.
func (t Tally) Verdict() string {
	switch {
	case t.Violations > 0:
		return string(verify.Violate)
	case t.Compactions == 0:
		return VerdictNone
	}
	return string(verify.Degrade)
}

// findings counts the run's findings.
func (t Tally) findings() int {
	n := 0
	for _, k := range t.Findings {
		n += k
	}
	return n
}

// field is the run's value of a meta field, "" when it has none.
func (t Tally) field(name string) string { return t.Fields[name] }

// talliesHaveItems reports whether some compaction of the runs checked an item:
// without one there is no drop rate to draw.
func talliesHaveItems(ts []Tally) bool {
	for _, t := range ts {
		for _, n := range t.Items {
			if n > 0 {
				return true
			}
		}
	}
	return false
}

// overallVerdict is the verdict of a report of these runs and unverified
// files (Report.OverallVerdict).
func overallVerdict(ts []Tally, unverified int) string {
	v := VerdictNone
	for _, t := range ts {
		switch t.Verdict() {
		case string(verify.Violate):
			return string(verify.Violate)
		case string(verify.Degrade):
			v = string(verify.Degrade)
		}
	}
	if unverified > 0 {
		return VerdictError
	}
	return v
}

// folded reports whether a run is left out of the list of runs in text and
// Markdown, counted under its session: a sub-agent's file with no
// compaction and no finding (most of a project's sub-agents) has nothing
// to show but its counts.
func folded(t Tally) bool {
	return t.Parent != "" && t.Compactions == 0 && t.findings() == 0
}

// foldedNote says how many sub-agents' files are counted but not listed
// (folded), "" when none is.
func foldedNote(ts []Tally, shows func(Tally) bool) string {
	n := 0
	for _, t := range ts {
		if folded(t) {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s with no compaction and no finding: counted under their sessions, not listed.", verify.Plural(n, "sub-agent file"))
}

// subagentSum counts a session's sub-agents.
type subagentSum struct{ files, compactions, violations, folded int }

// subagents sums the tallies of each session's sub-agents, by the
// session's path.
func subagents(ts []Tally) map[string]*subagentSum {
	out := map[string]*subagentSum{}
	for _, t := range ts {
		if t.Parent == "" {
			continue
		}
		s := out[t.Parent]
		if s == nil {
			s = &subagentSum{}
			out[t.Parent] = s
		}
		s.files++
		s.compactions += t.Compactions
		s.violations += t.Violations
		if folded(t) {
			s.folded++
		}
	}
	return out
}

// line is the line under a session's header that counts its sub-agents.
func (s *subagentSum) line() string {
	line := fmt.Sprintf("sub-agents: %s · %s · %d violate", verify.Plural(s.files, "file"), verify.Plural(s.compactions, "compaction"), s.violations)
	if s.folded > 0 {
		line += fmt.Sprintf(" (%d with no compaction and no finding, not listed)", s.folded)
	}
	return line
}
