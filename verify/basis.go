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
	return !ir.Status.Verified() && (ir.CrossLanguage || !l.opt.Strict && ir.Basis == Inferred)
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

// reportVerbs tell the user something; updateObjects are the objects with
// which "update" does ("I'll update you").
var (
	reportVerbs   = lang.TermSet("report", "notify", "tell", "inform", "ping", "let")
	updateObjects = lang.TermSet("you", "us", "the user", "here")
	reportObjects = map[string]bool{"back": true, "you": true, "us": true, "here": true, "results": true, "result": true,
		"status": true, "progress": true, "findings": true, "outcome": true}
	finishWords = []string{"finish", "finishes", "complete", "completes", "comes back", "come back", "is done", "are done", "lands", "returns", "is green", "passes"}
)

// reportOnRun returns the verb of a promise to tell the user how something
// the agent runs turned out, once it ends ("Will report back when it
// finishes", "I'll update you when the full run completes"), or "". The
// run is owed (a pending call or a background job, its handle); the word
// about it is how the agent will close it, not work of its own.
func reportOnRun(a lang.Action) string {
	cond := lang.FoldText(a.Condition)
	if cond == "" || !lang.ContainsAny(cond, finishWords...) {
		return ""
	}
	v := lang.EnglishVerb(a.Verb)
	f := strings.Fields(lang.FoldText(a.Text))
	switch {
	case len(f) > 0 && v == lang.TermOf("report"):
		// "report back", "report the results"; "report the flaky test
		// upstream" files a bug, which is work.
		if len(f) == 1 || reportObjects[f[1]] || len(f) > 2 && reportObjects[f[2]] {
			return f[0]
		}
	case len(f) > 0 && reportVerbs[v]:
		return f[0]
	case v == lang.TermOf("update") && (len(f) == 1 || len(f) > 1 && updateObjects[f[1]]):
		return "update"
	}
	return ""
}

// narrationCues open a sentence that tells the step the agent takes now
// ("Let me check the build output", "Now I need to close the extra divs").
var narrationCues = []string{"let me", "let's", "now i need to", "now i'll", "now let me", "first, let me", "first let me", "i need to", "we need to"}

// narrationCue returns the cue that makes a promise with no condition
// narration of the agent's next step, or "". Said as it is being done, it
// is kept by the calls that follow far more often than it is owed, and a
// careful reader takes it either way: inferred. A wait ("let me re-run it
// after the review") makes it a promise again.
func narrationCue(lower string, a lang.Action) string {
	if a.Condition != "" && !looks(a) && !nowCondition(a.Condition) && !strings.Contains(a.Text, ": ") {
		// ("test the core issue: that after merging main, …": the
		// condition is inside what the colon introduces, not a wait.)
		// A wait makes it a promise again; "let me check the output once
		// it compiles" is still only a look the agent takes next.
		return ""
	}
	head := lower
	if i := strings.Index(head, ": "); i > 0 && strings.Contains(a.Text, ": ") {
		head = head[:i] // what the colon introduces is the object's content
	}
	if lang.HasPhrase(head, "still") || lang.HasPhrase(head, "later") || lang.HasPhrase(head, "afterwards") {
		return "" // "I still need to…", "…for later": left for afterwards, not the next step
	}
	if c := lang.FoldText(a.Condition); c != "" && strings.HasPrefix(lower, c) {
		lower = strings.TrimLeft(lower[len(c):], " ,;:") // "Before writing X, I need to know Y"
	}
	for _, lead := range []string{"wait, ", "hmm, ", "actually, ", "oh, ", "ah, ", "but ", "so ", "and ", "ok, ", "okay, ", "ok ", "okay ", "great, ", "good, ", "alright, ", "right, "} {
		lower = strings.TrimPrefix(lower, lead) // "But I need to test the core issue"
	}
	for _, c := range narrationCues {
		if leadsWith(lower, c) || strings.Contains(lower, ". "+c+" ") || strings.Contains(lower, "— "+c+" ") {
			return c
		}
	}
	return ""
}

