package verify

// The basis of an item: how sure the source is that it is owed (DESIGN.md,
// "How sure the source is that an item is owed"). It is decided from the
// source alone, where each tracker makes the item, and may only weaken
// later in the source (an error the run left behind: errors_behind.go).
// Only recorded and stated items decide the verdict, the consumer gate and
// the self-report findings; a lost inferred item is review.

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// Basis is how sure the source is that an item is owed.
type Basis string

// The bases, strongest first.
const (
	// Recorded: the runtime recorded it open in structure (a plan step
	// pending, a logged commitment, a call with no result, a job running).
	Recorded Basis = "recorded"
	// Stated: said outright, in words a careful reader cannot take another
	// way, and nothing later in the source settles it.
	Stated Basis = "stated"
	// Inferred: found by weaker cues (narration, an offer, a hypothetical,
	// a request that may be one-off, an error the run has left behind).
	Inferred Basis = "inferred"
)

// rank orders bases: the strongest is the highest.
func (b Basis) rank() int {
	switch b {
	case Recorded:
		return 3
	case Stated:
		return 2
	case Inferred:
		return 1
	}
	return 0
}

// Stronger reports whether b is surer than o.
func (b Basis) Stronger(o Basis) bool { return b.rank() > o.rank() }

// setBasis records how an item was found.
func (it *Item) setBasis(b Basis, cue string) { it.Basis, it.Cue = b, cue }

// weaken lowers an item to inferred, with the cue that lowered it; a
// recorded item is the runtime's word and stays.
func (it *Item) weaken(cue string) {
	if it.Basis == Recorded || it.Basis == Inferred {
		return
	}
	it.Basis, it.Cue = Inferred, cue
}

// review reports whether a result is review rather than a loss: not
// verified, only inferred, and the check is not strict.
func (l *ledger) review(ir *ItemResult) bool {
	// An item in another language than its summary that shares nothing
	// with it cannot be settled by the summary's words, strict or not.
	return !ir.Status.Verified() && (ir.CrossLanguage || !l.opt.decides(ir.Basis))
}

// decides reports whether a lost item of basis b decides the verdict.
func (o Options) decides(b Basis) bool {
	least := o.Decide
	switch {
	case o.Strict:
		least = Inferred
	case least == "":
		least = Stated
	}
	return b == least || b.Stronger(least)
}

// ParseBasis reads a basis named on the command line.
func ParseBasis(s string) (Basis, error) {
	switch b := Basis(s); b {
	case Recorded, Stated, Inferred:
		return b, nil
	}
	return "", fmt.Errorf("unknown basis %q (recorded, stated or inferred)", s)
}

