package verify

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/loupe-dev/loupe/model"
)

// Rehydration: what a compaction failed to keep, as a block of text to put
// back into the agent's context. Every item carries the verbatim source that
// makes it owed (the promise and its turn, the pending call and its
// command, the error's first line and what failed, the user's rule as
// written), so the agent can act on it without trusting loupe's wording.
// The lines are statements of fact, not orders: runtimes warn that imperative
// injected text trips prompt-injection defences. The block is framed (see
// frame.go): loupe's lines hold no transcript text, and each piece of
// transcript text is a fenced excerpt of its own.

// DefaultRehydrateChars is the default cap of a rehydration block: Claude
// Code caps the context a hook adds at 10,000 characters.
const DefaultRehydrateChars = 10000

// MinRehydrateChars is the smallest cap that still holds the block's frame
// and header, one short item and the line saying what was left out.
const MinRehydrateChars = 1000

// sourceChars caps the quoted source of one item.
const sourceChars = 320

// RehydrateOptions tune a rehydration block.
type RehydrateOptions struct {
	// MaxChars caps the block, counted as the runtimes count (UTF-16 code
	// units); 0 means DefaultRehydrateChars.
	MaxChars int
	// Transcript is the path the block names as the full source ("" names
	// none).
	Transcript string
	// Purpose is what the block is for: put back into the agent's context
	// (the default) or added to a summarizer's instructions.
	Purpose Purpose
}

// Owed is one item a compaction did not verify, with the source that makes
// it owed.
type Owed struct {
	Kind   Kind
	Status Status
	Key    string
	// Turn is the item's origin turn.
	Turn int
	// Line states the item in loupe's own words, with no transcript text:
	// "open commitment (promised at turn 210)".
	Line string
	// Excerpts are the transcript text that says what the item is and
	// makes it owed (the promise as written, the call's id and command),
	// made inert and clipped.
	Excerpts []Excerpt
	// Item is the verifier's result for the item.
	Item *ItemResult
}

// Rehydration is the block for one compaction.
type Rehydration struct {
	Seq, Turn    int
	Verdict      Verdict
	Unverifiable bool
	// Items are the owed items the block holds, in rank order; Omitted the
	// ones the cap left out.
	Items, Omitted []Owed
	MaxChars       int
	// Text is the block ("" when nothing is owed).
	Text string
}

// Chars is the block's length as the runtimes count it (UTF-16 code units).
func (r *Rehydration) Chars() int { return textLen(r.Text) }

// Rehydrate builds the block of compaction c: every item whose status is not
// verified and that is not review, ranked by kind (pending calls, commitments, errors, the user's
// rules, finished work the summary presents as open, identifiers) and, within
// a kind, newest first, cut to the cap. events are the events Item.Event
// indexes: the transcript's Events for a Run, the source given to Check.
func Rehydrate(c *CompactionResult, events []model.Event, opt RehydrateOptions) *Rehydration {
	maxChars := opt.MaxChars
	if maxChars <= 0 {
		maxChars = DefaultRehydrateChars
	}
	maxChars = max(maxChars, MinRehydrateChars)
	r := &Rehydration{Seq: c.Seq, Turn: c.Turn, Verdict: c.Verdict, Unverifiable: c.Unverifiable, MaxChars: maxChars}
	var owed []Owed
	for i := range c.Items {
		if it := &c.Items[i]; owedItem(it) {
			owed = append(owed, owe(it, events))
		}
	}
	if len(owed) == 0 {
		return r
	}
	sort.SliceStable(owed, func(i, j int) bool {
		ri, rj := rank(owed[i]), rank(owed[j])
		if ri != rj {
			return ri < rj
		}
		return owed[i].Turn > owed[j].Turn
	})
	head := blockHead(c, owed, opt.Purpose)
	foot := ""
	if opt.Transcript != "" && opt.Purpose == Reinject {
		foot = Excerpt{Label: "The full source is the transcript at this path", Text: inert(opt.Transcript, 300)}.render()
	}
	// The frame's lines: the open tag (its count has at most as many digits
	// as len(owed)), the note and the close tag.
	frame := textLen(frameOpen(opt.Purpose, len(owed))) + textLen(FrameNote) + textLen(FrameClose) + 3
	hint := leftOutHint(opt.Purpose, c.Seq)
	r.Items, r.Omitted = fill(owed, maxChars-frame-textLen(head)-textLen(foot)-2, hint)
	if len(r.Omitted) > 0 && foot != "" {
		// The path gives way to an item.
		if items, omitted := fill(owed, maxChars-frame-textLen(head)-1, hint); len(items) > len(r.Items) {
			r.Items, r.Omitted, foot = items, omitted, ""
		}
	}
	parts := []string{frameOpen(opt.Purpose, len(r.Items)), FrameNote, head}
	for _, o := range r.Items {
		parts = append(parts, o.render())
	}
	if len(r.Omitted) > 0 {
		parts = append(parts, leftOut(r.Omitted, hint))
	}
	if foot != "" {
		parts = append(parts, foot)
	}
	parts = append(parts, FrameClose)
	r.Text = strings.Join(parts, "\n")
	return r
}

