package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/verify"
)

// The three rows above the panes: the header (what is open and the run's
// verdict counts), the timeline of compactions, and the selected
// compaction's details. All three are a handful of strings per frame.

// headerPart is one part of the header row.
type headerPart struct {
	s    string
	drop int // order in which parts go when the row is too narrow (0: never)
	// short replaces s when the row is still too narrow.
	short string
}

// headerRow is "loupe · FILE · live · runtime · turns · compactions ·
// violate · false completions · problems", fitted to w; while the verdicts
// are computed, pending says so in place of them.
func headerRow(th *theme, res *verify.Result, title, live, pending string, w int) string {
	parts := []headerPart{{s: paint(th.header, "loupe")}, {s: oneLine(title)}}
	if live != "" {
		// Never dropped: a reader must know the view moves under them.
		parts = append(parts, headerPart{s: paint(th.live, oneLine(live)), short: paint(th.live, "● live")})
	}
	switch {
	case res != nil && res.Pending:
		parts = append(parts, headerPart{s: commas(res.Turns) + " turns", drop: 3})
		if v := res.Violations(); v > 0 { // of the compactions verified so far
			parts = append(parts, headerPart{s: paint(th.chipBad, glyphViolate+" "+strconv.Itoa(v)+" violate so far"), short: paint(th.chipBad, glyphViolate+" "+strconv.Itoa(v))})
		}
		parts = append(parts, headerPart{s: paint(th.live, pending)})
	case res != nil:
		parts = append(parts, resultParts(th, res)...)
	}
	return fitHeader(parts, w)
}

// resultParts are the header's parts that describe the verified run.
func resultParts(th *theme, res *verify.Result) []headerPart {
	type part = headerPart
	var parts []part
	src := res.Source
	if src == "" && res.Transcript != nil {
		src = res.Transcript.Meta.Source
	}
	if src == "" {
		src = res.Format
	}
	if src != "" {
		parts = append(parts, part{s: oneLine(src), drop: 1})
	}
	parts = append(parts, part{s: commas(res.Turns) + " turns", drop: 3})
	n := len(res.Compactions)
	parts = append(parts, part{s: plural(n, "compaction"), drop: 4})
	if v := res.Violations(); v > 0 {
		parts = append(parts, part{s: paint(th.chipBad, glyphViolate+" "+strconv.Itoa(v)+" violate")})
	} else if n > 0 {
		parts = append(parts, part{s: paint(th.chipOK, glyphDegrade+" all degrade")})
	}
	fc := 0
	for _, f := range res.Findings {
		if f.Kind == verify.FalseCompletion {
			fc++
		}
	}
	if fc > 0 {
		parts = append(parts, part{s: paint(th.chipBad, glyphFinding+" "+plural(fc, "false completion"))})
	}
	if o := len(res.Findings) - fc; o > 0 {
		parts = append(parts, part{s: plural(o, "other finding"), drop: 2})
	}
	if t := res.Transcript; t != nil && len(t.Problems) > 0 {
		// Never dropped: a file that opens with a broken line must say so.
		st := th.chipWarn
		short := "⚠ " + plural(len(t.Problems), "problem") + " (!)"
		if n := len(t.Problems.Errors()); n > 0 {
			st = th.chipBad
			short = "⚠ " + plural(n, "bad line") + " (!)"
		}
		parts = append(parts, part{s: paint(st, "⚠ "+problemCount(t.Problems)+" (!)"), short: paint(st, short)})
	}
	return parts
}

// fitHeader joins the parts in w cells, leaving out and shortening the
// least useful first.
func fitHeader(parts []headerPart, w int) string {
	join := func() string {
		ss := make([]string, 0, len(parts))
		for _, p := range parts {
			ss = append(ss, p.s)
		}
		return strings.Join(ss, glyphSeparator)
	}
	// Drop the least useful parts first; before the counts go, shorten a
	// long title (a session's first request) to what is left, so that the
	// turns stay beside the chooser's; then shorten it further.
	clipTitle := func(least int) {
		if over := ansi.StringWidth(join()) - w; over > 0 {
			parts[1].s = clip(parts[1].s, max(least, ansi.StringWidth(parts[1].s)-over))
		}
	}
	for d := 1; d <= 4 && ansi.StringWidth(join()) > w; d++ {
		if d == 3 {
			clipTitle(24)
		}
		for i := len(parts) - 1; i >= 0 && ansi.StringWidth(join()) > w; i-- {
			if parts[i].drop == d {
				parts = append(parts[:i], parts[i+1:]...)
			}
		}
	}
	for i := range parts {
		if parts[i].short != "" && ansi.StringWidth(join()) > w {
			parts[i].s = parts[i].short
		}
	}
	if over := ansi.StringWidth(join()) - w; over > 0 && len(parts) > 1 {
		parts[1].s = clip(parts[1].s, max(8, ansi.StringWidth(parts[1].s)-over))
	}
	return fit(join(), w)
}

