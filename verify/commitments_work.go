package verify

// What discharges a commitment: a tool call that carries its action out
// (then a claim or a report of it, for durable ones), work that acts on a
// piece of narration, or a plan that marks its step done. A completion
// claim with no such call is a false (or unsupported) completion, and the
// commitment stays open: a claim does not discharge an obligation.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// call notes which open commitments a tool call could carry out (confirmed
// when it succeeds) or acts on.
func (c *commitmentTracker) call(i int, tc *model.ToolCall, ci *callInfo) {
	open, few := c.openPromises()
	var cands []*promise
	if !few {
		open = c.idx.forCall(tc, ci, c.l.stretch)
		cands = open
		if indexCheck != nil {
			c.checkCall(open, tc, ci)
		}
	}
	for _, p := range open {
		if !p.item.Open || p.carried >= 0 {
			continue
		}
		sameTurn := tc.Turn == p.item.Turn && !p.planned
		if sameTurn && (announces(p.item.Text) || p.announced) {
			// "I'll add the helpers to common.go and modify X:" with the
			// calls right after: the sentence announces the work under way.
			p.durable, p.narrated, p.worked = false, true, true
			c.idx.worked = append(c.idx.worked, p)
			continue
		}
		if ci.category == toolPlan {
			// Writing the work into the plan is not doing it: the plan
			// event that follows opens or closes its steps. A promise
			// about the plan itself ("let me create a todo list to track
			// this", "I'll update the tasks") is what the call does.
			if p.stretch == c.l.stretch && aboutPlan(p.act) {
				p.working = append(p.working, i)
				c.idx.byCall[i] = append(c.idx.byCall[i], p)
			}
			continue
		}
		does := carries(p.act, p.actionFiles(), ci, false)
		switch {
		case does && c.sibling(p, ci, cands):
			// Another open obligation with the same head is the one this
			// call names ("create_macro refund-approved", not refund-denied).
		case does:
			p.carrying = append(p.carrying, i)
			c.idx.byCall[i] = append(c.idx.byCall[i], p)
		case actsOn(p, ci, sameTurn), looksNext(p, ci, c.l.stretch):
			p.working = append(p.working, i)
			c.idx.byCall[i] = append(c.idx.byCall[i], p)
		}
		if sameTurn && len(p.carrying)+len(p.working) > 0 {
			// Said and done in the same turn ("I'll add it next to the
			// header" with the edit beside it): narration of work under way.
			p.durable = false
			p.narrated = true
		}
	}
}

// succeeded confirms the commitments a successful call carried out or
// worked on. An immediate commitment carried out closes at once; a durable
// one waits for its claim or report (see claims).
func (c *commitmentTracker) succeeded(ci int, r *model.ToolResult, info *callInfo) {
	// Only the commitments the call was noted for can change (see call),
	// and those naming a file the result says it wrote.
	var noted []*promise
	for _, p := range c.idx.byCall[ci] {
		if p.item.Open {
			noted = append(noted, p)
		}
	}
	delete(c.idx.byCall, ci)
	if len(c.idx.files) > 0 && !info.checks && writeCue(r.Text.Head()) {
		c.idx.files = livePromises(c.idx.files, &noted)
	}
	noted = inOrder(noted)
	if indexCheck != nil {
		c.checkSucceeded(noted, ci, r, info)
	}
	for _, p := range noted {
		if !p.item.Open || p.carried >= 0 {
			continue
		}
		for _, w := range p.working {
			if w == ci && !p.worked {
				p.worked = true
				c.idx.worked = append(c.idx.worked, p)
			}
		}
		if (editVerbs[p.act.Verb] || execVerbs[p.act.Verb]) && !info.checks && !slices.Contains(p.carrying, ci) {
			if writesFile(r.Text.Head(), p.actionFiles()) {
				// "pnpm i18n:codegen" answers "wrote src/i18n/catalog.gen.ts":
				// the result says the call made the file the promise names.
				p.carrying = append(p.carrying, ci)
			}
		}
		for _, w := range p.carrying {
			if w != ci {
				continue
			}
			p.carried, p.carriedBy = ci, info.call
			// A dry run or a check carries nothing out for the plan to lag behind.
			p.doneInProgress = p.doneInProgress || p.inProgress && !info.checks
			if reportable(p) {
				c.idx.addReportable(p)
			}
			if !p.durable && !p.planned {
				p.carriedOut = true
				c.l.close(p, r, fmt.Sprintf("carried out by %s (%s) at turn %d", r.ID, info.name, r.Turn))
			}
		}
	}
}

