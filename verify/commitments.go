package verify

// Commitments: what the agent took on, from its prose ("I'll re-run the
// migration after the review"), from plan and todo updates, and from logged
// commitment events. This file says how a commitment opens and when it is a
// restatement of one already open; commitments_work.go says what discharges
// it (the work that carries it out, a claim); commitments_match.go how a
// summary carries it.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// promise is an open or closed commitment.
type promise struct {
	entry
	act  lang.Action
	atom atom
	// durable commitments wait for something; immediate ones ("I'll read
	// the file") are discharged by the next call that can carry them out.
	durable bool
	planned bool // from a plan or commitment event
	// carried is the event index of a successful call that carried the
	// action out (-1 when none); carrying are calls awaiting their result.
	carried  int
	carrying []int
	// carriedBy is the call at carried, which a closing reason names.
	carriedBy *model.ToolCall
	// working: calls that suit an immediate commitment's verb; once one
	// succeeds (worked), the next assistant message discharges it.
	working  []int
	worked   bool
	claimed  bool // a completion claim was already reported
	inPlan   bool // an unconditional promise made beside others: a call must carry it out, but no claim is needed
	narrated bool // a call in the commitment's own turn acts on it
	// stretch is the ledger's stretch when the promise was made: the
	// agent's work between two messages of the user (see ledger.stretch).
	stretch int
	// branch is the branch the agent had made to work on when the promise
	// was made: the work lands there, so the promise depends on its name
	// (see ledger.workBranch).
	branch   lang.Ident
	branchAt int          // the event index of the result that made it
	inTree   bool         // the branch has a worktree of its own (see ledger.workTree)
	exclude  map[int]bool // summary units a sibling owns (see compete)
	// carriedOut: closed because a call did the work (not merely "acted
	// on"): a summary listing it as pending resurrects it.
	carriedOut bool
	// inProgress: a plan step the plan last gave as in progress;
	// doneInProgress: a call carried its action out while it was (the
	// plan may not have caught up when a compaction came).
	inProgress, doneInProgress bool
	// abandoned: a plan step the agent left out of a later full plan; it
	// was never done, so a summary that still lists it resurrects nothing.
	abandoned bool
	// announced: the message ends with a colon, introducing the calls that
	// follow ("I need to update the references. Let me find them:").
	announced bool
	files     []string // files and URLs the action names (see actionFiles)
	// awaits are the jobs running when the promise was to take their
	// results as they finish; when all have finished, it is kept.
	awaits    []*pending
	filesDone bool
	// distinct are the words that tell it from siblings (distinct).
	distinct     []string
	distinctDone bool
	// names are distinctNames of its wording namesOf (p.distinctNames).
	names     []string
	namesOf   string
	namesDone bool
}

func (p *promise) ref() string { return "" }
func (p *promise) weighs(term string) bool {
	if p.atom.weights == nil { // released (slim): its terms are the weights' keys
		return p.hasActionTerm(term)
	}
	return p.atom.weights[term] > 0
}

// commitmentTracker is the commitment tracker.
type commitmentTracker struct {
	l *ledger
	// byPlan finds a plan step (or logged commitment) by its id or text.
	byPlan map[string]*promise
	// lastPlan is the previous plan event's steps by key, with the status
	// it gave them: a later full plan that leaves one out dropped it.
	lastPlan map[string]model.PlanStatus
	// asked is the last assistant message that asked the user a question
	// (-1 before any), with its turn: the user's reply answers it.
	asked, askedTurn int
	// closedByHead indexes closed commitments by head noun and verb, for
	// the resurrection check (commitments_closed.go).
	closedByHead map[string]map[string]*closedGroup
	idx          promiseIndex
	words        msgWords // a message's words, for the claim index
	// lagging: plan steps a call carried out while in progress, the plan
	// not caught up (doneInProgress), until a failure names them.
	lagging []*promise
	// turn holds the promises made since the user last spoke, and
	// lastWork the event index of the latest call that changed or ran
	// something (see turnEnded).
	turn     []*promise
	lastWork int
	// competed are the matches compete found for the commitments that
	// own them in the summary competedIn (promise.match reuses them).
	competed   map[*promise]matchResult
	competedIn *doc
	sibNamed   siblingsNamed // the current call's (namedSiblings)
}

