package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/verify"
)

// newPreservationView builds the preservation pane for one compaction: the
// verdict and its reasons, then the items grouped by kind (status, score,
// origin turn, self-report finding, why), then the unsourced claims, the
// consumers and the warnings. Items are the selectable blocks; their ref is
// their index in cr.Items.
func newPreservationView(cr *verify.CompactionResult) *listView {
	v := &listView{sel: -1, gutter: true}
	if cr == nil {
		v.add(-1, lineOf("no compaction in this run: nothing had to be preserved", stSubtle))
		return v
	}

	// Verdict and reasons.
	var head line
	if cr.Verdict == verify.Violate {
		head = lineOf(glyphViolate+" VIOLATE", stBad, " — the summary must not be consumed", stSubtle)
	} else {
		head = lineOf(glyphDegrade+" DEGRADE", stOK, " — every item verified; the loss is fine", stSubtle)
	}
	lines := []line{head}
	if cr.Unverifiable {
		lines = append(lines, lineOf("  unverifiable summary (empty or opaque)", stBad))
	}
	for _, r := range cr.Reasons {
		lines = append(lines, lineOf("  • ", stSubtle, oneLine(r), stPlain))
	}
	if !cr.Attested {
		lines = append(lines, lineOf("  no self-report from the compactor (unattested)", stSubtle))
	}
	v.add(-1, lines...)

	// Items by kind.
	for _, k := range verify.Kinds {
		var idx []int
		counts := map[verify.Status]int{}
		for i, it := range cr.Items {
			if it.Item != nil && it.Kind == k {
				idx = append(idx, i)
				counts[it.Status]++
			}
		}
		if len(idx) == 0 {
			continue
		}
		v.add(-1, line{}, groupHeading(k, len(idx), counts))
		for _, i := range idx {
			it := cr.Items[i]
			v.addLazy(i, func() []line { return itemLines(it) })
		}
	}
	if len(cr.Items) == 0 {
		v.add(-1, line{}, lineOf("no open items at this compaction", stSubtle))
	}

	if len(cr.UnsourcedClaims) > 0 {
		v.add(-1, line{}, lineOf("UNSOURCED CLAIMS "+strconv.Itoa(len(cr.UnsourcedClaims)), stHeading,
			"  self-report claims that match nothing in the source", stSubtle))
		for _, c := range cr.UnsourcedClaims {
			v.add(-1, lineOf(glyphViolate+" ", stBad, "“"+oneLine(c)+"”", stPlain, " unsourced", stBad))
		}
	}

	if len(cr.Consumers) > 0 {
		v.add(-1, line{}, lineOf("CONSUMERS", stHeading))
		for _, c := range cr.Consumers {
			kinds := make([]string, len(c.Requires))
			for i, k := range c.Requires {
				kinds[i] = string(k)
			}
			var l line
			if c.Allowed {
				l = lineOf(glyphDegrade+" allowed ", stOK, oneLine(c.Name), stHeading, "  needs "+strings.Join(kinds, ", "), stSubtle)
			} else {
				l = lineOf(glyphViolate+" refused ", stBad, oneLine(c.Name), stHeading, "  needs "+strings.Join(kinds, ", "), stSubtle)
			}
			ls := []line{l}
			for _, w := range c.Why {
				ls = append(ls, lineOf("    ", stPlain, oneLine(w), stSubtle))
			}
			v.add(-1, ls...)
		}
	}

	if len(cr.Warnings) > 0 {
		v.add(-1, line{}, lineOf("WARNINGS", stHeading))
		for _, w := range cr.Warnings {
			v.add(-1, lineOf("! ", stWarn, oneLine(w.Msg), stPlain))
		}
	}
	return v
}

func groupHeading(k verify.Kind, n int, counts map[verify.Status]int) line {
	l := lineOf(strings.ToUpper(string(k))+"S "+strconv.Itoa(n), stHeading)
	for _, s := range []verify.Status{verify.Dropped, verify.Flipped, verify.Resurrected, verify.IntentOnly, verify.Weak, verify.Retained} {
		if c := counts[s]; c > 0 {
			l = append(l, lineOf("  "+statusGlyph(s)+" "+strconv.Itoa(c)+" "+statusWord(s), statusStyle(s))...)
		}
	}
	return l
}

// statusWord is a status as a reader says it.
func statusWord(s verify.Status) string {
	if s == verify.IntentOnly {
		return "intent only"
	}
	return string(s)
}

// itemLines are the lines of one item of the preservation set.
func itemLines(it verify.ItemResult) []line {
	st := statusStyle(it.Status)
	key := it.Key
	if key == "" {
		key = it.Text
	}
	word := fmt.Sprintf("%-11s ", statusWord(it.Status))
	first := lineOf(statusGlyph(it.Status)+" ", st, word, st, oneLine(key), stHeading)
	out := []line{first}

	meta := lineOf("  t"+strconv.Itoa(it.Turn), stAccent)
	if it.Origin != "" {
		meta = append(meta, lineOf(" · "+oneLine(it.Origin), stSubtle)...)
	}
	meta = append(meta, lineOf(" · score "+strconv.FormatFloat(it.Score, 'f', 2, 64), stSubtle)...)
	if sr := selfReportWord(it.SelfReport); sr != "" {
		sst := stSubtle
		switch it.SelfReport {
		case verify.Overclaim, verify.UnsourcedClaim:
			sst = stBad
		case verify.Agree:
			sst = stOK
		}
		meta = append(meta, lineOf(" · self-report: ", stSubtle, sr, sst)...)
	}
	if (it.Status == verify.Resurrected || it.Status == verify.Closed) && it.ClosedBy != "" {
		meta = append(meta, lineOf(" · closed at t"+strconv.Itoa(it.ClosedTurn)+": "+oneLine(it.ClosedBy), stSubtle)...)
	}
	out = append(out, meta)

	if it.Text != "" && it.Text != key {
		out = append(out, lineOf("  “"+oneLine(it.Text)+"”", stPlain))
	}
	if it.Why != "" {
		out = append(out, lineOf("  "+oneLine(it.Why), stSubtle))
	}
	if it.Evidence != nil {
		ev := lineOf("  in summary: ", stSubtle, "“"+clip(oneLine(prefixOf(it.Evidence.Text, 1024)), 240)+"”", st)
		if it.Evidence.Section != "" {
			ev = append(ev, lineOf(" under “"+oneLine(it.Evidence.Section)+"”", stSubtle)...)
		}
		out = append(out, ev)
	} else {
		out = append(out, lineOf("  not in summary", stSubtle))
	}
	return out
}

// selfReportWord names a self-report finding ("" for none worth saying).
func selfReportWord(f verify.Finding) string {
	switch f {
	case verify.Overclaim:
		return "overclaim ⚠ (claimed retained)"
	case verify.UnsourcedClaim:
		return "unsourced claim ⚠"
	case verify.NoClaim:
		return ""
	}
	return strings.ReplaceAll(string(f), "_", " ")
}
