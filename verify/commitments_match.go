package verify

// How a summary carries a commitment: its action's verb and head noun in one
// sentence (or a two-sentence window joined by a pronoun), with the status
// the sentence gives it; and when a summary resurrects a closed one.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// compete settles which open commitment a summary sentence speaks of when
// near-duplicates ("migrate the staging DB", "migrate the prod DB") land on
// the same one: it goes to the item it carries more of, and the others are
// matched without it (promise.exclude).
func (c *commitmentTracker) compete(set []tracked, d *doc, kept func(tracked) bool, unverifiable bool) {
	var items []*promise
	var rs []matchResult
	clear(c.competed)
	c.competedIn = d
	d.itemPaths = map[string]bool{}
	for _, tr := range set {
		if p, ok := tr.(*promise); ok {
			for _, path := range p.act.Paths {
				d.itemPaths[path] = true
			}
		}
	}
	for _, tr := range set {
		p, ok := tr.(*promise)
		if !ok {
			continue
		}
		p.exclude = nil
		if unverifiable || kept(p) {
			continue
		}
		items = append(items, p)
		rs = append(rs, d.match(p.fullAtom()))
	}
	own := bestOwners(rs, items)
	if c.competed == nil {
		c.competed = map[*promise]matchResult{}
	}
	for i, p := range items {
		if !own[i] {
			p.exclude = map[int]bool{rs[i].cand.unit: true}
		} else {
			c.competed[p] = rs[i]
		}
	}
}

func (p *promise) match(l *ledger, d *doc, ir *ItemResult) {
	d.exclude = p.exclude
	at := p.fullAtom()
	// An owner of its match in compete is matched the same way again
	// (nothing excluded, the same summary): its result stands.
	r, ok := l.commitments.competed[p]
	if !ok || p.exclude != nil || l.commitments.competedIn != d {
		r = d.match(at)
	}
	// A sentence that reports done a step naming a test, a file or a
	// symbol, and that names other ones but none of the step's, speaks of
	// something else: "Fixed import sorting in testing.py" does not say
	// "Fix test_plan_save" is done. Look past such sentences.
	if names := p.distinctNames(); len(names) > 0 {
		for tries := 0; tries < 4 && r.found && r.polarity == Done && d.namesOthers(r.cand.unit, names); tries++ {
			ex := map[int]bool{r.cand.unit: true}
			for u := range d.exclude {
				ex[u] = true
			}
			d.exclude = ex
			r = d.match(at)
		}
	}
	d.exclude = nil
	if r.found {
		ir.Score = round2(r.cand.containment)
		ir.Evidence = d.evidence(r.cand, r.polarity)
		switch r.polarity {
		case Done:
			if noteVerbs[lang.EnglishVerb(p.act.Verb)] {
				// "I'll note the metadata issue for later": the summary
				// that says it was noted keeps the note.
				ir.Status = Retained
				ir.Why = fmt.Sprintf("the note is kept (%s)", r.cue)
				break
			}
			if p.planned && p.doneInProgress {
				// The step was in progress, a call did its work, and the
				// plan had not caught up when the compaction came: the
				// summary reports what the run did.
				ir.Status = Retained
				ir.Why = fmt.Sprintf("reported done (%s): %s carried it out while the step was in progress; the plan had not caught up", r.cue, callRef(p))
				break
			}
			ir.Status = Flipped
			ir.Why = fmt.Sprintf("the summary presents “%s” as done (%s) while the source has it open", p.item.Action, r.cue)
		case Negated:
			ir.Status = Dropped
			ir.Why = fmt.Sprintf("only a negated mention (“%s”): a negation never retains an obligation", r.cue)
		default:
			if r.polarity == Neutral && d.inRequest(r.cand.unit) {
				ir.Status = Weak
				ir.Why = "only the restated user request mentions it (under “" + ir.Evidence.Section + "”), not the open work"
				break
			}
			ir.Status = Retained
			ir.Why = "verb and object found" + cueSuffix(r.cue)
		}
		return
	}
	p.partial(d, r.best, ir)
}

