package verify

// Rule matching that scores only the units that can decide it. A summary
// that restates every rule so far ("All user messages") holds, for each
// rule, its own line and the lines of every rule made from the same
// template ("Never edit anything under X/" for many X): all of them share
// most of its words, and scoring each (and reading the sense of each that
// passes) made every compaction cost rules × lines. The rule's own line
// has all its words; once it is found, a line whose bound (the weight of
// the rule's terms its postings hold, see doc.bounds) is lower cannot
// change the result, and is never scored.

import (
	"cmp"
	"fmt"
	"slices"
)

// restatements returns what restatementsAll does (see there). It ranks
// first only the units holding the rule's rarest word in the summary
// (mostly the name that sets it apart from its template's other rules);
// when the best restatement among them is fuller than any unit without
// that word can be, it is the best of all. Otherwise it ranks every unit
// sharing a word with the rule.
func (r *rule) restatements(d *doc) (best, inverted, part *candidate) {
	if units, below, ok := r.rarestUnits(d); ok {
		best, inverted, part = r.rankUnits(d, units)
		if best != nil && best.containment > below {
			return best, inverted, part
		}
	}
	return r.rankUnits(d, d.candidateUnits(r.atom))
}

// rarestUnits returns the candidate units (doc.candidateUnits) that hold
// the rule's rarest weighed term other than the verb, or whose head score finds
// in another word (eachSpecialHead), and the containment no other unit can
// exceed: that of every term but that one, summed as doc.bounds sums
// them (a float sum of fewer non-negative terms in the same order is never
// larger).
func (r *rule) rarestUnits(d *doc) (units []int, below float64, ok bool) {
	at := r.atom
	heavy, n := "", 0
	for _, t := range at.terms {
		if t != at.verb && at.weights[t] > 0 && (heavy == "" || len(d.postings[t]) < n) {
			heavy, n = t, len(d.postings[t])
		}
	}
	if heavy == "" {
		return nil, 0, false
	}
	var total, rest float64
	for _, t := range at.terms {
		total += at.weights[t]
		if t != heavy {
			rest += at.weights[t]
		}
	}
	if total <= 0 {
		return nil, 0, false
	}
	seen := d.seenUnits()
	for _, ui := range d.postings[heavy] {
		if !d.exclude[ui] {
			seen.add(ui)
			units = append(units, ui)
		}
	}
	d.eachSpecialHead(at, func(ui int) {
		if !seen.has(ui) && !d.exclude[ui] && d.holdsAny(ui, at) {
			seen.add(ui)
			units = append(units, ui)
		}
	})
	return units, rest / total, true
}

// holdsAny reports whether unit ui holds one of the atom's terms or verbs:
// whether it is one of candidateUnits (when not excluded).
func (d *doc) holdsAny(ui int, at atom) bool {
	for _, t := range at.terms {
		if d.unitHasTerm(ui, t) {
			return true
		}
	}
	for v := range at.verbs {
		if d.unitHasTerm(ui, v) {
			return true
		}
	}
	return false
}

// rankUnits is restatementsAll over units, scoring them in decreasing
// order of their bound and stopping when no unit left can change the
// result: one as full as the best restatement found, or, with none, one
// that restates the rule at all, or, with no restatement either way, one
// as full as the best partial one.
func (r *rule) rankUnits(d *doc, units []int) (best, inverted, part *candidate) {
	at := r.atom
	if len(units) == 0 {
		return nil, nil, nil
	}
	consider := func(c candidate) {
		if part == nil || partBefore(c, *part) {
			cc := c
			part = &cc
		}
		// The first of the fullest in candidates' order (fullFirst), as
		// restatementsAll's walk keeps it; an inverted restatement
		// matters only while there is no best, and the sense is read
		// only of a candidate that can take a place.
		before := func(o *candidate) bool {
			return o == nil || c.containment > o.containment || c.containment == o.containment && fullFirst(c, *o) < 0
		}
		if !restates(&c) || !before(best) && (best != nil || !before(inverted)) {
			return
		}
		cc := c
		if r.negatedIn(d, &c) == r.act.Negated {
			best = &cc
		} else if before(inverted) {
			inverted = &cc
		}
	}
	// A unit of a special head is always scored: its bound does not hold.
	special := d.specialHeads(at)
	bounds := d.bounds(at, units)
	rest := bounds[:0]
	for _, b := range bounds {
		if special[b.unit] {
			consider(d.score(b.unit, at))
		} else {
			rest = append(rest, b)
		}
	}
	// Fullest first, and of those the likeliest to rank first (its
	// own line), so the sense is read of few.
	slices.SortFunc(rest, func(a, b unitBound) int {
		if a.containment != b.containment {
			return cmp.Compare(b.containment, a.containment)
		}
		return cmp.Compare(b.bm25, a.bm25)
	})
	for _, b := range rest {
		if b.containment < r.enough(best, inverted, part) {
			break // every unit left has less containment
		}
		consider(d.score(b.unit, at))
	}
	return best, inverted, part
}

// enough is the containment below which a unit can no longer change what
// restatements returns.
func (r *rule) enough(best, inverted, part *candidate) float64 {
	switch {
	case best != nil:
		return best.containment // only one as full may come before it
	case inverted != nil:
		return 0.55 // a restatement with the rule's sense outranks it
	case part != nil:
		return min(0.55, part.containment)
	}
	return 0
}

// checkRestatements tells indexCheck where restatements differs from
// restatementsAll in what rule.match reads of them.
func (r *rule) checkRestatements(d *doc, best, inverted, part *candidate) {
	wb, wi, wp := r.restatementsAll(d)
	same := func(a, b *candidate) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
	switch {
	case (part == nil) != (wp == nil):
		indexCheck(fmt.Sprintf("rule %s: restatements found a candidate: %v, ranking all: %v", r.item.ID, part != nil, wp != nil))
	case !same(best, wb):
		indexCheck(fmt.Sprintf("rule %s: best restatement %+v where ranking all gives %+v", r.item.ID, best, wb))
	case best == nil && !same(inverted, wi):
		indexCheck(fmt.Sprintf("rule %s: inverted restatement %+v where ranking all gives %+v", r.item.ID, inverted, wi))
	case best == nil && inverted == nil && !same(part, wp):
		indexCheck(fmt.Sprintf("rule %s: partial %+v where ranking all gives %+v", r.item.ID, part, wp))
	}
}