func (c *commitmentTracker) init(l *ledger) {
	c.l = l
	c.byPlan = map[string]*promise{}
	c.asked = -1
	c.closedByHead = map[string]map[string]*closedGroup{}
	c.idx.init()
}

// newPromise registers a commitment with its action.
func (c *commitmentTracker) newPromise(it *Item, act lang.Action) *promise {
	return c.newPromiseAt(it, act, newAtom(act))
}

// newPromiseAt is newPromise with the action's atom made already (one
// found in a message has it made ahead: prefetch.go).
func (c *commitmentTracker) newPromiseAt(it *Item, act lang.Action, at atom) *promise {
	p := &promise{entry: entry{item: it}, act: act, atom: at, carried: -1, stretch: c.l.stretch, branch: c.l.workBranch, branchAt: c.l.workBranchAt, inTree: c.l.workTree}
	c.l.opened(p)
	return p
}

// asksUser reports whether an assistant message asks the user something:
// a sentence of its prose ends with a question mark.
func asksUser(text string) bool {
	prose := lang.ProseOnly(text)
	for _, sn := range lang.Sentences(prose) {
		if strings.HasSuffix(strings.TrimSpace(prose[sn.Start:sn.End]), "?") {
			return true
		}
	}
	return false
}

// conversational reports whether an action is done by talking with the
// user: asking questions, or clarifying or confirming something with them.
func conversational(a lang.Action) bool {
	if a.Verb == lang.TermOf("ask") {
		return true
	}
	switch a.Verb {
	case lang.TermOf("clarify"), lang.TermOf("confirm"), lang.TermOf("discuss"), lang.TermOf("agree"), lang.TermOf("align"), lang.TermOf("check"):
		l := " " + strings.ToLower(a.Text) + " "
		return strings.Contains(l, " you ") || strings.Contains(l, " you,") || strings.Contains(l, " your ") || strings.Contains(l, " the user ")
	}
	return false
}

// answered closes the conversational promises a round of questions kept:
// the agent promised to ask or to confirm something with the user, asked
// (a question in its prose since the promise) and the user replied. Such
// work needs no tool call, and a later "confirmed" claims nothing unsupported.
func (c *commitmentTracker) answered(m *model.Message) {
	if c.asked < 0 {
		return
	}
	for p := range openOf[*promise](c.l) {
		if p.item.Open && !p.planned && p.item.Event <= c.asked && conversational(p.act) {
			c.l.close(p, m, fmt.Sprintf("asked at turn %d and answered by the user at turn %d", c.askedTurn, m.Turn))
		}
	}
	c.asked = -1
}

// turnEnded settles the plain promises of the agent's turn that just
// ended: said with no wait, then followed in the same turn by work (an
// edit, a command), the agent handing back to the user after it. What the
// turn was for was most likely done in it, in calls whose words did not
// name the promise's; a careful reader cannot call it owed from the source
// alone, so it is inferred. A promise with a wait, one the turn never
// worked after, and the plan's steps keep their basis.
func (c *commitmentTracker) turnEnded() {
	for _, p := range c.turn {
		if p.item.Open && !p.planned && !p.durable && p.act.Condition == "" && p.item.Basis == Stated && c.lastWork > p.item.Event {
			p.item.weaken("said with no wait, then work in the same turn, and the turn ended: most likely done in it")
		}
	}
	c.turn = c.turn[:0]
}