// owedItem selects the items a block puts back (and a summarizer is asked
// to keep): the ones the summary did not verifiably keep, which are the
// ones that decide a violating verdict. It is the one place that choice is
// made. A review item (lost, but only inferred: DESIGN.md, basis) is never
// put back; a strict check has no review items.
func owedItem(it *ItemResult) bool { return it.Counts() }

// fill takes owed items in rank order while they fit in budget, keeping
// room for the line that says what the rest was.
func fill(owed []Owed, budget int, hint string) (items, omitted []Owed) {
	for i, o := range owed {
		need := textLen(o.render()) + 1
		if rest := owed[i+1:]; len(rest) > 0 {
			need += textLen(leftOut(rest, hint)) + 1
		}
		if need > budget {
			return owed[:i], owed[i:]
		}
		budget -= textLen(o.render()) + 1
	}
	return owed, nil
}

func blockHead(c *CompactionResult, owed []Owed, p Purpose) string {
	if p == Steer {
		return fmt.Sprintf("Open in the transcript before this compaction: %s; a summary that leaves one out loses it. Keep each in the summary, with its id, path or wording verbatim.",
			Plural(len(owed), "item"))
	}
	open, done := 0, 0
	for _, o := range owed {
		if o.Status == Resurrected {
			done++
		} else {
			open++
		}
	}
	var what []string
	if open > 0 {
		what = append(what, fmt.Sprintf("does not keep %s that the source still owes", Plural(open, "open item")))
	}
	if done > 0 {
		what = append(what, fmt.Sprintf("presents %s as still open", Plural(done, "finished item")))
	}
	if c.Unverifiable {
		return fmt.Sprintf("loupe could not read the summary of compaction %d (turn %d): it is empty or opaque, so nothing below can be verified in it.",
			c.Seq, c.Turn)
	}
	return fmt.Sprintf("loupe checked the summary of compaction %d (turn %d) against the transcript: it %s.",
		c.Seq, c.Turn, strings.Join(what, ", and "))
}

// leftOutHint is where the items a block left out can be read in full.
func leftOutHint(p Purpose, seq int) string {
	if p == Steer {
		return "of lower rank"
	}
	return fmt.Sprintf("(loupe rehydrate --compaction %d lists them all)", seq)
}

// leftOut says what the cap left out, by kind.
func leftOut(omitted []Owed, hint string) string {
	count := map[string]int{}
	var order []string
	for _, o := range omitted {
		k := string(o.Kind)
		if o.Status == Resurrected {
			k = "finished item"
		}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = Plural(count[k], k)
	}
	return fmt.Sprintf("Left out for length: %s %s.", strings.Join(parts, ", "), hint)
}