// writeCues are the words of a line that says it wrote a file.
var writeCues = []string{"wrote ", "written", "generated", "created", "updated", "saved", "writing ", "regenerated", "emitted"}

// writeCue reports whether some line of a result's head may say it wrote a
// file (see writesFile): no cue word, no such line.
func writeCue(out string) bool {
	return lang.ContainsAny(strings.ToLower(out[:lang.CutUTF8(out, 4096)]), writeCues...)
}

// writesFile reports whether a tool result says it wrote one of the files:
// "wrote src/i18n/catalog.gen.ts (7 locales)", "Generated api/client.ts".
func writesFile(out string, files []string) bool {
	if len(files) == 0 {
		return false
	}
	out = out[:lang.CutUTF8(out, 4096)]
	for _, line := range strings.Split(out, "\n") {
		l := strings.ToLower(line)
		if !lang.ContainsAny(l, writeCues...) {
			continue
		}
		for _, f := range files {
			if strings.Contains(line, f) {
				return true
			}
		}
	}
	return false
}

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
var runDoneRe = regexp.MustCompile(`^(?:once|when|after|as soon as) (?:it|that|this|cargo|npm|the (?:build|compile|compilation|job|task|command|run|install|installation|tests?|server|app|download|deploy|deployment|container|image|background \w+))\b.*\b(?:finish|finishes|finished|completes?|completed|done|ready|is up|starts?|started|exits?|compiling|compiles|compiled|builds|built)\b`)

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

// meantForSibling reports whether the call names what sets another open
// commitment with the same head apart (a modifier, a name, the words after
// a preposition: "COLO829" of "re-run variant calling for COLO829") and
// nothing that sets p apart.
//
// cands, when the call's candidates were looked up (promiseIndex.forCall),
// are those candidates.
func (c *commitmentTracker) meantForSibling(p *promise, ci *callInfo, cands []*promise) bool {
	own := p.distinctWords()
	if cands != nil && !slices.ContainsFunc(own, ci.hasTerm) {
		// The call names nothing that sets p apart, so no sibling is told
		// from p as p's, and one is meant when the call names what sets
		// it apart: then it is a candidate (callWords holds those words).
		for _, o := range cands {
			if o != p && o.item.Open && o.act.Head == p.act.Head && slices.ContainsFunc(o.distinctWords(), func(t string) bool {
				return !slices.Contains(own, t) && ci.hasTerm(t)
			}) {
				return true
			}
		}
		return false
	}
	// The siblings in the order of the open list: the first that tells
	// them apart decides.
	for _, o := range c.idx.siblings(p) {
		if o == p || !o.item.Open || o.act.Head != p.act.Head {
			continue
		}
		theirs := o.distinctWords()
		mine := false
		for _, t := range own {
			if !slices.Contains(theirs, t) && ci.hasTerm(t) {
				mine = true
			}
		}
		if mine {
			return false
		}
		for _, t := range theirs {
			if !slices.Contains(own, t) && ci.hasTerm(t) {
				return true
			}
		}
	}
	return false
}

