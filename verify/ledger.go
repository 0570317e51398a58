package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// tracked is an item with what the sweep needs to know about it.
type tracked struct {
	item    *Item
	act     lang.Action
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
	working  []int
	worked   bool
	claimed  bool         // a completion claim was already reported
	inPlan   bool         // an unconditional promise made beside others: a call must carry it out, but no claim is needed
	narrated bool         // a call in the commitment's own turn acts on it
	exclude  map[int]bool // summary units a sibling owns (see compete)
	// carriedOut: closed because a call did the work (not merely "acted
	// on"): a summary listing it as pending resurrects it.
	carriedOut bool
	// handles and errors
	callID, jobID string
	target        string
	command       string   // the failed shell command, for errors
	verbs         []string // command verbs a failed non-shell call was for ("commit")
	errTokens     []string
	intent        atom
	intentSrc     string
	intentDone    bool
	idents        []lang.Ident
	callWhat      string   // for handles: what the call acts on, for its identifiers
	filesCache    []string // files and URLs the action names (see files)
	filesDone     bool
	ident         lang.Ident // for identifier items: the identifier itself
	namers        []*tracked // for identifier items: the open items naming it
	// lineage
	steps     []LineageStep
	firstLoss int
	lastSeen  int // seq of the last compaction the item was checked in
}

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
	idents   map[lang.Ident]*tracked
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
		idents:       map[lang.Ident]*tracked{},
		calls:        map[int]*callInfo{},
		byItem:       map[*Item]*tracked{},
		closedIdx:    map[string]map[string]*tracked{},
		closedByHead: map[string]map[string]map[string]*tracked{},
		shaSeen:      map[string]bool{},
	}
}

func (l *ledger) add(it *Item, act lang.Action) *tracked {
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
	if tr.item.Kind == Commitment && (tr.durable || tr.planned || tr.carriedOut) && tr.act.Head != "" {
		byVerb := l.closedByHead[tr.act.Head]
		if byVerb == nil {
			byVerb = map[string]map[string]*tracked{}
			l.closedByHead[tr.act.Head] = byVerb
		}
		if len(tr.atom.verbs) == 0 {
			put(byVerb, "")
		}
		for v := range tr.atom.verbs {
			put(byVerb, v)
		}
	}
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
			l.closeActedOn(ev, fmt.Sprintf("acted on (work followed before the compaction at turn %d)", ev.Turn))
			l.pruneOpen()
			l.res.Compactions = append(l.res.Compactions, l.evaluate(ev))
		}
	}
	l.pruneOpen()
}

// userMessage extracts standing instructions.
func (l *ledger) userMessage(m *model.Message) {
	l.revocations(m)
	for _, c := range lang.FindRules(m.Text) {
		key := c.Key()
		dup := false
		for _, tr := range l.open {
			if tr.item.Kind == Constraint && tr.item.Key == key {
				dup = true
			}
		}
		if dup {
			continue
		}
		it := &Item{Kind: Constraint, Key: key, Text: c.Sentence, Action: c.Action.Text, Condition: c.Action.Condition,
			Turn: m.Turn, Event: m.Index, Origin: "user message", Evidence: c.Sentence}
		it.ID = fmt.Sprintf("constraint:%d:%s", m.Index, key)
		tr := l.add(it, c.Action)
		tr.atom = newAtom(c.Action, condTerms(c.Action)...)
		tr.idents = lang.ExtractIdents(c.Sentence)
	}
}

// revocations closes the standing rules a user message takes back: "forget
// the weekend rule", "ignore my instruction about pnpm", "you no longer need
// to run go vet". A revoking sentence must name the rule (a word of it) and
// either call it a rule or say it no longer holds.
func (l *ledger) revocations(m *model.Message) {
	for _, sn := range lang.Sentences(m.Text) {
		sent := m.Text[sn.Start:sn.End]
		lower := lang.FoldText(sent)
		ruleWord := false
		for _, w := range []string{"rule", "instruction", "restriction", "constraint", "requirement"} {
			ruleWord = ruleWord || strings.Contains(lower, w)
		}
		dropVerb, lifted := false, false
		for _, w := range []string{"forget", "ignore", "disregard", "scrap", "drop", "lift", "cancel", "revoke", "undo", "remove"} {
			dropVerb = dropVerb || lang.HasPhrase(lower, w)
		}
		for _, w := range []string{"no longer", "is fine now", "are fine now", "is ok now",
			"are ok now", "is okay now", "allowed now", "you can now", "you may now", "feel free to"} {
			lifted = lifted || strings.Contains(lower, w)
		}
		if !(ruleWord && dropVerb) && !lifted {
			continue
		}
		words := map[string]bool{}
		for _, t := range lang.WordTerms(sent) {
			words[t] = true
		}
		for _, tr := range l.open {
			if tr.item.Kind != Constraint || !tr.item.Open {
				continue
			}
			shared := 0
			for _, t := range tr.atom.terms {
				if words[t] && !lang.GenericTerm[t] {
					shared++
				}
			}
			if shared >= 1 && (ruleWord && dropVerb || shared >= 2) {
				l.close(tr, m, fmt.Sprintf("revoked by the user at turn %d: “%s”", m.Turn, model.Clip(sent, 120)))
			}
		}
	}
}

