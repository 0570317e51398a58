package ui

import (
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/verify"
)

// The lineage map (`m`): every item × every compaction, one glyph per
// status, the items some summary lost first. It is the picture a
// postmortem starts from: where items died, and whether they came back.
// The rows are verify's LineageMap, which the reports draw too. A run with
// more compactions than fit shows a window of columns around the one
// being inspected, with ‹ › where columns are left out.

// mapWindow is the range of compaction columns the map shows at width w
// with a label column of lw cells: as many as fit, around column cur.
func mapWindow(n, cur, w, lw, cw int) (from, to int) {
	fit := max(1, (w-lw-2)/cw)
	if n <= fit {
		return 0, n
	}
	from = min(max(0, cur-fit/2), n-fit)
	return from, from + fit
}

// newLineageMapView lays out the map for the compaction being inspected
// (column ci) in w cells. A row's ref is its index in rows.
func newLineageMapView(res *verify.Result, rows []verify.LineageRow, ci, w int) *listView {
	v := &listView{sel: -1, gutter: true}
	if res == nil || len(res.Compactions) == 0 || len(rows) == 0 {
		v.add(-1, lineOf("No item was checked by any compaction: nothing to map.", stSubtle))
		return v
	}
	n := len(res.Compactions)
	cw := len(strconv.Itoa(res.Compactions[n-1].Seq)) + 2 // "#12" and a space
	lw := min(44, max(24, w/3))
	from, to := mapWindow(n, ci, w-2, lw, cw)

	legend := lineOf("  ", stPlain)
	for _, s := range []verify.Status{verify.Retained, verify.Weak, verify.Flipped, verify.IntentOnly, verify.Dropped, verify.Resurrected} {
		legend = append(legend, lineOf(statusGlyph(s), statusStyle(s), " "+statusWord(s)+"  ", stSubtle)...)
	}
	legend = append(legend, lineOf(verify.ReviewGlyph, stReview, " review (only inferred, not counted)  ", stSubtle)...)
	legend = append(legend, lineOf("blank: not open then", stSubtle)...)
	lost := 0
	for _, r := range rows {
		if r.Lost() {
			lost++
		}
	}
	head := lineOf(fit("", lw), stPlain)
	if from > 0 {
		head[0].text = fit("‹ "+strconv.Itoa(from)+" earlier", lw)
		head[0].st = stSubtle
	}
	for c := from; c < to; c++ {
		st := stAccent
		if c == ci {
			st = stCurrent
		}
		head = append(head, lineOf(fit("#"+strconv.Itoa(res.Compactions[c].Seq), cw), st)...)
	}
	if to < n {
		head = append(head, lineOf("› "+strconv.Itoa(n-to)+" later", stSubtle)...)
	}
	verdicts := lineOf(fit("", lw), stPlain)
	for c := from; c < to; c++ {
		cr := res.Compactions[c]
		st := stOK
		if cr.Verdict == verify.Violate {
			st = stBad
		}
		verdicts = append(verdicts, lineOf(fit(verdictGlyph(cr.Verdict), cw), st)...)
	}
	v.add(-1, legend, line{},
		lineOf(plural(len(rows), "item")+" checked · "+strconv.Itoa(lost)+" lost by some summary · enter goes to where one was first lost", stSubtle),
		line{}, head, verdicts)

	var group string
	for i, r := range rows {
		g := string(r.Kind) + " · kept by every summary"
		switch {
		case r.Lost():
			g = string(r.Kind) + " · lost"
		case r.InReview():
			g = string(r.Kind) + " · review (lost, but only inferred: not counted)"
		}
		if g != group {
			group = g
			v.add(-1, line{}, lineOf(strings.ToUpper(g), stHeading))
		}
		key := r.Key
		if key == "" {
			key = r.Text
		}
		label := lineOf(fit(clip(oneLine(key)+" ("+turnLabel(r.Turn)+")", lw-1), lw), stPlain)
		for c := from; c < to; c++ {
			s := r.Cells[c]
			switch {
			case s == "":
				label = append(label, lineOf(fit("", cw), stPlain)...)
			case r.Review[c]:
				label = append(label, lineOf(fit(r.Mark(c), cw), stReview)...)
			default:
				label = append(label, lineOf(fit(statusGlyph(s), cw), statusStyle(s))...)
			}
		}
		v.add(i, label)
	}
	return v
}