// assistantMessage checks completion claims, then extracts commitments.
func (c *commitmentTracker) assistantMessage(m *model.Message) {
	defer func() {
		if asksUser(m.Text) {
			c.asked, c.askedTurn = m.Index, m.Turn
		}
	}()
	c.closeActedOn(m, fmt.Sprintf("acted on (work followed, then a new message at turn %d)", m.Turn))
	c.claims(m)
	found := c.l.promisesOf(m)
	// Several promises in one message are a plan, not narration of the next
	// step: each waits for its own work and its own claim.
	plan := len(found) > 1
	announced := strings.HasSuffix(strings.TrimSpace(m.Text), ":")
	for k, fc := range found {
		if fc.Label != "" && c.byPlan[fc.Label] != nil {
			continue // "#11 Address the review feedback": plan step 11, already known
		}
		facts := c.l.promiseFactsOf(k, fc) // its identifiers and basis (prefetch.go)
		ids := facts.ids
		vague := !fc.Action.Deferred && !lang.SpecificObject(lang.SkipLight(lang.Tokenize(fc.Action.Text))) && len(ids) == 0
		if vague || c.sameOpen(fc.Action) != nil || thinksAloud(fc, m.Text) {
			// A restatement, or narration with nothing specific to keep
			// ("I'll check", "I'll do both edits together"). A promise that
			// waits ("I'll re-run it after the review") is kept however
			// vague its words: the source around it says what "it" is.
			continue
		}
		it := &Item{Kind: Commitment, Key: fc.Action.Key(), Text: fc.Sentence, Action: fc.Action.Text,
			Condition: fc.Action.Condition, Turn: m.Turn, Event: m.Index, Origin: "assistant message", Evidence: fc.Sentence}
		it.ID = fmt.Sprintf("commitment:%d:%s", m.Index, it.Key)
		it.setBasis(facts.basis, facts.cue)
		if m.Commentary && it.Basis == Stated && (fc.Action.Condition == "" || lookFirst(fc.Action.Condition)) {
			// The runtime itself marks the message as running commentary
			// on the work under way ("I'm going to prime the repo state
			// first, then dispatch the workers"): what it says next is
			// the step being taken. A wait ("after the review") still
			// makes it a promise.
			it.setBasis(Inferred, "commentary: the runtime marks the message as narration of the work under way")
		}
		p := c.newPromiseAt(it, fc.Action, facts.atom)
		c.turn = append(c.turn, p)
		p.durable = fc.Action.Deferred
		p.inPlan = plan && !fc.Action.Deferred
		p.idents = ids
		p.announced = announced && !fc.Action.Deferred
		if awaitsJobs(fc.Sentence) {
			// "I'll collect the results as they complete", with agents
			// running: done when they have all reported.
			p.awaits = c.l.handles.running()
			if len(p.awaits) > 0 {
				c.idx.awaiting = append(c.idx.awaiting, p)
			}
		}
	}
}

// closeActedOn closes the immediate commitments ("I'll look at the log")
// that work followed: the agent moved on, and a summary owes them nothing.
// At a compaction only narration counts (said and done in one turn): work
// in a later turn may be a step towards it, not the thing itself.
func (c *commitmentTracker) closeActedOn(e model.Event, why string) {
	_, atCompaction := e.(*model.Compaction)
	var worked []*promise
	c.idx.worked = livePromises(c.idx.worked, &worked)
	for _, p := range inOrder(worked) {
		if p.item.Open && p.worked && (p.narrated || !atCompaction) {
			c.l.close(p, e, why)
		}
	}
}

// thinkVerbs are done by the words that follow them.
var thinkVerbs = lang.TermSet("think", "consider", "reason", "reflect", "recap", "summarize", "summarise", "explain", "walk", "clarify", "reconsider",
	"frame", "outline", "answer", "structure", "analyze", "analyse", "assess", "evaluate", "weigh", "compare")

// thinksAloud reports whether a promise is one the message keeps by its own
// words: "Let me think about how this happens …" followed by the thinking.
// Only when the message goes on past the sentence: "I'll think about the
// naming and get back to you" ends there, and waits.
func thinksAloud(fc lang.Promise, text string) bool {
	if !thinkVerbs[fc.Action.Verb] {
		return false
	}
	i := strings.Index(text, fc.Sentence)
	if i < 0 {
		return false
	}
	rest := strings.TrimSpace(text[i+len(fc.Sentence):])
	return len(strings.Fields(rest)) >= 8
}

// sameOpen finds an open commitment with the same action (same verb and
// head noun): a restatement, not a new obligation.
func (c *commitmentTracker) sameOpen(a lang.Action) *promise {
	if a.Head == "" {
		return nil // sameAction needs both heads
	}
	// sameAction needs one's head to be the other's head or alternative.
	var cands []*promise
	if len(a.Mods()) > 0 {
		cands = c.idx.restating(a)
	} else {
		take(c.idx.byHead, a.Head, &cands)
		if a.Alt != "" {
			take(c.idx.byHead, a.Alt, &cands)
		}
		cands = inOrder(cands)
	}
	var found *promise
	for _, p := range cands {
		if p.item.Open && sameAction(p.act, a) {
			found = p
			break
		}
	}
	if indexCheck != nil {
		for p := range openOf[*promise](c.l) {
			if p.item.Open && sameAction(p.act, a) {
				if p != found {
					indexCheck("commitment index: sameOpen found " + fmt.Sprint(found != nil) + " where the walk finds " + p.item.ID)
				}
				break
			}
		}
	}
	return found
}

