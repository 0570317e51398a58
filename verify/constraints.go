package verify

// Constraints: the user's standing rules ("never push to main"). What counts
// as a rule in the user's words is the language layer's (lang.FindRules);
// here a rule opens, is revoked, and is matched against a summary.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// rule is a standing instruction of the user's.
type rule struct {
	entry
	act  lang.Action
	atom atom
	// sense is the last clause a summary restated the rule in, and whether
	// it is a prohibition (see prohibition).
	sense struct {
		clause           string
		known, prohibits bool
	}
}

func (r *rule) ref() string             { return "" }
func (r *rule) weighs(term string) bool { return r.atom.weights[term] > 0 }

// constraintTracker is the constraint tracker. A rule never closes unless the
// user revokes it.
type constraintTracker struct {
	l *ledger
}

// userMessage extracts standing instructions, once per wording.
func (c *constraintTracker) userMessage(m *model.Message) {
	c.revocations(m)
	c.askedFor(m)
	for _, fr := range lang.FindRules(m.Text) {
		key := fr.Key()
		dup := false
		for r := range openOf[*rule](c.l) {
			if r.item.Key == key {
				dup = true
			}
		}
		if dup {
			continue
		}
		it := &Item{Kind: Constraint, Key: key, Text: fr.Sentence, Action: fr.Action.Text, Condition: fr.Action.Condition,
			Turn: m.Turn, Event: m.Index, Origin: "user message", Evidence: fr.Sentence}
		it.ID = fmt.Sprintf("constraint:%d:%s", m.Index, key)
		it.setBasis(ruleBasis(fr))
		if it.Basis == Stated {
			if req := requestScope(m.Text, fr.Sentence); req != "" {
				it.setBasis(Inferred, fmt.Sprintf("may scope the request it comes with (‘%s …’, nothing says it lasts)", req))
			}
		}
		r := &rule{entry: entry{item: it, idents: lang.ExtractIdents(fr.Sentence)}, act: fr.Action,
			atom: newAtom(fr.Action, condTerms(fr.Action)...)}
		c.l.opened(r)
	}
}

func condTerms(a lang.Action) []string { return lang.Terms(lang.Tokenize(a.Condition)) }

// revocations closes the standing rules a user message takes back: "forget
// the weekend rule", "ignore my instruction about pnpm", "forget what I
// said about the staging cluster", "the check-mode rule no longer applies",
// "you can push to main now". A revoking sentence must name the rule (a
// word of it, or "that rule" for the latest one) and either call it a rule
// or say it no longer holds.
func (c *constraintTracker) revocations(m *model.Message) {
	for _, sn := range lang.Sentences(m.Text) {
		sent := m.Text[sn.Start:sn.End]
		lower := lang.FoldText(sent)
		ruleWord := false
		for _, w := range []string{"rule", "instruction", "restriction", "constraint", "requirement", "what i said", "what i told you", "i said earlier"} {
			ruleWord = ruleWord || strings.Contains(lower, w)
		}
		// Other languages: "esa regla ya no aplica", "那条规则不再适用".
		fRule, fLifted, fPoint := lang.ForeignRevocation(lower)
		ruleWord = ruleWord || fRule
		dropVerb, lifted := false, permitsNow(lower) || fLifted
		for _, w := range []string{"forget", "ignore", "disregard", "scrap", "drop", "lift", "cancel", "revoke", "undo", "remove"} {
			dropVerb = dropVerb || lang.HasPhrase(lower, w)
		}
		for _, w := range []string{"no longer", "is fine now", "are fine now", "is ok now", "is lifted", "are lifted", "doesn't apply anymore", "does not apply anymore",
			"are ok now", "is okay now", "allowed now", "you can now", "you may now", "feel free to"} {
			lifted = lifted || strings.Contains(lower, w)
		}
		if !(ruleWord && dropVerb) && !lifted {
			continue
		}
		words := map[string]bool{}
		// "the check-mode rule": the parts of a joined word name it too.
		for _, t := range lang.WordTerms(sent + " " + strings.ReplaceAll(sent, "-", " ")) {
			words[t] = true
		}
		var latest *rule
		revoked := false
		for r := range openOf[*rule](c.l) {
			if !r.item.Open {
				continue
			}
			if latest == nil || r.item.Event > latest.item.Event {
				latest = r
			}
			shared := 0
			for _, t := range r.atom.terms {
				if words[t] && !lang.GenericTerm[t] {
					shared++
				}
			}
			if shared >= 1 && ruleWord && (dropVerb || lifted) || shared >= 2 && lifted {
				c.l.close(r, m, fmt.Sprintf("revoked by the user at turn %d: “%s”", m.Turn, model.Clip(sent, 120)))
				revoked = true
			}
		}
		// "That rule no longer applies": the rule last given.
		// A verb that also edits code ("drop that rule from the policy")
		// does not lift a standing rule by pointing at it.
		mindVerb := lang.HasPhrase(lower, "forget") || lang.HasPhrase(lower, "ignore") || lang.HasPhrase(lower, "disregard")
		if !revoked && latest != nil && (mindVerb || lifted) && (pointsAtRule(lower) || fPoint) {
			c.l.close(latest, m, fmt.Sprintf("revoked by the user at turn %d: “%s”", m.Turn, model.Clip(sent, 120)))
		}
	}
}

