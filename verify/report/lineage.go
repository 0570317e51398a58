package report

// The lineage map and the drop-rate bars: the picture of what survived,
// drawn in text and Markdown from verify's LineageMap (the rows the
// inspector draws) and with verify's glyphs (Status.Glyph), so that a
// cell reads the same on screen and in every report.

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// mapKeptRows bounds the rows of items every summary kept that a Markdown
// map lists (the lost ones are always all listed).
const mapKeptRows = 50

// legend names every glyph of the map.
func legend() string {
	parts := make([]string, len(verify.Statuses), len(verify.Statuses)+1)
	for i, s := range verify.Statuses {
		parts[i] = s.Glyph() + " " + statusName(s)
	}
	parts = append(parts, verify.ReviewGlyph+" review (lost, but only inferred: not counted)")
	return strings.Join(parts, "  ")
}

// statusName is a status in words ("intent only", not "intent_only").
func statusName(s verify.Status) string { return strings.ReplaceAll(string(s), "_", " ") }

// cells draws a row's statuses, one glyph per compaction; a compaction
// that did not check the item (before it opened, after it closed) is a
// space.
func cells(row verify.LineageRow) string {
	var b strings.Builder
	for i := range row.Cells {
		if m := row.Mark(i); m != "" {
			b.WriteString(m)
			continue
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// rowNote says where a row's item came from and when it was first lost.
func rowNote(row verify.LineageRow) string {
	if row.Lost() {
		return fmt.Sprintf("turn %d, first lost at #%d", row.Turn, row.FirstLoss)
	}
	if row.InReview() {
		return fmt.Sprintf("turn %d, review: %s", row.Turn, row.Item.Cue)
	}
	return fmt.Sprintf("turn %d", row.Turn)
}

// lineageText writes a run's map under its compactions: the lost items,
// each with its glyphs across compactions #1…#n, then (with verbose) the
// items every summary kept, else their count.
func (p *printer) lineageText(r *verify.Result, verbose bool) {
	rows := r.LineageMap()
	if len(rows) == 0 || len(r.Compactions) == 0 {
		return
	}
	lost := 0 // rows shown without -v: counted and review losses
	for _, row := range rows {
		if row.Lost() || row.InReview() {
			lost++
		}
	}
	if lost == 0 && !verbose {
		return
	}
	p.line("  lineage map (items × compactions #%d…#%d; %s):", r.Compactions[0].Seq, r.Compactions[len(r.Compactions)-1].Seq, legend())
	for _, row := range rows {
		if !row.Lost() && !row.InReview() && !verbose {
			continue
		}
		p.line("    %s  %-10s %s %s", cells(row), row.Kind, safe(model.Clip(row.Item.Label(), 70)), p.paint(ansiDim, "("+rowNote(row)+")"))
	}
	if kept := len(rows) - lost; kept > 0 && !verbose {
		p.line("    … %s every summary kept (-v lists them)", verify.Plural(kept, "item"))
	}
}

// lineageMarkdown writes a run's map as a table: the lost items first,
// then up to mapKeptRows of the items every summary kept. The glyphs sit
// in a code span, so that they line up and nothing in them is Markdown.
func lineageMarkdown(p *printer, r *verify.Result) {
	rows := r.LineageMap()
	if len(rows) == 0 || len(r.Compactions) == 0 {
		return
	}
	p.line("")
	p.line("%s Lineage map", p.h(2))
	p.line("")
	p.line("Items × compactions #%d…#%d, one glyph per compaction, lost items first: %s.", r.Compactions[0].Seq, r.Compactions[len(r.Compactions)-1].Seq, md(legend()))
	p.line("")
	p.line("| statuses | kind | item | origin | first lost |")
	p.line("|---|---|---|---:|---:|")
	kept := 0
	for _, row := range rows {
		if !row.Lost() && !row.InReview() {
			if kept++; kept > mapKeptRows {
				continue
			}
		}
		first := "—"
		if row.Lost() {
			first = fmt.Sprintf("#%d", row.FirstLoss)
		}
		p.line("| %s | %s | %s | %d | %s |", mdCode(cells(row)), row.Kind, md(model.Clip(row.Item.Label(), 80)), row.Turn, first)
	}
	if kept > mapKeptRows {
		p.line("")
		p.line("… and %s every summary kept.", verify.Plural(kept-mapKeptRows, "more item"))
	}
}

// barWidth is the width of a drop-rate bar, in cells.
const barWidth = 20

// bar draws a share as a bar of barWidth cells: █ for the share, ░ for
// the rest.
func bar(share float64) string {
	n := int(share*barWidth + 0.5)
	n = max(0, min(barWidth, n))
	return strings.Repeat("█", n) + strings.Repeat("░", barWidth-n)
}

// dropBars are a group's drop rates per kind, one line each: the kind,
// the bar, the rate and the counts. Kinds no compaction checked are left
// out; nil when there is none.
func dropBars(g Group) []string {
	var out []string
	for _, k := range verify.Kinds {
		if g.Items[k] == 0 {
			continue
		}
		share := ratio(g.Lost[k], g.Items[k])
		out = append(out, fmt.Sprintf("%-10s %s %3.0f %% (%d/%d)", k, bar(share), 100*share, g.Lost[k], g.Items[k]))
	}
	return out
}

// allRuns is every run as one group, for the drop rates over the report.
func allRuns(ts []Tally) Group {
	return groupTallies(ts, "")[0]
}

// barsText writes the drop rates per kind over every run, then with a
// field per group: what a prompt tuner compares.
func (p *printer) barsText(ts []Tally, field string) {
	if !talliesHaveItems(ts) {
		return
	}
	lines := dropBars(allRuns(ts))
	p.line("drop rate per kind (items a summary did not verify, over every compaction checked):")
	for _, l := range lines {
		p.line("  %s", l)
	}
	if field == "" {
		return
	}
	for _, g := range groupTallies(ts, field) {
		p.line("%s = %s:", safe(field), safe(g.Value))
		for _, l := range dropBars(g) {
			p.line("  %s", l)
		}
	}
}

// barsMarkdown writes the drop rates as barsText does, each set of bars
// in a code block (the bars line up, and nothing in them is Markdown).
func barsMarkdown(p *printer, ts []Tally, field string) {
	if !talliesHaveItems(ts) {
		return
	}
	lines := dropBars(allRuns(ts))
	p.line("")
	p.line("## Drop rate per kind")
	p.line("")
	p.line("Items a summary did not verify, over every compaction checked%s.", map[bool]string{true: "", false: ", then per " + mdCode(field)}[field == ""])
	p.line("")
	block := func(title string, lines []string) {
		if title != "" {
			p.line("%s", title)
			p.line("")
		}
		p.line("```text")
		for _, l := range lines {
			p.line("%s", l)
		}
		p.line("```")
		p.line("")
	}
	block("", lines)
	if field == "" {
		return
	}
	for _, g := range groupTallies(ts, field) {
		v := md(g.Value)
		if g.Missing {
			v = "*" + noValue + "*"
		}
		if bars := dropBars(g); len(bars) > 0 {
			block(mdCode(field)+" = "+v+":", bars)
		}
	}
}
