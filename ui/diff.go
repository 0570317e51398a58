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
// summary, so a reader sees what the compactor kept and what it deleted.
//
// Each word (with the spaces after it) becomes one rune, the way go-diff's
// DiffLinesToRunes maps lines, and go-diff aligns the two rune strings. It
// runs in a tea.Cmd. go-diff silently returns a degenerate "delete all,
// insert all" diff when it hits its deadline (research/tui.md §4.4), so a
// diff that ran for the whole limit is reported as unfinished and not shown.
// No DiffCleanupSemantic: on source-vs-summary it collapses the alignment
// (research/perf.md §5).

// diffLimit is the deadline of an interactive diff; `r` retries without one.
const diffLimit = 3 * time.Second

// diffResult is what the diff view shows.
type diffResult struct {
	seq                   int
	lo, hi                int
	srcWords, kept, added int
	srcBytes, sumBytes    int
	elapsed, limit        time.Duration
	timedOut              bool
	err                   string
	blocks                []*block
}

// wordToken is a word with the whitespace after it, sanitized.
type wordToken struct {
	text string
	key  string
}

// tokenize splits sanitized text into words with their trailing spaces.
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
		out = append(out, wordToken{text: s[i:k], key: wordKey(s[i:j])})
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

// spanSource is the replaced span's text, event by event.
type spanEvent struct {
	event int
	title string
	text  string
}

// spanText collects the text of events [lo, hi) from memory: messages,
// tool calls and results (large outputs by their head and tail), plans and
// commitments. It reads no file.
func spanText(t *model.Transcript, lo, hi int) []spanEvent {
	var out []spanEvent
	for i := lo; i < hi && i < len(t.Events); i++ {
		e := t.Events[i]
		var s string
		switch ev := e.(type) {
		case *model.Message:
			s = ev.Text
		case *model.ToolCall:
			s = ev.Name + " " + ev.Input.Preview()
		case *model.ToolResult:
			s = ev.Text.Preview()
		case *model.Plan, *model.CommitmentEvent:
			s = eventPreview(e)
		default:
			continue
		}
		out = append(out, spanEvent{event: i, title: eventTitle(e), text: strings.ReplaceAll(model.Sanitize(s), "\t", "    ")})
	}
	return out
}

// computeDiff diffs events [lo, hi) of t against summary with a deadline
// (0: none). It is pure and runs off the UI goroutine.
func computeDiff(t *model.Transcript, seq, lo, hi int, summary string, limit time.Duration) diffResult {
	res := diffResult{seq: seq, lo: lo, hi: hi, limit: limit, sumBytes: len(summary)}
	events := spanText(t, lo, hi)
	var src []wordToken
	starts := make(map[int]int, len(events)) // token index -> events index
	for i, ev := range events {
		starts[len(src)] = i
		res.srcBytes += len(ev.text)
		src = tokenize(ev.text+"\n\n", src)
	}
	sum := tokenize(strings.ReplaceAll(model.Sanitize(summary), "\t", "    "), nil)
	res.srcWords = len(src)

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
	a, okA := toRunes(src)
	b, okB := toRunes(sum)
	if !okA || !okB {
		res.err = "too many distinct words to diff"
		return res
	}

	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = limit
	start := time.Now()
	diffs := dmp.DiffMainRunes(a, b, false)
	res.elapsed = time.Since(start)
	if limit > 0 && res.elapsed >= limit {
		res.timedOut = true
		return res
	}

	// Expand runes back to words, event by event.
	var bl blockBuilder
	si, bi := 0, 0
	startEvent := func() {
		if k, ok := starts[si]; ok {
			bl.flush()
			bl.line = lineOf("── "+events[k].title+" ──", stSubtle)
			bl.endLine()
		}
	}
	for _, d := range diffs {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for range n {
				startEvent()
				bl.write(src[si].text, stPlain)
				si++
				bi++
				res.kept++
			}
		case diffmatchpatch.DiffDelete:
			for j := range n {
				startEvent()
				bl.write(bracket(src[si].text, "[-", "-]", j == 0, j == n-1), stDel)
				si++
			}
		case diffmatchpatch.DiffInsert:
			for j := range n {
				bl.write(bracket(sum[bi].text, "{+", "+}", j == 0, j == n-1), stIns)
				bi++
				res.added++
			}
		}
	}
	bl.flush()
	res.blocks = bl.blocks
	return res
}

// blockBuilder turns a stream of styled text into lines and blocks.
type blockBuilder struct {
	line   line
	lines  []line
	blocks []*block
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

// newDiffView builds the overlay for a diff result.
func newDiffView(r *diffResult, pending bool) *listView {
	v := &listView{sel: -1}
	if pending {
		v.add(-1, lineOf("computing the word diff off the UI thread "+glyphEllipsis, stSubtle))
		return v
	}
	if r.err != "" {
		v.add(-1, lineOf(glyphViolate+" "+r.err, stBad))
		return v
	}
	if r.timedOut {
		v.add(-1,
			lineOf(glyphViolate+" The word diff did not finish within "+r.limit.String()+".", stBad),
			lineOf(fmt.Sprintf("The replaced span has %s words (%s); the summary %s.", commas(r.srcWords), bytesHuman(int64(r.srcBytes)), bytesHuman(int64(r.sumBytes))), stPlain),
			lineOf("go-diff returns a wrong diff when it hits its deadline, so none is shown.", stPlain),
			lineOf("Press r to run it without a time limit (in the background; esc leaves).", stSubtle))
		return v
	}
	pct := 0
	if r.srcWords > 0 {
		pct = r.kept * 100 / r.srcWords
	}
	v.add(-1,
		lineOf(fmt.Sprintf("Compaction #%d kept %s of %s source words (%d%%); the summary adds %s words.", r.seq, commas(r.kept), commas(r.srcWords), pct, commas(r.added)), stHeading),
		lineOf("[-deleted-]", stDel, " source words the summary does not have · ", stSubtle, "{+added+}", stIns, fmt.Sprintf(" summary words not in the source · diffed in %.1f ms", float64(r.elapsed.Microseconds())/1000), stSubtle),
		lineOf("Tool outputs kept on disk are compared by their head and tail. Events "+strconv.Itoa(r.lo)+"–"+strconv.Itoa(r.hi-1)+".", stSubtle),
		line{})
	for _, b := range r.blocks {
		v.blocks = append(v.blocks, b)
		v.ref = append(v.ref, -1)
	}
	return v
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
