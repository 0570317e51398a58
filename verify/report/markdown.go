package report

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// WriteMarkdown writes a postmortem-ready report: the timeline of
// compactions with verdicts, the findings, the lineage of every lost item,
// then each violating compaction in detail.
func WriteMarkdown(w io.Writer, results []*verify.Result) error {
	return (&Report{Results: results}).Markdown(w)
}

// Markdown writes the report as Markdown: each run (see WriteMarkdown),
// then the files that could not be verified, then the comparison of groups.
func (rep *Report) Markdown(w io.Writer) error {
	p := &printer{w: w}
	sections := 0
	sep := func() {
		if sections > 0 {
			p.line("\n---\n")
		}
		sections++
	}
	for _, r := range rep.Results {
		if rep.shows(r) {
			sep()
			markdownFile(p, rep, r)
		}
	}
	if len(rep.Unverified) > 0 {
		sep()
		p.line("# Not verified")
		p.line("")
		for _, u := range rep.Unverified {
			p.line("- %s: %s", mdCode(u.Path), md(u.Error))
		}
	}
	if rep.GroupBy != "" {
		sep()
		markdownGroups(p, rep.Results, rep.GroupBy)
	}
	return p.err
}

// md makes transcript text inert inline Markdown, for a table cell, a list
// item or a line: a renderer must show it as the text it is, never as
// HTML, a link, an image, emphasis, a heading or a new table cell.
//
//   - Sanitize first: terminal escapes, controls, bidi and invisible
//     characters become visible text (␛, ⟨U+202E⟩); newlines and tabs
//     become spaces, so the text stays on its line or in its cell.
//   - <, > and & become HTML entities (&lt; …), which every Markdown
//     renderer passes through as text: no raw HTML (<img onerror>,
//     <script>, </details>, <!--), no autolink (<javascript:…>), no entity
//     of the transcript's own.
//   - The punctuation inline Markdown acts on is backslash-escaped: \ `
//   - [ ] | ~ $ { }, so no code span, emphasis, link or image
//     ([x](javascript:…)), cell break, strike-through, math or attribute
//     list; _ too, unless between two letters or digits (call_8f2a), where
//     CommonMark never reads it as emphasis.
//   - A leading # + - = or "1." would start a heading or a list in a list
//     item: it is escaped too.
//
// A bare https:// or www. address stays text, though renderers with GFM's
// autolinks make it a link to itself (never to javascript:).
func md(s string) string {
	s = strings.TrimLeft(model.Sanitize(s), " \t\n")
	var b strings.Builder
	b.Grow(len(s) + 8)
	var prev rune
	for i, r := range s {
		switch r {
		case '\n', '\t':
			b.WriteByte(' ')
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '[', ']', '|', '~', '$', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '_':
			next, _ := utf8.DecodeRuneInString(s[i+1:])
			if !alnum(prev) || !alnum(next) {
				b.WriteByte('\\')
			}
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	out := b.String()
	return escapeBlockStart(out)
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// escapeBlockStart escapes what would make s, at the start of a list item,
// a heading, a nested list or a setext underline.
func escapeBlockStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '+', '-', '=':
		return "\\" + s
	}
	digits := 0
	for digits < len(s) && digits < 10 && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') {
		return s[:digits] + "\\" + s[digits:]
	}
	return s
}

// mdCode writes s as an inline code span, where a renderer takes every
// character literally (no HTML, entity, link or escape): after Sanitize,
// only backticks matter, so the fence is one backtick longer than the
// longest run of them in s, and a space pads s when it starts or ends with
// a backtick or a space (CommonMark strips one on each side). Not for
// table cells, where GFM would still split on |.
func mdCode(s string) string {
	s = strings.NewReplacer("\n", " ", "\t", " ").Replace(model.Sanitize(s))
	if s == "" {
		return "(empty)"
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

func markdownFile(p *printer, rep *Report, r *verify.Result) {
	p.line("# loupe report: %s", mdCode(r.Path))
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
		if !rep.showsCompaction(c) {
			continue
		}
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
	markdownReview(p, rep, r)
}

// markdownReview lists the review items of the compactions shown: lost but
// only inferred, so not counted, each with its cue and source.
func markdownReview(p *printer, rep *Report, r *verify.Result) {
	head := false
	for _, c := range r.Compactions {
		if !rep.showsCompaction(c) || reviewCounts(c) == "" {
			continue
		}
		if !head {
			p.line("")
			p.line("## Review (not counted)")
			p.line("")
			p.line("Items lost by a summary that the source only infers are owed: listed for a person to judge, never a reason to violate (`--strict` counts them).")
			p.line("")
			head = true
		}
		p.line("- Compaction %d (turn %d): %s", c.Seq, c.Turn, reviewCounts(c))
		for i := range c.Items {
			if it := &c.Items[i]; it.Review {
				p.line("  - %s", md(ReviewNote(it)))
			}
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
		p.line("| kind | item | origin | basis | status | score | self-report | evidence in the summary, and why |")
		p.line("|---|---|---:|---|---|---:|---|---|")
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
		status := string(it.Status)
		if it.Review {
			status += " (review, not counted)"
		}
		p.line("| %s | %s | %d | %s | %s | %.2f | %s | %s |", it.Kind, md(model.Clip(it.Item.Label(), 80)), it.Turn, it.Basis, status, it.Score, sr, ev)
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
		p.line("- consumer %s (%s): %s", mdCode(cs.Name), md(verify.JoinKinds(cs.Requires)), state)
	}
}

// markdownGroups writes the comparison of the runs grouped by a meta field:
// the table a prompt engineer pastes to compare compaction prompts.
func markdownGroups(p *printer, results []*verify.Result, field string) {
	p.line("# Comparison by %s", mdCode(field))
	p.line("")
	head := []string{md(field), "runs", "compactions", "violate"}
	align := []string{"---", "---:", "---:", "---:"}
	for _, k := range verify.Kinds {
		head = append(head, string(k)+" lost")
		align = append(align, "---:")
	}
	head = append(head, "mean loss", "median loss")
	align = append(align, "---:", "---:")
	p.line("| %s |", strings.Join(head, " | "))
	p.line("|%s|", strings.Join(align, "|"))
	for _, g := range Groups(results, field) {
		row := []string{md(g.Value), fmt.Sprint(g.Files), fmt.Sprint(g.Compactions),
			fmt.Sprintf("%.0f%% (%d)", 100*ratio(g.Violations, g.Compactions), g.Violations)}
		if g.Missing {
			row[0] = "*" + noValue + "*"
		}
		for _, k := range verify.Kinds {
			if g.Items[k] == 0 {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%.0f%% (%d/%d)", 100*ratio(g.Lost[k], g.Items[k]), g.Lost[k], g.Items[k]))
		}
		row = append(row, fmt.Sprintf("%.1f%%", 100*g.MeanLoss), fmt.Sprintf("%.1f%%", 100*g.MedianLoss))
		p.line("| %s |", strings.Join(row, " | "))
	}
}