// nowCondition reports whether a condition leaves the action the next step:
// "before writing the generators, I need to know …" puts it first, and
// "after my edit" names what the agent already did.
func nowCondition(cond string) bool {
	c := lang.FoldText(strings.TrimSpace(cond))
	if strings.HasPrefix(c, "before ") {
		return true
	}
	if f := strings.Fields(c); len(f) >= 2 && (f[0] == "when" || f[0] == "if" || f[0] == "where" || f[0] == "while") {
		last := strings.Trim(f[len(f)-1], ".,;:)")
		switch {
		case len(f) == 2 && qualifierWords[strings.Trim(f[1], ".,;:")], len(f) <= 8 && stateWords[last]:
			// "decrypt the key when available", "use clone_from_local when
			// a main workspace path exists": how the thing behaves.
			return true
		case strings.HasSuffix(f[1], "ing") && len(f[1]) > 5 && f[0] != "if":
			// "pass the endpoint through when creating instances": when
			// the code does it, not when the agent will.
			return true
		}
	}
	for _, m := range []string{"after my ", "after our ", "after the change i ", "after the edit i ", "after the fix i ", "now that "} {
		if strings.HasPrefix(c, m) {
			return true
		}
	}
	return false
}

// qualifierWords end a condition that qualifies the behaviour being built
// ("when available", "if present", "where needed").
var qualifierWords = lang.WordSet("available", "present", "possible", "needed", "necessary", "applicable", "set", "given", "provided", "any", "exists", "supported", "enabled", "missing", "empty")

// stateWords end a condition on the state of a thing ("when a path
// exists", "if the flag is set"): the behaviour being built, not a wait.
var stateWords = lang.WordSet("exists", "exist", "present", "available", "set", "unset", "missing", "empty", "enabled", "disabled", "configured", "defined", "null", "nil")

// looks reports whether an action only looks (check, see, investigate):
// nothing is changed, and a look put off is still a look.
func looks(a lang.Action) bool { return readVerbs[lang.EnglishVerb(a.Verb)] }

// mannerVerbs take the work as a whole as their object ("work through the
// phases", "go through all the issues", "follow the debugging process").
var (
	mannerVerbs   = lang.TermSet("work", "go", "follow", "proceed", "tackle", "handle", "approach", "take", "walk", "move", "batch", "parallelize", "parallelise")
	mannerPhrases = []string{"fast", "quickly", "faster", "in parallel", "in one go", "at once", "systematically", "methodically", "step by step", "one by one", "one at a time", "in order",
		"in sequence", "carefully", "thoroughly", "incrementally", "process", "workflow", "methodology", "approach"}
)

// manner returns the phrase that makes a promise a statement of how the
// agent will work ("I'll work through the phases systematically", "I'll
// follow the systematic debugging process"), or "". The work itself is
// owed through the plan and the requests; the manner is no item.
func manner(lower string, a lang.Action) string {
	f := strings.Fields(lang.FoldText(a.Text))
	if len(f) == 0 || !(mannerVerbs[lang.TermOf(f[0])] || mannerVerbs[a.Verb]) {
		return ""
	}
	for _, p := range mannerPhrases {
		if lang.HasPhrase(lower, p) {
			return p
		}
	}
	return ""
}

// abstainVerbs say the agent will keep off something; leaveWords are what
// makes "leave" and "keep" one ("leave it alone", "keep the edit
// confined").
var (
	abstainVerbs = lang.TermSet("avoid", "refrain", "skip", "spare")
	leaveVerbs   = lang.TermSet("leave", "keep")
	leaveWords   = lang.TermSet("alone", "untouched", "as-is", "unchanged", "intact", "confined", "out", "aside")
)

// abstention returns the word that makes an action a restraint ("avoid the
// test-file API change", "leave the lyric line alone", "keep the edit
// confined to SKILL.md"), or "". It cannot be carried out, so no call ever
// closes it: owed as work, it would stay open for the rest of the run.
func abstention(a lang.Action) string {
	f := strings.Fields(lang.FoldText(a.Text))
	if len(f) == 0 {
		return ""
	}
	v := lang.TermOf(f[0])
	if abstainVerbs[v] || abstainVerbs[a.Verb] {
		return f[0]
	}
	if leaveVerbs[v] || leaveVerbs[a.Verb] {
		for _, w := range f[1:] {
			if leaveWords[lang.TermOf(w)] || leaveWords[w] {
				return f[0] + " … " + w
			}
		}
	}
	return ""
}

// thingEvent returns the words of an action that happens to a thing rather
// than being done by the agent ("`docker-compose.yml` now passes the host
// — will take effect on next deploy", "the fix will kick in after a
// restart"), or "".
func thingEvent(a lang.Action) string {
	lower := strings.TrimSpace(lang.FoldText(a.Text))
	for _, e := range thingEvents {
		if strings.HasPrefix(lower, e+" ") || lower == e {
			return e
		}
	}
	return ""
}

