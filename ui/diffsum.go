package ui

import (
	"fmt"
	"sort"
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

// computeSummaryDiff diffs the previous summary against this one, marking
// the lost items' evidence in the previous one. Pure; it runs in a tea.Cmd.
func computeSummaryDiff(prevSeq, seq int, prevSummary, summary string, lost []lostItem, limit time.Duration, focus diffFocus) diffResult {
	res := diffResult{mode: diffSummary, seq: seq, prevSeq: prevSeq, limit: limit, srcBytes: len(prevSummary), sumBytes: len(summary), lost: lost, focus: focus}
	src := tokenize(prevSummary, nil)
	sum := tokenize(summary, nil)
	res.srcWords = len(src)
	diffs, elapsed, timedOut, err := wordDiff(src, sum, limit)
	res.elapsed, res.timedOut, res.err = elapsed, timedOut, err
	if timedOut || err != "" {
		return res
	}

	// The lost spans by start; a word is in one when it overlaps it.
	order := make([]int, len(lost))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return lost[order[x]].a < lost[order[y]].a })
	res.marks = make([]int, len(lost))
	for i := range res.marks {
		res.marks[i] = -1
	}
	bl := blockBuilder{perLine: true}
	next := 0 // next lost span (in order) to mark
	res.kept, res.added = renderDiff(&bl, diffs, src, sum, focus, func(si int, deleted bool) styleID {
		tk := src[si]
		end := tk.off + len(tk.text)
		if si+1 < len(src) {
			end = src[si+1].off
		}
		in := false
		// Words cover the text from the first one on, so every span is
		// marked before the first word it overlaps.
		for next < len(order) && lost[order[next]].a < end {
			li := lost[order[next]]
			res.marks[order[next]] = len(bl.blocks)
			bl.write("⟦"+statusGlyph(li.now)+" "+statusWord(li.now)+" in #"+fmt.Sprint(seq)+": "+oneLine(li.key)+"⟧ ", stLostMark)
			next++
		}
		for _, li := range lost {
			if li.a < end && tk.off < li.b {
				in = true
				break
			}
		}
		switch {
		case in:
			return stLost
		case deleted:
			return stDel
		}
		return stPlain
	})
	res.blocks = bl.blocks
	return res
}
