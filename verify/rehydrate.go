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
// back into the agent's context. Every line carries the verbatim source that
// makes the item owed (the promise and its turn, the pending call and its
// command, the error's first line and what failed, the user's rule as
// written), so the agent can act on it without trusting loupe's wording.
// The lines are statements of fact, not orders: runtimes warn that imperative
// injected text trips prompt-injection defences.

// DefaultRehydrateChars is the default cap of a rehydration block: Claude
// Code caps the context a hook adds at 10,000 characters.
const DefaultRehydrateChars = 10000

// MinRehydrateChars is the smallest cap that still holds the block's header,
// one item and the line saying what was left out.
const MinRehydrateChars = 400

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
}

// Owed is one item a compaction did not verify, with the source that makes
// it owed.
type Owed struct {
	Kind   Kind
	Status Status
	Key    string
	// Turn is the item's origin turn.
	Turn int
	// Line states the item in one line: "re-run the migration (promised at
	// turn 210, after the schema diff is reviewed)".
	Line string
	// Source is the verbatim source, sanitized and clipped ("" when Line
	// already quotes it whole).
	Source string
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
		it := &c.Items[i]
		if !it.Counts() {
			// Verified, or review: an item only inferred is never put
			// back into an agent's context unless the check is strict.
			continue
		}
		owed = append(owed, owe(it, events))
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
	head := blockHead(c, owed)
	foot := ""
	if opt.Transcript != "" {
		foot = "The full source is the transcript " + oneLineSafe(opt.Transcript, 300) + "."
	}
	r.Items, r.Omitted = fill(owed, maxChars-textLen(head)-textLen(foot)-2, c.Seq)
	if len(r.Omitted) > 0 && foot != "" {
		// The path gives way to an item.
		if items, omitted := fill(owed, maxChars-textLen(head)-1, c.Seq); len(items) > len(r.Items) {
			r.Items, r.Omitted, foot = items, omitted, ""
		}
	}
	parts := []string{head}
	for _, o := range r.Items {
		parts = append(parts, o.render())
	}
	if len(r.Omitted) > 0 {
		parts = append(parts, leftOut(r.Omitted, c.Seq))
	}
	if foot != "" {
		parts = append(parts, foot)
	}
	r.Text = strings.Join(parts, "\n")
	return r
}

// fill takes owed items in rank order while they fit in budget, keeping
// room for the line that says what the rest was.
func fill(owed []Owed, budget, seq int) (items, omitted []Owed) {
	for i, o := range owed {
		need := textLen(o.render()) + 1
		if rest := owed[i+1:]; len(rest) > 0 {
			need += textLen(leftOut(rest, seq)) + 1
		}
		if need > budget {
			return owed[:i], owed[i:]
		}
		budget -= textLen(o.render()) + 1
	}
	return owed, nil
}

func blockHead(c *CompactionResult, owed []Owed) string {
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
		return fmt.Sprintf("loupe could not read the summary of compaction %d (turn %d): it is empty or opaque, so nothing below can be verified in it. From the transcript:",
			c.Seq, c.Turn)
	}
	return fmt.Sprintf("loupe checked the summary of compaction %d (turn %d) against the transcript: it %s. From the transcript:",
		c.Seq, c.Turn, strings.Join(what, ", and "))
}

