package verify

import (
	"fmt"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// matchOpen decides the status of an open item in a summary.
func (l *ledger) matchOpen(tr *tracked, d *doc, c *model.Compaction, unverifiable bool) ItemResult {
	ir := ItemResult{Item: tr.item}
	if unverifiable {
		ir.Status, ir.Why = Dropped, "the summary cannot be read, so nothing in it is verified"
		return ir
	}
	if l.keptItem(tr, c) {
		ir.Status, ir.Score, ir.Why = Retained, 1, "kept verbatim by the runtime (its source event is in the new context)"
		return ir
	}
	switch tr.item.Kind {
	case Commitment:
		l.matchCommitment(tr, d, &ir)
	case Constraint:
		l.matchConstraint(tr, d, &ir)
	case Handle:
		l.matchHandle(tr, d, &ir)
	case Error:
		l.matchError(tr, d, &ir)
	case Identifier:
		l.matchIdentifier(tr, d, &ir)
	}
	return ir
}

// compete settles which open commitment a summary sentence speaks of when
// near-duplicates ("migrate the staging DB", "migrate the prod DB") land on
// the same one: it goes to the item it carries more of, and the others are
// matched without it (tr.exclude).
func (l *ledger) compete(set []*tracked, d *doc, c *model.Compaction, unverifiable bool) {
	var items []*tracked
	var rs []matchResult
	for _, tr := range set {
		tr.exclude = nil
		if tr.item.Kind != Commitment || unverifiable || l.keptItem(tr, c) {
			continue
		}
		items = append(items, tr)
		rs = append(rs, d.match(tr.atom))
	}
	own := bestOwners(rs, items)
	for i, tr := range items {
		if !own[i] {
			tr.exclude = map[int]bool{rs[i].cand.unit: true}
		}
	}
}

// keptItem reports whether the runtime carried the item's origin into the new
// context verbatim (Claude Code's preserved segment, OpenHands' events that
// were not forgotten, a micro-compaction that only cleared other results).
// An identifier is kept when an item naming it is.
func (l *ledger) keptItem(tr *tracked, c *model.Compaction) bool {
	if len(c.Kept) == 0 {
		return false
	}
	if tr.item.Kind == Identifier {
		for _, n := range tr.namers {
			if l.keptItem(n, c) {
				return true
			}
		}
		return false
	}
	id := tr.callID
	if id == "" {
		id = tr.jobID
	}
	return kept(c, l.t.Events[tr.item.Event], id)
}

func (l *ledger) matchCommitment(tr *tracked, d *doc, ir *ItemResult) {
	d.exclude = tr.exclude
	r := d.match(tr.atom)
	d.exclude = nil
	if r.found {
		ir.Score = round2(r.cand.containment)
		ir.Evidence = d.evidence(r.cand, r.polarity)
		switch r.polarity {
		case Done:
			ir.Status = Flipped
			ir.Why = fmt.Sprintf("the summary presents “%s” as done (%s) while the source has it open", tr.item.Action, r.cue)
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
	l.partial(tr, d, r.best, ir)
}

// partial sets weak or dropped from the best candidate that lacked the verb
// or the head noun.
func (l *ledger) partial(tr *tracked, d *doc, best *candidate, ir *ItemResult) {
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
	if best.containment >= 0.5 && best.matched >= 2 {
		ir.Status = Weak
		ir.Evidence = d.evidence(*best, Neutral)
		ir.Why = "partial evidence only: the closest sentence lacks " + strings.Join(missing, " and ")
		return
	}
	ir.Why = "absent: the closest sentence lacks " + strings.Join(missing, " and ")
	if tr.item.Condition != "" && best.containment > 0 {
		ir.Why += " (the condition may have survived without the action)"
	}
}

// matchConstraint needs most of the instruction's words and the same sense: a
// summary that keeps "push to main" without its "never" inverts the rule.
func (l *ledger) matchConstraint(tr *tracked, d *doc, ir *ItemResult) {
	cands := d.candidates(tr.atom)
	ir.Status, ir.Why = Dropped, "nothing in the summary states it"
	if len(cands) == 0 {
		return
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if c.containment > best.containment {
			best = c
		}
	}
	u := &d.units[best.unit]
	// The sense is read in the rule's own clause: in "the renewal limit
	// must still apply, and no emails may be sent", the "no" is the other
	// rule's.
	ul := d.clauseText(u, best.lo, best.hi)
	neg := negatedNear(u, best.lo) || lang.ProhibitionIn(strings.ReplaceAll(strings.ReplaceAll(ul, "don't forget", ""), "do not forget", ""))
	ir.Score = round2(best.containment)
	switch {
	case best.containment >= 0.7 || best.full() && best.containment >= 0.55:
		ir.Evidence = d.evidence(best, Neutral)
		if neg != tr.act.Negated {
			ir.Status = Weak
			ir.Why = "the summary states the rule with the opposite sense (a prohibition lost or added its negation)"
			return
		}
		ir.Status, ir.Why = Retained, "the instruction is restated"
	case best.containment >= 0.4:
		ir.Status = Weak
		ir.Evidence = d.evidence(best, Neutral)
		ir.Why = "only part of the instruction is restated"
	default:
		ir.Why = "absent: at most a few of its words appear"
	}
}

// matchHandle: the id must survive verbatim; the call's intent alone does
// not let the router re-attach its result.
func (l *ledger) matchHandle(tr *tracked, d *doc, ir *ItemResult) {
	id := tr.callID
	if id == "" {
		id = tr.jobID
	}
	if sp, ok := d.findVerbatim(id); ok {
		ui := unitAt(d, sp.Start)
		ir.Score = 1
		ir.Evidence = &Evidence{Span: sp, Text: d.text[d.units[ui].Start:d.units[ui].End], Polarity: Neutral}
		if s := d.section(&d.units[ui]); s != nil {
			ir.Evidence.Section = s.Heading
		}
		lo, hi := tokRange(&d.units[ui], sp)
		if p, cue := d.polarity(&d.units[ui], -1, lo, hi); p == Done && cue != "" && !strings.HasPrefix(cue, "under") {
			ir.Status, ir.Evidence.Polarity = Flipped, Done
			ir.Why = fmt.Sprintf("the id is there, but the call is presented as finished (%s) while its result had not arrived", cue)
			return
		}
		ir.Status, ir.Why = Retained, "the id survives verbatim"
		return
	}
	ir.Status, ir.Why = Dropped, "the id is not in the summary"
	cands := d.candidates(tr.intentAtom())
	if len(cands) == 0 {
		return
	}
	best := cands[0]
	need := min(2, len(tr.intentAtom().terms))
	if best.matched >= need && best.containment >= 0.5 {
		ir.Status = IntentOnly
		ir.Score = round2(best.containment)
		ir.Evidence = d.evidence(best, Neutral)
		ir.Why = "the summary says what the call was doing, but not its id: its result cannot be routed back"
	}
}

func tokRange(u *unit, sp Span) (int, int) {
	lo, hi := -1, -1
	for j, t := range u.toks {
		if t.End > sp.Start && t.Start < sp.End {
			if lo < 0 {
				lo = j
			}
			hi = j
		}
	}
	if lo < 0 {
		for j, t := range u.toks {
			if t.Start >= sp.End {
				return j, j
			}
		}
		return max(len(u.toks)-1, 0), max(len(u.toks)-1, 0)
	}
	return lo, hi
}

// matchError: the error's distinctive tokens (file, symbol, test name) or most
// of its words must be in the summary, and not presented as fixed.
func (l *ledger) matchError(tr *tracked, d *doc, ir *ItemResult) {
	ir.Status, ir.Why = Dropped, "the error is not mentioned"
	if len(tr.errTokens) == 0 {
		l.matchErrorWords(tr, d, ir)
		return
	}
	// Count, per summary unit, the error's identifying words it names (the
	// failing test, the file and line, the error class); the unit that names
	// most, preferring one that says something failed, is the evidence.
	type hit struct {
		n    int
		span Span
	}
	byUnit := map[int]*hit{}
	var order []int
	for _, tok := range tr.errTokens {
		for off := 0; off < len(d.text); {
			i := lang.FindBounded(d.text[off:], tok, lang.IsIdentByte, lang.IsIdentByte, false)
			if i < 0 {
				break
			}
			i += off
			ui := unitAt(d, i)
			if ui >= 0 {
				h := byUnit[ui]
				if h == nil {
					h = &hit{span: Span{i, i + len(tok)}}
					byUnit[ui] = h
					order = append(order, ui)
				}
				if i < h.span.Start {
					// Judge the status at the earliest mention: "Fixed the
					// E0382 error in src/main.rs" says "fixed" first.
					h.span = Span{i, i + len(tok)}
				}
				h.n++
			}
			off = i + len(tok)
		}
	}
	if len(order) == 0 {
		return
	}
	sort.Ints(order)
	best, bestScore := -1, -1
	for _, ui := range order {
		score := 2 * byUnit[ui].n
		if failureIn(d.lower[d.units[ui].Start:d.units[ui].End]) {
			score += 3
		}
		if score > bestScore {
			best, bestScore = ui, score
		}
	}
	u := &d.units[best]
	h := byUnit[best]
	ir.Score = round2(min(1, float64(h.n)/float64(len(tr.errTokens))+0.5*b2f(failureIn(d.lower[u.Start:u.End]))))
	lo, hi := tokRange(u, h.span)
	p, cue := d.polarity(u, -1, lo, hi)
	ir.Evidence = d.evidence(candidate{unit: best}, p)
	failing := failureIn(d.lower[u.Start:u.End])
	switch {
	case p == Done && !strings.HasPrefix(cue, "under") && !stillFailing(d.lower[u.Start:u.End]):
		ir.Status = Flipped
		ir.Why = fmt.Sprintf("the summary presents the error as fixed (%s) while no later call succeeded", cue)
	case failing || h.n >= 2:
		ir.Status, ir.Why = Retained, "the error's test, file or message is carried"
	default:
		ir.Status, ir.Why = Weak, "the error's test or file is named, but not that it fails"
	}
}

// matchErrorWords matches an error line with no identifying word by most
// of its words.
func (l *ledger) matchErrorWords(tr *tracked, d *doc, ir *ItemResult) {
	cands := d.candidates(tr.intentAtom())
	if len(cands) == 0 {
		return
	}
	best := cands[0]
	ir.Score = round2(best.containment)
	switch {
	case best.containment >= 0.6:
		ir.Status, ir.Why = Retained, "most of the error line is carried"
		ir.Evidence = d.evidence(best, Neutral)
	case best.containment >= 0.4:
		ir.Status, ir.Why = Weak, "part of the error line is carried"
		ir.Evidence = d.evidence(best, Neutral)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// failureIn reports whether a (lower-cased) text says something fails.
func failureIn(lower string) bool {
	for _, w := range []string{"fail", "error", "panic", "broken", "conflict", "crash", "exception", "assert", "race", "red ", "does not pass", "doesn't pass", "not passing", "regress", "timeout", "timed out", "unresolved", "blocked"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

func (l *ledger) matchIdentifier(tr *tracked, d *doc, ir *ItemResult) {
	m := d.findIdent(tr.ident, l.shas)
	switch {
	case m.found:
		ir.Status, ir.Score, ir.Why = Retained, 1, "verbatim at token boundaries"
	case m.weak:
		ir.Status, ir.Score, ir.Why = Weak, 0.5, m.why
	default:
		ir.Status, ir.Why = Dropped, "not in the summary verbatim"
		return
	}
	ui := unitAt(d, m.span.Start)
	ir.Evidence = &Evidence{Span: m.span, Text: d.text[d.units[ui].Start:d.units[ui].End], Polarity: Neutral}
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

func cueSuffix(cue string) string {
	if cue == "" {
		return ""
	}
	return " (" + cue + ")"
}

// resurrection checks a closed item: a summary that presents it as still
// pending makes the agent redo finished work.
func (l *ledger) resurrection(tr *tracked, d *doc, open []*tracked, claimed map[int][]*tracked) (ItemResult, bool) {
	ir := ItemResult{Item: tr.item}
	switch tr.item.Kind {
	case Commitment:
		if !tr.durable && !tr.planned && !tr.carriedOut || !d.hasTerm(tr.act.Head) {
			return ir, false
		}
		r := d.match(tr.atom)
		// Resurrection needs most of the item's words, not a shared verb
		// and noun: a false one would redo-block honest summaries. A quote
		// of the user's earlier request ("All user messages") is history,
		// not a to-do list.
		if !r.found || r.polarity != Pending || r.cand.containment < 0.7 || d.inRequest(r.cand.unit) {
			return ir, false
		}
		for _, o := range open {
			if o.item.Kind == Commitment && sameAction(o.act, tr.act) {
				return ir, false // the pending mention is a newer, open obligation
			}
		}
		for _, o := range claimed[r.cand.unit] {
			if o.atom.weights[tr.act.Head] > 0 || o.intentAtom().weights[tr.act.Head] > 0 {
				// "add screenshots to the onboarding guide" (open) is not
				// "draft the onboarding guide" (done) said again.
				return ir, false
			}
		}
		ir.Status, ir.Score = Resurrected, round2(r.cand.containment)
		ir.Evidence = d.evidence(r.cand, Pending)
		ir.Why = fmt.Sprintf("closed in the source (%s) but the summary presents it as pending (%s)", tr.item.ClosedBy, r.cue)
		return ir, true
	case Error:
		for _, tok := range tr.errTokens {
			i := lang.FindBounded(d.text, tok, lang.IsIdentByte, lang.IsIdentByte, false)
			if i < 0 {
				continue
			}
			ui := unitAt(d, i)
			u := &d.units[ui]
			if len(claimed[ui]) > 0 {
				continue
			}
			lower := d.lower[u.Start:u.End]
			lo, hi := tokRange(u, Span{i, i + len(tok)})
			p, cue := d.polarity(u, -1, lo, hi)
			if p == Done || p == Negated || !(stillFailing(lower) || p == Pending && failureIn(lower)) {
				continue // naming the test's file in a new pending step is not the failure again
			}
			if cue == "" {
				cue = "still failing"
			}
			ir.Status, ir.Score = Resurrected, 1
			ir.Evidence = d.evidence(candidate{unit: ui}, Pending)
			ir.Why = fmt.Sprintf("resolved in the source (%s) but the summary presents it as unresolved (%s)", tr.item.ClosedBy, cue)
			return ir, true
		}
	case Handle:
		id := tr.callID
		if id == "" {
			id = tr.jobID
		}
		sp, ok := d.findVerbatim(id)
		if !ok {
			return ir, false
		}
		ui := unitAt(d, sp.Start)
		u := &d.units[ui]
		lo, hi := tokRange(u, sp)
		if p, cue := d.polarity(u, -1, lo, hi); p == Pending {
			ir.Status, ir.Score = Resurrected, 1
			ir.Evidence = &Evidence{Span: sp, Text: d.text[u.Start:u.End], Polarity: Pending}
			ir.Why = fmt.Sprintf("its result arrived (%s) but the summary presents it as still running (%s)", tr.item.ClosedBy, cue)
			return ir, true
		}
	}
	return ir, false
}

func stillFailing(lower string) bool {
	for _, w := range []string{"still fail", "is failing", "are failing", "keeps failing", "still broken", "fails with", "still red", "needs fixing", "to fix", "unresolved"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
