package verify

import (
	"strings"
	"unicode"

	"github.com/loupe-dev/loupe/verify/lang"
)

var (
	pendingLabel = lang.LazyRegexp(`(?i)^\W*(open|pending|todo|to do|to-do|next( steps?)?|remaining|still to do|(still )?left( to do)?|outstanding|blocked|in progress|follow[- ]?up|not yet done|waiting on)\s*[:\-–]`)
	doneLabel    = lang.LazyRegexp(`(?i)^\W*(done|completed?|finished|resolved|fixed|shipped|merged)\s*[:\-–]`)
	// doneLead: a line that opens with a completion verb and its object,
	// then a colon ("Fixed clippy error: …", "Resolved the flaky test: …").
	doneLead = lang.LazyRegexp(`(?i)^[\s\-*•\d.)]*(fixed|resolved|completed|finished|implemented|added|removed|merged)\s[^:\n]{1,40}:\s`)
)

// auxDone are auxiliaries that make the next verb a completed action: "the
// migration has been re-run", "was merged".
var auxDone = lang.WordSet("has", "have", "had", "was", "were", "got", "is", "are", "been")

// polarity decides what unit u says about the matched action whose verb is at
// token index vi (-1 when the verb did not match) and whose match spans
// token indexes [lo, hi]. It returns the polarity and the cue that decided.
//
// Order of precedence: the match sitting inside a condition; negation
// before, inside or after the action; a line marker ([DONE], [ ], ✓); a
// label ("Pending:", "Done:"); the nearest cue word in the action's clause
// (the condition clause is ignored: "once the PR merges" does not make the
// action done); the past form of the action's own verb; the heading.
func (d *doc) polarity(u *unit, vi, lo, hi int) (Polarity, string) {
	// Every item matched at the same words of a unit asks the same: the
	// unit keeps its first few answers. An answer depends on the item only
	// through which words of the match are the item's own (nearestCue
	// skips them), so they are part of the key; a match too long for the
	// mask is not kept.
	if lo < 0 || hi-lo >= 64 {
		return d.readPolarity(u, vi, lo, hi)
	}
	k := polarityKey{vi: vi, lo: lo, hi: hi}
	for j := lo; j <= hi && j < len(u.toks); j++ {
		if d.own[u.toks[j].Word] {
			k.own |= 1 << (j - lo)
		}
	}
	for _, m := range u.polarities {
		if m.polarityKey == k {
			return m.p, m.cue
		}
	}
	p, cue := d.readPolarity(u, vi, lo, hi)
	if len(u.polarities) < maxPolarities {
		u.polarities = append(u.polarities, polarityOf{k, p, cue})
	}
	return p, cue
}

// maxPolarities bounds the answers a unit keeps: a unit many items match
// (a long summary's) is not searched through all of them each time.
const maxPolarities = 8

// polarityKey is what polarity's answer depends on besides the unit: the
// match's verb and span, and which words of the span are the item's own.
type polarityKey struct {
	vi, lo, hi int
	own        uint64
}

// polarityOf is one answer a unit keeps.
type polarityOf struct {
	polarityKey
	p   Polarity
	cue string
}

func (d *doc) readPolarity(u *unit, vi, lo, hi int) (Polarity, string) {
	startAt, end := d.actionClause(u, lo, hi)
	if inCondition(d, u, lo) {
		return Neutral, "in a condition"
	}
	if p, cue, ok := d.negation(u, vi, lo, end); ok {
		return p, cue
	}
	if w := openingWord(d.text[u.Start:u.End]); w == "whether" {
		// "- Whether the health check enhancement deviates from the
		// lesson": a question about the step, not the step to do.
		return Neutral, "an open question (‘whether’)"
	}
	if reportedSpeech(u, lo) {
		// "User said lineage will get a rename to lore": what was said,
		// not what the summary says is to do.
		return Neutral, "reported speech"
	}
	if p, cue, ok := d.markerOrLabel(u); ok {
		return p, cue
	}
	if p, cue := d.nearestCue(u, vi, lo, hi, startAt, end); p != Neutral {
		return p, cue
	}
	// A sentence in another language says done or pending in its own
	// words ("已完成", "pendiente").
	if d.language() != "en" || !isASCII(d.text[u.Start:u.End]) {
		switch st, cue := lang.ForeignStatus(d.text[u.Start:u.End], d.language()); st {
		case "done":
			return Done, cue
		case "pending":
			return Pending, cue
		}
	}
	if s := d.section(u); s != nil && s.Polarity != Neutral {
		return s.Polarity, "under “" + s.Heading + "”"
	}
	return Neutral, ""
}

