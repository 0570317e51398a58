package ui

import "strings"

// listView is a provider over blocks built up front: the preservation set,
// the findings, a lineage, the help, a diff. Some blocks are selectable; the
// selected one gets a bar in the gutter and a tinted background.
type listView struct {
	// blocks[i] is built from lazy[i] the first time it is needed, so a
	// preservation set of thousands of items costs only what is on screen.
	blocks []*block
	lazy   []func() []line
	// ref is what a block stands for (an item index, a finding index…), or
	// -1 for a heading or a note that cannot be selected.
	ref []int
	sel int
	// gutter is false for read-only views (help, diff) that need no bar.
	gutter bool
}

func (v *listView) add(ref int, lines ...line) {
	v.blocks = append(v.blocks, newBlock(lines...))
	v.lazy = append(v.lazy, nil)
	v.ref = append(v.ref, ref)
}

// addLazy adds a block whose lines build makes when it is first shown.
func (v *listView) addLazy(ref int, build func() []line) {
	v.blocks = append(v.blocks, nil)
	v.lazy = append(v.lazy, build)
	v.ref = append(v.ref, ref)
}

func (v *listView) Len() int { return len(v.blocks) }

func (v *listView) Block(i int) *block {
	if v.blocks[i] == nil {
		v.blocks[i] = newBlock(v.lazy[i]()...)
		v.lazy[i] = nil
	}
	return v.blocks[i]
}
func (v *listView) Tone(int) tone { return toneNormal }

func (v *listView) GutterWidth() int {
	if v.gutter {
		return 2
	}
	return 0
}

func (v *listView) Gutter(sb *strings.Builder, th *theme, i, _, _ int) {
	if i == v.sel {
		sb.WriteString(paint(th.barSel, glyphSelBar))
	} else {
		sb.WriteByte(' ')
	}
	sb.WriteByte(' ')
}

// blockOf returns the block that stands for ref, or -1.
func (v *listView) blockOf(ref int) int {
	for i, r := range v.ref {
		if r == ref && ref >= 0 {
			return i
		}
	}
	return -1
}

// step returns the selectable block d steps from the selection (d may be
// negative), staying on the last one in that direction.
func (v *listView) step(d int) int {
	cur := v.sel
	for d != 0 {
		dir := 1
		if d < 0 {
			dir = -1
		}
		nxt := -1
		for i := cur + dir; i >= 0 && i < len(v.blocks); i += dir {
			if v.ref[i] >= 0 {
				nxt = i
				break
			}
		}
		if nxt < 0 {
			break
		}
		cur = nxt
		d -= dir
	}
	return cur
}

// first and last return the first and last selectable blocks, or -1.
func (v *listView) first() int {
	for i, r := range v.ref {
		if r >= 0 {
			return i
		}
	}
	return -1
}

func (v *listView) last() int {
	for i := len(v.ref) - 1; i >= 0; i-- {
		if v.ref[i] >= 0 {
			return i
		}
	}
	return -1
}
