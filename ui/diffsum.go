package ui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/loupe-dev/loupe/verify"
)

// The summary-to-summary diff: summary k-1 against summary k, word by
// word, with the evidence of every item summary k-1 carried and summary k
// lost marked where it stood. A loss happens between two summaries: the
// seed's promise lived on in summary 3 and died in summary 4, which a diff
// of summary 4 against its replaced span cannot show.

// lostItem is an item verified in the previous summary and not in this
// one, with where the previous summary carried it.
type lostItem struct {
	kind     verify.Kind
	key      string
	turn     int
	now      verify.Status
	evidence string
	a, b     int // the evidence's bytes in the previous summary
}

// lostSince lists the items of cur that prev verified, with evidence, and
// cur does not, in cur's order.
func lostSince(prev, cur *verify.CompactionResult, prevSummary string) []lostItem {
	if prev == nil || cur == nil {
		return nil
	}
	had := make(map[string]*verify.ItemResult, len(prev.Items))
	for i := range prev.Items {
		it := &prev.Items[i]
		if it.Item != nil && it.Status == verify.Retained && it.Evidence != nil {
			had[it.ID] = it
		}
	}
	var out []lostItem
	for _, it := range cur.Items {
		if it.Item == nil || it.Status.Verified() {
			continue
		}
		p, ok := had[it.ID]
		if !ok {
			continue
		}
		a, b := alignSpan(prevSummary, p.Evidence.Start, p.Evidence.End)
		key := it.Key
		if key == "" {
			key = it.Text
		}
		out = append(out, lostItem{kind: it.Kind, key: key, turn: it.Turn, now: it.Status, evidence: p.Evidence.Text, a: a, b: b})
	}
	return out
}

// computeSummaryDiff diffs the previous summary against this one, section
// by section (diffsections.go), marking the lost items' evidence in the
// previous one. Pure; it runs in a tea.Cmd.
func computeSummaryDiff(prevSeq, seq int, prevSummary, summary string, lost []lostItem, limit time.Duration, focus diffFocus) diffResult {
	res := diffResult{mode: diffSummary, seq: seq, prevSeq: prevSeq, limit: limit, srcBytes: len(prevSummary), sumBytes: len(summary), lost: lost, focus: focus}
	prevSecs, curSecs := splitSections(prevSummary), splitSections(summary)
	var pairs []sectionPair
	if len(prevSecs) < 2 && len(curSecs) < 2 {
		prevSecs = []textSection{{start: 0, end: len(prevSummary)}}
		curSecs = []textSection{{start: 0, end: len(summary)}}
		pairs = []sectionPair{{prev: 0, cur: 0}}
	} else {
		pairs = pairSections(prevSummary, prevSecs, summary, curSecs)
	}
	res.marks = make([]int, len(lost))
	for i := range res.marks {
		res.marks[i] = -1
	}
	bl := blockBuilder{perLine: true}
	var spent time.Duration
	for _, pr := range pairs {
		var src, sum []wordToken
		if pr.prev >= 0 {
			ps := prevSecs[pr.prev]
			src = shiftTokens(tokenize(prevSummary[ps.start:ps.end], nil), ps.start)
		}
		if pr.cur >= 0 {
			cs := curSecs[pr.cur]
			sum = shiftTokens(tokenize(summary[cs.start:cs.end], nil), cs.start)
		}
		res.srcWords += len(src)
		left := time.Duration(0)
		if limit > 0 {
			if left = limit - spent; left <= 0 {
				res.timedOut, res.elapsed = true, spent
				return res
			}
		}
		diffs, elapsed, timedOut, err := wordDiff(src, sum, left)
		spent += elapsed
		res.elapsed, res.timedOut, res.err = spent, timedOut, err
		if timedOut || err != "" {
			return res
		}
		if len(pairs) > 1 {
			bl.flush()
			bl.line = sectionHeading(pr, prevSecs, curSecs, prevSeq, seq)
			bl.endLine()
		}
		kept, added := renderDiff(&bl, diffs, src, sum, focus, func(si int, deleted bool) styleID {
			return markLost(&bl, &res, src, si, deleted, seq)
		})
		res.kept += kept
		res.added += added
	}
	res.blocks = bl.blocks
	return res
}

// shiftTokens moves tokens' offsets from a section to the whole summary.
func shiftTokens(ts []wordToken, by int) []wordToken {
	for i := range ts {
		ts[i].off += by
	}
	return ts
}

// markLost writes the mark of each lost item before the first word of its
// evidence in the previous summary, and styles the word: underlined when
// it is a lost item's evidence, else deleted or kept.
func markLost(bl *blockBuilder, res *diffResult, src []wordToken, si int, deleted bool, seq int) styleID {
	tk := src[si]
	end := tk.off + len(tk.text)
	if si+1 < len(src) {
		end = src[si+1].off
	}
	in := false
	for i, li := range res.lost {
		if li.a < end && tk.off < li.b {
			in = true
			if res.marks[i] < 0 {
				res.marks[i] = len(bl.blocks)
				bl.write("⟦"+statusGlyph(li.now)+" "+statusWord(li.now)+" in #"+fmt.Sprint(seq)+": "+oneLine(li.key)+"⟧ ", stLostMark)
			}
		}
	}
	switch {
	case in:
		return stLost
	case deleted:
		return stDel
	}
	return stPlain
}

// sectionHeading is the line above a pair of sections: the heading, and
// how the two were paired.
func sectionHeading(pr sectionPair, prev, cur []textSection, prevSeq, seq int) line {
	name := func(s textSection) string {
		if s.heading == "" {
			return "(before the first heading)"
		}
		return oneLine(s.heading)
	}
	switch {
	case pr.prev < 0:
		return lineOf("§ "+name(cur[pr.cur]), stHeading, "  new in #"+strconv.Itoa(seq), stIns)
	case pr.cur < 0:
		return lineOf("§ "+name(prev[pr.prev]), stHeading, "  gone from #"+strconv.Itoa(seq), stDel)
	case pr.byContent:
		return lineOf("§ "+name(cur[pr.cur]), stHeading, "  was “"+name(prev[pr.prev])+"” in #"+strconv.Itoa(prevSeq)+" (paired by the words they share)", stSubtle)
	}
	return lineOf("§ "+name(cur[pr.cur]), stHeading)
}
