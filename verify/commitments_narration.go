package verify

// Narration and looks: a promise the agent's own work carries out as it
// goes, without a call that names it. A call that acts on it in the same
// response, the reads that follow an announced look in the same stretch of
// work (also one that waits on the agent's own run), the first calls after
// "I'll start by …": each is the promise being kept (DESIGN.md, item kinds:
// "not narration of the next step the same response carries out").

import (
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// actsOn reports whether a call that does not carry out a commitment still
// works on it: the agent is doing what it said, so once the call succeeds and
// the run moves on, nothing is owed.
func actsOn(p *promise, ci *callInfo, sameTurn bool) bool {
	switch {
	case (!p.durable && !p.planned && !p.inPlan || sameTurn) && carries(p.act, p.actionFiles(), ci, true):
		return true
	case sameTurn && !p.durable && (!p.inPlan || ci.category == toolEdit) && ci.category != toolRead && compatible(p.act.Verb, ci.category):
		// The one thing a message promised, and a change made in the same
		// response: the call is the promise being kept ("I'll do a full
		// rewrite of the renderer" with the Write of it).
		return true
	case sameTurn && (!p.durable || lookFirst(p.item.Condition) || awaitsRun(p.item.Condition)) && (readVerbs[lang.EnglishVerb(p.act.Verb)] || exploratory(p.act)):
		// "I need to understand what happens to stashed files", "I'll do
		// another thorough audit" with a search beside it: the look is
		// under way.
		return true
	case sameTurn && !p.durable && !p.planned && beginsWork(p.item.Text):
		// "I'll start by parsing the argument and setting up the
		// environment" with the calls right after: the response begins
		// the work it names.
		return true
	case sameTurn && ci.category == toolEdit && compatible(p.act.Verb, toolEdit) && pronounObject(p.act):
		// "I'll add it next to the header when annotations exist" with the
		// edit beside it: "it" is what the agent has in hand, and a
		// condition there says when the thing shows, not when to act.
		return true
	}
	return false
}

// looksNext reports whether a read carries out a look the agent announced
// earlier in the same stretch of work, with no condition ("I'll start by
// exploring the codebase to understand its patterns", then the reads, in
// later responses): the look is what the agent did next.
func looksNext(p *promise, ci *callInfo, stretch int) bool {
	if p.stretch != stretch || p.planned || p.item.Condition != "" && !lookFirst(p.item.Condition) && !awaitsRun(p.item.Condition) || ci.category == toolPlan {
		return false
	}
	// "I'll start by exploring the codebase, then implement it step by
	// step", with the first responses spent writing the plan: the work
	// begins with the first call after it.
	return ci.category == toolRead && (readVerbs[lang.EnglishVerb(p.act.Verb)] || exploratory(p.act)) || beginsWork(p.item.Text)
}

// mayLookNext reports whether looksNext can ever hold for a promise: it is
// filed where every call of its stretch finds it.
func mayLookNext(p *promise) bool {
	if p.planned || p.item.Condition != "" && !lookFirst(p.item.Condition) && !awaitsRun(p.item.Condition) {
		return false
	}
	return readVerbs[lang.EnglishVerb(p.act.Verb)] || exploratory(p.act) || beginsWork(p.item.Text)
}

// planWords name a plan or todo list as the object of an action.
var planWords = lang.TermSet("todo", "todos", "task", "tasks", "plan", "checklist", "track", "tracker")

// aboutPlan reports whether an action is about the agent's plan or todo
// list itself ("create a todo list", "track these tasks").
func aboutPlan(a lang.Action) bool {
	if planWords[a.Verb] || planWords[a.Head] {
		return true
	}
	for _, w := range strings.Fields(lang.FoldText(a.Text)) {
		if planWords[lang.TermOf(w)] {
			return true
		}
	}
	return false
}

// auditVerbs look over work already done; lightVerbs take an audit as their
// object ("do another sweep", "run a quick check").
var (
	auditVerbs = lang.TermSet("audit", "sweep", "trace", "analyze", "analyse", "scan", "study", "survey", "double-check", "recheck", "re-check")
	lightVerbs = lang.TermSet("do", "run", "make", "perform", "take", "have", "give")
	auditNouns = lang.TermSet("audit", "review", "sweep", "check", "pass", "search", "investigation", "analysis", "scan", "look", "survey", "double-check")
)

// exploratory reports whether an action is a look over the work ("audit the
// codebase", "do another comprehensive sweep") rather than a change to it.
func exploratory(a lang.Action) bool {
	if auditVerbs[lang.EnglishVerb(a.Verb)] {
		return true
	}
	// The parser skips a light verb ("do another sweep" reads "another" as
	// the verb), so the action's first word is looked at too.
	f := strings.Fields(lang.FoldText(a.Text))
	return auditNouns[a.Head] && (lightVerbs[lang.EnglishVerb(a.Verb)] || len(f) > 0 && lightVerbs[lang.TermOf(f[0])])
}

// lookFirst reports whether a look's condition says what it comes before
// ("I need to see the interfaces before I can start writing code"): the
// look is done first, it waits for nothing.
func lookFirst(cond string) bool {
	f := strings.Fields(lang.FoldText(strings.TrimSpace(cond)))
	if len(f) < 2 || f[0] != "before" {
		return false
	}
	// "before I touch it", "before we merge", "before editing", "before
	// making changes": the look comes first in the work under way.
	return f[1] == "i" || f[1] == "we" || strings.HasSuffix(f[1], "ing")
}

// runDoneRe matches a condition that waits on something the agent is
// running: "once it finishes compiling", "when the build completes",
// "after the tests finish".
var runDoneRe = lang.LazyRegexp(`^(?:once|when|after|as soon as) (?:it|that|this|cargo|npm|the (?:build|compile|compilation|job|task|command|run|install|installation|tests?|server|app|download|deploy|deployment|container|image|background \w+))\b.*\b(?:finish|finishes|finished|completes?|completed|done|ready|is up|starts?|started|exits?|compiling|compiles|compiled|builds|built)\b`)

// awaitsRun reports whether a look's condition is the end of something
// the agent runs itself ("let me check the build output once it finishes
// compiling"): the agent reads it as it runs, in the same stretch of
// work, with nobody else to wait for.
func awaitsRun(cond string) bool {
	return cond != "" && runDoneRe.MatchString(lang.FoldText(strings.TrimSpace(cond)))
}

// beginsWork reports whether a promise's sentence says the response starts
// on the work ("I'll start by …", "Let me begin with …").
func beginsWork(sentence string) bool {
	lower := lang.FoldText(sentence)
	for _, p := range []string{"start by", "start with", "begin by", "begin with", "starting with", "starting by", "first, i'll", "first i'll", "first, let me", "first let me",
		// "I'll proceed directly to implementation": the work the plan named
		// begins with the next call.
		"proceed to", "proceed directly to", "proceed straight to", "move on to", "go straight to", "get started on"} {
		if lang.HasPhrase(lower, p) {
			return true
		}
	}
	return false
}

// announces reports whether a promise's sentence ends with a colon: it
// introduces what the same response does next ("Let me fix both:").
func announces(sentence string) bool {
	return strings.HasSuffix(strings.TrimSpace(sentence), ":")
}

// pronounObject reports whether an action's object is a pronoun ("add it",
// "rewrite this"): it refers to what is in hand, not to a named thing.
func pronounObject(a lang.Action) bool {
	toks := lang.SkipLight(lang.Tokenize(a.Text))
	if len(toks) < 2 {
		return false
	}
	switch toks[1].Word {
	case "it", "this", "that", "them", "these", "those":
		return true
	}
	return false
}
