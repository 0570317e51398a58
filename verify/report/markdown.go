package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// WriteMarkdown writes a postmortem-ready report: the timeline of
// compactions with verdicts, the findings, the lineage of every lost item,
// then each violating compaction in detail.
func WriteMarkdown(w io.Writer, results []*verify.Result) error {
	p := &printer{w: w}
	for i, r := range results {
		if i > 0 {
			p.line("\n---\n")
		}
		markdownFile(p, r)
	}
	return p.err
}

// md makes transcript text safe inside a Markdown table cell or line.
func md(s string) string {
	s = model.Sanitize(s)
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "`", "'")
}

func markdownFile(p *printer, r *verify.Result) {
	p.line("# loupe report: `%s`", md(r.Path))
	p.line("")
	src := ""
	if r.Source != "" {
		src = " · " + md(r.Source)
	}
	p.line("**%s · %d violate · %s** · %s%s", verify.Plural(len(r.Compactions), "compaction"), r.Violations(), countFindings(r.Findings), verify.Plural(r.Turns, "turn"), src)
	if len(r.Compactions) == 0 {
		p.line("")
		p.line("%s.", strings.ToUpper(verify.NoCompaction[:1])+verify.NoCompaction[1:])
	}
	p.line("")
	p.line("## Timeline")
	p.line("")
	p.line("| # | turn | trigger | loss | verdict | first reason, or why there is none |")
	p.line("|---:|---:|---|---:|---|---|")
	for _, c := range r.Compactions {
		first := ""
		if len(c.Items) == 0 && !c.Unverifiable {
			first = verify.NothingOpen
		}
		if len(c.Reasons) > 0 {
			first = md(model.Clip(c.Reasons[0], 120))
			if len(c.Reasons) > 1 {
				first += fmt.Sprintf(" (+%d more)", len(c.Reasons)-1)
			}
		}
		p.line("| %d | %d | %s | %.1f%% | %s | %s |", c.Seq, c.Turn, md(c.Trigger), 100*c.LossRatio, badge(c.Verdict), first)
	}
	if len(r.Findings) > 0 {
		p.line("")
		p.line("## Findings")
		p.line("")
		for _, f := range r.Findings {
			p.line("- **%s** at turn %d — “%s” — %s.", findingTitle(f.Kind), f.Turn, md(model.Clip(f.Text, 200)), md(f.Why))
		}
	}
	lost := 0
	for _, lg := range r.Lineage {
		if lg.FirstLoss > 0 {
			lost++
		}
	}
	if lost > 0 {
		p.line("")
		p.line("## Lost items")
		p.line("")
		p.line("| item | kind | origin turn | first lost at | status per compaction |")
		p.line("|---|---|---:|---:|---|")
		for _, lg := range r.Lineage {
			if lg.FirstLoss == 0 {
				continue
			}
			var steps []string
			for _, s := range lg.Steps {
				steps = append(steps, fmt.Sprintf("#%d %s", s.Seq, s.Status))
			}
			p.line("| %s | %s | %d | #%d | %s |", md(model.Clip(lg.Item.Label(), 80)), lg.Kind, lg.Turn, lg.FirstLoss, strings.Join(steps, " → "))
		}
	}
	for _, c := range r.Compactions {
		if c.Verdict == verify.Violate {
			markdownCompaction(p, c)
		}
	}
}

func findingTitle(k verify.FindingKind) string {
	switch k {
	case verify.FalseCompletion:
		return "False completion"
	case verify.UnsupportedCompletion:
		return "Unsupported completion"
	case verify.OrphanedResult:
		return "Orphaned result"
	}
	return string(k)
}

func markdownCompaction(p *printer, c *verify.CompactionResult) {
	p.line("")
	p.line("## Compaction %d (turn %d): %s", c.Seq, c.Turn, badge(c.Verdict))
	p.line("")
	p.line("Loss %.1f%% (%d → %d bytes). Self-report: %s.", 100*c.LossRatio, c.SourceBytes, c.SummaryBytes, map[bool]string{true: "present", false: "none"}[c.Attested])
	p.line("")
	for _, reason := range c.Reasons {
		p.line("- %s", md(reason))
	}
	p.line("")
	if len(c.Items) == 0 && !c.Unverifiable {
		p.line("Nothing was open: nothing to keep.")
	} else {
		p.line("| kind | item | origin | status | score | self-report | evidence in the summary, and why |")
		p.line("|---|---|---:|---|---:|---|---|")
	}
	for _, it := range c.Items {
		ev := md(it.Why)
		if it.Evidence != nil {
			ev = "“" + md(model.Clip(it.Evidence.Text, 100)) + "”: " + ev
		}
		sr := string(it.SelfReport)
		if sr == "" {
			sr = "—"
		}
		p.line("| %s | %s | %d | %s | %.2f | %s | %s |", it.Kind, md(model.Clip(it.Item.Label(), 80)), it.Turn, it.Status, it.Score, sr, ev)
	}
	if len(c.UnsourcedClaims) > 0 {
		p.line("")
		p.line("Unsourced claims: %s", md(strings.Join(c.UnsourcedClaims, "; ")))
	}
	p.line("")
	for _, cs := range c.Consumers {
		state := "allowed"
		if !cs.Allowed {
			state = "**refused**"
		}
		p.line("- consumer `%s` (%s): %s", cs.Name, verify.JoinKinds(cs.Requires), state)
	}
}