// actionClause returns the token range [startAt, end) of the action's own
// clause: it ends at a condition marker, a parenthesis or a semicolon after
// the match, and starts after a "then", a comma or a semicolon before it.
func (d *doc) actionClause(u *unit, lo, hi int) (startAt, end int) {
	toks := u.toks
	end = len(toks)
	for j := hi + 1; j < len(toks); j++ {
		if lang.IsConditionWord(toks[j].Word) {
			end = j
			break
		}
	}
	// A parenthesis or a semicolon after the action starts a remark about
	// something else: "Add the skip link (the header refactor has merged)".
	if hi+1 < end {
		if k := strings.IndexAny(d.text[toks[hi].End:toks[end-1].End], "(;"); k >= 0 {
			cut := toks[hi].End + k
			for j := hi + 1; j < end; j++ {
				if toks[j].Start > cut {
					end = j
					break
				}
			}
		}
	}
	startAt = max(0, lo-6)
	// Cue words count only in the action's own clause: "once review is
	// done, then merge the PR" does not make the merge done.
	for j := lo - 1; j >= startAt; j-- {
		if toks[j].Word == "then" || strings.ContainsAny(d.text[toks[j].End:toks[j+1].Start], ",;") {
			startAt = j + 1
			break
		}
	}
	return startAt, end
}

// inCondition reports whether the match sits inside a condition ("tag the
// release once the PR is merged"): it speaks of something awaited, not of
// something done.
func inCondition(d *doc, u *unit, lo int) bool {
	toks := u.toks
	for j := lo - 1; j >= 0 && j >= lo-8; j-- {
		// A comma, a semicolon or "then" ends the condition's clause:
		// "once review is done, then merge the PR" merges unconditionally.
		if w := toks[j].Word; w == "then" || w == "and" || w == "but" || strings.ContainsAny(d.text[toks[j].End:toks[j+1].Start], ",;") {
			return false
		}
		if lang.IsConditionWord(toks[j].Word) {
			return true
		}
	}
	return false
}

// negation finds a negation of the action: shortly before it ("we will not
// re-run"), right before its verb inside the match ("the rigs will not be
// re-exported"), or after it within the clause ("the re-run was
// cancelled"). "Not yet" is pending, not negated.
func (d *doc) negation(u *unit, vi, lo, end int) (Polarity, string, bool) {
	toks := u.toks
	for j := max(0, lo-4); j < lo; j++ {
		w := toks[j].Word
		if w == "not" && j+1 < len(toks) && toks[j+1].Word == "yet" {
			return Pending, "not yet", true
		}
		if lang.NegationCues[w] && !(w == "no" && j+1 < len(toks) && (toks[j+1].Word == "longer" || lang.IsDigit(toks[j+1].Word[0]))) {
			return Negated, w, true
		}
	}
	if vi > lo {
		for j := max(lo, vi-4); j < vi; j++ {
			w := toks[j].Word
			if (w == "not" || w == "never" || strings.HasSuffix(w, "n't")) && !(j+1 < len(toks) && toks[j+1].Word == "yet") {
				return Negated, w, true
			}
		}
	}
	clause := d.lower[toks[lo].Start:toks[max(end-1, lo)].End]
	for _, n := range lang.PostNegations {
		if lang.HasPhrase(clause, n) {
			return Negated, n, true
		}
	}
	return Neutral, "", false
}

