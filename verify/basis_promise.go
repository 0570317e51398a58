package verify

// The cues that weaken a promise's basis (promiseBasis): narration, how the
// agent will work, a report on a run, a restraint, a thing's event, a
// pronoun object, a hypothetical or a possibility.

import (
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

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
