package ui

import (
	"strings"
)

// provider is what a pane shows: a sequence of blocks. A provider may build
// blocks lazily (the source pane builds an event's block when it first comes
// into view) but must answer Len and Block without work proportional to the
// whole sequence.
type provider interface {
	// Len is the number of blocks.
	Len() int
	// Block returns block i, building it if needed.
	Block(i int) *block
	// GutterWidth is the width in cells of the gutter left of the text.
	GutterWidth() int
	// Gutter writes the gutter of row sub of line l of block i, exactly
	// GutterWidth cells wide.
	Gutter(sb *strings.Builder, th *theme, i, l, sub int)
	// Tone is the tone of block i.
	Tone(i int) tone
}

// pos is a position in a pane: a block, a line of it and a row of that line.
type pos struct{ b, l, s int }

// pane is a virtualized, scrollable view of a provider: it renders only the
// rows on screen, and every move walks at most as many rows as it scrolls.
// It is used for the source, the summary, the preservation set and the
// overlays; none of them uses bubbles' viewport (research/tui.md §4.5).
type pane struct {
	p     provider
	top   pos
	w, h  int // text area including the gutter
	hiTag int32
	query string // search query to mark in rows
	// sel is the selected block (selectable panes), or -1.
	sel int
}

func newPane(p provider) *pane {
	return &pane{p: p, hiTag: noTag, sel: -1}
}

func (p *pane) textWidth() int { return max(1, p.w-p.p.GutterWidth()) }

// rows returns the wrapped rows of line l of block b.
func (p *pane) rows(b, l int) []row {
	return p.p.Block(b).rowsOf(l, p.textWidth())
}

// clamp keeps q inside the provider: a block may have been replaced by a
// shorter one (a whole event evicted back to its preview).
func (p *pane) clamp(q pos) pos {
	n := p.p.Len()
	if n == 0 {
		return pos{}
	}
	if q.b >= n {
		q = pos{b: n - 1, l: 1 << 30, s: 1 << 30}
	}
	if lines := len(p.p.Block(q.b).lines); q.l >= lines {
		q.l, q.s = lines-1, 1<<30
	}
	if rows := len(p.rows(q.b, q.l)); q.s >= rows {
		q.s = rows - 1
	}
	return q
}

// next returns the position one row below q, or false at the end.
func (p *pane) next(q pos) (pos, bool) {
	if q.s+1 < len(p.rows(q.b, q.l)) {
		return pos{q.b, q.l, q.s + 1}, true
	}
	if q.l+1 < len(p.p.Block(q.b).lines) {
		return pos{q.b, q.l + 1, 0}, true
	}
	if q.b+1 < p.p.Len() {
		return pos{q.b + 1, 0, 0}, true
	}
	return q, false
}

// prev returns the position one row above q, or false at the start.
func (p *pane) prev(q pos) (pos, bool) {
	if q.s > 0 {
		return pos{q.b, q.l, q.s - 1}, true
	}
	if q.l > 0 {
		return pos{q.b, q.l - 1, len(p.rows(q.b, q.l-1)) - 1}, true
	}
	if q.b > 0 {
		b := q.b - 1
		l := len(p.p.Block(b).lines) - 1
		return pos{b, l, len(p.rows(b, l)) - 1}, true
	}
	return q, false
}

// end returns the position of the last row.
func (p *pane) end() pos {
	n := p.p.Len()
	if n == 0 {
		return pos{}
	}
	b := n - 1
	l := len(p.p.Block(b).lines) - 1
	return pos{b, l, len(p.rows(b, l)) - 1}
}

// Down scrolls n rows down, never past the point where the last row is at
// the bottom.
func (p *pane) Down(n int) {
	if p.p.Len() == 0 {
		return
	}
	p.top = p.clamp(p.top)
	for ; n > 0; n-- {
		q, ok := p.next(p.top)
		if !ok {
			break
		}
		p.top = q
	}
	p.clampBottom()
}

// Up scrolls n rows up.
func (p *pane) Up(n int) {
	if p.p.Len() == 0 {
		return
	}
	p.top = p.clamp(p.top)
	for ; n > 0; n-- {
		q, ok := p.prev(p.top)
		if !ok {
			break
		}
		p.top = q
	}
}

