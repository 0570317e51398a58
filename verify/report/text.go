package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// TextOptions tune the human report.
type TextOptions struct {
	// Color adds ANSI colours (only on a terminal, never with NO_COLOR).
	Color bool
	// Verbose lists every item of every compaction, not only the failing ones.
	Verbose bool
}

// WriteText writes the compact human report: one line per compaction with
// its verdict and loss, then its reasons, then the run's findings. Every
// string from a transcript is sanitized: no control sequence reaches the
// terminal.
func WriteText(w io.Writer, results []*verify.Result, opt TextOptions) error {
	return (&Report{Results: results}).Text(w, opt)
}

// Text writes the report as text (see WriteText): each run, then each file
// that could not be verified, then the totals when there are several files,
// then the comparison of groups.
func (rep *Report) Text(w io.Writer, opt TextOptions) error {
	p := &printer{w: w, color: opt.Color}
	blocks := 0
	sep := func() {
		if blocks > 0 {
			p.line("")
		}
		blocks++
	}
	ts := rep.tallies()
	subs := subagents(ts)
	for i, r := range rep.Results {
		if rep.shows(r) && !folded(ts[i]) {
			sep()
			p.file(rep, r, opt)
			if s := subs[r.Path]; s != nil {
				p.line("  %s", s.line())
			}
		}
	}
	for _, u := range rep.Unverified {
		sep()
		p.line("%s · %s: %s", p.paint(ansiBold, safe(u.Path)), p.paint(ansiRed, "not verified"), safe(u.Error))
	}
	p.tables(ts, len(rep.Unverified), rep.GroupBy, blocks > 0, sep)
	return p.err
}

type printer struct {
	w     io.Writer
	color bool
	err   error
	// hd is how many levels a Markdown heading goes down: 1 when the
	// runs are sections of one document under its summary.
	hd int
}

func (p *printer) line(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
}

const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiReset  = "\x1b[0m"
)

func (p *printer) paint(code, s string) string {
	if !p.color {
		return s
	}
	return code + s + ansiReset
}

// safe makes transcript text fit for a terminal line.
func safe(s string) string {
	return strings.ReplaceAll(model.Sanitize(s), "\n", " ⏎ ")
}

func badge(v verify.Verdict) string {
	if v == verify.Violate {
		return "✗ violate"
	}
	return "✓ degrade"
}

func (p *printer) file(rep *Report, r *verify.Result, opt TextOptions) {
	p.line("%s", p.header(rep.tallyOf(r)))
	if len(r.Compactions) == 0 {
		p.line("  %s", verify.NoCompaction)
	}
	for _, w := range r.Warnings {
		p.line("  %s %s", p.paint(ansiYellow, "warning:"), safe(w.Msg))
	}
	memo := newSinceMemo(rep.EvidenceAll)
	for _, c := range r.Compactions {
		if !rep.showsCompaction(c) {
			continue
		}
		since := memo.compaction(c)
		b := badge(c.Verdict)
		if c.Verdict == verify.Violate {
			b = p.paint(ansiRed, b)
		} else {
			b = p.paint(ansiGreen, b)
		}
		note := c.ItemsNote()
		if rc := reviewCounts(c); rc != "" {
			note += ", " + rc
		}
		p.line("  #%-3d turn %-6d %s  loss %5.1f%%  %s%s", c.Seq, c.Turn, b, 100*c.LossRatio, note, triggerNote(c.Trigger))
		for _, reason := range c.Reasons {
			p.line("       - %s", safe(reason))
		}
		for _, w := range c.Warnings {
			p.line("       %s %s", p.paint(ansiYellow, "warning:"), safe(w.Msg))
		}
		items := c.ItemResults()
		for i := range items {
			if it := &items[i]; it.Review {
				p.line("       %s %s", p.paint(ansiYellow, "?"), safe(reviewNote(it, since[i])))
			}
		}
		if opt.Verbose {
			p.verboseItems(c, since)
		}
	}
	p.lineageText(r, opt.Verbose)
	if len(r.Findings) > 0 {
		p.line("  findings:")
		for _, f := range r.Findings {
			lost := ""
			if f.LostAt > 0 {
				lost = fmt.Sprintf(", lost at compaction %d", f.LostAt)
			}
			p.line("    turn %-6d %s: %s (from turn %d%s)", f.Turn, p.paint(ansiRed, string(f.Kind)), safe(model.Clip(f.Item, 80)), f.OriginTurn, lost)
			if f.Text != "" {
				p.line("                %s", p.paint(ansiDim, "“"+safe(model.Clip(f.Text, 120))+"”"))
			}
		}
	}
}