// distinct returns the words that tell an action from others with its
// head: its modifiers (and the specific word of a category head), its
// names and its complements' specific words.
func distinct(a lang.Action) []string {
	out := append([]string(nil), a.Mods()...)
	if a.Alt != "" {
		out = lang.AppendUnique(out, a.Alt)
	}
	for _, n := range a.Names {
		out = lang.AppendUnique(out, n)
	}
	for _, cm := range a.Complements {
		for _, t := range specific(cm.Terms) {
			out = lang.AppendUnique(out, t)
		}
	}
	return out
}

// distinctWords is distinct(p.act), computed once.
func (p *promise) distinctWords() []string {
	if !p.distinctDone {
		p.distinct, p.distinctDone = distinct(p.act), true
	}
	return p.distinct
}

// actionFiles returns the files and URLs a commitment's action names,
// computed once.
func (p *promise) actionFiles() []string {
	if !p.filesDone {
		p.filesDone = true
		for _, id := range lang.ExtractIdents(p.act.Text) {
			if id.Class == lang.ClassPath || id.Class == lang.ClassURL {
				p.files = append(p.files, id.Value)
			}
		}
	}
	return p.files
}

// claims looks in an assistant message for completion claims of open
// commitments. A claim backed by a call that carried the action out closes
// the item; one without is a false (or unsupported) completion, and the
// item stays open.
func (c *commitmentTracker) claims(m *model.Message) {
	var d *doc
	var items []*promise
	var results []matchResult
	open, few := c.openPromises()
	if !few {
		// A claim or report needs the head noun (or its alternative) in
		// the message: see doc.score and reported. Most messages name none
		// of the open commitments' heads with a verb: the words of the
		// whole message say so without parsing it.
		if len(c.idx.named(c.l.wordsOf(m, &c.words))) == 0 {
			if indexCheck != nil {
				c.checkNamed(nil, parseSummary(m.Text), m)
			}
			return
		}
		d = parseSummary(m.Text)
		open = c.idx.named(d)
		n := 0
		for _, p := range open {
			if reportable(p) || d.mayHaveVerb(p.atom) || d.viaReNoun(p.atom) {
				open[n] = p
				n++
			}
		}
		open = open[:n]
		if indexCheck != nil {
			c.checkNamed(open, d, m)
		}
	}
	for _, p := range open {
		if !p.item.Open || p.item.Event == m.Index {
			continue
		}
		if d == nil {
			d = parseSummary(m.Text)
		}
		if (p.carried < 0 || p.planned) && d.surelyOther(p.atom) {
			// Not found, it could only be reported (carried and not
			// planned): it takes no part.
			if indexCheck != nil && d.match(p.atom).found {
				indexCheck(fmt.Sprintf("claims: %s ruled out of %q but it matches", p.item.ID, m.Text))
			}
			continue
		}
		items = append(items, p)
		results = append(results, d.match(p.atom))
	}
	owner := bestOwners(results, items)
	for i, p := range items {
		r := results[i]
		if r.found && !owner[i] {
			// The sentence speaks of a sibling that matches it better
			// ("format 2" is claimed, not "format 1").
			r.found = false
		}
		switch {
		case r.found && r.polarity == Done:
			if p.carried >= 0 {
				// Supported: a call carried it out and the agent claims it.
				// A plan step needs the claim said outright ("is
				// finished"): the plan is the authority on its own steps,
				// and a description in the past tense does not overrule it.
				if !p.planned || outright(r.cue) {
					p.carriedOut = true
					c.l.close(p, m, fmt.Sprintf("carried out by %s and claimed at turn %d", callRef(p), m.Turn))
				}
				continue
			}
			if p.claimed {
				continue
			}
			p.claimed = true
			c.completionFinding(p, m, d.text[d.units[r.cand.unit].Start:d.units[r.cand.unit].End])
		case !p.planned && p.carried >= 0 && reported(d, p, r):
			p.carriedOut = true
			c.l.close(p, m, fmt.Sprintf("carried out by %s and reported at turn %d", callRef(p), m.Turn))
		}
	}
}

