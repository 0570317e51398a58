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
// their index in cr.Items. violationsOnly leaves out the verified items.
func newPreservationView(cr *verify.CompactionResult, violationsOnly bool) *listView {
	v := &listView{sel: -1, gutter: true}
	if cr == nil {
		v.add(-1, lineOf("no compaction in this run: nothing had to be preserved", stSubtle))
		return v
	}

	v.add(-1, verdictLines(cr, violationsOnly)...)
	addItems(v, cr, violationsOnly)
	if len(cr.Items) == 0 {
		v.add(-1, line{}, lineOf("no open items at this compaction", stSubtle))
	}
	addClaimsConsumersWarnings(v, cr)
	return v
}

// pendingView is the preservation pane while the run is verified.
func pendingView(n int) *listView {
	v := &listView{sel: -1, gutter: true}
	v.add(-1, lineOf(verifyingText(n), stSubtle), lineOf("the verdicts appear here when it is done; the transcript can be read meanwhile", stSubtle))
	return v
}

// verifyingText says that n compactions are being verified.
func verifyingText(n int) string {
	return "verifying " + plural(n, "compaction") + " " + glyphEllipsis
}

// pendingText says what runs while the shown result has no verdicts: the
// rest of the file being read (its beginning is shown), or verification.
func (m *Model) pendingText() string {
	n := 0
	if m.t != nil {
		n = len(m.t.Compactions)
	}
	if m.partial {
		pct := int64(0)
		if p := m.progress; p.Total > 0 {
			pct = min(99, p.Read*100/p.Total)
		}
		return fmt.Sprintf("reading the file %d%% %s (its beginning is shown: %s so far)", pct, glyphEllipsis, plural(n, "compaction"))
	}
	if done, _ := m.verifiedSoFar(); done > 0 {
		return fmt.Sprintf("verified %s of %s %s", commas(done), plural(n, "compaction"), glyphEllipsis)
	}
	return verifyingText(n)
}

// verdictLines are the verdict, every reason, and what the filter hides.
func verdictLines(cr *verify.CompactionResult, violationsOnly bool) []line {
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
	if rc := reviewLine(cr); rc != nil {
		lines = append(lines, rc)
	}
	if violationsOnly {
		hidden, review := 0, 0
		for _, it := range cr.Items {
			switch {
			case it.Item != nil && it.Status.Verified():
				hidden++
			case it.Item != nil && it.Review:
				review++
			}
		}
		note := "violations only: " + plural(hidden, "verified item") + " hidden · v shows all"
		if review > 0 {
			note = "violations only: " + plural(hidden, "verified item") + " and " + strconv.Itoa(review) + " review hidden · v shows all"
		}
		if hidden+review == len(cr.Items) && hidden+review > 0 {
			note = "violations only: every item is verified or review (" + strconv.Itoa(hidden+review) + " hidden) · v shows them"
		}
		lines = append(lines, lineOf("  "+note, stAccent))
	}
	return lines
}

// reviewLine counts the compaction's review items per kind: lost, but only
// inferred from the source, so listed for a person to judge and not counted
// (nil when there is none).
func reviewLine(cr *verify.CompactionResult) line {
	n, by := cr.ReviewCount()
	if n == 0 {
		return nil
	}
	var parts []string
	for _, k := range verify.Kinds {
		if by[k] > 0 {
			parts = append(parts, strconv.Itoa(by[k])+" "+string(k))
		}
	}
	return lineOf("  "+glyphReview+" review (not counted): ", stReview, strings.Join(parts, ", "), stReview,
		" — lost, but the source only infers them", stSubtle)
}

// shownItem reports whether the violations-only filter keeps an item: only
// the losses that count (not verified, not review).
func shownItem(it verify.ItemResult, violationsOnly bool) bool {
	return !violationsOnly || it.Counts()
}