// rank orders the kinds in a block: a call whose result will arrive first,
// then obligations, failures, the user's rules, finished work presented as
// open, and identifiers last (they ride along with the items above).
func rank(o Owed) int {
	if o.Status == Resurrected {
		return 4
	}
	switch o.Kind {
	case Handle:
		return 0
	case Commitment:
		return 1
	case Error:
		return 2
	case Constraint:
		return 3
	}
	return 5
}

// render writes one owed item: loupe's line, then each excerpt under its
// label.
func (o Owed) render() string {
	var b strings.Builder
	b.WriteString("- " + o.Line)
	for _, e := range o.Excerpts {
		b.WriteString("\n" + e.render())
	}
	return b.String()
}

// quote adds an excerpt of s to o (none when s is blank).
func (o *Owed) quote(label, s string, n int) {
	if e, ok := excerpt(label, s, n); ok {
		o.Excerpts = append(o.Excerpts, e)
	}
}

// owe states one unverified item: loupe's line says what kind of item it
// is, from which turn, and what the summary did with it; everything taken
// from the transcript (ids, tool names, commands, the words as written) is
// an excerpt.
func owe(it *ItemResult, events []model.Event) Owed {
	o := Owed{Kind: it.Kind, Status: it.Status, Key: it.Key, Turn: it.Turn, Item: it}
	switch {
	case it.Status == Resurrected:
		o.resurrected(it)
		return o
	case it.Kind == Commitment:
		o.commitment(it)
	case it.Kind == Handle:
		o.handle(it, events)
	case it.Kind == Error:
		o.error(it, events)
	case it.Kind == Constraint:
		o.Line = fmt.Sprintf("standing rule from the user (turn %d)", it.Turn)
		o.quote("as written", firstNonEmpty(it.Item.Evidence, it.Text), sourceChars)
	default:
		o.Line = fmt.Sprintf("identifier (turn %d)", it.Turn)
		o.quote("identifier", it.Key, 200)
		o.quote("where it was named", it.Text, sourceChars)
	}
	if note := statusNote(it.Status); note != "" {
		o.Line += "; " + note
	}
	return o
}

func statusNote(s Status) string {
	switch s {
	case Flipped:
		return "the summary presents it as done, but the source does not show it done"
	case Weak:
		return "the summary only hints at it"
	case IntentOnly:
		return "the summary says what the call was doing but not its id"
	}
	return ""
}

func (o *Owed) commitment(it *ItemResult) {
	plan := strings.HasPrefix(it.Origin, "plan ")
	switch {
	case plan:
		o.Line = fmt.Sprintf("open commitment (plan step, planned at turn %d)", it.Turn)
	case strings.HasPrefix(it.Origin, "commitment "):
		o.Line = fmt.Sprintf("open commitment (logged at turn %d)", it.Turn)
	default:
		o.Line = fmt.Sprintf("open commitment (promised at turn %d)", it.Turn)
	}
	o.quote("what", firstNonEmpty(it.Action, it.Text), 200)
	o.quote("on the condition", it.Condition, 200)
	switch {
	case plan:
		o.quote("plan step", strings.TrimPrefix(it.Origin, "plan "), 60)
	case strings.HasPrefix(it.Origin, "commitment "):
		o.quote("logged as", strings.TrimPrefix(it.Origin, "commitment "), 60)
		o.quote("as written", firstNonEmpty(it.Item.Evidence, it.Text), sourceChars)
	default:
		o.quote(fmt.Sprintf("as written by %s at turn %d", originWho(it.Origin), it.Turn), firstNonEmpty(it.Item.Evidence, it.Text), sourceChars)
	}
}

// originWho names who wrote a message item in loupe's words.
func originWho(origin string) string {
	switch {
	case strings.HasPrefix(origin, "assistant"):
		return "the agent"
	case strings.HasPrefix(origin, "user"):
		return "the user"
	}
	return "the transcript"
}