// markerOrLabel reads the status a line gives by its form: a marker ([x],
// [TODO], ✓), a leading label ("Pending:", "Done -"), an inline done mark.
func (d *doc) markerOrLabel(u *unit) (Polarity, string, bool) {
	// It depends on the unit alone, and every item matched there asks:
	// read once per unit.
	if !u.label.read {
		p, cue, ok := d.readMarkerOrLabel(u)
		u.label = unitLabel{read: true, ok: ok, p: p, cue: cue}
	}
	return u.label.p, u.label.cue, u.label.ok
}

// unitLabel is what markerOrLabel read of a unit, once read.
type unitLabel struct {
	read, ok bool
	p        Polarity
	cue      string
}

func (d *doc) readMarkerOrLabel(u *unit) (Polarity, string, bool) {
	return markerOrLabelOf(u.marker, d.text[u.Start:u.End])
}

// markerOrLabelOf is what a unit's line marker or label says, from the
// marker and the unit's text alone.
func markerOrLabelOf(marker Polarity, line string) (Polarity, string, bool) {
	if marker != Neutral {
		return marker, "line marker", true
	}
	if head := line[:lang.CutUTF8(line, 48)]; strings.ContainsAny(head, ":-–") {
		if pendingLabel.MatchString(line) {
			return Pending, strings.TrimSpace(pendingLabel.FindString(line)), true
		}
		if doneLabel.MatchString(line) {
			return Done, strings.TrimSpace(doneLabel.FindString(line)), true
		}
	}
	if doneLead.MatchString(line) {
		// "- Fixed clippy error: NetworkPolicy default impl should use
		// derive": what follows the label is the thing fixed, in its own
		// words, modals and all.
		return Done, strings.TrimSpace(doneLead.FindStringSubmatch(line)[1]), true
	}
	if strings.ContainsAny(line, "[✓✔✅") && inlineDoneMark.MatchString(line) {
		return Done, "done marker", true
	}
	return Neutral, "", false
}