// partial sets weak or dropped from the best candidate that lacked the verb
// or the head noun.
func (p *promise) partial(d *doc, best *candidate, ir *ItemResult) {
	ir.Status = Dropped
	if best == nil {
		ir.Why = "nothing in the summary mentions it"
		return
	}
	ir.Score = round2(best.containment)
	missing := []string{}
	if !best.verb {
		missing = append(missing, "the action's verb")
	}
	if !best.head {
		missing = append(missing, "its object")
	}
	if carriedAsPending(d, best, p.act) {
		ir.Status = Retained
		ir.Evidence = d.evidence(*best, Pending)
		ir.Why = fmt.Sprintf("its object is listed under “%s” as work still to do, with another verb", ir.Evidence.Section)
		return
	}
	if best.containment >= 0.5 && best.matched >= 2 {
		ir.Status = Weak
		ir.Evidence = d.evidence(*best, Neutral)
		ir.Why = "partial evidence only: the closest sentence lacks " + strings.Join(missing, " and ")
		return
	}
	ir.Why = "absent: the closest sentence lacks " + strings.Join(missing, " and ")
	if p.item.Condition != "" && best.containment > 0 {
		ir.Why += " (the condition may have survived without the action)"
	}
}

// carriedAsPending reports whether the best candidate, which lacks the
// action's verb, still carries the step: the step's verb says only that
// work is to be done on its object ("Fix CMS auth token injection (401
// error)"), and a line under a pending heading names most of that object
// with the work it will take ("Add Firebase Auth ID token fetching and
// injection into CMS requests" under "Pending Tasks").
func carriedAsPending(d *doc, best *candidate, a lang.Action) bool {
	if best.verb || !best.head || best.containment < 0.75 || !workVerbs[lang.EnglishVerb(a.Verb)] {
		return false
	}
	s := d.section(&d.units[best.unit])
	return s != nil && s.Polarity == Pending && !d.reportsDone(best.unit)
}

// workVerbs name work on their object without saying what it is.
var workVerbs = lang.TermSet("fix", "implement", "address", "handle", "resolve", "tackle", "complete", "finish", "do", "solve", "repair")

// resurrected checks a closed commitment: a summary that presents it as
// still pending makes the agent redo finished work. Resurrection needs
// most of the item's words, not a shared verb and noun: a false one would
// redo-block honest summaries. A quote of the user's earlier request ("All
// user messages") is history, not a to-do list.
func (p *promise) resurrected(d *doc, open []tracked, claimed map[int][]tracked) (ItemResult, bool) {
	ir := ItemResult{Item: p.item}
	// Only an obligation that waited, a plan step or a step of a plan the
	// agent stated can be redone by mistake: narration carried out on the
	// spot is gone once done.
	if !p.durable && !p.planned && !p.inPlan || p.abandoned || !d.hasTerm(p.act.Head) || p.act.Verb == "" {
		// (A step named by what it makes, with no verb, is mentioned by
		// every summary that describes the thing: no sign it is redone.)
		return ir, false
	}
	if !p.planned && !p.carriedOut {
		// Closed because work followed it, not because a call did it
		// ("I'll address any feedback once they complete", then other
		// work): that it was done is not known, so a summary that still
		// lists it sends the agent back to nothing finished.
		return ir, false
	}
	if repeatable(p.act) || publishesAnything(p.act) {
		// "Run the tests and lint" again is cheap and often due: a summary
		// that lists it as a next step asks for no finished work twice.
		return ir, false
	}
	at := p.fullAtom()
	r := d.match(at)
	// The pending cue must be the sentence's that names the item (not a
	// window over a neighbour), and a sentence that also reports the step
	// done ("- Rotate the keys (done)" under "Pending Tasks") does not
	// present it as open.
	if !r.found || r.polarity != Pending || r.cand.window || d.reportsDone(r.cand.unit) {
		return ir, false
	}
	if names := p.distinctNames(); len(names) > 0 && !d.unitNames(r.cand.unit, names) {
		// "Remove 'issues' branches in statusline.py" is not redone by
		// "remove the test of the issue-based branch", nor "Update
		// submit.py" by "the next step is Update documentation": the
		// step's own names set it apart from its siblings, and a summary
		// that sends the agent back to it names what it is.
		return ir, false
	}
	if p.planned && namesOtherStep(d.text[d.units[r.cand.unit].Start:d.units[r.cand.unit].End], p.aliases) {
		// "Task 3 (IN PROGRESS): … tests for post-translation quality
		// validation" is task 3, not the finished task 2 it shares words
		// with: the summary numbers its steps as the plan did.
		return ir, false
	}
	if r.cand.containment < 0.7 || d.inHistory(r.cand.unit) || d.inDescription(r.cand.unit) ||
		!d.compact(r.cand, at) || !d.headInProse(r.cand.unit, p.act.Head) || d.quoted(r.cand, p.act.Head) {
		return ir, false
	}
	for _, o := range open {
		if op, ok := o.(*promise); ok && sameAction(op.act, p.act) {
			return ir, false // the pending mention is a newer, open obligation
		}
	}
	for _, o := range claimed[r.cand.unit] {
		if o.weighs(p.act.Head) {
			// "add screenshots to the onboarding guide" (open) is not
			// "draft the onboarding guide" (done) said again.
			return ir, false
		}
	}
	ir.Status, ir.Score = Resurrected, round2(r.cand.containment)
	ir.Evidence = d.evidence(r.cand, Pending)
	ir.Why = fmt.Sprintf("closed in the source (%s) but the summary presents it as pending (%s)", p.item.ClosedBy, r.cue)
	return ir, true
}