// outright reports whether a status cue says in so many words that the
// work is done ("finished", "[DONE]", "completed:"), not by a past tense.
func outright(cue string) bool {
	if cue == "done marker" {
		return true
	}
	for _, w := range strings.Fields(strings.ToLower(cue)) {
		if lang.DoneCues[strings.Trim(w, "[]():*")] {
			return true
		}
	}
	return false
}

// bestOwners says, for each match, whether it is the best of the matches
// that landed on the same unit: near-duplicate items ("the staging DB", "the
// prod DB") compete for a sentence, and the one it carries more of wins.
func bestOwners(rs []matchResult, items []*promise) []bool {
	type key struct {
		unit int
		head string
	}
	own := make([]bool, len(rs))
	best := map[key]float64{}
	for i, r := range rs {
		if k := (key{r.cand.unit, items[i].act.Head}); r.found && r.cand.containment > best[k] {
			best[k] = r.cand.containment
		}
	}
	for i, r := range rs {
		own[i] = !r.found || r.cand.containment >= best[key{r.cand.unit, items[i].act.Head}]
	}
	return own
}

// reported reports whether a message speaks of a carried-out item without
// presenting it as still to do: the action itself ("The pricing service
// now populates the currency field") or its object, not pending or negated.
func reported(d *doc, p *promise, r matchResult) bool {
	if r.found {
		return r.polarity == Done || r.polarity == Neutral
	}
	if r.best == nil || !r.best.head {
		return false
	}
	if p.act.Alt != "" && !d.unitHas(r.best.unit, p.act.Alt) {
		return false // "go test passes" does not report "add the golden test"
	}
	pol, _ := d.polarity(&d.units[r.best.unit], -1, r.best.lo, r.best.hi)
	return pol == Done || pol == Neutral
}

// callRef names the call that carried p out.
func callRef(p *promise) string {
	if tc := p.carriedBy; tc != nil {
		return fmt.Sprintf("%s (%s, turn %d)", tc.ID, tc.Name, tc.Turn)
	}
	return fmt.Sprintf("event %d", p.carried)
}

func (c *commitmentTracker) completionFinding(p *promise, m *model.Message, claim string) {
	f := RunFinding{Kind: UnsupportedCompletion, Turn: m.Turn, Event: m.Index, Item: p.item.Key, ItemID: p.item.ID,
		OriginTurn: p.item.Turn, Text: claim}
	if p.firstLoss > 0 {
		f.Kind, f.LostAt = FalseCompletion, p.firstLoss
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out; compaction %d lost it", p.item.Action, p.item.Turn, p.firstLoss)
	} else {
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out", p.item.Action, p.item.Turn)
	}
	c.l.res.Findings = append(c.l.res.Findings, f)
}

// verb categories: which tool calls can carry out an action with this verb.
var execVerbs = lang.TermSet("run", "rerun", "test", "build", "rebuild", "lint", "deploy", "migrate", "install",
	"commit", "push", "rebase", "merge", "tag", "format", "generate", "regenerate", "compile",
	"execute", "bench", "benchmark", "start", "restart", "stop", "kill", "drain", "backfill", "release",
	"seed", "vet", "cherry-pick", "checkout", "pull", "fetch", "clone", "apply", "publish", "open")
var editVerbs = lang.TermSet("add", "fix", "update", "remove", "rename", "refactor", "edit", "change", "replace",
	"document", "port", "bump", "revert", "clean", "rewrite", "write", "implement", "move", "delete",
	"convert", "extract", "inline", "split", "simplify", "annotate", "comment", "restore", "switch")
var readVerbs = lang.TermSet("check", "read", "review", "investigate", "look", "inspect", "find", "search",
	"see", "examine", "explore", "understand", "figure", "confirm", "compare")

// commandVerbs appear in the command itself when carried out: "git push",
// "git rebase", "make lint".
var commandVerbs = lang.TermSet("commit", "push", "rebase", "merge", "lint", "test", "build", "deploy",
	"migrate", "install", "format", "vet", "tag", "release", "publish", "backfill", "drain", "seed", "bench")