func subset(xs, of []string) bool {
	for _, x := range xs {
		if !slices.Contains(of, x) {
			return false
		}
	}
	return true
}

// otherComplement reports whether a and b give one preposition complements
// that each name a specific word the other lacks: "for the inliner crash"
// and "for the unroll crash" are two things, where "apply the schema on
// staging" and "apply the idempotency schema on staging with make migrate"
// are one told twice.
func otherComplement(a, b lang.Action) bool {
	for _, ca := range a.Complements {
		for _, cb := range b.Complements {
			if ca.Prep != cb.Prep {
				continue
			}
			if lacks(specific(ca.Terms), cb.Terms) && lacks(specific(cb.Terms), ca.Terms) {
				return true
			}
		}
	}
	return false
}

func specific(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !lang.GenericTerm[t] && !lang.CategoryTerm[t] {
			out = append(out, t)
		}
	}
	return out
}

// overlap reports whether a and b share an element.
func overlap(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// lacks reports whether some word of a is not in b.
func lacks(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return true
		}
	}
	return false
}

func sameAction(a, b lang.Action) bool {
	if a.Head == "" || b.Head == "" {
		return false
	}
	if a.Head != b.Head && (a.Alt == "" || a.Alt != b.Head) && (b.Alt == "" || b.Alt != a.Head) {
		return false
	}
	// The same head with different modifiers is another obligation:
	// "the refund-approved macro" and "the refund-denied macro", "the test
	// for Europe/Berlin" and "the test for America/Sao_Paulo", "format 1"
	// and "format 2".
	if !subset(a.Mods(), b.Object) && !subset(b.Mods(), a.Object) {
		return false
	}
	if !subset(a.Names, b.Object) && !subset(b.Names, a.Object) {
		return false
	}
	if len(a.Paths) > 0 && len(b.Paths) > 0 && !overlap(a.Paths, b.Paths) {
		// "Write allow rules for /admin/users" and "... for /admin/billing".
		return false
	}
	if otherComplement(a, b) {
		// "a regression test for the inliner crash" and "... for the
		// unroll crash".
		return false
	}
	av, bv := a.Verb, b.Verb
	return av == bv || lang.ReVerbs[av] != "" && lang.TermOf(lang.ReVerbs[av]) == bv || lang.ReVerbs[bv] != "" && lang.TermOf(lang.ReVerbs[bv]) == av
}

// plan applies a plan update: pending and in-progress items are open
// commitments; completed and cancelled ones close them. It returns the text
// of the known steps it completed, whose errors the sweep closes.
func (c *commitmentTracker) plan(pl *model.Plan) (completed []string) {
	listed := make(map[string]model.PlanStatus, len(pl.Items))
	defer func() { c.vanished(pl, listed) }()
	for _, pi := range pl.Items {
		key := planKey(pi)
		listed[key] = pi.Status
		p := c.byPlan[key]
		label := "plan " + pi.ID
		if pi.ID == "" {
			label = "plan item"
		}
		switch {
		case p == nil:
			act := lang.ParseAction(pi.Text)
			act.Deferred = true
			if titleStep(act) {
				// "Glossary page + Research Discovery prompt generator": a
				// step named by what it makes, with no verb; its first noun
				// is no verb a summary must repeat.
				act.Verb = ""
			}
			if !pi.Status.Closed() {
				if same := c.sameOpen(act); same != nil {
					same.aliases = lang.AppendUnique(same.aliases, pi.ID)
					if pi.ID != "" {
						same.item.Aliases = lang.AppendUnique(same.item.Aliases, "plan "+pi.ID)
					}
					same.planned = true
					same.item.setBasis(Recorded, fmt.Sprintf("%s %s", label, pi.Status))
					c.byPlan[key] = same
					continue
				}
			}
			it := &Item{Kind: Commitment, Key: act.Key(), Text: pi.Text, Action: act.Text, Turn: pl.Turn, Event: pl.Index,
				Origin: label, Evidence: fmt.Sprintf("%s: %s [%s]", label, pi.Text, pi.Status)}
			it.ID = "commitment:plan:" + key
			it.setBasis(Recorded, fmt.Sprintf("%s %s", label, pi.Status))
			p = c.newPromise(it, act)
			p.durable, p.planned = true, true
			p.aliases = lang.AppendUnique(p.aliases, pi.ID)
			p.idents = lang.ExtractIdents(pi.Text)
			c.byPlan[key] = p
			if pi.Status.Closed() {
				c.l.close(p, pl, fmt.Sprintf("%s %s at turn %d", label, pi.Status, pl.Turn))
			}
		case pi.Status == model.PlanCancelled && mergedInto(pi, pl.Items) != "":
			// "Write new tests" cancelled beside "Update the fixtures and
			// write new tests": the work lives on in the merged step, so a
			// summary that lists it as remaining resurrects nothing.
			p.abandoned = true
			c.l.close(p, pl, fmt.Sprintf("%s merged into “%s” at turn %d", label, mergedInto(pi, pl.Items), pl.Turn))
		case pi.Status.Closed():
			c.l.close(p, pl, fmt.Sprintf("%s %s at turn %d", label, pi.Status, pl.Turn))
			completed = append(completed, pi.Text)
		case !p.item.Open:
			// Reopened: the plan says it is in progress again.
			p.abandoned = false
			c.l.reopen(p)
		}
		if p != nil {
			p.inProgress = pi.Status == model.PlanInProgress
		}
	}
	return completed
}

