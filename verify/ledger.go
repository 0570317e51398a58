package verify

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// tracked is an item with what the sweep needs to know about it.
type tracked struct {
	item    *Item
	act     action
	atom    atom
	aliases []string // plan ids, commitment ids, call and job ids
	// durable commitments wait for something; immediate ones ("I'll read
	// the file") are discharged by the next call that can carry them out.
	durable bool
	planned bool // from a plan or commitment event
	// carried is the event index of a successful call that carried the
	// action out (-1 when none); carrying are calls awaiting their result.
	carried  int
	carrying []int
	// worked: an immediate commitment was followed by a successful call
	// that suits its verb; the next assistant message discharges it.
	working []int
	worked  bool
	claimed bool // a completion claim was already reported
	// handles and errors
	callID, jobID string
	target        string
	command       string   // the failed shell command, for errors
	verbs         []string // command verbs a failed non-shell call was for ("commit")
	errTokens     []string
	intent        atom
	intentSrc     string
	intentDone    bool
	idents        []ident
	callWhat      string   // for handles: what the call acts on, for its identifiers
	filesCache    []string // files and URLs the action names (see files)
	filesDone     bool
	ident         ident      // for identifier items: the identifier itself
	namers        []*tracked // for identifier items: the open items naming it
	// lineage
	steps     []LineageStep
	firstLoss int
	lastSeen  int // seq of the last compaction the item was checked in
}

// collectSHAs remembers the commit SHAs in s (a command, a result's head).
func (l *ledger) collectSHAs(s string) {
	scanHex(s, func(h string) {
		if !l.shaSeen[h] {
			l.shaSeen[h] = true
			l.shas = append(l.shas, h)
		}
	})
}

