package ui

// Size arithmetic only: where the header, the timeline, the panes and the
// footer go for a terminal size. Pure, so it is unit-tested directly.

// Minimum terminal size, and the width from which the three panes stand
// side by side (below it they become tabs).
const (
	minWidth   = 60
	minHeight  = 16
	wideLayout = 120
	// maxDetailRows bounds the rows the compaction detail may wrap to.
	maxDetailRows = 3
)

// The panes, in tab order.
const (
	paneSource = iota
	paneSummary
	paneItems
	numPanes
)

var paneNames = [numPanes]string{"Source", "Summary", "Preservation set"}

type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// layout places everything for one terminal size.
type layout struct {
	w, h     int
	tooSmall bool
	tabs     bool
	// Rows of the header, the timeline, the compaction detail (its first
	// row; it takes detailRows), the finding banner (-1 when there is none),
	// the tab bar (-1 in the wide layout) and the footer.
	header, timeline, detail, banner, tabBar, footer int
	detailRows                                       int
	// body is the area of the panes, or of an overlay.
	body rect
	// outer are the panes' boxes (their border included in the wide
	// layout), inner their text areas.
	outer, inner [numPanes]rect
	// overlay is an overlay's text area, inside its border.
	overlay rect
}

// computeLayout places everything; detailRows is how many rows the
// selected compaction's detail needs (1 to maxDetailRows), so that a long
// verdict reason wraps instead of being cut.
func computeLayout(w, h int, banner bool, detailRows int) layout {
	detailRows = min(max(1, detailRows), maxDetailRows)
	l := layout{w: w, h: h, header: 0, timeline: 1, detail: 2, detailRows: detailRows, banner: -1, tabBar: -1}
	if w < minWidth || h < minHeight {
		l.tooSmall = true
		return l
	}
	l.footer = h - 1
	bottom := h - 1 // first row below the body
	if banner {
		l.banner = h - 2
		bottom = h - 2
	}
	top := 2 + detailRows
	l.body = rect{0, top, w, bottom - top}
	l.overlay = rect{l.body.x + 1, l.body.y + 1, l.body.w - 2, l.body.h - 2}
	if w >= wideLayout {
		srcW := w * 2 / 5
		sumW := (w - srcW) / 2
		xs := [numPanes]int{0, srcW, srcW + sumW}
		ws := [numPanes]int{srcW, sumW, w - srcW - sumW}
		for i := range numPanes {
			l.outer[i] = rect{xs[i], l.body.y, ws[i], l.body.h}
			l.inner[i] = rect{xs[i] + 1, l.body.y + 1, ws[i] - 2, l.body.h - 2}
		}
		return l
	}
	l.tabs = true
	l.tabBar = l.body.y
	for i := range numPanes {
		l.outer[i] = rect{0, l.body.y + 1, w, l.body.h - 1}
		l.inner[i] = l.outer[i]
	}
	return l
}
