package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/loupe-dev/loupe/model"
)

// The `d` view: a word-level diff of the replaced span's text against the
// summary, so a reader sees what the compactor kept and what it deleted;
// or of the previous summary against this one (diffsum.go).
//
// Each word (with the spaces after it) becomes one rune, the way go-diff's
// DiffLinesToRunes maps lines, and go-diff aligns the two rune strings. It
// runs in a tea.Cmd. go-diff silently returns a degenerate "delete all,
// insert all" diff when it hits its deadline (research/tui.md §4.4), so a
// diff that ran for the whole limit is reported as unfinished and not shown.

// diffLimit is the deadline of an interactive diff; `r` retries without one.
const diffLimit = 3 * time.Second

// diffMode is which text the `d` view diffs against the summary.
type diffMode uint8

const (
	// diffSpan: the replaced span (the raw events compaction k read).
	diffSpan diffMode = iota
	// diffSummary: the previous summary, with the items it carried that
	// this one lost marked.
	diffSummary
)

// diffResult is what the diff view shows.
type diffResult struct {
	mode                  diffMode
	seq, prevSeq          int
	lo, hi                int // the span's events, [lo, hi)
	loTurn, hiTurn        int // and their turns
	srcWords, kept, added int
	srcBytes, sumBytes    int
	elapsed, limit        time.Duration
	timedOut              bool
	err                   string
	blocks                []*block
	// lost are the items the previous summary carried that this one does
	// not (summary mode); marks[i] is the block where lost[i] is marked in
	// the diff, or -1.
	lost  []lostItem
	marks []int
	// focus is the item the diff highlights.
	focus diffFocus
}

// wordToken is a word with the whitespace after it, sanitized, and where
// it starts in the text it came from.
type wordToken struct {
	text string
	key  string
	off  int
}

