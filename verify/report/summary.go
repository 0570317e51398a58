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
	summaryMarkdown(p, rep.tallies(), rep.Unverified, func(t Tally) bool { return rep.shows(t.result) && !folded(t) })
}

// summaryMarkdown writes markdownSummary from the runs' tallies; shows
// says which runs have a row. A sub-agent's row follows its session's,
// marked ↳.
func summaryMarkdown(p *printer, ts []Tally, un []Unverified, shows func(Tally) bool) {
	comps, viol, subs := 0, 0, 0
	for _, t := range ts {
		comps += t.Compactions
		viol += t.Violations
		if t.Parent != "" {
			subs++
		}
	}
	p.line("# loupe report")
	p.line("")
	not, sub := "", ""
	if len(un) > 0 {
		not = fmt.Sprintf(" · %d not verified", len(un))
	}
	if subs > 0 {
		sub = fmt.Sprintf(" (%s under their sessions)", verify.Plural(subs, "sub-agent"))
	}
	p.line("**%s** · %s%s · %s · %d violate%s", verdictBadge(overallVerdict(ts, len(un))), verify.Plural(len(ts), "file"), sub, verify.Plural(comps, "compaction"), viol, not)
	p.line("")
	p.line("| file | runtime | compactions | violate | false completions | verdict |")
	p.line("|---|---|---:|---:|---:|---|")
	for _, t := range ts {
		if !shows(t) {
			continue
		}
		name := md(t.Path)
		if t.Parent != "" {
			name = "↳ " + name
		}
		p.line("| %s | %s | %d | %d | %d | %s |", name, md(t.Runtime), t.Compactions, t.Violations, t.Findings[verify.FalseCompletion], verdictBadge(t.Verdict()))
	}
	for _, u := range un {
		p.line("| %s | — | — | — | — | %s |", md(u.Path), verdictBadge(VerdictError))
	}
	if folded := foldedNote(ts, shows); folded != "" {
		p.line("")
		p.line("%s", folded)
	}
}

// notVerifiedMarkdown lists the files that could not be verified.
func notVerifiedMarkdown(p *printer, un []Unverified) {
	p.line("")
	p.line("%s Not verified", p.h(1))
	p.line("")
	for _, u := range un {
		p.line("- %s: %s", mdCode(u.Path), md(u.Error))
	}
}