// promiseBasis decides the basis of a commitment found in assistant prose.
// A promise in plain words ("I'll re-run the migration after the review")
// is stated; a hypothetical ("if the cache is still stale we'll need…"), a
// possibility ("we might need to"), a weaker cue ("I should") or an offer
// is inferred.
func promiseBasis(fc lang.Promise) (Basis, string) {
	lower := lang.FoldText(fc.Sentence)
	cond := strings.ToLower(strings.TrimSpace(fc.Action.Condition))
	for _, h := range hypotheticalMarkers {
		if strings.HasPrefix(cond, h+" ") || leadsWith(lower, h) {
			return Inferred, fmt.Sprintf("hypothetical ‘%s …’", h)
		}
	}
	for _, h := range []string{"if", "when"} {
		// "If that doesn't work, I'll …", "if it is still broken we'll
		// need …": a plan for a case that may never come. "If the tests
		// pass, I'll merge" waits on the expected path, and is owed.
		if c := condAfter(cond, lower, h); c != "" && contingent(c) {
			return Inferred, fmt.Sprintf("hypothetical ‘%s …’ (a case that may never come)", h)
		}
	}
	for _, m := range []string{"might", "may", "could", "maybe", "perhaps", "possibly", "probably", "would"} {
		if lang.HasPhrase(lower, m) && before(lower, m, fc.Action.Text) {
			return Inferred, fmt.Sprintf("possibility ‘%s’", m)
		}
	}
	for _, o := range []string{"happy to", "feel free", "let me know if", "if you'd like", "if you want", "if needed", "if necessary", "optionally", "optional"} {
		if strings.Contains(lower, o) {
			return Inferred, fmt.Sprintf("offer ‘%s’", o)
		}
	}
	if g := approvalGate(lower); g != "" {
		// "If all good, type "approved" and I'll commit the fix": the work
		// waits on the user's word, which may never come; until it does
		// the agent owes nothing.
		return Inferred, fmt.Sprintf("offer gated on the user's approval (‘%s’)", g)
	}
	for _, w := range []string{"i should", "we should", "i want to", "i'd like to", "i plan on"} {
		if lang.HasPhrase(lower, w) && before(lower, w, fc.Action.Text) {
			return Inferred, fmt.Sprintf("weak cue ‘%s’", w)
		}
	}
	if n := narrationCue(lower, fc.Action); n != "" {
		return Inferred, fmt.Sprintf("narration ‘%s’ with no wait: the step the agent is taking next", n)
	}
	if m := manner(lower, fc.Action); m != "" {
		return Inferred, fmt.Sprintf("how the agent will work (‘%s’), not a deliverable", m)
	}
	if r := reportOnRun(fc.Action); r != "" {
		return Inferred, fmt.Sprintf("a word to the user on a run the agent awaits (‘%s’): the run is what is owed", r)
	}
	if a := abstention(fc.Action); a != "" {
		return Inferred, fmt.Sprintf("abstention ‘%s’: a thing the agent means not to do, not work it owes", a)
	}
	if v := lang.EnglishVerb(fc.Action.Verb); v == lang.TermOf("wait") || v == lang.TermOf("await") {
		// "I'll wait for the exploration to complete before starting
		// implementation": what is awaited (a sub-agent, a job, a call)
		// is owed as its handle; the wait itself is no work.
		return Inferred, "a wait (‘" + strings.Fields(fc.Action.Text)[0] + "’): what is awaited is owed as its own item, not the waiting"
	}
	if e := thingEvent(fc.Action); e != "" {
		return Inferred, fmt.Sprintf("what a change will do (‘%s’), not work the agent owes", e)
	}
	if p := objectPronoun(fc.Action); p != "" {
		return Inferred, fmt.Sprintf("its object is ‘%s’: what is owed is named elsewhere, so no summary line can be checked against it", p)
	}
	if t := strings.TrimLeft(strings.TrimSpace(fc.Action.Text), "`*_ "); len(t) > 1 && t[0] == '/' && t[1] >= 'a' && t[1] <= 'z' {
		// "Next step: `/spec` to decompose this into tasks": a command the
		// user types to the runtime, not work the agent owes.
		return Inferred, "a slash command for the user to run (‘" + strings.Fields(t)[0] + "’)"
	}
	if fc.Offered != "" {
		return Inferred, fmt.Sprintf("a next step the message then puts to the user (‘%s’): proposed, not taken on", fc.Offered)
	}
	if fc.Label != "" || strings.HasPrefix(strings.TrimSpace(fc.Sentence), "-") || strings.HasPrefix(strings.TrimSpace(fc.Sentence), "*") {
		return Stated, "listed as the agent's pending step"
	}
	for _, c := range statedCues {
		if lang.HasPhrase(lower, c) {
			return Stated, fmt.Sprintf("‘%s’ + %s", c, concrete(fc.Action))
		}
	}
	return Stated, "commitment phrasing + " + concrete(fc.Action)
}