// idTokenRe finds the id-like words of a summary (call_1, toolu_01, bash_4).
var idTokenRe = regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9_-]*`)

// ledger sweeps a transcript once, keeping what is open at every point.
type ledger struct {
	t    *model.Transcript
	opt  Options
	res  *Result
	all  []*tracked
	open []*tracked // open commitments, constraints, handles, errors (identifiers are derived)
	// lookups
	byPlan   map[string]*tracked
	byCall   map[string]*tracked
	byJob    map[string]*tracked
	errByTgt map[string]*tracked
	idents   map[ident]*tracked
	calls    map[int]*callInfo
	// closedIdx indexes closed items by the words that can resurrect them.
	closedIdx    map[string]map[string]*tracked            // key -> wording -> latest closed item
	closedByHead map[string]map[string]map[string]*tracked // head -> verb -> wording -> latest closed commitment
	byItem       map[*Item]*tracked
	shas         []string // every commit SHA the source mentions, for the unique-prefix rule
	shaSeen      map[string]bool
	// the summary in force, for late results
	inForce     *doc
	inForceComp *model.Compaction
	prevSummary string
	consumers   []model.Consumer
}

func newLedger(t *model.Transcript, opt Options) *ledger {
	return &ledger{
		t: t, opt: opt,
		res:          &Result{Path: t.Path, Format: model.Format, Source: t.Meta.Source, Turns: t.Turns(), Transcript: t},
		byPlan:       map[string]*tracked{},
		byCall:       map[string]*tracked{},
		byJob:        map[string]*tracked{},
		errByTgt:     map[string]*tracked{},
		idents:       map[ident]*tracked{},
		calls:        map[int]*callInfo{},
		byItem:       map[*Item]*tracked{},
		closedIdx:    map[string]map[string]*tracked{},
		closedByHead: map[string]map[string]map[string]*tracked{},
		shaSeen:      map[string]bool{},
	}
}

func (l *ledger) add(it *Item, act action) *tracked {
	it.Open = true
	it.ClosedEvent = -1
	tr := &tracked{item: it, act: act, carried: -1}
	if it.Kind == Commitment || it.Kind == Constraint {
		tr.atom = newAtom(act)
	}
	l.all = append(l.all, tr)
	l.open = append(l.open, tr)
	l.byItem[it] = tr
	return tr
}

func (l *ledger) close(tr *tracked, e model.Event, why string) {
	if !tr.item.Open {
		return
	}
	tr.item.Open = false
	tr.item.ClosedTurn = e.Header().Turn
	tr.item.ClosedEvent = e.Header().Index
	tr.item.ClosedBy = why
	// Only the latest closed item of a given wording is kept per key: a
	// summary's pending mention cannot tell them apart, and a long run
	// closes "run the tests" hundreds of times.
	same := string(tr.item.Kind) + "|" + tr.item.Text
	if tr.item.Kind == Commitment {
		same = string(tr.item.Kind) + "|" + tr.item.Key
	}
	put := func(idx map[string]map[string]*tracked, k string) {
		m := idx[k]
		if m == nil {
			m = map[string]*tracked{}
			idx[k] = m
		}
		m[same] = tr
	}
	for _, k := range resurrectionKeys(tr) {
		put(l.closedIdx, k)
	}
	if tr.item.Kind == Commitment && (tr.durable || tr.planned) && tr.act.head != "" {
		byVerb := l.closedByHead[tr.act.head]
		if byVerb == nil {
			byVerb = map[string]map[string]*tracked{}
			l.closedByHead[tr.act.head] = byVerb
		}
		if len(tr.atom.verbs) == 0 {
			put(byVerb, "")
		}
		for v := range tr.atom.verbs {
			put(byVerb, v)
		}
	}
}

// resurrectionKeys are the keys under which a closed error or handle is
// indexed for the resurrection check (commitments are indexed by head and
// verb in closedByHead): a summary is searched through its own words, so the
// check costs the summary's size, not the run's.
func resurrectionKeys(tr *tracked) []string {
	switch tr.item.Kind {
	case Error:
		var keys []string
		for _, tok := range tr.errTokens {
			if ts := tokenize(tok); len(ts) > 0 && ts[0].term != "" {
				keys = append(keys, "t:"+ts[0].term)
			}
		}
		return keys
	case Handle:
		if tr.callID != "" {
			return []string{"id:" + tr.callID}
		}
		return []string{"id:" + tr.jobID}
	}
	return nil
}

// resurrectionCandidates returns the closed items a summary's words point at,
// once each, in the order they were created: commitments whose verb and head
// noun share a unit of the summary, errors whose identifying word it uses,
// handles whose id it names.
func (l *ledger) resurrectionCandidates(d *doc) []*tracked {
	seen := map[*tracked]bool{}
	var out []*tracked
	add := func(m map[string]*tracked) {
		for _, tr := range m {
			if !seen[tr] && !tr.item.Open {
				seen[tr] = true
				out = append(out, tr)
			}
		}
	}
	for h, hu := range d.postings {
		for v, m := range l.closedByHead[h] {
			if v == "" || intersects(hu, d.postings[v]) {
				add(m)
			}
		}
		add(l.closedIdx["t:"+h])
	}
	for _, m := range idTokenRe.FindAllString(d.text, -1) {
		add(l.closedIdx["id:"+m])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].item.Event < out[j].item.Event })
	return out
}

// intersects reports whether two sorted lists of unit indexes share one.
func intersects(a, b []int) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// pruneOpen drops closed items from the open list.
func (l *ledger) pruneOpen() {
	out := l.open[:0]
	for _, tr := range l.open {
		if tr.item.Open {
			out = append(out, tr)
		}
	}
	l.open = out
}

func (l *ledger) sweep() {
	for i, e := range l.t.Events {
		if i%256 == 0 {
			l.pruneOpen()
		}
		switch ev := e.(type) {
		case *model.Message:
			switch ev.Role {
			case model.RoleUser:
				l.userMessage(ev)
			case model.RoleAssistant:
				l.assistantMessage(ev)
			}
		case *model.Plan:
			l.plan(ev)
		case *model.CommitmentEvent:
			l.commitmentEvent(ev)
		case *model.ToolCall:
			l.toolCall(i, ev)
		case *model.ToolResult:
			l.toolResult(i, ev)
		case *model.Compaction:
			l.pruneOpen()
			l.res.Compactions = append(l.res.Compactions, l.evaluate(ev))
		}
	}
	l.pruneOpen()
}

// userMessage extracts standing instructions.
func (l *ledger) userMessage(m *model.Message) {
	for _, c := range findConstraints(m.Text) {
		key := c.key()
		dup := false
		for _, tr := range l.open {
			if tr.item.Kind == Constraint && tr.item.Key == key {
				dup = true
			}
		}
		if dup {
			continue
		}
		it := &Item{Kind: Constraint, Key: key, Text: c.sentence, Action: c.action.text, Condition: c.action.condition,
			Turn: m.Turn, Event: m.Index, Origin: "user message", Evidence: c.sentence}
		it.ID = fmt.Sprintf("constraint:%d:%s", m.Index, key)
		tr := l.add(it, c.action)
		tr.atom = newAtom(c.action, condTerms(c.action)...)
		tr.idents = extractIdents(c.sentence)
	}
}

// assistantMessage checks completion claims, then extracts commitments.
func (l *ledger) assistantMessage(m *model.Message) {
	// An immediate commitment ("I'll look at the log") that was followed by
	// work and a new message has been acted on: the agent moved on.
	for _, tr := range l.open {
		if tr.item.Kind == Commitment && tr.item.Open && tr.worked {
			l.close(tr, m, fmt.Sprintf("acted on (work followed, then a new message at turn %d)", m.Turn))
		}
	}
	l.claims(m)
	for _, fc := range findCommitments(m.Text) {
		if l.sameOpenCommitment(fc.action) != nil {
			continue
		}
		it := &Item{Kind: Commitment, Key: fc.action.key(), Text: fc.sentence, Action: fc.action.text,
			Condition: fc.action.condition, Turn: m.Turn, Event: m.Index, Origin: "assistant message", Evidence: fc.sentence}
		it.ID = fmt.Sprintf("commitment:%d:%s", m.Index, it.Key)
		tr := l.add(it, fc.action)
		tr.durable = fc.action.deferred
		tr.idents = extractIdents(fc.sentence)
	}
}

// sameOpenCommitment finds an open commitment with the same action (same
// verb and head noun): a restatement, not a new obligation.
func (l *ledger) sameOpenCommitment(a action) *tracked {
	for _, tr := range l.open {
		if tr.item.Kind != Commitment || !tr.item.Open {
			continue
		}
		if sameAction(tr.act, a) {
			return tr
		}
	}
	return nil
}

func sameAction(a, b action) bool {
	if a.head == "" || b.head == "" {
		return false
	}
	if a.head != b.head && (a.alt == "" || a.alt != b.head) && (b.alt == "" || b.alt != a.head) {
		return false
	}
	av, bv := a.verb, b.verb
	return av == bv || reVerbs[av] != "" && termOf(reVerbs[av]) == bv || reVerbs[bv] != "" && termOf(reVerbs[bv]) == av
}

// plan applies a plan update: pending and in-progress items are open
// commitments; completed and cancelled ones close them.
func (l *ledger) plan(p *model.Plan) {
	for _, pi := range p.Items {
		key := pi.ID
		if key == "" {
			key = "text:" + strings.ToLower(strings.TrimSpace(pi.Text))
		}
		tr := l.byPlan[key]
		label := "plan " + pi.ID
		if pi.ID == "" {
			label = "plan item"
		}
		switch {
		case tr == nil:
			act := parseAction(pi.Text)
			act.deferred = true
			if !pi.Status.Closed() {
				if same := l.sameOpenCommitment(act); same != nil {
					same.aliases = appendUnique(same.aliases, pi.ID)
					if pi.ID != "" {
						same.item.Aliases = appendUnique(same.item.Aliases, "plan "+pi.ID)
					}
					same.planned = true
					l.byPlan[key] = same
					continue
				}
			}
			it := &Item{Kind: Commitment, Key: act.key(), Text: pi.Text, Action: act.text, Turn: p.Turn, Event: p.Index,
				Origin: label, Evidence: fmt.Sprintf("%s: %s [%s]", label, pi.Text, pi.Status)}
			it.ID = "commitment:plan:" + key
			tr = l.add(it, act)
			tr.durable, tr.planned = true, true
			tr.aliases = appendUnique(tr.aliases, pi.ID)
			tr.idents = extractIdents(pi.Text)
			l.byPlan[key] = tr
			if pi.Status.Closed() {
				l.close(tr, p, fmt.Sprintf("%s %s at turn %d", label, pi.Status, p.Turn))
			}
		case pi.Status.Closed():
			l.close(tr, p, fmt.Sprintf("%s %s at turn %d", label, pi.Status, p.Turn))
			l.closeErrorsNamedBy(pi.Text, p)
		case !tr.item.Open:
			// Reopened: the plan says it is in progress again.
			tr.item.Open = true
			tr.item.ClosedBy = ""
			l.open = append(l.open, tr)
		}
	}
}

// closeErrorsNamedBy closes the open errors a completed plan step names
// ("Fix TestCreateOrder").
func (l *ledger) closeErrorsNamedBy(text string, e model.Event) {
	for _, tr := range l.open {
		if tr.item.Kind != Error || !tr.item.Open {
			continue
		}
		for _, tok := range tr.errTokens {
			if strings.Contains(text, tok) {
				l.close(tr, e, fmt.Sprintf("plan step “%s” completed at turn %d", text, e.Header().Turn))
				break
			}
		}
	}
}

func (l *ledger) commitmentEvent(c *model.CommitmentEvent) {
	key := "commitment:" + c.ID
	if c.ID == "" {
		key = "commitment-text:" + strings.ToLower(c.Text)
	}
	tr := l.byPlan[key]
	if tr == nil {
		act := parseAction(c.Text)
		act.deferred = true
		it := &Item{Kind: Commitment, Key: act.key(), Text: c.Text, Action: act.text, Condition: act.condition,
			Turn: c.Turn, Event: c.Index, Origin: "commitment " + c.ID, Evidence: c.Text}
		it.ID = "commitment:event:" + key
		tr = l.add(it, act)
		tr.durable, tr.planned = true, true
		tr.aliases = appendUnique(tr.aliases, c.ID)
		tr.idents = extractIdents(c.Text)
		l.byPlan[key] = tr
	}
	if c.Status == model.CommitmentDone {
		l.close(tr, c, fmt.Sprintf("commitment %s marked done at turn %d", c.ID, c.Turn))
	}
}

func (l *ledger) toolCall(i int, c *model.ToolCall) {
	ci := parseCall(c)
	l.calls[i] = ci
	l.collectSHAs(ci.command)
	what := ci.command
	if what == "" {
		what = ci.path
	}
	if what == "" {
		what = clip(strings.Join(strings.Fields(ci.input), " "), 120)
	}
	it := &Item{Kind: Handle, Key: c.ID, Text: clip(c.Name+": "+what, 200), Turn: c.Turn, Event: c.Index,
		Origin: "tool call " + c.Name, Evidence: what}
	it.ID = "handle:" + c.ID
	tr := l.add(it, action{})
	tr.callID = c.ID
	tr.intentSrc = intentSource(ci)
	tr.callWhat = ci.command + " " + ci.path // identifiers derived when a compaction needs them
	l.byCall[c.ID] = tr
	// Which open commitments could this call carry out?
	for _, ob := range l.open {
		if ob.item.Kind != Commitment || !ob.item.Open || ob.carried >= 0 {
			continue
		}
		sameTurn := c.Turn == ob.item.Turn && !ob.planned
		switch {
		case carries(ob.act, ob.files(), ci, false):
			ob.carrying = append(ob.carrying, i)
		case (!ob.durable && !ob.planned || sameTurn) && carries(ob.act, nil, ci, true):
			ob.working = append(ob.working, i)
		}
		if sameTurn && len(ob.carrying)+len(ob.working) > 0 {
			// Said and done in the same turn ("I'll add it next to the
			// header" with the edit beside it): narration of work under way.
			ob.durable = false
		}
	}
}

func (l *ledger) toolResult(i int, r *model.ToolResult) {
	ci := l.t.Pairing().CallOf(i)
	if h := l.byCall[r.ID]; h != nil && h.item.Open {
		l.orphanCheck(h, r)
		l.close(h, r, fmt.Sprintf("result arrived at turn %d", r.Turn))
	}
	l.collectSHAs(r.Text.Head())
	info := l.calls[ci]
	delete(l.calls, ci) // a call has one result; keep memory bounded by what is in flight
	if info != nil {
		if failed(r) {
			if info.category != toolRead && !rejected(r) {
				l.newError(r, info)
			}
		} else {
			l.succeeded(ci, r, info)
		}
	}
	if j := r.Job; j != nil {
		switch j.State {
		case model.JobRunning:
			if old := l.byJob[j.ID]; old != nil && old.item.Open {
				break
			}
			it := &Item{Kind: Handle, Key: j.ID, Text: "job " + j.ID + " started by " + r.ID, Turn: r.Turn, Event: r.Index,
				Origin: "asynchronous job", Evidence: clip(r.Text.Head(), 200)}
			it.ID = "handle:job:" + j.ID
			tr := l.add(it, action{})
			tr.jobID = j.ID
			if info != nil {
				tr.intentSrc = intentSource(info)
			}
			l.byJob[j.ID] = tr
		case model.JobDone, model.JobKilled:
			if tr := l.byJob[j.ID]; tr != nil {
				l.orphanCheck(tr, r)
				l.close(tr, r, fmt.Sprintf("job %s at turn %d", j.State, r.Turn))
			}
		}
	}
}

func (l *ledger) newError(r *model.ToolResult, info *callInfo) {
	if old := l.errByTgt[info.target]; old != nil && old.item.Open {
		l.close(old, r, fmt.Sprintf("superseded by a new failure of the same call at turn %d", r.Turn))
	}
	text := r.Text.Head()
	line := firstErrorLine(text + "\n" + r.Text.Tail())
	if line == "" {
		line = "exit status non-zero"
	}
	it := &Item{Kind: Error, Key: r.ID + ": " + line, Text: line, Turn: r.Turn, Event: r.Index,
		Origin: "failed " + info.name, Evidence: clip(text, 400)}
	it.ID = "error:" + r.ID
	tr := l.add(it, action{})
	tr.callID, tr.target, tr.command = r.ID, info.target, info.command
	for v := range commandVerbs {
		if info.termSet()[v] {
			tr.verbs = append(tr.verbs, v)
		}
	}
	tr.errTokens = distinctive(line)
	tr.intentSrc = line
	tr.idents = extractIdents(line)
	l.errByTgt[info.target] = tr
}

// succeeded closes errors of the same call and confirms the commitments the
// call carried out.
func (l *ledger) succeeded(ci int, r *model.ToolResult, info *callInfo) {
	if old := l.errByTgt[info.target]; old != nil && old.item.Open {
		l.close(old, r, fmt.Sprintf("the same call succeeded at turn %d (%s)", r.Turn, r.ID))
	}
	if info.command != "" {
		for _, e := range l.open {
			if e.item.Kind != Error || !e.item.Open {
				continue
			}
			switch {
			case e.command != "" && covers(info.command, e.command):
				l.close(e, r, fmt.Sprintf("%s succeeded at turn %d (%s)", info.command, r.Turn, r.ID))
			case e.command == "" && workaround(e.verbs, info):
				// A failed skill or sub-agent ("commit") done by hand instead.
				l.close(e, r, fmt.Sprintf("worked around: %s succeeded at turn %d (%s)", info.command, r.Turn, r.ID))
			}
		}
	}
	for _, ob := range l.open {
		if ob.item.Kind != Commitment || !ob.item.Open || ob.carried >= 0 {
			continue
		}
		for _, c := range ob.working {
			if c == ci {
				ob.worked = true
			}
		}
		for _, c := range ob.carrying {
			if c != ci {
				continue
			}
			ob.carried = ci
			if !ob.durable && !ob.planned {
				l.close(ob, r, fmt.Sprintf("carried out by %s (%s) at turn %d", r.ID, info.name, r.Turn))
			}
		}
	}
}

// claims looks in an assistant message for completion claims of open
// commitments. A claim backed by a call that carried the action out closes
// the item; one without is a false (or unsupported) completion, and the
// item stays open: a claim does not discharge an obligation.
func (l *ledger) claims(m *model.Message) {
	var d *doc
	for _, tr := range l.open {
		if tr.item.Kind != Commitment || !tr.item.Open || tr.item.Event == m.Index {
			continue
		}
		if d == nil {
			d = parseSummary(m.Text)
		}
		r := d.match(tr.atom)
		switch {
		case r.found && r.polarity == Done:
			if tr.carried >= 0 {
				// Supported. A plan item still waits for its ledger to say
				// so: the plan is the authority on its own steps.
				if !tr.planned {
					l.close(tr, m, fmt.Sprintf("carried out by %s and claimed at turn %d", l.callRef(tr.carried), m.Turn))
				}
				continue
			}
			if tr.claimed || !tr.durable && !tr.planned {
				continue
			}
			tr.claimed = true
			l.completionFinding(tr, m, d.text[d.units[r.cand.unit].Start:d.units[r.cand.unit].End])
		case !tr.planned && tr.carried >= 0 && (r.found || d.hasTerm(tr.act.head)) && r.polarity != Pending && r.polarity != Negated:
			l.close(tr, m, fmt.Sprintf("carried out by %s and reported at turn %d", l.callRef(tr.carried), m.Turn))
		}
	}
}

func (l *ledger) callRef(i int) string {
	if c, ok := l.t.Events[i].(*model.ToolCall); ok {
		return fmt.Sprintf("%s (%s, turn %d)", c.ID, c.Name, c.Turn)
	}
	return fmt.Sprintf("event %d", i)
}

func (l *ledger) completionFinding(tr *tracked, m *model.Message, claim string) {
	f := RunFinding{Kind: UnsupportedCompletion, Turn: m.Turn, Event: m.Index, Item: tr.item.Key, ItemID: tr.item.ID,
		OriginTurn: tr.item.Turn, Text: claim}
	if tr.firstLoss > 0 {
		f.Kind, f.LostAt = FalseCompletion, tr.firstLoss
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out; compaction %d lost it", tr.item.Action, tr.item.Turn, tr.firstLoss)
	} else {
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out", tr.item.Action, tr.item.Turn)
	}
	l.res.Findings = append(l.res.Findings, f)
}

// orphanCheck: a late result (or job completion) for a handle that was open
// at a compaction must find its id in the summary then in force.
func (l *ledger) orphanCheck(h *tracked, r *model.ToolResult) {
	if h.lastSeen == 0 || l.inForce == nil {
		return
	}
	id := h.callID
	if id == "" {
		id = h.jobID
	}
	if _, ok := l.inForce.findVerbatim(id); ok || kept(l.inForceComp, l.t.Events[h.item.Event], id) {
		return
	}
	l.res.Findings = append(l.res.Findings, RunFinding{
		Kind: OrphanedResult, Turn: r.Turn, Event: r.Index, Item: id, ItemID: h.item.ID, LostAt: h.firstLoss,
		OriginTurn: h.item.Turn, Text: clip(firstLine(r.Text.Head()), 200),
		Why: fmt.Sprintf("the result of %s arrived at turn %d, but summary %d in force then does not carry its id", id, r.Turn, l.inForceComp.Seq),
	})
}

func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// kept reports whether the runtime carried an event verbatim into the new
// context (Claude Code's preserved segment, a retained tail).
func kept(c *model.Compaction, e model.Event, id string) bool {
	if c == nil || len(c.Kept) == 0 {
		return false
	}
	ref := e.Header().Ref
	for _, k := range c.Kept {
		if (id != "" && k == id) || (ref != "" && k == ref) {
			return true
		}
	}
	return false
}

// intentSource is what a call was doing, in words: its command, or its
// path and tool name.
func intentSource(ci *callInfo) string {
	if ci.command != "" {
		return ci.command
	}
	return ci.path + " " + ci.name
}

// intentAtom is the atom of what a handle's call (or an error's line) says,
// built on first use: only items open at a compaction need it.
func (tr *tracked) intentAtom() atom {
	if !tr.intentDone {
		tr.intentDone = true
		tr.intent = newAtom(action{}, termsOf(tr.intentSrc)...)
	}
	return tr.intent
}

func termsOf(s string) []string { return terms(tokenize(s)) }

func condTerms(a action) []string { return termsOf(a.condition) }

// files returns the files and URLs a commitment's action names, computed once.
func (tr *tracked) files() []string {
	if !tr.filesDone {
		tr.filesDone = true
		for _, id := range extractIdents(tr.act.text) {
			if id.class == classPath || id.class == classURL {
				tr.filesCache = append(tr.filesCache, id.value)
			}
		}
	}
	return tr.filesCache
}

// callIdents are the identifiers a call's input names, from the fields that
// say what it acts on: URLs, PR and ticket numbers, commits, branches, and
// files (a path with an extension). Directory arguments ("./integration/...")
// describe what the call does rather than something it depends on.
func callIdents(what string) []ident {
	var out []ident
	for _, id := range extractIdents(what) {
		if id.class == classPath && !hasKnownExt(id.value) {
			continue
		}
		out = append(out, id)
	}
	return out
}