var thingEvents = []string{"take effect", "takes effect", "kick in", "go live", "come into effect", "be picked up", "get picked up", "show up", "be applied", "be live", "apply automatically"}

// objectPronoun returns the pronoun a promise's action has for its object
// ("I'll update that in the plan when we start implementing", "I'll fix it
// later"), or "". The thing owed is named in an earlier sentence; the
// promise's own words are a verb and a place, which a summary's unrelated
// line ("planning … updates") matches as well as the real one. A loss or a
// flip judged on those words is a guess: the item is listed for review.
func objectPronoun(a lang.Action) string {
	f := strings.Fields(lang.FoldText(a.Text))
	for i := 0; i+1 < len(f); i++ {
		if lang.TermOf(strings.Trim(f[i], ",.;:")) != a.Verb {
			continue
		}
		w := strings.Trim(f[i+1], ",.;:!?")
		if !objectPronouns[w] {
			return ""
		}
		if i+2 == len(f) || lang.Prepositions[f[i+2]] || pronounTails[strings.Trim(f[i+2], ",.;:!?")] {
			return w
		}
		return ""
	}
	return ""
}

// objectPronouns stand for a thing named before; pronounTails may follow
// one without naming it ("fix it later", "run that again").
var (
	objectPronouns = map[string]bool{"it": true, "that": true, "this": true, "them": true, "those": true, "these": true}
	pronounTails   = map[string]bool{"again": true, "later": true, "now": true, "too": true, "next": true, "first": true, "soon": true, "then": true, "once": true, "when": true, "after": true, "before": true, "as": true, "accordingly": true, "properly": true, "up": true}
)

// concrete names what made the action specific enough to owe.
func concrete(a lang.Action) string {
	if a.Condition != "" {
		return "action waiting on a condition"
	}
	return "concrete action"
}

// hypotheticalMarkers open a condition that may never hold: what follows is
// a plan for a case, not an obligation.
var hypotheticalMarkers = []string{"in case", "should", "supposing", "otherwise", "in the event", "if needed", "if necessary", "if required", "if so"}

// condAfter is the condition a marker opens, from the promise's condition
// or the sentence's start ("" when neither opens with it).
func condAfter(cond, lower, marker string) string {
	if strings.HasPrefix(cond, marker+" ") {
		return cond
	}
	if leadsWith(lower, marker) {
		return lower
	}
	return ""
}

// contingent reports whether a condition names a case that may not come:
// a failure, something still wrong, a need that may not arise.
func contingent(cond string) bool {
	for _, w := range []string{"n't", "fail", "break", "broke", "error", "wrong", "persist", "problem", "stale", "flak", "missing", "worse"} {
		if strings.Contains(cond, w) {
			return true // stems: "fails", "failing", "breaks", "flaky"
		}
	}
	for _, w := range []string{"still", "not", "again", "remain", "remains", "turns out", "issue", "issues", "any", "anything", "else",
		"needed", "necessary", "happen", "happens", "cannot", "no"} {
		if lang.HasPhrase(cond, w) {
			return true
		}
	}
	return false
}

// statedCues name the commitment phrasing of a stated promise, for its cue.
var statedCues = []string{"i'll", "i will", "we'll", "we will", "i'm going to", "i am going to", "we're going to",
	"next i need to", "i still need to", "still need to", "still have to", "i need to", "we need to", "todo:", "remaining:",
	"next step", "the plan is to", "i plan to", "i intend to", "let me", "let's", "i must", "we must", "i have to", "we have to", "will"}

// leadsWith reports whether a folded sentence opens with word w (after list
// markers).
func leadsWith(lower, w string) bool {
	t := strings.TrimLeft(lower, " -*•>0123456789.)")
	return strings.HasPrefix(t, w+" ") || strings.HasPrefix(t, w+",")
}

// before reports whether word w qualifies the promise rather than its
// object: it sits before the action's text in the sentence, or among the
// action's first words ("we'll probably need to re-run it"), not later
// ("re-run what might fail").
func before(lower, w, action string) bool {
	i := strings.Index(lower, w)
	if i < 0 {
		return false
	}
	act := lang.FoldText(action)
	a := strings.Index(lower, act)
	if a < 0 || i < a {
		return true
	}
	f := strings.Fields(act)
	for k := 0; k < len(f) && k < 3; k++ {
		if strings.Trim(f[k], ",;:") == w {
			return true
		}
	}
	return false
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