// ruleBasis decides the basis of a user's rule. A rule phrased as lasting
// (always, never, from now on, every time, any), a prohibition, a limit
// ("only …", "must …") or an invariant to keep ("make sure the old URLs keep
// working") is stated; a request to do one thing once ("make sure to add a
// test for it too", "remember to bump the version") may be one-off, and is
// inferred (DESIGN.md, "Rulings on wording").
func ruleBasis(fr lang.Rule) (Basis, string) {
	lower := lang.FoldText(fr.Sentence)
	for _, c := range lastingCues {
		if lang.HasPhrase(lower, c) {
			return Stated, fmt.Sprintf("lasting ‘%s’", c)
		}
	}
	clause := lang.FoldText(fr.Clause)
	if clause == "" {
		clause = lower
	}
	if lang.ContainsAny(clause, "before you do this", "before you do that", "before you do it", "before doing this", "before doing that") {
		// "Just make sure the bot is fully operational before you do
		// this": a precondition of the request it comes with.
		return Inferred, "may scope the request it comes with (‘before you do this’, nothing says it lasts)"
	}
	if strings.Contains(clause, "forget to") {
		// "Don't forget to update the changelog": a reminder of one thing
		// to do, not a prohibition.
		return Inferred, "may be a one-off request (‘don't forget to’, nothing says it lasts)"
	}
	if fr.Action.Negated || lang.ProhibitionIn(clause) {
		return Stated, "prohibition"
	}
	if v := answerShape(clause); v != "" {
		// "Only report your findings and changes that you would make": how
		// to answer the request at hand, not a way of working.
		return Inferred, fmt.Sprintf("the shape of the answer to this request (‘only %s’, nothing says it lasts)", v)
	}
	for _, c := range requestCues {
		i := strings.Index(clause, c)
		if i < 0 {
			continue
		}
		rest := strings.Fields(strings.TrimLeft(clause[i+len(c):], " ,:"))
		for len(rest) > 0 && (rest[0] == "to" || rest[0] == "you" || rest[0] == "that" || rest[0] == "we" || rest[0] == "also" || rest[0] == "please") {
			rest = rest[1:]
		}
		if len(rest) > 1 && rest[0] == "make" && rest[1] == "sure" {
			continue // "please make sure …": the rule is what follows
		}
		if len(rest) > 0 && onceVerbs[strings.Trim(rest[0], ",.;:")] {
			return Inferred, fmt.Sprintf("may be a one-off request (‘%s %s’, nothing says it lasts)", c, strings.Trim(rest[0], ",.;:"))
		}
	}
	if f := strings.Fields(strings.TrimLeft(lower, " -*•>0123456789.)")); len(f) > 1 && onceVerbs[f[0]] && limitAfterBreak(lower) {
		// "Fix the ingest — only update timestamps when node data changes":
		// a limit that says how to do the one piece of work asked for.
		return Inferred, fmt.Sprintf("may be a one-off request (a limit on the ‘%s’ asked for, nothing says it lasts)", f[0])
	}
	return Stated, "rule phrasing (a limit or an invariant to keep)"
}

// limitAfterBreak reports whether a folded sentence asks for one thing and
// then, after a dash or a colon, says how: "fix the ingest — only update
// timestamps when the data changes".
func limitAfterBreak(lower string) bool {
	for _, b := range []string{" — ", " – ", " - ", ": "} {
		if i := strings.Index(lower, b); i > 0 && lang.ContainsAny(lower[i:], "only", "must", "make sure", "ensure") {
			return true
		}
	}
	return false
}

// requestCues open a request that may be about the work at hand.
var requestCues = []string{"make sure", "ensure", "be sure to", "remember to", "please", "you must", "you need to", "you have to"}

// onceVerbs do a thing once: after a request cue they ask for one piece of
// work, not for a way of working.
var onceVerbs = lang.WordSet("add", "create", "make", "set", "update", "change", "fix", "include", "rename", "move",
	"delete", "remove", "write", "run", "rerun", "re-run", "test", "commit", "push", "bump", "mention", "document",
	"send", "open", "file", "tag", "install", "upgrade", "deploy", "merge", "rebase", "build", "regenerate", "generate",
	"call", "email", "ping", "tell", "notify", "put", "copy", "export", "import", "check", "verify", "review", "restart")

// lastingCues say a rule lasts beyond the request at hand.
var lastingCues = []string{"always", "never", "from now on", "going forward", "until i say otherwise", "until further notice",
	"for the rest of", "every time", "each time", "whenever", "at all times", "under no circumstances", "no more",
	"any", "anything", "ever", "in future", "in the future", "from here on", "every", "before committing",
	"before you commit", "before pushing", "is forbidden", "not allowed", "only ever", "rule", "policy"}

// quantifierCues are lasting cues that may quantify the object of one
// request ("don't fix anything, just check it") rather than time.
var quantifierCues = lang.WordSet("any", "anything", "every", "ever")