// carries reports whether a tool call carries out an action: the call's
// kind suits the verb (a read does not re-run a migration) and its input
// names the action's object ("make migrate" for "re-run the migration"), or,
// for verbs that are commands themselves, the verb ("git push").
func carries(a lang.Action, files []string, ci *callInfo, relaxed bool) bool {
	// "I'll start with manual_commit_test.go": beginning a piece of work
	// narrates no particular kind of call.
	beginning := relaxed && (a.Verb == lang.TermOf("start") || a.Verb == lang.TermOf("begin"))
	if a.Means != nil && carries(*a.Means, nil, ci, relaxed) {
		// "optimise the dataloader by pre-tokenising the March logs": the
		// run of tools/pretokenize.py on data/march does it.
		return true
	}
	if !compatible(a.Verb, ci.category) && !beginning {
		return false
	}
	if opposes(a, ci) {
		return false // "--disable-cache" does not "turn the cache back on"
	}
	if !relaxed && (ci.checks || ci.publishes()) && editVerbs[a.Verb] {
		// "cue vet ./deploy/gates/..." names the gate but updates nothing;
		// "gh pr create --body 'moves Badge onto the tokens'" describes a
		// change, it does not make it.
		return false
	}
	if relaxed {
		return narrationActedOn(a, files, ci)
	}
	if a.Head != "" && ci.hasTerm(a.Head) && (a.Alt == "" || ci.hasTerm(a.Alt) || anyTerm(ci, a.Mods())) {
		// A category head ("test", "service") needs its specific word too:
		// any edit of a test file is not "add the golden test".
		return true
	}
	if a.Alt != "" && ci.hasTerm(a.Alt) {
		return true
	}
	if !ci.checks && ci.category != toolRead && namesOwn(a, ci) {
		// "spin up the av1-workers pool from ami-0b7e4d2c9a1f3e5d6" and
		// "terraform apply -target=module.av1_workers": a call that works
		// on the thing the action names by its own name does it.
		return true
	}
	// Another word of the direct object ("the DNS record" in "switch the
	// DNS record for example.com") counts only with the verb beside it: a
	// push of branch bringup/imu-revc does not re-flash the rev-C board.
	// A file or URL the action names verbatim counts alone ("bump the
	// version in package.json" is carried by an edit of it).
	if ci.hasVerb(a.Verb) {
		// With the verb in the call, any specific word of the object will
		// do: "generate the schedule with the circle method" is carried out
		// by "generate ... --method circle".
		for _, t := range a.Object {
			// A number is not the object, but a name written with one is
			// ("for COLO829").
			if !lang.GenericTerm[t] && (!lang.HasDigit(t) || slices.Contains(a.Names, t) && len(t) >= 4) && len(t) >= 3 && ci.hasTerm(t) {
				return true
			}
		}
	}
	if worksOnNamedFile(a, files, ci) {
		return true
	}
	return commandVerbs[a.Verb] && ci.hasTerm(a.Verb) && (a.Head == "" || lang.GenericTerm[a.Head] || a.Head == lang.TermOf("branch") || a.Head == lang.TermOf("change"))
}

// narrationActedOn reports whether a call acts on narrated work ("I'll look
// at the build log"): it names the verb or a specific word of the object,
// or works on a file the narration names. Any call is not enough.
func narrationActedOn(a lang.Action, files []string, ci *callInfo) bool {
	if ci.hasVerb(a.Verb) {
		return true
	}
	if a.Means != nil {
		// "deflake //services/search:integration_test by replacing the
		// sleep with a probe": the means says what the work is; a build
		// of //services/search/... is not it.
		return false
	}
	for _, t := range append([]string{a.Head}, a.Direct...) {
		if t != "" && !lang.GenericTerm[t] && len(t) >= 3 && ci.hasTerm(t) {
			return true
		}
	}
	for _, f := range files {
		if ci.path != "" && samePath(ci.path, f) {
			return true // "I'll start with x_test.go" and a read of it
		}
	}
	return false
}