// planVerbs are verbs that open plan steps beyond the call kinds' verbs.
var planVerbs = lang.TermSet("create", "make", "set", "setup", "wire", "design", "define", "introduce", "build", "integrate",
	"configure", "enable", "disable", "support", "handle", "expose", "ensure", "prepare", "plan", "draft", "finalize",
	"polish", "verify", "validate", "research", "analyze", "analyse", "audit", "debug", "profile", "measure", "monitor",
	"wait", "ask", "notify", "report", "summarize", "decide", "choose", "pick", "evaluate", "scaffold", "bootstrap",
	"register", "mount", "route", "map", "populate", "import", "export", "sync", "load", "save", "store", "cache",
	"parse", "render", "display", "show", "hide", "harden", "secure", "optimize", "improve", "upgrade", "downgrade",
	"translate", "localize", "persist", "hook", "connect", "add", "use", "keep", "get", "do", "go", "try", "let")

// titleStep reports whether a plan step's text names a thing rather than
// an action: its first word is no verb loupe knows, and the step joins
// nouns ("Glossary page + Research Discovery prompt generator").
func titleStep(a lang.Action) bool {
	if a.Verb == "" || editVerbs[a.Verb] || execVerbs[a.Verb] || readVerbs[a.Verb] || checkVerbs[a.Verb] || planVerbs[a.Verb] || thinkVerbs[a.Verb] {
		return false
	}
	return strings.Contains(a.Text, " + ") || strings.Contains(a.Text, " & ")
}

// mergedInto returns the text of an open step of the same plan event that
// holds a cancelled step's whole wording, or "".
func mergedInto(pi model.PlanItem, items []model.PlanItem) string {
	want := lang.FoldText(strings.TrimSpace(pi.Text))
	if len(strings.Fields(want)) < 2 {
		return ""
	}
	for _, o := range items {
		if o.Status.Closed() || planKey(o) == planKey(pi) {
			continue
		}
		if lang.HasPhrase(lang.FoldText(o.Text), want) {
			return o.Text
		}
	}
	return ""
}

// planKey is a plan step's identity across plan events: its id, or its
// text when the runtime gives none.
func planKey(pi model.PlanItem) string {
	if pi.ID != "" {
		return pi.ID
	}
	return "text:" + strings.ToLower(strings.TrimSpace(pi.Text))
}