// slim releases the maps of a closed commitment's atom once it cannot
// reopen (only plan steps do): a run that closes a step every few events
// kept some 800 bytes of them per step for nothing but the resurrection
// check and self-report matching, which rarely look at one. The atom is a
// function of the action (newAtom), so fullAtom makes it again when one
// does; weighs and hasTerm read the action's terms instead.
func (p *promise) slim() {
	if p.planned || p.item.Open {
		return
	}
	p.atom.verbs, p.atom.own, p.atom.weights, p.atom.terms, p.atom.mods = nil, nil, nil, nil, nil
}

// hasActionTerm reports whether t is one of the terms newAtom weighs for
// the commitment's action (its verb and object terms).
func (p *promise) hasActionTerm(t string) bool {
	return t != "" && slices.Contains(p.act.Terms(), t)
}

// fullAtom is the commitment's atom, made again if slim released it.
func (p *promise) fullAtom() atom {
	if p.atom.weights == nil {
		return newAtom(p.act)
	}
	return p.atom
}

// hasTerm reports whether a term is among the atom's terms or verbs
// (weights or verbs in newAtom), without making a released atom again.
func (p *promise) hasTerm(t string) bool {
	if p.atom.weights != nil {
		return p.atom.weights[t] > 0 || p.atom.verbs[t]
	}
	if p.hasActionTerm(t) {
		return true
	}
	v := p.act.Verb
	if v == "" {
		return false
	}
	if t == v || slices.Contains(lang.AlsoVerbTerms[v], t) {
		return true
	}
	base, ok := lang.ReVerbs[v]
	return ok && lang.TermOf(base) == t
}

// stepNumberRe finds a step named by its number: "Task 3", "task #12",
// "Step 2".
var stepNumberRe = lang.LazyRegexp(`(?i)\b(?:task|step|todo)\s*#?(\d+)\b`)

// namesOtherStep reports whether a sentence names plan steps by number and
// none of them is one of ids (a step's numeric plan ids).
func namesOtherStep(sentence string, ids []string) bool {
	numeric := false
	for _, id := range ids {
		if id != "" && strings.Trim(id, "0123456789") == "" {
			numeric = true
		}
	}
	if !numeric {
		return false
	}
	ms := stepNumberRe.FindAllStringSubmatch(sentence, -1)
	for _, m := range ms {
		if slices.Contains(ids, m[1]) {
			return false
		}
	}
	return len(ms) > 0
}