// Top scrolls to the first row.
func (p *pane) Top() { p.top = pos{} }

// Bottom scrolls so that the last row is at the bottom.
func (p *pane) Bottom() {
	if p.p.Len() == 0 {
		return
	}
	p.top = p.end()
	p.Up(p.h - 1)
}

// clampBottom moves the top up when fewer than h rows follow it.
func (p *pane) clampBottom() {
	if p.p.Len() == 0 {
		return
	}
	p.top = p.clamp(p.top)
	q := p.top
	for i := 1; i < p.h; i++ {
		var ok bool
		if q, ok = p.next(q); !ok {
			p.top = p.end()
			p.Up(p.h - 1)
			return
		}
	}
}

// ScrollTo puts block b at the top, with ctx rows of context above it.
func (p *pane) ScrollTo(b, ctx int) {
	if b < 0 || b >= p.p.Len() {
		return
	}
	p.top = pos{b, 0, 0}
	p.Up(ctx)
	p.clampBottom()
}

// ScrollToLine puts line l of block b at the top, with ctx rows above.
func (p *pane) ScrollToLine(b, l, ctx int) {
	if b < 0 || b >= p.p.Len() {
		return
	}
	l = min(l, len(p.p.Block(b).lines)-1)
	p.top = pos{b, l, 0}
	p.Up(ctx)
	p.clampBottom()
}

// Reveal scrolls the least needed to show all of block b (or its start
// when it is taller than the pane).
func (p *pane) Reveal(b int) {
	if b < 0 || b >= p.p.Len() {
		return
	}
	if b < p.top.b || (b == p.top.b && (p.top.l > 0 || p.top.s > 0)) {
		p.ScrollTo(b, 0)
		return
	}
	// Rows from the top through the end of b, counted up to h+1.
	q, n := p.top, 1
	for n <= p.h {
		nq, ok := p.next(q)
		if !ok || nq.b > b {
			break
		}
		q = nq
		n++
	}
	if n <= p.h {
		return // all of b is on screen
	}
	// Put b's end at the bottom, or its start at the top when it is taller.
	rows := 0
	for e, ok := (pos{b, 0, 0}), true; ok && e.b == b && rows < p.h; e, ok = p.next(e) {
		rows++
	}
	p.top = pos{b, 0, 0}
	p.Up(p.h - rows)
}

// BlockAt returns the block drawn at row y of the pane (0-based), or -1.
func (p *pane) BlockAt(y int) int {
	if p.p.Len() == 0 || y < 0 || y >= p.h {
		return -1
	}
	q := p.top
	for i := 0; i < y; i++ {
		var ok bool
		if q, ok = p.next(q); !ok {
			return -1
		}
	}
	return q.b
}

// View renders the pane's h rows, each exactly w cells wide.
func (p *pane) View(th *theme) []string {
	out := make([]string, 0, p.h)
	tw := p.textWidth()
	gw := p.p.GutterWidth()
	var sb strings.Builder
	ok := p.p.Len() > 0
	if ok {
		p.top = p.clamp(p.top)
	}
	q := p.top
	for len(out) < p.h {
		sb.Reset()
		if !ok {
			pad(&sb, p.w)
			out = append(out, sb.String())
			continue
		}
		rs := p.rows(q.b, q.l)
		r := rs[min(q.s, len(rs)-1)]
		if gw > 0 {
			p.p.Gutter(&sb, th, q.b, q.l, q.s)
		}
		tn := p.p.Tone(q.b)
		if q.b == p.sel {
			tn = toneSel
		}
		writeRow(&sb, th, r, tw, rowStyle{tone: tn, hiTag: p.hiTag, query: p.query})
		out = append(out, sb.String())
		q, ok = p.next(q)
	}
	return out
}

// Percent is how far through the pane the top is, by block.
func (p *pane) Percent() int {
	n := p.p.Len()
	if n <= 1 {
		return 0
	}
	return p.top.b * 100 / (n - 1)
}

// moreBelow reports whether rows lie below the last one on screen: a title
// says so, since nothing else shows that an overlay scrolls.
func (p *pane) moreBelow() bool {
	q := p.clamp(p.top)
	for range p.h {
		n, ok := p.next(q)
		if !ok {
			return false
		}
		q = n
	}
	return true
}
