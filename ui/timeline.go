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

// headerRow is "loupe · FILE · runtime · turns · compactions · violate ·
// false completions".
func headerRow(th *theme, res *verify.Result, title string, w int) string {
	type part struct {
		s    string
		drop int // order in which parts go when the row is too narrow (0: never)
	}
	parts := []part{{paint(th.header, "loupe"), 0}, {oneLine(title), 0}}
	if res != nil {
		src := res.Source
		if src == "" && res.Transcript != nil {
			src = res.Transcript.Meta.Source
		}
		if src == "" {
			src = res.Format
		}
		if src != "" {
			parts = append(parts, part{oneLine(src), 1})
		}
		parts = append(parts, part{commas(res.Turns) + " turns", 3})
		n := len(res.Compactions)
		parts = append(parts, part{plural(n, "compaction"), 4})
		if v := res.Violations(); v > 0 {
			parts = append(parts, part{paint(th.chipBad, glyphViolate+" "+strconv.Itoa(v)+" violate"), 0})
		} else if n > 0 {
			parts = append(parts, part{paint(th.chipOK, glyphDegrade+" all degrade"), 0})
		}
		fc := 0
		for _, f := range res.Findings {
			if f.Kind == verify.FalseCompletion {
				fc++
			}
		}
		if fc > 0 {
			parts = append(parts, part{paint(th.chipBad, glyphFinding+" "+plural(fc, "false completion")), 0})
		}
		if o := len(res.Findings) - fc; o > 0 {
			parts = append(parts, part{plural(o, "other finding"), 2})
		}
	}
	join := func() string {
		ss := make([]string, 0, len(parts))
		for _, p := range parts {
			ss = append(ss, p.s)
		}
		return strings.Join(ss, glyphSeparator)
	}
	// Drop the least useful parts first, then shorten the title.
	for d := 1; d <= 4 && ansi.StringWidth(join()) > w; d++ {
		for i := len(parts) - 1; i >= 0; i-- {
			if parts[i].drop == d {
				parts = append(parts[:i], parts[i+1:]...)
			}
		}
	}
	if over := ansi.StringWidth(join()) - w; over > 0 {
		parts[1].s = clip(parts[1].s, max(8, ansi.StringWidth(parts[1].s)-over))
	}
	return fit(join(), w)
}

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
		return fmt.Sprintf("#%d t%d %s %s %s %s", c.Seq, c.Turn, oneLine(c.Trigger), lossText(c), g, c.Verdict)
	case 1:
		return fmt.Sprintf("#%d t%d %s %s %s", c.Seq, c.Turn, lossText(c), g, c.Verdict)
	case 2:
		return fmt.Sprintf("#%d %s %s", c.Seq, lossText(c), g)
	}
	return fmt.Sprintf("#%d%s", c.Seq, g)
}

// chip is a compaction's place on the timeline row, for mouse clicks.
type chip struct{ x0, x1, ci int }

// timelineLayout picks the richest chip level that fits in w cells and the
// compactions to show (a window around the selection when even the
// shortest chips do not fit).
func timelineLayout(cs []*verify.CompactionResult, sel, w int) (level, from, to int, chips []chip) {
	const sep = 2
	label := len("compactions ")
	for level = 0; level <= 3; level++ {
		total := label
		for i, c := range cs {
			if i > 0 {
				total += sep
			}
			total += ansi.StringWidth(chipText(c, level))
		}
		if total <= w || level == 3 {
			if total <= w {
				from, to = 0, len(cs)
			}
			break
		}
	}
	if to == 0 && len(cs) > 0 {
		// Window around sel: grow both ways while it fits, leaving room
		// for the ‹ › markers.
		avail := w - label - 4
		from, to = sel, sel+1
		used := ansi.StringWidth(chipText(cs[sel], level))
		for grew := true; grew; {
			grew = false
			if to < len(cs) {
				if cw := ansi.StringWidth(chipText(cs[to], level)) + sep; used+cw <= avail {
					used += cw
					to++
					grew = true
				}
			}
			if from > 0 {
				if cw := ansi.StringWidth(chipText(cs[from-1], level)) + sep; used+cw <= avail {
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
		cw := ansi.StringWidth(chipText(cs[i], level))
		chips = append(chips, chip{x, x + cw, i})
		x += cw + sep
	}
	return level, from, to, chips
}

// timelineRow draws the compactions, the selected one in reverse video.
func timelineRow(th *theme, cs []*verify.CompactionResult, sel, w int) string {
	if len(cs) == 0 {
		return fit(paint(th.footerDesc, "compactions  none in this run"), w)
	}
	level, from, to, _ := timelineLayout(cs, sel, w)
	var sb strings.Builder
	sb.WriteString(paint(th.footerDesc, "compactions "))
	if from > 0 {
		sb.WriteString(paint(th.footerDesc, "‹ "))
	}
	for i := from; i < to; i++ {
		if i > from {
			sb.WriteString("  ")
		}
		t := chipText(cs[i], level)
		switch {
		case i == sel:
			sb.WriteString(paint(th.chipSel, t))
		case cs[i].Verdict == verify.Violate:
			sb.WriteString(paint(th.chipBad, t))
		default:
			sb.WriteString(paint(th.chipOK, t))
		}
	}
	if to < len(cs) {
		sb.WriteString(paint(th.footerDesc, " ›"))
	}
	return fit(sb.String(), w)
}

// detailRow describes the selected compaction in one row.
func detailRow(th *theme, cs []*verify.CompactionResult, sel, w int) string {
	if sel < 0 || sel >= len(cs) {
		return fit("", w)
	}
	c := cs[sel]
	parts := []string{
		paint(th.header, fmt.Sprintf("#%d of %d", c.Seq, len(cs))),
		"turn " + commas(c.Turn),
		oneLine(c.Trigger),
		"loss " + lossText(c),
	}
	if c.SourceBytes > 0 {
		parts[len(parts)-1] += fmt.Sprintf(" (%s → %s)", bytesHuman(int64(c.SourceBytes)), bytesHuman(int64(c.SummaryBytes)))
	}
	if c.Verdict == verify.Violate {
		v := glyphViolate + " VIOLATE"
		if n := len(c.Reasons); n > 0 {
			v += ": " + oneLine(c.Reasons[0])
			if n > 1 {
				v += fmt.Sprintf(" (+%d more)", n-1)
			}
		}
		parts = append(parts, paint(th.chipBad, v))
	} else {
		parts = append(parts, paint(th.chipOK, glyphDegrade+" DEGRADE"))
	}
	return fit(strings.Join(parts, glyphSeparator), w)
}