func (o *Owed) handle(it *ItemResult, events []model.Event) {
	call := callAt(events, it.Event, "")
	if it.Origin == "asynchronous job" {
		o.Line = fmt.Sprintf("background job (turn %d) had not finished", it.Turn)
		o.quote("job id", it.Key, 120)
		if r, ok := eventAt(events, it.Event).(*model.ToolResult); ok {
			call = callAt(events, it.Event, r.ID)
			if call == nil {
				o.quote("started by call", r.ID, 120)
			}
		}
		if call != nil {
			o.quote("started by call", call.ID, 120)
			o.quote("tool", call.Name, 60)
		}
		o.quote("job output so far", it.Item.Evidence, sourceChars)
		return
	}
	tool := strings.TrimPrefix(it.Origin, "tool call ")
	if call != nil {
		tool = call.Name
	}
	o.Line = fmt.Sprintf("pending tool call (turn %d): its result had not been read when the context was compacted", it.Turn)
	o.quote("call id", it.Key, 120)
	o.quote("tool", tool, 60)
	what := it.Item.Evidence
	if call != nil {
		what = callCommand(call)
	}
	o.quote("call", what, sourceChars)
}

func (o *Owed) error(it *ItemResult, events []model.Event) {
	callID := it.Key
	if i := strings.Index(callID, ": "); i > 0 {
		callID = callID[:i]
	}
	o.Line = fmt.Sprintf("unresolved error (turn %d)", it.Turn)
	o.quote("error", it.Text, 240)
	o.quote("call id", callID, 120)
	o.quote("tool", strings.TrimPrefix(it.Origin, "failed "), 60)
	if call := callAt(events, it.Event, callID); call != nil {
		o.quote("what failed", callCommand(call), sourceChars)
	}
}

func (o *Owed) resurrected(it *ItemResult) {
	if it.ClosedTurn > 0 {
		o.Line = fmt.Sprintf("already done: a %s closed at turn %d; the summary presents it as still open", kindNoun(it.Kind), it.ClosedTurn)
	} else {
		o.Line = fmt.Sprintf("already done: a %s; the summary presents it as still open", kindNoun(it.Kind))
	}
	o.quote("what", firstNonEmpty(it.Action, it.Text, it.Key), 200)
	o.quote("closed by", it.ClosedBy, 120)
}

func kindNoun(k Kind) string {
	switch k {
	case Handle:
		return "tool call"
	case Error:
		return "error"
	case Constraint:
		return "rule"
	}
	return string(k)
}

func eventAt(events []model.Event, i int) model.Event {
	if i < 0 || i >= len(events) {
		return nil
	}
	return events[i]
}

// callAt returns the tool call at events[i], or the last call with id at or
// before i.
func callAt(events []model.Event, i int, id string) *model.ToolCall {
	if c, ok := eventAt(events, i).(*model.ToolCall); ok && (id == "" || c.ID == id) {
		return c
	}
	if id == "" {
		return nil
	}
	for j := min(i, len(events)-1); j >= 0; j-- {
		if c, ok := events[j].(*model.ToolCall); ok && c.ID == id {
			return c
		}
	}
	return nil
}

// callCommand is what a call ran: its command when the input has one, else
// the input itself, on one line.
func callCommand(c *model.ToolCall) string {
	in := c.Input.Head()
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(in), &fields) == nil {
		for _, k := range []string{"command", "cmd", "script", "path", "file_path", "filePath", "pattern", "url", "query"} {
			raw, ok := fields[k]
			if !ok {
				continue
			}
			var s string
			if json.Unmarshal(raw, &s) == nil && s != "" {
				return s
			}
			var argv []string
			if json.Unmarshal(raw, &argv) == nil && len(argv) > 0 {
				return strings.Join(argv, " ")
			}
		}
	}
	return in
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// textLen is the length of s in UTF-16 code units, as JavaScript runtimes
// count a string.
func textLen(s string) int {
	n := 0
	for _, r := range s {
		n += max(1, utf16.RuneLen(r))
	}
	return n
}
