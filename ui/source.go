package ui

import (
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// sourceView is the source pane's provider: one block per event of the
// transcript, built (and sanitized) the first time it comes into view and
// kept in a bounded cache. Nothing here walks the transcript: switching
// compaction changes a few fields and invalidates the handful of blocks whose
// look depends on it.
//
// The pane shows the whole run: the history before the replaced span
// dimmed, the replaced span with a bar in the gutter, the compaction being
// inspected as a divider, and what came after it faint, marked ┆. Seeing the
// later events is what lets a finding jump to the turn where the agent
// claimed the lost work was done.
type sourceView struct {
	t      *model.Transcript
	blocks map[int]*block
	order  []int // cache insertion order, for eviction
	full   map[int]*block
	// fullOrder is the order whole events were loaded in, oldest first.
	fullOrder []int
	// The compaction being inspected: its event index (-1 for none) and its
	// replaced span [lo, hi).
	cur, lo, hi int
	// marks are the item statuses at their origin events.
	marks map[int]verify.Status
	// sel is the origin event of the selected item, flag the event of the
	// finding jumped to; -1 when none.
	sel, flag int
}

// Cache bounds: blocks are cheap to rebuild, whole loaded events are not.
const (
	maxCachedBlocks = 4096
	maxFullBlocks   = 4
	// maxBodyLines bounds what an event shows before it is loaded whole.
	maxBodyLines = 400
)

func newSourceView(t *model.Transcript) *sourceView {
	return &sourceView{t: t, blocks: map[int]*block{}, full: map[int]*block{}, cur: -1, sel: -1, flag: -1}
}

func (v *sourceView) Len() int {
	if v.t == nil {
		return 0
	}
	return len(v.t.Events)
}

func (v *sourceView) GutterWidth() int { return 3 }

// SetCompaction points the view at compaction event cur with the given
// item results, invalidating only the blocks whose look changes.
func (v *sourceView) SetCompaction(cur int, items []verify.ItemResult) {
	old := v.marks
	v.invalidate(v.cur)
	for e := range old {
		v.invalidate(e)
	}
	v.cur, v.lo, v.hi = cur, 0, 0
	if cur >= 0 && v.t != nil {
		if c, ok := v.t.Events[cur].(*model.Compaction); ok {
			v.lo, v.hi = v.t.ReplacedSpan(c)
		}
	}
	v.marks = make(map[int]verify.Status, len(items))
	for _, it := range items {
		if it.Item == nil || it.Event < 0 || it.Event >= v.Len() {
			continue
		}
		if s, ok := v.marks[it.Event]; !ok || statusRank(it.Status) < statusRank(s) {
			v.marks[it.Event] = it.Status
		}
	}
	for e := range v.marks {
		v.invalidate(e)
	}
	v.invalidate(cur)
}

func (v *sourceView) invalidate(i int) {
	delete(v.blocks, i)
	if b, ok := v.full[i]; ok {
		b.lines[0] = v.header(i) // the header's style depends on marks
		b.rows = nil
	}
}

func (v *sourceView) Tone(i int) tone {
	switch {
	case v.cur < 0:
		return toneNormal
	case i < v.lo:
		return toneDim
	case i > v.cur:
		return toneAfter
	}
	return toneNormal
}

func (v *sourceView) Gutter(sb *strings.Builder, th *theme, i, l, sub int) {
	switch {
	case v.cur >= 0 && i >= v.lo && i < v.hi:
		sb.WriteString(paint(th.barSpan, glyphBar))
	case v.cur >= 0 && i > v.cur:
		sb.WriteString(paint(th.barAfter, glyphAfter))
	default:
		sb.WriteByte(' ')
	}
	if l == 0 && sub == 0 {
		switch s, ok := v.marks[i]; {
		case i == v.flag:
			sb.WriteString(paint(th.sgr[toneNormal][stBad], glyphFinding))
		case i == v.sel:
			sb.WriteString(paint(th.sgr[toneNormal][stAccent], glyphPointer))
		case ok:
			sb.WriteString(paint(th.sgr[toneNormal][statusStyle(s)], statusGlyph(s)))
		default:
			sb.WriteByte(' ')
		}
	} else {
		sb.WriteByte(' ')
	}
	sb.WriteByte(' ')
}

// Block returns event i's block, building it when needed.
func (v *sourceView) Block(i int) *block {
	if b, ok := v.full[i]; ok {
		return b
	}
	if b, ok := v.blocks[i]; ok {
		return b
	}
	b := v.build(i)
	if len(v.order) >= maxCachedBlocks {
		// Drop the older half; rebuilding is bounded by the event's size.
		for _, e := range v.order[:len(v.order)/2] {
			delete(v.blocks, e)
		}
		v.order = append(v.order[:0], v.order[len(v.order)/2:]...)
	}
	v.blocks[i] = b
	v.order = append(v.order, i)
	return b
}

// SetFull replaces event i's block with its whole text, loaded off the UI
// goroutine.
func (v *sourceView) SetFull(i int, body []line) {
	if _, ok := v.full[i]; !ok {
		if len(v.fullOrder) >= maxFullBlocks {
			delete(v.full, v.fullOrder[0]) // the oldest goes back to its preview
			v.fullOrder = v.fullOrder[1:]
		}
		v.fullOrder = append(v.fullOrder, i)
	}
	lines := append([]line{v.header(i)}, body...)
	v.full[i] = newBlock(lines...)
}

// Partial reports whether event i shows less than its whole text.
func (v *sourceView) Partial(i int) bool {
	if _, ok := v.full[i]; ok {
		return false
	}
	return v.Block(i).partial
}

// header is the first line of event i: its turn, kind and names.
func (v *sourceView) header(i int) line {
	e := v.t.Events[i]
	h := e.Header()
	hs := stHeader
	if s, ok := v.marks[i]; ok && !s.Verified() {
		hs = stDropped
		if s == verify.Weak {
			hs = stWeak
		}
	}
	turn := turnLabel(h.Turn) + " "
	switch ev := e.(type) {
	case *model.Message:
		st := stAssistant
		switch ev.Role {
		case model.RoleUser:
			st = stUser
		case model.RoleSystem:
			st = stSystem
		}
		return lineOf(turn, hs, oneLine(string(ev.Role)), st, sizeNote(len(ev.Text)), stSubtle)
	case *model.ToolCall:
		return lineOf(turn+"tool_call ", hs, oneLine(ev.Name), stTool, " · "+oneLine(ev.ID), stSubtle, sizeNote(ev.Input.Len()), stSubtle)
	case *model.ToolResult:
		l := lineOf(turn+"tool_result ", hs, oneLine(ev.ID), stSubtle)
		if ev.IsError {
			l = append(l, lineOf(" · error", stError)...)
		}
		if ev.Job != nil {
			l = append(l, lineOf(" · job "+oneLine(ev.Job.ID)+" "+oneLine(string(ev.Job.State)), stTool)...)
		}
		return append(l, lineOf(sizeNote(ev.Text.Len()), stSubtle)...)
	case *model.Plan:
		return lineOf(turn+"plan", hs)
	case *model.CommitmentEvent:
		return lineOf(turn+"commitment ", hs, oneLine(ev.ID)+" · "+oneLine(string(ev.Status)), stSubtle)
	case *model.Compaction:
		st := stDivider
		label := "━━ compaction #" + strconv.Itoa(ev.Seq) + " · " + strings.TrimSpace(turn)
		if t := oneLine(ev.Trigger); t != "" {
			label += " · " + t
		}
		if i == v.cur {
			st = stCurrent
			label += " · the summary inspected here replaced everything above"
		}
		return lineOf(label+" ━━", st)
	case *model.Raw:
		l := lineOf("line "+strconv.Itoa(h.Line)+" raw", hs)
		if ev.Type != "" {
			l = append(l, lineOf(" · type "+oneLine(ev.Type), stSubtle)...)
		}
		if ev.Problem != nil {
			l = append(l, lineOf(" · "+oneLine(ev.Problem.Msg), stError)...)
		}
		if ev.Reason != "" {
			l = append(l, lineOf(" · "+oneLine(ev.Reason), stSubtle)...)
		}
		return l
	}
	return lineOf(turn+e.Kind().String(), hs)
}

func sizeNote(n int) string {
	if n < 16<<10 {
		return ""
	}
	return " · " + bytesHuman(int64(n))
}

// build makes event i's block: its header and as much of its text as is in
// memory, capped.
func (v *sourceView) build(i int) *block {
	lines := []line{v.header(i)}
	partial := false
	add := func(ls []line, cut bool) {
		lines = append(lines, ls...)
		partial = partial || cut
	}
	switch ev := v.t.Events[i].(type) {
	case *model.Message:
		add(bodyLines(ev.Text, stPlain))
	case *model.ToolCall:
		add(textBody(ev.Input, stPlain))
	case *model.ToolResult:
		st := stPlain
		if ev.IsError {
			st = stError
		}
		add(textBody(ev.Text, st))
	case *model.Plan:
		for _, it := range ev.Items {
			box := "[ ] "
			switch it.Status {
			case model.PlanCompleted:
				box = "[x] "
			case model.PlanInProgress:
				box = "[~] "
			case model.PlanCancelled:
				box = "[-] "
			}
			lines = append(lines, lineOf(box, stSubtle, oneLine(it.Text), stPlain,
				" · plan "+oneLine(it.ID)+" · "+oneLine(string(it.Status)), stSubtle))
		}
	case *model.CommitmentEvent:
		add(bodyLines(ev.Text, stPlain))
	case *model.Compaction:
		// A divider only: the summary is in its own pane.
	case *model.Raw:
		add(textBody(ev.JSON, stSubtle))
	}
	b := newBlock(lines...)
	b.partial = partial
	return b
}

// bodyLines is an in-memory text, capped at maxBodyLines.
func bodyLines(s string, st styleID) ([]line, bool) {
	if s == "" {
		return nil, false
	}
	ls, cut := textLines(s, st, maxBodyLines)
	if cut {
		ls = append(ls, lineOf(glyphEllipsis+" more lines not shown · press o to load the whole event "+glyphEllipsis, stMarker))
	}
	return ls, cut
}

// textBody is a possibly lazy text: its head, a marker, its tail.
func textBody(t model.Text, st styleID) ([]line, bool) {
	if t.Complete() {
		return bodyLines(t.Head(), st)
	}
	head, _ := textLines(t.Head(), st, maxBodyLines)
	tail, _ := textLines(t.Tail(), st, maxBodyLines)
	missing := t.Len() - len(t.Head()) - len(t.Tail())
	out := append(head, lineOf(glyphEllipsis+" "+bytesHuman(int64(missing))+" not loaded · press o to load the whole event "+glyphEllipsis, stMarker))
	return append(out, tail...), true
}

// eventText is the text of an event as the pager and the clipboard get it
// (unsanitized; callers sanitize). It may read a lazy text from disk: call
// it only from a tea.Cmd.
func eventText(e model.Event) (string, error) {
	switch ev := e.(type) {
	case *model.Message:
		return ev.Text, nil
	case *model.ToolCall:
		return ev.Input.Load()
	case *model.ToolResult:
		return ev.Text.Load()
	case *model.Plan:
		var sb strings.Builder
		for _, it := range ev.Items {
			sb.WriteString(it.ID + " [" + string(it.Status) + "] " + it.Text + "\n")
		}
		return sb.String(), nil
	case *model.CommitmentEvent:
		return ev.Text, nil
	case *model.Compaction:
		return ev.Summary, nil
	case *model.Raw:
		return ev.JSON.Load()
	}
	return "", nil
}

// eventPreview is the in-memory text of an event (no disk reads).
func eventPreview(e model.Event) string {
	switch ev := e.(type) {
	case *model.Message:
		return ev.Text
	case *model.ToolCall:
		return ev.Name + " " + ev.ID + " " + ev.Input.Preview()
	case *model.ToolResult:
		return ev.ID + " " + ev.Text.Preview()
	case *model.Plan:
		var sb strings.Builder
		for _, it := range ev.Items {
			sb.WriteString(it.ID + " " + it.Text + " " + string(it.Status) + "\n")
		}
		return sb.String()
	case *model.CommitmentEvent:
		return ev.ID + " " + ev.Text
	case *model.Compaction:
		return ev.Trigger
	case *model.Raw:
		return ev.JSON.Preview()
	}
	return ""
}

// eventTitle is a one-line description of an event (sanitized).
func eventTitle(e model.Event) string {
	h := e.Header()
	s := turnLabel(h.Turn) + " " + e.Kind().String()
	switch ev := e.(type) {
	case *model.Message:
		s += " " + string(ev.Role)
	case *model.ToolCall:
		s += " " + ev.Name + " " + ev.ID
	case *model.ToolResult:
		s += " " + ev.ID
	case *model.Compaction:
		s += " #" + strconv.Itoa(ev.Seq)
	}
	return oneLine(s)
}