// header is the first line of a run's section: path, counts, findings;
// a sub-agent's names its session.
func (p *printer) header(t Tally) string {
	src := ""
	if t.Source != "" {
		src = " · " + safe(t.Source)
	}
	if t.Parent != "" {
		src += " · sub-agent of " + safe(filepath.Base(t.Parent))
	}
	return fmt.Sprintf("%s%s · %s · %s · %d violate · %s", p.paint(ansiBold, safe(t.Path)), src,
		verify.Plural(t.Turns, "turn"), verify.Plural(t.Compactions, "compaction"), t.Violations, findingCounts(t.Findings))
}

// verboseItems lists a compaction's items for -v: each one that is new
// or changed since the compaction written before, then how many are not,
// since the latest compaction that wrote one of them.
func (p *printer) verboseItems(c *verify.CompactionResult, since []int) {
	n, last := 0, 0
	for i, it := range c.ItemResults() {
		if since[i] > 0 {
			n, last = n+1, max(last, since[i])
			continue
		}
		p.line("       %s %-11s %-10s %-8s %s (turn %d) %s", p.paint(ansiDim, "·"), it.Status, it.Kind, it.Basis, safe(model.Clip(it.Item.Label(), 90)), it.Turn, p.paint(ansiDim, safe(it.Why+" · cue: "+it.Cue)))
	}
	if n > 0 {
		p.line("       %s %s", p.paint(ansiDim, "·"), p.paint(ansiDim, unchangedLine(n, last)))
	}
}

func triggerNote(t string) string {
	if t == "" {
		return ""
	}
	return "  (" + safe(t) + ")"
}

func countFindings(fs []verify.RunFinding) string {
	n := map[verify.FindingKind]int{}
	for _, f := range fs {
		n[f.Kind]++
	}
	return findingCounts(n)
}

// findingCounts says how many findings of each kind a run has: false
// completions always, the other kinds when there is one.
func findingCounts(n map[verify.FindingKind]int) string {
	parts := []string{verify.Plural(n[verify.FalseCompletion], "false completion")}
	if n[verify.UnsupportedCompletion] > 0 {
		parts = append(parts, verify.Plural(n[verify.UnsupportedCompletion], "unsupported completion"))
	}
	if n[verify.OrphanedResult] > 0 {
		parts = append(parts, verify.Plural(n[verify.OrphanedResult], "orphaned result"))
	}
	return strings.Join(parts, " · ")
}

// tables writes what a report of several runs ends with, from the runs'
// tallies: the totals, the comparison of groups, the drop rates. `loupe
// report` writes merged result lines with it, so that the two agree. sep
// separates blocks; said is whether anything was written before (-q with
// nothing to say stays silent).
func (p *printer) tables(ts []Tally, unverified int, field string, said bool, sep func()) {
	if len(ts)+unverified > 1 {
		sep()
		p.totals(ts, unverified)
		said = true
	}
	if field != "" && p.err == nil {
		sep()
		p.err = writeGroups(p.w, ts, field)
		said = true
	}
	if said && talliesHaveItems(ts) {
		sep()
		p.barsText(ts, field)
	}
}

// totals counts every file verified, whatever OnlyViolations left out, and
// those that could not be.
func (p *printer) totals(ts []Tally, unverified int) {
	comps, viol, subs := 0, 0, 0
	for _, t := range ts {
		comps += t.Compactions
		viol += t.Violations
		if t.Parent != "" {
			subs++
		}
	}
	not, sub := "", ""
	if unverified > 0 {
		not = fmt.Sprintf(" · %d not verified", unverified)
	}
	if subs > 0 {
		sub = fmt.Sprintf(" (%s under their sessions)", verify.Plural(subs, "sub-agent"))
	}
	p.line("%s%s · %s · %d violate%s", verify.Plural(len(ts), "file"), sub, verify.Plural(comps, "compaction"), viol, not)
}
