package report

import (
	"fmt"

	"github.com/loupe-dev/loupe/verify"
)

// verdictBadge is a file's or a report's verdict as the reports show it.
func verdictBadge(v string) string {
	switch v {
	case string(verify.Violate):
		return "✗ violate"
	case string(verify.Degrade):
		return "✓ degrade"
	case VerdictError:
		return "✗ not verified"
	}
	return "— none"
}

// falseCompletions counts a run's false completions.
func falseCompletions(r *verify.Result) int {
	n := 0
	for _, f := range r.Findings {
		if f.Kind == verify.FalseCompletion {
			n++
		}
	}
	return n
}

// markdownSummary writes the top of a report of several files: the
// overall verdict and counts (every file verified, whatever -q leaves
// out), then one row per file the report shows and per file it could not
// verify.
func markdownSummary(p *printer, rep *Report) {
	comps, viol := 0, 0
	for _, r := range rep.Results {
		comps += len(r.Compactions)
		viol += r.Violations()
	}
	p.line("# loupe report")
	p.line("")
	not := ""
	if len(rep.Unverified) > 0 {
		not = fmt.Sprintf(" · %d not verified", len(rep.Unverified))
	}
	p.line("**%s** · %s · %s · %d violate%s", verdictBadge(rep.OverallVerdict()), verify.Plural(len(rep.Results), "file"), verify.Plural(comps, "compaction"), viol, not)
	p.line("")
	p.line("| file | runtime | compactions | violate | false completions | verdict |")
	p.line("|---|---|---:|---:|---:|---|")
	for _, r := range rep.Results {
		if !rep.shows(r) {
			continue
		}
		p.line("| %s | %s | %d | %d | %d | %s |", md(r.Path), md(Runtime(r)), len(r.Compactions), r.Violations(), falseCompletions(r), verdictBadge(FileVerdict(r)))
	}
	for _, u := range rep.Unverified {
		p.line("| %s | — | — | — | — | %s |", md(u.Path), verdictBadge(VerdictError))
	}
}