// addItems adds the items by kind, each kind under a heading with its
// counts; violationsOnly leaves out the verified ones.
func addItems(v *listView, cr *verify.CompactionResult, violationsOnly bool) {
	for _, k := range verify.Kinds {
		var idx []int
		counts := map[verify.Status]int{}
		shown, review := 0, 0
		for i, it := range cr.Items {
			if it.Item != nil && it.Kind == k {
				idx = append(idx, i)
				if it.Review {
					review++
				} else {
					counts[it.Status]++
				}
				if shownItem(it, violationsOnly) {
					shown++
				}
			}
		}
		if shown == 0 {
			continue
		}
		v.add(-1, line{}, groupHeading(k, len(idx), counts, review))
		for _, i := range idx {
			it := cr.Items[i]
			if !shownItem(it, violationsOnly) {
				continue
			}
			v.addLazy(i, func() []line { return itemLines(it) })
		}
	}
}

// addClaimsConsumersWarnings adds what follows the items: the claims that
// match nothing, the consumers' gate and the sanity warnings.
func addClaimsConsumersWarnings(v *listView, cr *verify.CompactionResult) {
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
			if r := consumerRole(c.Name); r != "" {
				l = append(l, lineOf(" · "+r, stSubtle)...)
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
}

// consumerRole is what a default consumer does, for a reader who has not
// read the design ("" for a consumer the transcript declared).
func consumerRole(name string) string {
	switch name {
	case "planner":
		return "decides the next step"
	case "router":
		return "routes late tool results to their calls"
	case "verifier":
		return "checks the work"
	}
	return ""
}

func groupHeading(k verify.Kind, n int, counts map[verify.Status]int, review int) line {
	l := lineOf(strings.ToUpper(string(k))+"S "+strconv.Itoa(n), stHeading)
	for _, s := range []verify.Status{verify.Dropped, verify.Flipped, verify.Resurrected, verify.IntentOnly, verify.Weak, verify.Retained} {
		if c := counts[s]; c > 0 {
			l = append(l, lineOf("  "+statusGlyph(s)+" "+strconv.Itoa(c)+" "+statusWord(s), statusStyle(s))...)
		}
	}
	if review > 0 {
		l = append(l, lineOf("  "+glyphReview+" "+strconv.Itoa(review)+" review", stReview)...)
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
	if it.Review {
		// Lost, but only inferred: its own mark and colour, and the
		// status the summary gave it as a word.
		first = lineOf(glyphReview+" ", stReview, fmt.Sprintf("%-11s ", "review"), stReview, oneLine(key), stHeading,
			" ("+statusWord(it.Status)+", not counted)", stReview)
	}
	out := []line{first}

	meta := lineOf("  "+turnLabel(it.Turn), stAccent)
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
		meta = append(meta, lineOf(" · closed at "+turnLabel(it.ClosedTurn)+": "+oneLine(it.ClosedBy), stSubtle)...)
	}
	if it.Basis != "" {
		meta = append(meta, lineOf(" · "+string(it.Basis), stSubtle)...)
	}
	out = append(out, meta)
	if it.Review {
		out = append(out, lineOf("  review: ", stReview, "only inferred ("+oneLine(it.Cue)+"), so listed, not counted", stSubtle))
	}

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

// selfReportWord names a self-report finding with what it means for the
// item ("" for none worth saying): a bare "underclaim" on a retained item
// reads like a fault.
func selfReportWord(f verify.Finding) string {
	if f == verify.NoClaim {
		return ""
	}
	w := strings.ReplaceAll(string(f), "_", " ")
	switch f {
	case verify.Overclaim, verify.UnsourcedClaim:
		w += " ⚠"
	}
	if m := selfReportMeaning(f); m != "" {
		w += " (" + m + ")"
	}
	return w
}

// selfReportMeaning says in a few words what a self-report finding means.
func selfReportMeaning(f verify.Finding) string {
	switch f {
	case verify.Agree:
		return "claimed kept, and kept"
	case verify.Overclaim:
		return "claimed kept, but not verified"
	case verify.UnsourcedClaim:
		return "a claim that matches nothing in the source"
	case verify.StaleClaim:
		return "claimed, but closed before this compaction"
	case verify.Underclaim:
		return "kept, though the compactor did not claim it"
	case verify.Unattested:
		return "the compactor reported nothing"
	}
	return ""
}