// turnLabel writes a turn as "turn 210": a bare "t210" reads like a plan
// step's id ("t3").
func turnLabel(turn int) string { return "turn " + strconv.Itoa(turn) }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return commas(n) + " " + word + "s"
}

// lossText is a loss ratio as a percentage.
func lossText(c *verify.CompactionResult) string {
	if c.SourceBytes == 0 && c.LossRatio == 0 {
		return "–"
	}
	pct := c.LossRatio * 100
	if pct >= 99.5 && pct < 100 {
		return ">99%"
	}
	return strconv.Itoa(int(pct+0.5)) + "%"
}

func verdictGlyph(v verify.Verdict) string {
	if v == verify.Violate {
		return glyphViolate
	}
	return glyphDegrade
}

// chipText is one compaction in the timeline at a level of detail (0 is
// the most).
func chipText(c *verify.CompactionResult, level int) string {
	g := verdictGlyph(c.Verdict)
	switch level {
	case 0:
		trig := ""
		if t := oneLine(c.Trigger); t != "" {
			trig = " " + t
		}
		return fmt.Sprintf("#%d %s%s %s %s %s", c.Seq, turnLabel(c.Turn), trig, lossText(c), g, c.Verdict)
	case 1:
		return fmt.Sprintf("#%d %s %s %s %s", c.Seq, turnLabel(c.Turn), lossText(c), g, c.Verdict)
	case 2:
		return fmt.Sprintf("#%d %s %s %s", c.Seq, lossText(c), g, c.Verdict)
	case 3:
		return fmt.Sprintf("#%d %s %s", c.Seq, lossText(c), g)
	}
	return fmt.Sprintf("#%d%s", c.Seq, g)
}

// chipLevels is the number of chip detail levels.
const chipLevels = 5

// chip is a compaction's place on the timeline row, for mouse clicks.
type chip struct{ x0, x1, ci int }

// timelineLayout picks the richest chip level that fits in w cells and the
// compactions to show: those in shown (every one when shown is nil), the
// selection always among them, in a window around the selection when even
// the shortest chips do not fit. list is what is shown, [from, to) the
// window in it.
func timelineLayout(cs []*verify.CompactionResult, shown []int, sel, w int) (level int, list compactionList, from, to int, chips []chip) {
	const sep = 2
	label := len("compactions ")
	list = compactionList{n: len(cs)}
	if shown != nil {
		list.idx = shownWith(shown, sel, len(cs))
	}
	if list.Len() == 0 {
		return 0, list, 0, 0, nil
	}
	at := 0 // the selection's place in list
	if list.idx == nil {
		at = min(max(0, sel), list.n-1)
	}
	for i, ci := range list.idx {
		if ci == sel {
			at = i
		}
	}
	for level = 0; level < chipLevels; level++ {
		total := label
		for i := range list.Len() {
			ci := list.At(i)
			if i > 0 {
				total += sep
			}
			total += ansi.StringWidth(chipText(cs[ci], level))
			if total > w {
				break // too wide already: the rest need not be measured
			}
		}
		if total <= w || level == chipLevels-1 {
			if total <= w {
				from, to = 0, list.Len()
			}
			break
		}
	}
	if to == 0 {
		// Window around sel: grow both ways while it fits, leaving room
		// for the ‹ › markers.
		avail := w - label - 4
		from, to = at, at+1
		used := ansi.StringWidth(chipText(cs[list.At(at)], level))
		for grew := true; grew; {
			grew = false
			if to < list.Len() {
				if cw := ansi.StringWidth(chipText(cs[list.At(to)], level)) + sep; used+cw <= avail {
					used += cw
					to++
					grew = true
				}
			}
			if from > 0 {
				if cw := ansi.StringWidth(chipText(cs[list.At(from-1)], level)) + sep; used+cw <= avail {
					used += cw
					from--
					grew = true
				}
			}
		}
	}
	x := label
	if from > 0 {
		x += 2
	}
	for i := from; i < to; i++ {
		cw := ansi.StringWidth(chipText(cs[list.At(i)], level))
		chips = append(chips, chip{x, x + cw, list.At(i)})
		x += cw + sep
	}
	return level, list, from, to, chips
}

// compactionList is what the timeline shows: every compaction (0..n-1,
// never made into a slice: a run may have 100,000) or idx.
type compactionList struct {
	idx []int
	n   int
}

func (l compactionList) Len() int {
	if l.idx == nil {
		return l.n
	}
	return len(l.idx)
}

func (l compactionList) At(i int) int {
	if l.idx == nil {
		return i
	}
	return l.idx[i]
}

