package ui

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// summaryView is the summary pane's provider: the summary exactly as the
// compactor wrote it, one block per line, with every item's evidence span
// painted by status (and underlined, so it reads without colour), a gutter
// mark where evidence starts, and the known section headings tagged with
// what they mean (‹pending›, ‹done›). It is rebuilt on a compaction switch,
// which costs the size of the summary, never of the transcript.
type summaryView struct {
	raw     string
	blocks  []*block
	lineOff []int // byte offset of each line in raw
	// mark is the worst status of the items whose evidence starts on a line.
	mark    []verify.Status
	hasMark []bool
	// sel is the line where the selected item's evidence starts, or -1.
	sel int
	// itemSpan and spanTag say which item's tag paints an item's evidence
	// (items sharing a span are painted under one tag).
	itemSpan map[int][2]int
	spanTag  map[[2]int]int
}

// tagOf is the tag under which item idx's evidence is painted.
func (v *summaryView) tagOf(idx int) int32 {
	if sp, ok := v.itemSpan[idx]; ok {
		return int32(v.spanTag[sp])
	}
	return int32(idx)
}

type evSpan struct {
	a, b int
	item int
	st   verify.Status
}

func newSummaryView(c *model.Compaction, cr *verify.CompactionResult) *summaryView {
	v := &summaryView{sel: -1}
	if c == nil {
		v.blocks = []*block{newBlock(lineOf("no compaction selected", stSubtle))}
		v.lineOff = []int{0}
		v.mark, v.hasMark = make([]verify.Status, 1), make([]bool, 1)
		return v
	}
	raw := c.Summary
	v.raw = raw
	if c.Opaque || strings.TrimSpace(raw) == "" {
		what := "the summary is empty"
		if c.Opaque {
			what = "the summary is opaque (encrypted or encoded by the runtime) and cannot be read"
		}
		v.blocks = []*block{newBlock(lineOf(what+" · "+bytesHuman(int64(len(raw))), stMarker))}
		if raw != "" {
			ls, _ := textLines(raw, stSubtle, maxBodyLines)
			v.blocks = append(v.blocks, newBlock(ls...))
		}
		v.lineOff = make([]int, len(v.blocks))
		v.mark, v.hasMark = make([]verify.Status, len(v.blocks)), make([]bool, len(v.blocks))
		return v
	}

	// Line offsets.
	for off := 0; ; {
		v.lineOff = append(v.lineOff, off)
		i := strings.IndexByte(raw[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	n := len(v.lineOff)
	v.mark, v.hasMark = make([]verify.Status, n), make([]bool, n)

	// Evidence spans, cut to the lines they cover. Items that share a
	// span are painted once, by the worst status among them.
	perLine := make([][]evSpan, n)
	if cr != nil {
		seen := map[[2]int]int{} // span -> index in perLine[first]
		v.itemSpan, v.spanTag = map[int][2]int{}, map[[2]int]int{}
		for idx, it := range cr.Items {
			if it.Evidence == nil {
				continue
			}
			a, b := alignSpan(raw, it.Evidence.Start, it.Evidence.End)
			if a >= b {
				continue
			}
			v.itemSpan[idx] = [2]int{a, b}
			if j, ok := seen[[2]int{a, b}]; ok {
				first := v.lineAt(a)
				if statusRank(it.Status) < statusRank(perLine[first][j].st) {
					for l := first; l <= v.lineAt(max(a, b-1)); l++ {
						for k := range perLine[l] {
							if perLine[l][k].a == a && perLine[l][k].b == b {
								perLine[l][k].st, perLine[l][k].item = it.Status, idx
							}
						}
					}
					v.spanTag[[2]int{a, b}] = idx
					v.mark[first] = minStatus(v.mark[first], it.Status)
				}
				continue
			}
			seen[[2]int{a, b}] = len(perLine[v.lineAt(a)])
			v.spanTag[[2]int{a, b}] = idx
			first, last := v.lineAt(a), v.lineAt(max(a, b-1))
			for l := first; l <= last; l++ {
				perLine[l] = append(perLine[l], evSpan{a, b, idx, it.Status})
			}
			if !v.hasMark[first] || statusRank(it.Status) < statusRank(v.mark[first]) {
				v.mark[first], v.hasMark[first] = it.Status, true
			}
		}
	}

	// Section headings.
	heading := make(map[int]verify.Polarity)
	if cr != nil {
		for _, s := range cr.Sections {
			if s.Heading == "" || s.Start < 0 || s.Start >= len(raw) {
				continue
			}
			heading[v.lineAt(s.Start)] = s.Polarity
		}
	}

	v.blocks = make([]*block, n)
	for l := range n {
		a := v.lineOff[l]
		b := len(raw)
		if l+1 < n {
			b = v.lineOff[l+1] - 1
		}
		if b > a && raw[b-1] == '\r' {
			b--
		}
		pol, isHeading := heading[l]
		base := stPlain
		if isHeading {
			base = stHeading
		}
		ln := summaryLine(raw, a, b, perLine[l], base)
		if isHeading && (pol == verify.Pending || pol == verify.Done) {
			ln = append(ln, seg{text: "  ‹" + string(pol) + "›", st: stTag, tag: noTag})
		}
		v.blocks[l] = newBlock(ln)
	}
	return v
}

func minStatus(a, b verify.Status) verify.Status {
	if statusRank(b) < statusRank(a) {
		return b
	}
	return a
}

// alignSpan clamps [a, b) to s and widens it to character boundaries.
func alignSpan(s string, a, b int) (int, int) {
	a, b = max(0, min(a, len(s))), max(0, min(b, len(s)))
	for a > 0 && a < len(s) && !utf8.RuneStart(s[a]) {
		a--
	}
	for b < len(s) && b > 0 && !utf8.RuneStart(s[b]) {
		b++
	}
	return a, b
}

// summaryLine builds the segments of raw[a:b], cut at evidence boundaries.
func summaryLine(raw string, a, b int, spans []evSpan, base styleID) line {
	if b-a > maxLineBytes {
		// Same display limit as everywhere: cut, and say so.
		end := a + maxLineBytes
		for end > a && !utf8.RuneStart(raw[end]) {
			end--
		}
		l := summaryLine(raw, a, end, spans, base)
		return append(l, seg{text: " ⟪" + glyphEllipsis + " " + commas(b-end) + " more bytes on this line⟫", st: stMarker, tag: noTag})
	}
	cuts := []int{a, b}
	for _, sp := range spans {
		if sp.a > a && sp.a < b {
			cuts = append(cuts, sp.a)
		}
		if sp.b > a && sp.b < b {
			cuts = append(cuts, sp.b)
		}
	}
	sort.Ints(cuts)
	var out line
	for i := 0; i+1 < len(cuts); i++ {
		x, y := cuts[i], cuts[i+1]
		if x == y {
			continue
		}
		st, tag := base, int32(noTag)
		best := -1
		for j, sp := range spans {
			if sp.a <= x && y <= sp.b && (best < 0 || statusRank(sp.st) < statusRank(spans[best].st)) {
				best = j
			}
		}
		if best >= 0 {
			st, tag = statusStyle(spans[best].st), int32(spans[best].item)
		}
		text := model.Sanitize(raw[x:y])
		text = strings.ReplaceAll(text, "\t", "    ")
		out = append(out, seg{text: text, st: st, tag: tag})
	}
	return out
}

// lineAt returns the line holding byte offset off.
func (v *summaryView) lineAt(off int) int {
	i := sort.Search(len(v.lineOff), func(i int) bool { return v.lineOff[i] > off })
	return max(0, i-1)
}

func (v *summaryView) Len() int           { return len(v.blocks) }
func (v *summaryView) Block(i int) *block { return v.blocks[i] }
func (v *summaryView) GutterWidth() int   { return 2 }
func (v *summaryView) Tone(int) tone      { return toneNormal }

func (v *summaryView) Gutter(sb *strings.Builder, th *theme, i, l, sub int) {
	switch {
	case sub == 0 && i == v.sel:
		sb.WriteString(paint(th.sgr[toneNormal][stAccent], glyphPointer))
	case sub == 0 && i < len(v.hasMark) && v.hasMark[i]:
		s := v.mark[i]
		sb.WriteString(paint(th.sgr[toneNormal][statusStyle(s)], statusGlyph(s)))
	default:
		sb.WriteByte(' ')
	}
	sb.WriteByte(' ')
}