// nearestCue returns the status cue nearest the match in its clause: a
// pending or completion word, or the form of the action's own verb ("will
// be re-run", "re-ran", "has been merged"). Neutral when there is none.
func (d *doc) nearestCue(u *unit, vi, lo, hi, startAt, end int) (Polarity, string) {
	toks := u.toks
	bestDist, best, cue := 1<<30, Neutral, ""
	consider := func(j int, p Polarity, c string) {
		dist := j - lo
		if j > hi {
			dist = j - hi
		} else if j >= lo {
			dist = 0
		}
		if dist < 0 {
			dist = -dist
		}
		if dist < bestDist || (dist == bestDist && p == Pending) {
			bestDist, best, cue = dist, p, c
		}
	}
	for j := startAt; j < end; j++ {
		w := toks[j].Word
		if d.own[w] && j >= lo && j <= hi {
			continue // part of the item's own wording
		}
		if d.quotedWord(toks[j]) {
			continue // "the status values are "done" and "pending"": a value named, not a status
		}
		switch {
		case lang.PastNeed(w) && j+1 < end && toks[j+1].Word == "to" && (j == 0 || toks[j-1].Word != "still"):
			// "needed to be renamed", "had to revert": a past need.
		case j != vi && lang.PendingCues[w] && !deniedNeed(toks, j):
			consider(j, Pending, w)
		case w == "still" || w == "yet" && j > 0 && toks[j-1].Word != "not":
			consider(j, Pending, w)
		case j != vi && lang.DoneCues[w] && w == "complete" && j > 0 && verbLead[toks[j-1].Word]:
			// "then complete Task #6 by renaming …": the verb, to do.
			consider(j, Pending, toks[j-1].Word+" "+w)
		case j != vi && w == "complete" && j == 0 && lang.DoneCues[w] && !labelAfter(d.text, toks[j].End):
			// "- Complete checkpoint verification (user needs to test …)":
			// a task line opening with the verb, to do. "Complete: …" and
			// "Complete ✓" are labels.
			consider(j, Pending, "complete (a task line's verb)")
		case j != vi && lang.DoneCues[w] && inShortQuote(d.text, toks[j].Start, toks[j].End):
			// "so I don't conflate “planned rename” with “completed
			// work”": a phrase named, not a status given. A pending cue
			// in a quotation stays one: a summary quoting the user's
			// request ("… because "it should be inherited"") still says
			// the work is wanted.
		case j != vi && lang.DoneCues[w]:
			consider(j, Done, w)
		}
		if j+1 < end {
			two := w + " " + toks[j+1].Word
			if lang.PendingCues[two] {
				consider(j, Pending, two)
			}
		}
	}
	if vi >= 0 && !d.quotedWord(toks[vi]) {
		v := toks[vi]
		switch {
		case lang.FuturePassive(toks, vi):
			// "are to be added", "will be re-run", "needs to be merged".
			consider(vi, Pending, toks[vi-1].Word+" "+v.Word)
		case inShortQuote(d.text, v.Start, v.End):
			// A past tense in a quotation names a phrase (see above).
		case v.Past && !(vi > 0 && (toks[vi-1].Word == "to" || lang.PendingCues[toks[vi-1].Word])):
			consider(vi, Done, v.Word)
		case vi > 0 && auxDone[toks[vi-1].Word] && (v.Past || toks[vi-1].Word == "been"):
			consider(vi, Done, toks[vi-1].Word+" "+v.Word)
		}
	}
	return best, cue
}

// verbLead are the words after which "complete" is a verb in the base
// form, not a status: "then complete", "to complete", "will complete".
var verbLead = lang.WordSet("then", "to", "will", "and", "next", "please", "can", "must", "should", "i'll", "we'll", "let's")

// clauseText returns the lower-cased text of the clause of unit u that
// holds tokens lo..hi: it stops at a semicolon, or a comma followed by
// "and", "but" or "while".
func (d *doc) clauseText(u *unit, lo, hi int) string {
	start, end := u.Start, u.End
	text := d.lower
	for j := lo; j > 0; j-- {
		gap := text[u.toks[j-1].End:u.toks[j].Start]
		w := u.toks[j].Word
		if clauseBreak(gap, w) {
			start = u.toks[j].Start
			break
		}
	}
	for j := hi; j+1 < len(u.toks); j++ {
		gap := text[u.toks[j].End:u.toks[j+1].Start]
		w := u.toks[j+1].Word
		if clauseBreak(gap, w) {
			end = u.toks[j].End
			break
		}
	}
	if len(u.toks) == 0 || start >= end {
		return text[u.Start:u.End]
	}
	return text[start:end]
}

// clauseBreak reports whether a new clause starts at a word w after the
// text gap before it: a semicolon or dash, a comma before "and", "while"
// or a negation, or "but", "except" and "though" on their own ("log errors
// but don't block commits" is two rules).
func clauseBreak(gap, w string) bool {
	switch {
	case strings.Contains(gap, ";"), strings.Contains(gap, " — "), strings.Contains(gap, " – "), strings.Contains(gap, " - "):
		return true
	case strings.Contains(gap, ",") && (w == "and" || w == "while"):
		return true
	case strings.Contains(gap, ",") && (w == "never" || w == "not" || w == "no" || w == "don't" || w == "without"):
		// "exported in minor units (cents), never including the
		// eliminations": the "never" is the next rule's.
		return true
	}
	return w == "but" || w == "except" || w == "though" || w == "although"
}