// shownWith is shown (or 0..n-1 when nil) with sel in its place.
func shownWith(shown []int, sel, n int) []int {
	if shown == nil {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, 0, len(shown)+1)
	added := sel < 0 || sel >= n
	for _, ci := range shown {
		if !added && sel <= ci {
			if sel < ci {
				out = append(out, sel)
			}
			added = true
		}
		out = append(out, ci)
	}
	if !added {
		out = append(out, sel)
	}
	return out
}

// timelineRow draws the compactions in shown (all when nil), the selected
// one in reverse video; hidden says how many the filter leaves out.
func timelineRow(th *theme, cs []*verify.CompactionResult, shown []int, sel, w int) string {
	if len(cs) == 0 {
		return fit(paint(th.footerDesc, "compactions  none in this run"), w)
	}
	level, list, from, to, _ := timelineLayout(cs, shown, sel, w)
	var sb strings.Builder
	sb.WriteString(paint(th.footerDesc, "compactions "))
	if from > 0 {
		sb.WriteString(paint(th.footerDesc, "‹ "))
	}
	for i := from; i < to; i++ {
		if i > from {
			sb.WriteString("  ")
		}
		ci := list.At(i)
		t := chipText(cs[ci], level)
		switch {
		case ci == sel:
			sb.WriteString(paint(th.chipSel, t))
		case cs[ci].Verdict == verify.Violate:
			sb.WriteString(paint(th.chipBad, t))
		default:
			sb.WriteString(paint(th.chipOK, t))
		}
	}
	if to < list.Len() {
		sb.WriteString(paint(th.footerDesc, " ›"))
	}
	if shown != nil {
		if hidden := len(cs) - list.Len(); hidden > 0 {
			sb.WriteString(paint(th.footerDesc, fmt.Sprintf("  (violations only: %d degrading hidden)", hidden)))
		}
	}
	return fit(sb.String(), w)
}

// detailRows describe the selected compaction (nil for none) of n: one row
// when it fits, else the facts on the first row and the first reason to
// violate wrapped below it (at most maxDetailRows in all), so that the
// reason is read whole at 80 columns.
func detailRows(th *theme, c *verify.CompactionResult, n, w int) []string {
	if c == nil {
		return []string{fit("", w)}
	}
	facts := []string{paint(th.header, fmt.Sprintf("#%d of %d", c.Seq, n)), turnLabel(c.Turn)}
	if t := oneLine(c.Trigger); t != "" {
		facts = append(facts, t) // importers may not know what triggered it
	}
	loss := "loss " + lossText(c)
	sizes := ""
	if c.SourceBytes > 0 {
		sizes = fmt.Sprintf(" (%s → %s)", bytesHuman(int64(c.SourceBytes)), bytesHuman(int64(c.SummaryBytes)))
	}
	if n, _ := c.ReviewCount(); n > 0 {
		loss += glyphSeparator + paint(th.review, fmt.Sprintf("%s %d review", glyphReview, n))
	}
	if c.Verdict != verify.Violate {
		v := paint(th.chipOK, glyphDegrade+" DEGRADE")
		row := strings.Join(append(facts, loss+sizes, v), glyphSeparator)
		if ansi.StringWidth(row) > w {
			row = strings.Join(append(facts, loss, v), glyphSeparator)
		}
		return []string{fit(row, w)}
	}
	verdict := glyphViolate + " VIOLATE"
	reason, short := "", ""
	if len(c.Reasons) > 0 {
		reason = oneLine(c.Reasons[0])
		short = reason
		if more := len(c.Reasons) - 1; more > 0 {
			short += fmt.Sprintf(" (+%d more)", more)
			reason += fmt.Sprintf(" (+%d more in the preservation set)", more)
		}
	}
	one := strings.Join(append(facts, loss+sizes, paint(th.chipBad, verdict+": "+short)), glyphSeparator)
	if reason == "" || ansi.StringWidth(one) <= w {
		if reason == "" {
			one = strings.Join(append(facts, loss+sizes, paint(th.chipBad, verdict)), glyphSeparator)
		}
		return []string{fit(one, w)}
	}
	head := strings.Join(append(facts, loss+sizes, paint(th.chipBad, verdict)), glyphSeparator)
	if ansi.StringWidth(head) > w {
		head = strings.Join(append(facts, loss, paint(th.chipBad, verdict)), glyphSeparator)
	}
	rows := []string{fit(head, w)}
	const indent = "  "
	spans := wrapPlain(reason, max(1, w-len(indent)), 0)
	for i, sp := range spans {
		if len(rows) == maxDetailRows {
			break
		}
		text := reason[sp.a:sp.b]
		if len(rows) == maxDetailRows-1 && i < len(spans)-1 {
			text = clip(strings.TrimRight(reason[sp.a:], " "), w-len(indent)) // the rest, cut
		}
		rows = append(rows, fit(indent+paint(th.chipBad, text), w))
	}
	return rows
}