// leftOut says what the cap left out, by kind.
func leftOut(omitted []Owed, seq int) string {
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
	return fmt.Sprintf("Left out for length: %s (loupe rehydrate --compaction %d lists them all).", strings.Join(parts, ", "), seq)
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

// render writes one owed item: its line, then its quoted source indented.
func (o Owed) render() string {
	s := "- " + o.Line
	if o.Source != "" {
		s += "\n  " + o.Source
	}
	return s
}

// owe states one unverified item.
func owe(it *ItemResult, events []model.Event) Owed {
	o := Owed{Kind: it.Kind, Status: it.Status, Key: it.Key, Turn: it.Turn, Item: it}
	if it.Status == Resurrected {
		o.Line = resurrectedLine(it)
		return o
	}
	switch it.Kind {
	case Commitment:
		o.Line, o.Source = commitmentLine(it)
	case Handle:
		o.Line, o.Source = handleLine(it, events)
	case Error:
		o.Line, o.Source = errorLine(it, events)
	case Constraint:
		o.Line = fmt.Sprintf("standing rule from the user (turn %d), as written: %s", it.Turn, quote(firstNonEmpty(it.Item.Evidence, it.Text)))
	default:
		o.Line = fmt.Sprintf("identifier %s: %s", oneLineSafe(it.Key, 200), oneLineSafe(it.Text, sourceChars))
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

func commitmentLine(it *ItemResult) (line, source string) {
	action := oneLineSafe(firstNonEmpty(it.Action, it.Text), 200)
	var where string
	switch {
	case strings.HasPrefix(it.Origin, "plan "):
		where = fmt.Sprintf("%s, planned at turn %d", oneLineSafe(it.Origin, 60), it.Turn)
	case strings.HasPrefix(it.Origin, "commitment "):
		where = fmt.Sprintf("%s, logged at turn %d", oneLineSafe(it.Origin, 60), it.Turn)
	default:
		where = fmt.Sprintf("promised at turn %d", it.Turn)
	}
	if cond := oneLineSafe(it.Condition, 200); cond != "" {
		where += ", " + cond
	}
	line = fmt.Sprintf("open commitment: %s (%s)", action, where)
	if strings.HasPrefix(it.Origin, "plan ") {
		return line, ""
	}
	return line, fmt.Sprintf("source, %s at turn %d: %s", originWho(it.Origin), it.Turn, quote(firstNonEmpty(it.Item.Evidence, it.Text)))
}

func originWho(origin string) string {
	if strings.HasPrefix(origin, "assistant") {
		return "the agent"
	}
	return oneLineSafe(origin, 60)
}

func handleLine(it *ItemResult, events []model.Event) (line, source string) {
	call := callAt(events, it.Event, "")
	if it.Origin == "asynchronous job" {
		by := ""
		if r, ok := eventAt(events, it.Event).(*model.ToolResult); ok {
			call = callAt(events, it.Event, r.ID)
			by = " started by call " + oneLineSafe(r.ID, 120)
		}
		line = fmt.Sprintf("background job %s (%s at turn %d) had not finished", oneLineSafe(it.Key, 120), strings.TrimPrefix(by, " "), it.Turn)
		if call != nil {
			line = fmt.Sprintf("background job %s (started by %s call %s at turn %d) had not finished", oneLineSafe(it.Key, 120), oneLineSafe(call.Name, 60), oneLineSafe(call.ID, 120), it.Turn)
		}
		return line, "job output so far: " + quote(it.Item.Evidence)
	}
	tool := strings.TrimPrefix(it.Origin, "tool call ")
	if call != nil {
		tool = call.Name
	}
	line = fmt.Sprintf("pending tool call %s (%s, turn %d): its result had not been read when the context was compacted", oneLineSafe(it.Key, 120), oneLineSafe(tool, 60), it.Turn)
	what := it.Item.Evidence
	if call != nil {
		what = callCommand(call)
	}
	if what == "" {
		return line, ""
	}
	return line, "call: " + quote(what)
}

func errorLine(it *ItemResult, events []model.Event) (line, source string) {
	first := oneLineSafe(it.Text, 240)
	callID := it.Key
	if i := strings.Index(callID, ": "); i > 0 {
		callID = callID[:i]
	}
	tool := strings.TrimPrefix(it.Origin, "failed ")
	call := callAt(events, it.Event, callID)
	line = fmt.Sprintf("unresolved error (turn %d, %s call %s): %s", it.Turn, oneLineSafe(tool, 60), oneLineSafe(callID, 120), quote(first))
	if call != nil {
		if cmd := callCommand(call); cmd != "" {
			return line, "what failed: " + quote(cmd)
		}
	}
	return line, ""
}

func resurrectedLine(it *ItemResult) string {
	what := oneLineSafe(firstNonEmpty(it.Action, it.Text, it.Key), 200)
	closed := oneLineSafe(it.ClosedBy, 120)
	if closed == "" {
		closed = fmt.Sprintf("closed at turn %d", it.ClosedTurn)
	}
	return fmt.Sprintf("already done: %s %s (%s); the summary presents it as still open", kindNoun(it.Kind), quote(what), closed)
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

// quote writes transcript text safely on one line, in quotes, clipped.
func quote(s string) string { return "“" + oneLineSafe(s, sourceChars) + "”" }

// oneLineSafe is s sanitized (no escape sequences, controls or bidi
// overrides), its whitespace runs folded to single spaces, clipped to n
// bytes.
func oneLineSafe(s string, n int) string {
	return model.Clip(model.Sanitize(strings.Join(strings.Fields(s), " ")), n)
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