// tokenize splits text into words with their trailing spaces, each
// sanitized on its own so that offsets stay those of the raw text.
func tokenize(s string, out []wordToken) []wordToken {
	i := 0
	for i < len(s) {
		j := i
		for j < len(s) && !isSpaceByte(s[j]) {
			j++
		}
		k := j
		for k < len(s) && isSpaceByte(s[k]) {
			k++
		}
		text := model.Sanitize(s[i:k])
		if strings.IndexByte(text, '\t') >= 0 {
			text = strings.ReplaceAll(text, "\t", "    ")
		}
		out = append(out, wordToken{text: text, key: wordKey(model.Sanitize(s[i:j])), off: i})
		i = k
	}
	return out
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// wordKey is what two words must share to count as the same: case and
// surrounding punctuation do not matter ("Migration." is "migration").
func wordKey(w string) string {
	k := strings.TrimFunc(w, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
	if k == "" {
		return w
	}
	return strings.ToLower(k)
}

// spanEvent is one event of the replaced span as text.
type spanEvent struct {
	event int
	title string
	text  string
}

// spanText collects the conversation of events [lo, hi) from memory (see
// conversationText): large outputs by their first lines. It reads no file.
func spanText(t *model.Transcript, lo, hi int) []spanEvent {
	var out []spanEvent
	for i := lo; i < hi && i < len(t.Events); i++ {
		e := t.Events[i]
		s, note, ok := conversationText(e)
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		title := eventTitle(e)
		if note != "" {
			title += " · " + note
		}
		out = append(out, spanEvent{event: i, title: title, text: s})
	}
	return out
}

// wordDiff aligns the words of a with those of b with a deadline (0:
// none). A diff that ran for the whole limit is reported as timed out,
// never returned: go-diff's answer at its deadline is wrong. There is no
// DiffCleanupSemantic: it merges the short equalities between edits, and on
// a span against its summary (research/perf.md §5) as on two summaries in
// different layouts those are most of what was kept (4% kept instead of 38%
// on the migration run's #3 → #4).
func wordDiff(a, b []wordToken, limit time.Duration) (diffs []diffmatchpatch.Diff, elapsed time.Duration, timedOut bool, err string) {
	ids := map[string]rune{}
	next := rune(1)
	toRunes := func(ts []wordToken) ([]rune, bool) {
		rs := make([]rune, len(ts))
		for i, tk := range ts {
			id, ok := ids[tk.key]
			if !ok {
				if next == 0xD800 {
					next = 0xE000 // never a surrogate: go-diff turns runes into strings
				}
				if next > utf8.MaxRune {
					return nil, false
				}
				id = next
				ids[tk.key] = id
				next++
			}
			rs[i] = id
		}
		return rs, true
	}
	ra, okA := toRunes(a)
	rb, okB := toRunes(b)
	if !okA || !okB {
		return nil, 0, false, "too many distinct words to diff"
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = limit
	start := time.Now()
	diffs = dmp.DiffMainRunes(ra, rb, false)
	elapsed = time.Since(start)
	if limit > 0 && elapsed >= limit {
		return nil, elapsed, true, ""
	}
	return diffs, elapsed, false, ""
}

// diffFocus is the item under the cursor when the diff was asked for: its
// origin event in the span (-1: none there) and its evidence in the
// summary ([a, b), empty when the summary has none). The diff shows both
// sides of it selected.
type diffFocus struct {
	event int
	a, b  int
}

// noFocus highlights nothing.
var noFocus = diffFocus{event: -1}

// inSummary reports whether a summary word lies in the focused evidence.
func (f diffFocus) inSummary(tk wordToken) bool {
	return f.b > f.a && tk.off < f.b && tk.off+len(tk.text) > f.a
}

// renderDiff expands diffs back to words into bl. before is called before
// each source word (kept or deleted) is written, to add what goes there (an
// event heading, a lost item's mark) and to pick the word's style.
func renderDiff(bl *blockBuilder, diffs []diffmatchpatch.Diff, src, sum []wordToken, focus diffFocus, before func(si int, deleted bool) styleID) (kept, added int) {
	si, bi := 0, 0
	for _, d := range diffs {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for range n {
				st := before(si, false)
				if focus.inSummary(sum[bi]) {
					st = stSelected
				}
				bl.write(src[si].text, st)
				si++
				bi++
				kept++
			}
		case diffmatchpatch.DiffDelete:
			for j := range n {
				st := before(si, true)
				bl.write(bracket(src[si].text, "[-", "-]", j == 0, j == n-1), st)
				si++
			}
		case diffmatchpatch.DiffInsert:
			for j := range n {
				st := stIns
				if focus.inSummary(sum[bi]) {
					st = stSelected
				}
				bl.write(bracket(sum[bi].text, "{+", "+}", j == 0, j == n-1), st)
				bi++
				added++
			}
		}
	}
	bl.flush()
	return kept, added
}

// computeDiff diffs events [lo, hi) of t against summary with a deadline
// (0: none). It is pure and runs off the UI goroutine.
func computeDiff(t *model.Transcript, seq, lo, hi int, summary string, limit time.Duration, focus diffFocus) diffResult {
	res := diffResult{mode: diffSpan, seq: seq, lo: lo, hi: hi, limit: limit, sumBytes: len(summary), focus: focus}
	if lo < hi && hi <= len(t.Events) {
		res.loTurn, res.hiTurn = t.Events[lo].Header().Turn, t.Events[hi-1].Header().Turn
	}
	events := spanText(t, lo, hi)
	var src []wordToken
	starts := make(map[int]int, len(events)) // token index -> events index
	focusLo, focusHi := -1, -1               // the focused event's tokens
	for i, ev := range events {
		starts[len(src)] = i
		res.srcBytes += len(ev.text)
		if ev.event == focus.event {
			focusLo = len(src)
		}
		src = tokenize(ev.text+"\n\n", src)
		if ev.event == focus.event {
			focusHi = len(src)
		}
	}
	sum := tokenize(summary, nil)
	res.srcWords = len(src)

	diffs, elapsed, timedOut, err := wordDiff(src, sum, limit)
	res.elapsed, res.timedOut, res.err = elapsed, timedOut, err
	if timedOut || err != "" {
		return res
	}
	var bl blockBuilder
	res.kept, res.added = renderDiff(&bl, diffs, src, sum, focus, func(si int, deleted bool) styleID {
		if k, ok := starts[si]; ok {
			bl.flush()
			if events[k].event == focus.event {
				bl.line = lineOf("── "+events[k].title+" ── ", stSubtle, glyphPointer+" the selected item comes from here", stAccent)
			} else {
				bl.line = lineOf("── "+events[k].title+" ──", stSubtle)
			}
			bl.endLine()
		}
		switch {
		case si >= focusLo && si < focusHi && !deleted:
			return stSelected
		case deleted:
			return stDel
		}
		return stPlain
	})
	res.blocks = bl.blocks
	return res
}

// blockBuilder turns a stream of styled text into lines and blocks.
type blockBuilder struct {
	line   line
	lines  []line
	blocks []*block
	// perLine makes every line a block of its own, so that a view can
	// scroll to any line (the summary diff's marks).
	perLine bool
}

func (bb *blockBuilder) write(s string, st styleID) {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			if s != "" {
				bb.line = append(bb.line, seg{text: s, st: st, tag: noTag})
			}
			return
		}
		if i > 0 {
			bb.line = append(bb.line, seg{text: s[:i], st: st, tag: noTag})
		}
		bb.endLine()
		s = s[i+1:]
	}
}

func (bb *blockBuilder) endLine() {
	l := bb.line
	if n := len(plainOf(l)); n > maxLineBytes {
		l = cutSegsLine(l)
	}
	bb.lines = append(bb.lines, l)
	bb.line = nil
	if bb.perLine {
		bb.blocks = append(bb.blocks, newBlock(bb.lines...))
		bb.lines = nil
	}
}

// cutSegsLine applies the display limit to a styled line.
func cutSegsLine(l line) line {
	out := cutSegs(l, 0, maxLineBytes)
	more := len(plainOf(l)) - len(plainOf(out))
	return append(out, seg{text: " ⟪" + glyphEllipsis + " " + commas(more) + " more bytes on this line⟫", st: stMarker, tag: noTag})
}