// worksOnNamedFile reports whether the call works on a file or URL the
// action names verbatim ("bump the version in package.json" and an edit of
// package.json). A command that merely mentions it among others needs one
// more sign of the work, the verb or another word of the object: real runs
// touch the same file many times for other ends.
func worksOnNamedFile(a lang.Action, files []string, ci *callInfo) bool {
	for _, f := range files {
		if !strings.Contains(ci.input, f) {
			continue
		}
		if ci.path != "" && samePath(ci.path, f) || ci.hasVerb(a.Verb) || objectNamed(a, ci, f) {
			return true
		}
	}
	return false
}

// namesOwn reports whether the call names one of the action's own names
// that no other thing shares: written with digits and a joiner
// ("av1-workers", "ami-0b7e4d2c9a1f3e5d6").
func namesOwn(a lang.Action, ci *callInfo) bool {
	for _, id := range a.Own {
		if ci.hasTerm(id) {
			return true
		}
	}
	return false
}

// objectNamed reports whether the call names a specific word of the
// action's object that is not part of the file's own name.
func objectNamed(a lang.Action, ci *callInfo, file string) bool {
	own := map[string]bool{}
	for _, t := range lang.WordTerms(file) {
		own[t] = true
	}
	for _, t := range a.Object {
		if !own[t] && !lang.GenericTerm[t] && !lang.HasDigit(t) && len(t) >= 3 && ci.hasTerm(t) {
			return true
		}
	}
	return false
}

func anyTerm(ci *callInfo, ts []string) bool {
	for _, t := range ts {
		if ci.hasTerm(t) {
			return true
		}
	}
	return false
}

// compatible reports whether a call of category c can carry out an action
// with this verb: a read does not re-run a migration.
func compatible(verb string, c toolCategory) bool {
	if c == toolOther {
		return true // an API or MCP tool ("create_macro"): its kind is unknown
	}
	switch {
	case execVerbs[verb]:
		return c == toolExec
	case editVerbs[verb]:
		return c == toolEdit || c == toolExec
	case readVerbs[verb]:
		return true
	}
	// A verb of no known kind ("register the PR under its branch name"):
	// a read does not do it.
	return c != toolRead
}

// antonyms pairs verbs that undo each other, by term.
var antonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, p := range [][2]string{{"enable", "disable"}, {"start", "stop"}, {"add", "remove"}, {"install", "uninstall"},
		{"lock", "unlock"}, {"mount", "unmount"}, {"allow", "deny"}, {"allow", "block"}, {"include", "exclude"},
		{"show", "hide"}, {"connect", "disconnect"}, {"provision", "destroy"}, {"pause", "resume"}, {"freeze", "unfreeze"},
		{"encrypt", "decrypt"}, {"attach", "detach"}, {"subscribe", "unsubscribe"}, {"scale up", "scale down"}} {
		a, b := lang.TermOf(p[0]), lang.TermOf(p[1])
		m[a] = append(m[a], b)
		m[b] = append(m[b], a)
	}
	return m
}()

// opposes reports whether a call does the opposite of an action: it names
// a verb that undoes the action's verb and not the verb itself
// ("./server --disable-cache" for "turn the cache back on").
//
// Only a shell command's own words count: an edit's content may name any
// verb ("remove" in a comment of the middleware it adds).
func opposes(a lang.Action, ci *callInfo) bool {
	ops := antonyms[a.Verb]
	if len(ops) == 0 || ci.command == "" || ci.hasVerb(a.Verb) {
		return false
	}
	words := lang.WordTerms(strings.NewReplacer("-", " ", "_", " ", "=", " ").Replace(ci.command))
	for _, o := range ops {
		if slices.Contains(words, o) {
			return true
		}
	}
	return false
}
