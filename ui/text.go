package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/model"
)

// This file is the text engine every pane shares: sanitized, styled
// segments; logical lines; wrapping into rows at a width; and writing rows
// with their SGR prefixes. Nothing here looks at the transcript as a whole.

// maxLineBytes is the display limit of one logical line: a longer line
// (minified JSON, a base64 blob) is cut with a marker, so no single line can
// make wrapping or rendering slow.
const maxLineBytes = 4096

// noTag marks a segment that belongs to no item.
const noTag = -1

// seg is a run of sanitized text (no newline, no tab, no control) in one
// style. tag is the index of the item the text is evidence of, or noTag.
type seg struct {
	text string
	st   styleID
	tag  int32
}

// line is one logical line of a block.
type line []seg

// row is one screen row of a wrapped line: the segments that fit and their
// width in cells.
type row struct {
	segs  []seg
	plain string // the row's text, for search
	w     int
}

// block is a unit a pane scrolls through: an event, a summary line, an item.
// Its lines are built once; their rows are wrapped lazily for the current
// width and cached.
type block struct {
	lines []line
	wrapW int
	rows  [][]row
	// partial is set when the block shows less than its whole text.
	partial bool
}

func newBlock(lines ...line) *block {
	if len(lines) == 0 {
		lines = []line{nil}
	}
	return &block{lines: lines}
}

// rowsOf returns line l wrapped at width w.
func (b *block) rowsOf(l, w int) []row {
	if b.wrapW != w || b.rows == nil {
		b.wrapW = w
		b.rows = make([][]row, len(b.lines))
	}
	if b.rows[l] == nil {
		b.rows[l] = wrapLine(b.lines[l], w)
	}
	return b.rows[l]
}

// plainOf returns the text of a line without styles.
func plainOf(l line) string {
	if len(l) == 1 {
		return l[0].text
	}
	var sb strings.Builder
	for _, s := range l {
		sb.WriteString(s.text)
	}
	return sb.String()
}

// textLines turns untrusted text into lines of style st: sanitized, tabs
// expanded, split at newlines, each cut at the display limit. At most
// maxLines lines are kept (0: no limit); cut reports whether some were not.
func textLines(s string, st styleID, maxLines int) (out []line, cut bool) {
	s = model.Sanitize(s)
	for len(s) > 0 || out == nil {
		if maxLines > 0 && len(out) >= maxLines {
			return out, true
		}
		var ln string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			ln, s = s[:i], s[i+1:]
		} else {
			ln, s = s, ""
		}
		out = append(out, cutLine(ln, st))
	}
	return out, false
}

// cutLine expands tabs and applies the display limit to one sanitized line.
func cutLine(ln string, st styleID) line {
	if strings.IndexByte(ln, '\t') >= 0 {
		ln = strings.ReplaceAll(ln, "\t", "    ")
	}
	if len(ln) <= maxLineBytes {
		return line{{text: ln, st: st, tag: noTag}}
	}
	n := maxLineBytes
	for n > 0 && ln[n]&0xC0 == 0x80 {
		n--
	}
	more := len(ln) - n
	return line{
		{text: ln[:n], st: st, tag: noTag},
		{text: " ⟪" + glyphEllipsis + " " + commas(more) + " more bytes on this line⟫", st: stMarker, tag: noTag},
	}
}

// lineOf builds a line from (text, style) pairs of trusted text.
func lineOf(parts ...any) line {
	var l line
	for i := 0; i+1 < len(parts); i += 2 {
		l = append(l, seg{text: parts[i].(string), st: parts[i+1].(styleID), tag: noTag})
	}
	return l
}

// wrapLine breaks a line into rows of at most w cells, at spaces when it can
// and inside a word when a word is longer than a row. Continuation rows keep
// the line's indentation (up to maxHang cells), so wrapped items and
// indented output stay readable.
func wrapLine(l line, w int) []row {
	if w < 1 {
		w = 1
	}
	plain := plainOf(l)
	hang := 0
	for hang < len(plain) && hang < maxHang && plain[hang] == ' ' {
		hang++
	}
	if hang >= len(plain) || hang > w/3 {
		hang = 0
	}
	spans := wrapPlain(plain, w, hang)
	rows := make([]row, len(spans))
	indent := strings.Repeat(" ", hang)
	for i, sp := range spans {
		segs := cutSegs(l, sp.a, sp.b)
		r := row{segs: segs, plain: plain[sp.a:sp.b], w: sp.w}
		if i > 0 && hang > 0 {
			r.segs = append([]seg{{text: indent, st: stPlain, tag: noTag}}, segs...)
			r.plain = indent + r.plain
			r.w += hang
		}
		rows[i] = r
	}
	return rows
}

// maxHang bounds the hanging indent of wrapped lines.
const maxHang = 8

type rowSpan struct{ a, b, w int }