// permitsNow reports whether a sentence gives a permission from now on:
// "you can push to main now", "feel free to use npm again".
func permitsNow(lower string) bool {
	t := strings.TrimLeft(lower, " -*>")
	for _, p := range []string{"ok, ", "ok ", "okay, ", "alright, ", "now "} {
		t = strings.TrimPrefix(t, p)
	}
	if !(strings.HasPrefix(t, "you can ") || strings.HasPrefix(t, "you may ") || strings.HasPrefix(t, "it's fine to ") || strings.HasPrefix(t, "it's ok to ")) {
		return false
	}
	return lang.HasPhrase(t, "now") || lang.HasPhrase(t, "again") || lang.HasPhrase(t, "anymore")
}

// pointsAtRule reports whether a sentence points at a rule without naming
// it: "that rule", "this restriction", "the earlier instruction".
func pointsAtRule(lower string) bool {
	for _, d := range []string{"that ", "this ", "the earlier ", "my earlier ", "my last ", "my previous ", "the previous "} {
		for _, n := range []string{"rule", "instruction", "restriction", "constraint"} {
			if lang.HasPhrase(lower, d+n) {
				return true
			}
		}
	}
	return false
}

// askedFor lifts a prohibition the user now asks to break: "don't commit"
// is over once the user says "commit the changes". The request must open
// with the rule's verb and, when the rule names an object, name it too
// ("push the branch" does not lift "never push to main").
func (c *constraintTracker) askedFor(m *model.Message) {
	own := lang.OwnWords(m.Text)
	for _, sn := range lang.Sentences(own) {
		sent := own[sn.Start:sn.End]
		lower := lang.FoldText(sent)
		if lang.ProhibitionIn(lower) || strings.HasSuffix(strings.TrimSpace(sent), "?") {
			continue
		}
		toks := lang.SkipLight(lang.Tokenize(strings.TrimLeft(lower, " -*>")))
		for len(toks) > 0 && (toks[0].Word == "ok" || toks[0].Word == "okay" || toks[0].Word == "now" || toks[0].Word == "please" || toks[0].Word == "yes") {
			toks = toks[1:]
		}
		if len(toks) == 0 || toks[0].Term == "" {
			continue
		}
		terms := map[string]bool{}
		for _, t := range toks {
			terms[t.Term] = true
		}
		for r := range openOf[*rule](c.l) {
			if !r.item.Open || !r.act.Negated || r.act.Verb != toks[0].Term {
				continue
			}
			if r.act.Head != "" && r.act.Head != r.act.Verb && !terms[r.act.Head] {
				continue
			}
			c.l.close(r, m, fmt.Sprintf("lifted: the user asked for it at turn %d: “%s”", m.Turn, model.Clip(strings.TrimSpace(sent), 120)))
		}
	}
}