// negatedNear reports whether a negation cue appears in the unit before the
// match start (within a few words): used for constraints, whose sense is
// "never" or "always".
func negatedNear(u *unit, lo int) bool {
	for j := max(0, lo-5); j < lo; j++ {
		if lang.NegationCues[u.toks[j].Word] || u.toks[j].Word == "avoid" {
			return true
		}
	}
	return false
}

// deniedNeed reports whether the need word at j is denied by one of the
// two words before it ("no changes needed", "nothing needed", "not
// needed"): nothing is pending.
func deniedNeed(toks []lang.Token, j int) bool {
	if w := toks[j].Word; w != "need" && w != "needs" && w != "needed" {
		return false
	}
	for k := j - 1; k >= 0 && k >= j-2; k-- {
		switch toks[k].Word {
		case "no", "not", "nothing", "never":
			return true
		}
	}
	return false
}

// isASCII reports whether s is ASCII only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// quotedWord reports whether a token stands alone inside quotation marks
// or backticks ("done", `pending`): a value the summary names, not a
// status it gives.
func (d *doc) quotedWord(t lang.Token) bool {
	if t.Start <= 0 || t.End >= len(d.text) {
		return false
	}
	open, close := d.text[t.Start-1], d.text[t.End]
	return (open == '"' || open == '`' || open == '\'') && open == close
}

// quoteReach is how far (in bytes) from a word a quotation's marks may be.
const quoteReach = 48

// inShortQuote reports whether text[start:end] lies between an opening and
// a closing double quotation mark (curly, or straight ones paired on the
// line) no further than quoteReach away on either side.
func inShortQuote(text string, start, end int) bool {
	lo := max(0, start-quoteReach)
	if i := strings.LastIndexByte(text[lo:start], '\n'); i >= 0 {
		lo += i + 1
	}
	hi := min(len(text), end+quoteReach)
	if i := strings.IndexByte(text[end:hi], '\n'); i >= 0 {
		hi = end + i
	}
	before, after := text[lo:start], text[end:hi]
	if o := strings.LastIndex(before, "“"); o >= 0 && !strings.Contains(before[o:], "”") {
		if c := strings.Index(after, "”"); c >= 0 && !strings.Contains(after[:c], "“") {
			return true
		}
	}
	// Straight quotes: inside when an odd number stand before the word on
	// its line and one follows it close by.
	line := text[strings.LastIndexByte(text[:start], '\n')+1 : start]
	return strings.Count(line, "\"")%2 == 1 && strings.Contains(after, "\"")
}

// openingWord is the first word of a line, past list markers, lower-cased.
func openingWord(line string) string {
	// strings.Fields' first field, without splitting the whole line:
	// every matched item asks of its unit.
	f := strings.TrimLeftFunc(strings.TrimLeft(line, " \t-*•>#0123456789.)"), unicode.IsSpace)
	if i := strings.IndexFunc(f, unicode.IsSpace); i >= 0 {
		f = f[:i]
	}
	return strings.ToLower(strings.Trim(f, "*_`\"'"))
}

// saidVerbs report what someone said.
var saidVerbs = lang.WordSet("said", "says", "mentioned", "noted", "told", "stated", "remarked")

// reportedSpeech reports whether the match at token lo follows a verb of
// saying in its unit ("the user said lineage will get a rename"): the
// status words after it are the speaker's, at the time.
func reportedSpeech(u *unit, lo int) bool {
	for j := 0; j < lo && j < len(u.toks); j++ {
		if saidVerbs[u.toks[j].Word] && j+1 < len(u.toks) && u.toks[j+1].Word != "so" {
			return true
		}
	}
	return false
}

// labelAfter reports whether the word ending at end is a label or a mark
// ("Complete:", "Complete ✓", "Complete -"), not a verb with an object.
func labelAfter(text string, end int) bool {
	rest := strings.TrimLeft(text[end:min(len(text), end+8)], " *_")
	return rest == "" || strings.ContainsAny(rest[:1], ":-–—✓✅|(\n")
}