func (bb *blockBuilder) flush() {
	if len(bb.line) > 0 {
		bb.endLine()
	}
	if len(bb.lines) > 0 {
		bb.blocks = append(bb.blocks, newBlock(bb.lines...))
		bb.lines = nil
	}
}

// newDiffView builds the overlay for a diff result, and says where the
// diff's own blocks start in it. In summary mode the lost items come first,
// selectable: enter goes to the mark of one.
func newDiffView(r *diffResult, pending bool) (*listView, int) {
	v := &listView{sel: -1}
	if pending {
		v.add(-1, lineOf("computing the word diff off the UI thread "+glyphEllipsis, stSubtle))
		return v, 0
	}
	if r.err != "" {
		v.add(-1, lineOf(glyphViolate+" "+r.err, stBad))
		return v, 0
	}
	what := "The replaced span"
	if r.mode == diffSummary {
		what = "Summary #" + strconv.Itoa(r.prevSeq)
	}
	if r.timedOut {
		v.add(-1,
			lineOf(glyphViolate+" The word diff did not finish within "+r.limit.String()+".", stBad),
			lineOf(fmt.Sprintf("%s has %s words (%s); the summary %s.", what, commas(r.srcWords), bytesHuman(int64(r.srcBytes)), bytesHuman(int64(r.sumBytes))), stPlain),
			lineOf("go-diff returns a wrong diff when it hits its deadline, so none is shown.", stPlain),
			lineOf("Press r to run it without a time limit (in the background; esc leaves).", stSubtle))
		return v, 0
	}
	pct := 0
	if r.srcWords > 0 {
		pct = r.kept * 100 / r.srcWords
	}
	took := fmt.Sprintf(" · diffed in %.1f ms", float64(r.elapsed.Microseconds())/1000)
	if r.mode == diffSpan {
		turns := "The span is empty."
		if r.hi > r.lo {
			turns = fmt.Sprintf("The span is %s–%s (%s).", turnLabel(r.loTurn), strconv.Itoa(r.hiTurn), plural(r.hi-r.lo, "event"))
		}
		v.add(-1,
			lineOf(fmt.Sprintf("Compaction #%d kept %s of %s source words (%d%%); the summary adds %s words.", r.seq, commas(r.kept), commas(r.srcWords), pct, commas(r.added)), stHeading),
			lineOf("[-deleted-]", stDel, " source words the summary does not have · ", stSubtle, "{+added+}", stIns, " summary words not in the source"+took, stSubtle),
			lineOf(turns+" The conversation as a reader sees it: messages, what each call did, the first lines of each result.", stSubtle),
			line{})
	} else {
		prev, cur := "#"+strconv.Itoa(r.prevSeq), "#"+strconv.Itoa(r.seq)
		v.add(-1,
			lineOf(fmt.Sprintf("Summary %s kept %s of the %s words of summary %s (%d%%) and adds %s.", cur, commas(r.kept), commas(r.srcWords), prev, pct, commas(r.added)), stHeading),
			lineOf("[-deleted-]", stDel, " words of "+prev+" that "+cur+" does not have · ", stSubtle, "{+added+}", stIns, " words "+cur+" adds"+took, stSubtle),
			lineOf("⟦✗ dropped in "+cur+": …⟧", stLostMark, " where "+prev+" carried an item that "+cur+" lost, its words ", stSubtle, "underlined", stLost))
		if len(r.lost) == 0 {
			v.add(-1, lineOf("Every item summary "+prev+" carried is still verified in "+cur+".", stOK))
		} else {
			verb := "are"
			if len(r.lost) == 1 {
				verb = "is"
			}
			v.add(-1, line{}, lineOf(plural(len(r.lost), "item")+" summary "+prev+" carried "+verb+" not verified in "+cur+" · enter goes to where "+prev+" had it", stBad))
			for _, li := range r.lost {
				st := statusStyle(li.now)
				l := lineOf("  "+statusGlyph(li.now)+" "+fmt.Sprintf("%-11s ", statusWord(li.now)), st, string(li.kind)+" ", stSubtle, oneLine(li.key), stHeading, "  "+turnLabel(li.turn), stAccent)
				v.add(-1, l, lineOf("      in "+prev+": ", stSubtle, "“"+clip(oneLine(li.evidence), 300)+"”", stLost))
			}
		}
		v.add(-1, line{})
	}
	head := len(v.blocks)
	for _, b := range r.blocks {
		v.blocks = append(v.blocks, b)
		v.lazy = append(v.lazy, nil)
		v.ref = append(v.ref, -1)
	}
	return v, head
}

// bracket marks the first and last token of a deleted or inserted run the
// way wdiff does ("[-old words-]", "{+new words+}"); the closing mark goes
// before the token's trailing space so the run reads as one.
func bracket(t, open, closing string, first, last bool) string {
	if first {
		t = open + t
	}
	if last {
		body := strings.TrimRight(t, " \n")
		t = body + closing + t[len(body):]
	}
	return t
}