// match needs most of the instruction's words and the same sense: a
// summary that keeps "push to main" without its "never" inverts the rule.
func (r *rule) match(l *ledger, d *doc, ir *ItemResult) {
	best, inverted, part := r.restatements(d)
	if indexCheck != nil {
		r.checkRestatements(d, best, inverted, part)
	}
	ir.Status, ir.Why = Dropped, "nothing in the summary states it"
	if part == nil {
		return
	}
	switch {
	case best != nil:
		ir.Score = round2(best.containment)
		ir.Evidence = d.evidence(*best, Neutral)
		ir.Status, ir.Why = Retained, "the instruction is restated"
		return
	case inverted != nil:
		ir.Score = round2(inverted.containment)
		ir.Evidence = d.evidence(*inverted, Neutral)
		ir.Status = Weak
		ir.Why = "the summary states the rule with the opposite sense (a prohibition lost or added its negation)"
		return
	}
	ir.Score = round2(part.containment)
	if part.containment >= 0.4 && part.matched >= 2 {
		ir.Status = Weak
		ir.Evidence = d.evidence(*part, Neutral)
		ir.Why = "only part of the instruction is restated"
		return
	}
	ir.Why = "absent: at most a few of its words appear"
}

// restates reports whether a candidate has what a restatement of a rule
// needs: most of its words, or enough of them with verb and head.
func restates(c *candidate) bool {
	return c.containment >= 0.7 || c.full() && c.containment >= 0.55
}

// restatementsAll is restatements by ranking every candidate: the best
// restatement is the fullest one with the rule's sense (a summary that
// merges two rules into one sentence, "plans only against staging and
// terraform apply on prod never run by the agent", may hold this rule's
// words there with the other's "never", and restate it faithfully in a
// later line); inverted the fullest with the opposite sense; part the
// best partial one (partBefore), nil when no unit shares a word.
func (r *rule) restatementsAll(d *doc) (best, inverted, part *candidate) {
	// Units with less containment than a restatement needs are scored
	// only as far as the best partial one needs (candidatesFrom).
	cands, part := d.candidatesFrom(r.atom, 0.55)
	if indexCheck != nil {
		r.checkCandidates(d, cands, part)
	}
	for i := range cands {
		c := &cands[i]
		if !restates(c) {
			continue
		}
		if r.negatedIn(d, c) != r.act.Negated {
			if inverted == nil || c.containment > inverted.containment {
				inverted = c
			}
			continue
		}
		if best == nil || c.containment > best.containment {
			best = c
		}
	}
	return best, inverted, part
}

// checkCandidates tells indexCheck where candidatesFrom differs from
// ranking every candidate: the ones that can restate the rule, in order,
// and the best partial one.
func (r *rule) checkCandidates(d *doc, top []candidate, part *candidate) {
	all := d.candidates(r.atom)
	var want []candidate
	for _, c := range all {
		if c.containment >= 0.55 {
			want = append(want, c)
		}
	}
	var got []candidate
	for _, c := range top {
		if c.containment >= 0.55 {
			got = append(got, c)
		}
	}
	if !slices.Equal(got, want) {
		indexCheck(fmt.Sprintf("rule %s: %d restatement candidates where ranking all gives %d", r.item.ID, len(got), len(want)))
	}
	if len(all) == 0 {
		if part != nil {
			indexCheck("rule " + r.item.ID + ": a partial candidate where there is none")
		}
		return
	}
	p := all[0]
	for _, c := range all[1:] {
		if c.containment > p.containment {
			p = c
		}
	}
	if part == nil || *part != p {
		indexCheck(fmt.Sprintf("rule %s: partial %+v where ranking all gives %+v", r.item.ID, part, p))
	}
}

// negatedIn reports whether the candidate states a prohibition. The sense
// is read in the rule's own clause: in "the renewal limit must still
// apply, and no emails may be sent", the "no" is the other rule's.
func (r *rule) negatedIn(d *doc, c *candidate) bool {
	u := &d.units[c.unit]
	if negatedNear(u, c.lo) {
		return true
	}
	ul := d.clauseText(u, c.lo, c.hi)
	return r.prohibition(strings.ReplaceAll(strings.ReplaceAll(ul, "don't forget", ""), "do not forget", ""))
}

// prohibition is lang.ProhibitionIn, remembered for the last clause asked
// of the rule: every summary that keeps a rule restates it in the same
// words, and reading a clause's sense (its language first) costs more than
// the rest of matching it.
func (r *rule) prohibition(clause string) bool {
	if !r.sense.known || r.sense.clause != clause {
		// A copy: the clause is part of the summary, which is not kept.
		r.sense.clause, r.sense.known = strings.Clone(clause), true
		r.sense.prohibits = lang.ProhibitionIn(clause)
	}
	return r.sense.prohibits
}