// closedNamedIn adds the closed commitments whose head noun and verb share a
// unit of the summary (see indexClosed).
func (c *commitmentTracker) closedNamedIn(d *doc, add func(tracked)) {
	for h, hu := range d.postings {
		for v, g := range c.closedByHead[h] {
			if v == "" || intersects(hu, d.postings[v]) {
				g.namedIn(d, add)
			}
		}
	}
}

// repeatable reports whether an action only checks or looks (run the
// tests, lint, build, verify, review): doing it again changes nothing a
// user would have to undo.
func repeatable(a lang.Action) bool {
	if readVerbs[a.Verb] || checkVerbs[a.Verb] {
		return true
	}
	run := a.Verb == lang.TermOf("run") || a.Verb == lang.TermOf("rerun")
	return run && (checkVerbs[a.Head] || checkNouns[a.Head])
}

// noteVerbs promise to remember something: what the summary notes is kept.
var noteVerbs = lang.TermSet("note", "remember", "flag", "jot")

// publishesAnything reports whether an action commits, pushes or opens a
// pull request for no work it names ("Commit changes and create PR"): the
// same words later are the next piece of work's commit, not this one
// redone.
func publishesAnything(a lang.Action) bool {
	if !publishTerms[a.Verb] {
		return false
	}
	for _, t := range a.Object {
		if !publishTerms[t] && !lang.GenericTerm[t] {
			return false
		}
	}
	return len(a.IDs) == 0 && len(a.Paths) == 0
}

// publishTerms are the words of an action that only publishes work.
var publishTerms = lang.TermSet("commit", "push", "create", "open", "pr", "pull", "request", "change", "changes",
	"all", "the", "and", "it", "them", "everything", "work", "branch", "remote", "origin")

// checkVerbs run checks; checkNouns are what "run" runs when it checks.
var (
	checkVerbs = lang.TermSet("test", "lint", "build", "rebuild", "check", "verify", "validate", "format", "vet",
		"typecheck", "compile", "bench", "benchmark", "review", "inspect")
	checkNouns = lang.TermSet("test", "tests", "lint", "linter", "suite", "ci", "check", "checks", "build", "fmt",
		"format", "formatter", "typecheck", "benchmark", "benchmarks", "vet", "verification")
)

// compact reports whether a match's words lie close together: a long
// sentence that lists many steps ("then Phase 9 (...), Phase 10 (...)")
// gathers the words of a finished step without speaking of it. The span is
// the shortest run of tokens holding one of each matched word.
func (d *doc) compact(c candidate, at atom) bool {
	if c.window {
		return true
	}
	toks := d.units[c.unit].toks
	want := map[string]bool{}
	for _, t := range toks {
		if _, ok := at.weights[t.Term]; ok && t.Term != "" {
			want[t.Term] = true
		}
	}
	best := len(toks)
	count := map[string]int{}
	have := 0
	for lo, hi := 0, 0; hi < len(toks); hi++ {
		if t := toks[hi].Term; want[t] {
			if count[t] == 0 {
				have++
			}
			count[t]++
		}
		for have == len(want) && lo <= hi {
			best = min(best, hi-lo+1)
			if t := toks[lo].Term; want[t] {
				count[t]--
				if count[t] == 0 {
					have--
				}
			}
			lo++
		}
	}
	return best <= max(8, 3*len(want))
}

// headInProse reports whether the unit names the head noun as a word of
// its prose, not only inside a path or code ("docs/plans/x.md" does not
// speak of a plan).
func (d *doc) headInProse(ui int, head string) bool {
	u := &d.units[ui]
	for _, t := range u.toks {
		if t.Term != head || t.Code {
			continue
		}
		inPath := false
		for _, pc := range d.pathChunks() {
			if t.Start >= pc.span.Start && t.End <= pc.span.End && len(pc.segs) > 1 {
				inPath = true
				break
			}
		}
		if !inPath {
			return true
		}
	}
	return false
}