// wrapPlain returns the byte ranges of the rows of s wrapped at w cells;
// rows after the first are hang cells narrower.
func wrapPlain(s string, w, hang int) []rowSpan {
	var rows []rowSpan
	a, width := 0, 0
	next := max(1, w-hang)              // the width of continuation rows
	brkStart, brkEnd, brkW := -1, -1, 0 // last run of spaces in the row
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' {
			if brkEnd != i {
				brkStart, brkW = i, width
			}
			brkEnd = i + 1
			width++
			i++
			continue
		}
		var g string
		gw := 1
		if c < 0x80 {
			g = s[i : i+1]
		} else {
			g, gw = ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
			if g == "" {
				g = s[i : i+1]
			}
		}
		if width+gw > w && i > a {
			if brkStart > a && brkEnd <= i {
				rows = append(rows, rowSpan{a, brkStart, brkW})
				width -= brkW + (brkEnd - brkStart)
				a = brkEnd
			} else {
				rows = append(rows, trimSpan(s, rowSpan{a, i, width}, w))
				a, width = i, 0
			}
			w = next
			brkStart, brkEnd = -1, -1
			if width+gw > w && i > a {
				rows = append(rows, rowSpan{a, i, width})
				a, width = i, 0
			}
		}
		width += gw
		i += len(g)
	}
	return append(rows, trimSpan(s, rowSpan{a, len(s), width}, w))
}

// trimSpan drops trailing spaces that hang past the width.
func trimSpan(s string, sp rowSpan, w int) rowSpan {
	for sp.w > w && sp.b > sp.a && s[sp.b-1] == ' ' {
		sp.b--
		sp.w--
	}
	return sp
}

// cutSegs returns the parts of l's segments that fall in the byte range
// [a, b) of its plain text.
func cutSegs(l line, a, b int) []seg {
	var out []seg
	off := 0
	for _, s := range l {
		end := off + len(s.text)
		lo, hi := max(a, off), min(b, end)
		if lo < hi {
			out = append(out, seg{text: s.text[lo-off : hi-off], st: s.st, tag: s.tag})
		}
		off = end
		if off >= b {
			break
		}
	}
	return out
}

// rowStyle tells writeRow how to paint: the tone of the block, the item tag
// painted as selected, and the search query to mark.
type rowStyle struct {
	tone  tone
	hiTag int32
	query string
}

// writeRow writes r padded to w cells.
func writeRow(sb *strings.Builder, th *theme, r row, w int, rs rowStyle) {
	if rs.query != "" {
		if ms := findFold(r.plain, rs.query); ms != nil {
			writeMatched(sb, th, r, rs, ms)
			pad(sb, w-r.w)
			return
		}
	}
	for _, s := range r.segs {
		st := s.st
		if rs.hiTag != noTag && s.tag == rs.hiTag {
			st = stSelected
		}
		sb.WriteString(paint(th.sgr[rs.tone][st], s.text))
	}
	pad(sb, w-r.w)
}

// writeMatched writes a row whose plain text has search matches at ms (byte
// ranges).
func writeMatched(sb *strings.Builder, th *theme, r row, rs rowStyle, ms [][2]int) {
	off := 0
	for _, s := range r.segs {
		st := s.st
		if rs.hiTag != noTag && s.tag == rs.hiTag {
			st = stSelected
		}
		text := s.text
		pos := off
		for len(text) > 0 {
			// Find the next boundary: a match start or end.
			in, next := false, pos+len(text)
			for _, m := range ms {
				if m[0] <= pos && pos < m[1] {
					in, next = true, min(next, m[1])
					break
				}
				if m[0] > pos && m[0] < next {
					next = m[0]
				}
			}
			n := next - pos
			p := th.sgr[rs.tone][st]
			if in {
				p = th.sgr[rs.tone][stMatch]
			}
			sb.WriteString(paint(p, text[:n]))
			text = text[n:]
			pos = next
		}
		off += len(s.text)
	}
}

// findFold returns the byte ranges of s where q occurs, ignoring ASCII case.
func findFold(s, q string) [][2]int {
	if len(q) == 0 || len(s) < len(q) {
		return nil
	}
	var out [][2]int
	for i := 0; i+len(q) <= len(s); {
		j := indexFold(s[i:], q)
		if j < 0 {
			break
		}
		out = append(out, [2]int{i + j, i + j + len(q)})
		i += j + len(q)
	}
	return out
}

// indexFold is strings.Index ignoring ASCII case.
func indexFold(s, q string) int {
	if q == "" {
		return 0
	}
	c0 := lowerASCII(q[0])
	for i := 0; i+len(q) <= len(s); i++ {
		if lowerASCII(s[i]) != c0 {
			continue
		}
		k := 1
		for k < len(q) && lowerASCII(s[i+k]) == lowerASCII(q[k]) {
			k++
		}
		if k == len(q) {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func pad(sb *strings.Builder, n int) {
	for ; n > 0; n-- {
		sb.WriteByte(' ')
	}
}

// fit cuts or pads trusted text (which may hold SGR) to exactly w cells.
func fit(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, glyphEllipsis)
		n = ansi.StringWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// clip shortens plain text to at most w cells.
func clip(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, glyphEllipsis)
}

// prefixOf returns at most the first n bytes of s, cut at a character.
func prefixOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// oneLine sanitizes untrusted text for a single row: newlines and runs of
// spaces become one space.
func oneLine(s string) string {
	s = model.Sanitize(s)
	if strings.ContainsAny(s, "\n\t") || strings.Contains(s, "  ") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}

// commas formats n with thousands separators.
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var sb strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(c)
	}
	if neg {
		return "-" + sb.String()
	}
	return sb.String()
}

// bytesHuman formats a byte count (1.2 MB).
func bytesHuman(n int64) string {
	const unit = 1000
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64) + " " + string("kMGTPE"[exp]) + "B"
}