// assistantMessage checks completion claims, then extracts commitments.
func (l *ledger) assistantMessage(m *model.Message) {
	l.closeActedOn(m, fmt.Sprintf("acted on (work followed, then a new message at turn %d)", m.Turn))
	l.claims(m)
	found := lang.FindPromises(m.Text)
	// Several promises in one message are a plan, not narration of the next
	// step: each waits for its own work and its own claim.
	plan := len(found) > 1
	for _, fc := range found {
		ids := lang.ExtractIdents(fc.Sentence)
		vague := !fc.Action.Deferred && !lang.SpecificObject(lang.SkipLight(lang.Tokenize(fc.Action.Text))) && len(ids) == 0
		if vague || l.sameOpenCommitment(fc.Action) != nil {
			// A restatement, or narration with nothing specific to keep
			// ("I'll check", "I'll do both edits together"). A promise that
			// waits ("I'll re-run it after the review") is kept however
			// vague its words: the source around it says what "it" is.
			continue
		}
		it := &Item{Kind: Commitment, Key: fc.Action.Key(), Text: fc.Sentence, Action: fc.Action.Text,
			Condition: fc.Action.Condition, Turn: m.Turn, Event: m.Index, Origin: "assistant message", Evidence: fc.Sentence}
		it.ID = fmt.Sprintf("commitment:%d:%s", m.Index, it.Key)
		tr := l.add(it, fc.Action)
		tr.durable = fc.Action.Deferred
		tr.inPlan = plan && !fc.Action.Deferred
		tr.idents = ids
	}
}

// closeActedOn closes the immediate commitments ("I'll look at the log")
// that work followed: the agent moved on, and a summary owes them nothing.
// At a compaction only narration counts (said and done in one turn): work
// in a later turn may be a step towards it, not the thing itself.
func (l *ledger) closeActedOn(e model.Event, why string) {
	_, atCompaction := e.(*model.Compaction)
	for _, tr := range l.open {
		if tr.item.Kind == Commitment && tr.item.Open && tr.worked && (tr.narrated || !atCompaction) {
			l.close(tr, e, why)
		}
	}
}

// sameOpenCommitment finds an open commitment with the same action (same
// verb and head noun): a restatement, not a new obligation.
func (l *ledger) sameOpenCommitment(a lang.Action) *tracked {
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

func subset(xs, of []string) bool {
	for _, x := range xs {
		if !slices.Contains(of, x) {
			return false
		}
	}
	return true
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
	av, bv := a.Verb, b.Verb
	return av == bv || lang.ReVerbs[av] != "" && lang.TermOf(lang.ReVerbs[av]) == bv || lang.ReVerbs[bv] != "" && lang.TermOf(lang.ReVerbs[bv]) == av
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
			act := lang.ParseAction(pi.Text)
			act.Deferred = true
			if !pi.Status.Closed() {
				if same := l.sameOpenCommitment(act); same != nil {
					same.aliases = lang.AppendUnique(same.aliases, pi.ID)
					if pi.ID != "" {
						same.item.Aliases = lang.AppendUnique(same.item.Aliases, "plan "+pi.ID)
					}
					same.planned = true
					l.byPlan[key] = same
					continue
				}
			}
			it := &Item{Kind: Commitment, Key: act.Key(), Text: pi.Text, Action: act.Text, Turn: p.Turn, Event: p.Index,
				Origin: label, Evidence: fmt.Sprintf("%s: %s [%s]", label, pi.Text, pi.Status)}
			it.ID = "commitment:plan:" + key
			tr = l.add(it, act)
			tr.durable, tr.planned = true, true
			tr.aliases = lang.AppendUnique(tr.aliases, pi.ID)
			tr.idents = lang.ExtractIdents(pi.Text)
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
		act := lang.ParseAction(c.Text)
		act.Deferred = true
		it := &Item{Kind: Commitment, Key: act.Key(), Text: c.Text, Action: act.Text, Condition: act.Condition,
			Turn: c.Turn, Event: c.Index, Origin: "commitment " + c.ID, Evidence: c.Text}
		it.ID = "commitment:event:" + key
		tr = l.add(it, act)
		tr.durable, tr.planned = true, true
		tr.aliases = lang.AppendUnique(tr.aliases, c.ID)
		tr.idents = lang.ExtractIdents(c.Text)
		l.byPlan[key] = tr
	}
	if c.Status == model.CommitmentDone {
		l.close(tr, c, fmt.Sprintf("commitment %s marked done at turn %d", c.ID, c.Turn))
	}
}