// scopeOpeners open a request for one piece of work.
var scopeOpeners = []string{"can you", "could you", "can we", "could we", "would you", "will you"}

// requestScope returns the opener of a request for one piece of work that a
// user's prohibition comes with, when nothing in the rule's sentence says
// the rule lasts beyond it: "Can you check the skip logic works? Don't fix
// anything, just validate it"; "Can we rewrite the ADR …? Also don't give
// it a number" (DESIGN.md, rulings: a request about the thing at hand is
// one-off unless phrased as lasting). It returns "" otherwise.
func requestScope(message, sentence string) string {
	lower := lang.FoldText(sentence)
	for _, c := range lastingCues {
		if !quantifierCues[c] && lang.HasPhrase(lower, c) {
			return ""
		}
	}
	// The request comes first: a go-ahead after the rule ("keep it local!
	// Can you proceed?") does not scope it.
	end := strings.Index(message, sentence)
	if end < 0 {
		end = len(message)
	}
	for _, sn := range lang.Sentences(message) {
		if sn.Start > end {
			break
		}
		s := strings.TrimLeft(lang.FoldText(message[sn.Start:sn.End]), " -*•>\"'")
		for _, o := range scopeOpeners {
			if strings.HasPrefix(s, o+" ") {
				return o
			}
		}
	}
	return ""
}

// strongestBasis is the surest basis among items, and the cue that says
// which: an identifier is as sure as the surest open item naming it.
func strongestBasis(namers []tracked) (Basis, string) {
	var best *Item
	for _, tr := range namers {
		it := tr.base().item
		if best == nil || it.Basis.Stronger(best.Basis) {
			best = it
		}
	}
	if best == nil {
		return Inferred, "named by no open item"
	}
	onlyErrors := true
	for _, tr := range namers {
		if tr.base().item.Kind != Error {
			onlyErrors = false
		}
	}
	if onlyErrors && best.Basis != Inferred {
		// Only failures name it ("FAIL ./cmd/cli/session [setup
		// failed]"): the error item owes its subject already, and the
		// path in its line is no work of its own. Listed for review.
		return Inferred, fmt.Sprintf("named only by errors (the %s error owes its subject)", best.Basis)
	}
	return best.Basis, fmt.Sprintf("named by a %s %s (%s)", best.Basis, best.Kind, best.Cue)
}

// approvalGates are what an agent says when work waits on the user saying
// yes.
var approvalGates = []string{"if all good", "if all looks good", "if everything looks good", "if it looks good", "if this looks good",
	"if that looks good", "if you're happy with", "if you are happy with", "once you approve", "if you approve", "when you approve",
	"type approved", "type \"approved\"", "say \"approved\"", "reply \"approved\"", "once you confirm", "if you confirm",
	"once you give the go-ahead", "give me the go-ahead", "with your approval", "after your approval", "say the word", "once you've verified",
	"once you have verified", "after you verify", "once you verify"}

// approvalGate returns the phrase with which a sentence makes its work
// wait on the user's approval, or "".
func approvalGate(lower string) string {
	lower = plainQuotes.Replace(lower)
	for _, g := range approvalGates {
		if strings.Contains(lower, g) {
			return g
		}
	}
	return ""
}

// plainQuotes makes curly quotes straight and drops bold marks, once for
// every sentence read (a Replacer built per call costs more than its use).
var plainQuotes = strings.NewReplacer("“", "\"", "”", "\"", "**", "")

// answerVerbs say what the agent's answer is to hold: after "only" or
// "just" they shape the reply to this request.
var answerVerbs = lang.WordSet("report", "tell", "show", "list", "answer", "explain", "summarize", "summarise", "describe",
	"propose", "suggest", "outline", "give", "return", "reply", "respond", "present")

// answerShape returns the answer verb a folded clause limits with "only"
// or "just" ("only report your findings"), or "".
func answerShape(clause string) string {
	f := strings.Fields(clause)
	for i := 0; i+1 < len(f); i++ {
		if (f[i] == "only" || f[i] == "just") && answerVerbs[strings.Trim(f[i+1], ",.;:")] {
			return strings.Trim(f[i+1], ",.;:")
		}
	}
	return ""
}
