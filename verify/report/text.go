package report

import (
	"fmt"
	"io"
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
	p := &printer{w: w, color: opt.Color}
	for i, r := range results {
		if i > 0 {
			p.line("")
		}
		p.file(r, opt)
	}
	if len(results) > 1 {
		p.line("")
		p.totals(results)
	}
	return p.err
}

type printer struct {
	w     io.Writer
	color bool
	err   error
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

func (p *printer) file(r *verify.Result, opt TextOptions) {
	viol := r.Violations()
	src := ""
	if r.Source != "" {
		src = " · " + safe(r.Source)
	}
	p.line("%s%s · %s · %s · %d violate · %s",
		p.paint(ansiBold, safe(r.Path)), src, verify.Plural(r.Turns, "turn"), verify.Plural(len(r.Compactions), "compaction"), viol, countFindings(r.Findings))
	if len(r.Compactions) == 0 {
		p.line("  %s", verify.NoCompaction)
	}
	for _, w := range r.Warnings {
		p.line("  %s %s", p.paint(ansiYellow, "warning:"), safe(w.Msg))
	}
	for _, c := range r.Compactions {
		b := badge(c.Verdict)
		if c.Verdict == verify.Violate {
			b = p.paint(ansiRed, b)
		} else {
			b = p.paint(ansiGreen, b)
		}
		p.line("  #%-3d turn %-6d %s  loss %5.1f%%  %s%s", c.Seq, c.Turn, b, 100*c.LossRatio, c.ItemsNote(), triggerNote(c.Trigger))
		for _, reason := range c.Reasons {
			p.line("       - %s", safe(reason))
		}
		for _, w := range c.Warnings {
			p.line("       %s %s", p.paint(ansiYellow, "warning:"), safe(w.Msg))
		}
		if opt.Verbose {
			for _, it := range c.Items {
				p.line("       %s %-11s %-10s %s (turn %d) %s", p.paint(ansiDim, "·"), it.Status, it.Kind, safe(model.Clip(it.Item.Label(), 90)), it.Turn, p.paint(ansiDim, safe(it.Why)))
			}
		}
	}
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
	parts := []string{verify.Plural(n[verify.FalseCompletion], "false completion")}
	if n[verify.UnsupportedCompletion] > 0 {
		parts = append(parts, verify.Plural(n[verify.UnsupportedCompletion], "unsupported completion"))
	}
	if n[verify.OrphanedResult] > 0 {
		parts = append(parts, verify.Plural(n[verify.OrphanedResult], "orphaned result"))
	}
	return strings.Join(parts, " · ")
}

func (p *printer) totals(results []*verify.Result) {
	comps, viol := 0, 0
	for _, r := range results {
		comps += len(r.Compactions)
		viol += r.Violations()
	}
	p.line("%s · %s · %d violate", verify.Plural(len(results), "file"), verify.Plural(comps, "compaction"), viol)
}