// vanished settles the open steps of the previous plan that a full plan
// leaves out without completing them (DESIGN.md rulings). A step a
// compaction had already lost stays open: the loss made the agent forget
// it, and every later summary still owes it. Otherwise the agent dropped
// it, and it closes as abandoned. When the source lacks the earlier
// compactions (Options.lossUnknown), which of the two cannot be told, and
// the step stays open. A plan is full when it restates a step
// of the previous one unchanged: an update listing only what changed says
// nothing of the steps it leaves out.
func (c *commitmentTracker) vanished(pl *model.Plan, listed map[string]model.PlanStatus) {
	prev := c.lastPlan
	c.lastPlan = listed
	full := false
	for k, st := range listed {
		if was, ok := prev[k]; ok && was == st {
			full = true
		}
	}
	if !full || len(listed) < 2 || c.l.opt.lossUnknown {
		for k, st := range prev {
			if _, ok := listed[k]; !ok {
				c.lastPlan[k] = st // not full: the steps it leaves out still stand
			}
		}
		return
	}
	for k := range prev {
		if _, ok := listed[k]; ok {
			continue
		}
		p := c.byPlan[k]
		if p == nil || !p.item.Open || !p.planned || p.firstLoss > 0 {
			continue
		}
		p.abandoned = true
		c.l.close(p, pl, fmt.Sprintf("abandoned: left out of the plan at turn %d without being completed", pl.Turn))
	}
}

// logged applies a commitment event, for runtimes that log obligations.
func (c *commitmentTracker) logged(ev *model.CommitmentEvent) {
	key := "commitment:" + ev.ID
	if ev.ID == "" {
		key = "commitment-text:" + strings.ToLower(ev.Text)
	}
	p := c.byPlan[key]
	if p == nil {
		act := lang.ParseAction(ev.Text)
		act.Deferred = true
		it := &Item{Kind: Commitment, Key: act.Key(), Text: ev.Text, Action: act.Text, Condition: act.Condition,
			Turn: ev.Turn, Event: ev.Index, Origin: "commitment " + ev.ID, Evidence: ev.Text}
		it.ID = "commitment:event:" + key
		it.setBasis(Recorded, strings.TrimSpace("commitment event "+ev.ID)+" open")
		p = c.newPromise(it, act)
		p.durable, p.planned = true, true
		p.aliases = lang.AppendUnique(p.aliases, ev.ID)
		p.idents = lang.ExtractIdents(ev.Text)
		c.byPlan[key] = p
	}
	if ev.Status == model.CommitmentDone {
		c.l.close(p, ev, fmt.Sprintf("commitment %s marked done at turn %d", ev.ID, ev.Turn))
	}
}

// indexClosed files a closed commitment under its head noun and verbs, so a
// summary that lists it as pending again is found through its own words.
// Only the latest closed commitment of a given wording is kept: a pending
// mention cannot tell them apart, and a long run closes "run the tests"
// hundreds of times. Only work that waited or was carried out can be
// resurrected; narration that moved on cannot.
func (c *commitmentTracker) indexClosed(p *promise) {
	if !(p.durable || p.planned || p.carriedOut) || p.act.Head == "" {
		return
	}
	byVerb := c.closedByHead[p.act.Head]
	if byVerb == nil {
		byVerb = map[string]*closedGroup{}
		c.closedByHead[p.act.Head] = byVerb
	}
	put := func(v string) {
		g := byVerb[v]
		if g == nil {
			g = newClosedGroup()
			byVerb[v] = g
		}
		g.put(p)
	}
	if len(p.atom.verbs) == 0 {
		put("")
	}
	for v := range p.atom.verbs {
		put(v)
	}
}

// awaitsJobs reports whether a promise waits for running work to report:
// "as they complete", "when the agents finish", "once results come back".
func awaitsJobs(sentence string) bool {
	l := strings.ToLower(sentence)
	for _, w := range []string{"complete", "finish", "come back", "come in", "return", "report back", "are done", "they're done", "land"} {
		if strings.Contains(l, w) {
			for _, s := range []string{"they", "them", "agents", "jobs", "tasks", "results", "reviews", "runs", "each"} {
				if strings.Contains(l, s) {
					return true
				}
			}
		}
	}
	return false
}

// jobsFinished marks the promises waiting on jobs as kept once every job
// they waited on has finished.
func (c *commitmentTracker) jobsFinished() {
	var waiting []*promise
	c.idx.awaiting = livePromises(c.idx.awaiting, &waiting)
	for _, p := range inOrder(waiting) {
		if !p.item.Open || len(p.awaits) == 0 {
			continue
		}
		done := true
		for _, j := range p.awaits {
			done = done && !j.item.Open
		}
		if done {
			p.worked, p.narrated = true, true
			c.idx.worked = append(c.idx.worked, p)
		}
	}
}