// quoted reports whether the match's head noun appears only inside
// quotation marks: 'Direct quote from the task: "Task 1: Add X"' cites the
// step, it does not list it as still to do.
func (d *doc) quoted(c candidate, head string) bool {
	u := &d.units[c.unit]
	text := d.text[u.Start:u.End]
	var spans [][2]int // quoted regions, offsets in the document
	for i := 0; i < len(text); i++ {
		close := ""
		switch {
		case text[i] == '"':
			close = "\""
		case strings.HasPrefix(text[i:], "“"):
			close = "”"
		default:
			continue
		}
		j := strings.Index(text[i+1:], close)
		if j < 0 {
			break
		}
		spans = append(spans, [2]int{u.Start + i, u.Start + i + 1 + j})
		i += j + 1
	}
	if len(spans) == 0 {
		return false
	}
	seen := false
	for _, t := range u.toks {
		if t.Term != head {
			continue
		}
		seen = true
		in := false
		for _, s := range spans {
			if t.Start > s[0] && t.End <= s[1] {
				in = true
			}
		}
		if !in {
			return false
		}
	}
	return seen
}

// reportsDone reports whether a summary unit says, anywhere in it, that
// its matter is done: a done marker, an inline [DONE] or ✓, a completion
// word, or its language's done cue.
func (d *doc) reportsDone(ui int) bool {
	u := &d.units[ui]
	if u.marker == Done {
		return true
	}
	text := d.text[u.Start:u.End]
	if inlineDoneMark.MatchString(text) {
		return true
	}
	for _, t := range u.toks {
		switch t.Word {
		case "done", "completed", "finished", "complete", "resolved", "merged", "shipped", "landed":
			return !negatedBefore(u, t)
		}
	}
	if st, _ := lang.ForeignStatus(text, d.language()); st == "done" {
		return true
	}
	return false
}

// negatedBefore reports whether the word just before a token denies it
// ("not done", "never completed", "isn't finished").
func negatedBefore(u *unit, t lang.Token) bool {
	for i := range u.toks {
		if u.toks[i].Start == t.Start {
			if i == 0 {
				return false
			}
			w := u.toks[i-1].Word
			return lang.NegationCues[w] || w == "yet" && i > 1 && lang.NegationCues[u.toks[i-2].Word]
		}
	}
	return false
}

// distinctNames is distinctNames of the commitment's item, kept while
// its wording stays: every compaction matched every open commitment and
// read its names again (lang.Distinctive), 1.7 s of 48 on a 1 GB mixed run.
func (p *promise) distinctNames() []string {
	src := p.item.Action
	if src == "" {
		src = p.item.Text
	}
	if !p.namesDone || p.namesOf != src {
		p.names, p.namesOf, p.namesDone = distinctNames(p.item), src, true
	}
	return p.names
}

// distinctNames are the names an item's action carries (see
// lang.Distinctive), without the words of a plain sentence.
func distinctNames(it *Item) []string {
	src := it.Action
	if src == "" {
		src = it.Text
	}
	var out []string
	for _, n := range lang.Distinctive(src) {
		if len(n) >= 4 {
			out = append(out, n)
		}
	}
	return out
}

// namesOthers reports whether a summary unit names things (see
// lang.Distinctive) but none of names: it speaks of something else.
func (d *doc) namesOthers(ui int, names []string) bool {
	if ui < 0 || ui >= len(d.units) || d.unitNames(ui, names) {
		return false
	}
	u := &d.units[ui]
	return len(lang.Distinctive(d.text[u.Start:u.End])) > 0
}

// unitNames reports whether a summary unit names one of names, at token
// boundaries and whatever the case; a path is also named by its last
// segment ("cmd/x/flags.go" by "flags.go").
func (d *doc) unitNames(ui int, names []string) bool {
	if ui < 0 || ui >= len(d.units) {
		return false
	}
	u := &d.units[ui]
	text := d.text[u.Start:u.End]
	for _, n := range names {
		if lang.FindBounded(text, n, lang.IsIdentByte, lang.IsIdentByte, true) >= 0 {
			return true
		}
		if k := strings.LastIndexByte(n, '/'); k >= 0 && k+1 < len(n) &&
			lang.FindBounded(text, n[k+1:], lang.IsIdentByte, lang.IsIdentByte, true) >= 0 {
			return true
		}
	}
	return false
}
