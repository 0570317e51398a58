package verify

import (
	"cmp"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// Pruned matching: match without scoring every unit that shares a word
// with the atom. A long summary restates many items in the same words
// ("Re-ran the X migration", "the Y migration waits on ..."): every unit
// naming "migration" or a verb of re-running is a candidate of every such
// item, and scoring each one walks its tokens. Yet match needs only
//
//   - every full candidate (verb and head): a unit can be one only if it
//     holds the head (or its alternative, compound part, a hyphenated word
//     ending with it, a re- word made of it), which postings find;
//   - the best of the others by containment, then BM25, then position:
//     a unit's containment is at most the weight of the atom's terms that
//     its postings say it holds (and the verb's), so units are scored in
//     decreasing order of that bound until it falls below the best found;
//   - when no unit is full, the best-ranked two-sentence window, whose
//     second sentence refers back with a pronoun: only those are scored.
//
// The result is the one matchAll gives (TestIndexesAgree checks it on
// every labelled, real and generated run).

// matchPruned is match (see there) scoring only the units that can decide
// it.
func (d *doc) matchPruned(at atom) matchResult {
	cands := d.candidateUnits(at)
	if len(cands) == 0 {
		return matchResult{}
	}
	headed := d.headedUnits(at)
	// full is not kept past this call (the result copies its pick): the
	// doc lends its scratch list, as every closed step a summary names is
	// matched there.
	full, others := d.fullScratch[:0], []candidate(nil)
	defer func() { d.fullScratch = full[:0] }()
	var rest []int // units that cannot be full, not scored yet
	for _, ui := range cands {
		if at.head != "" && !headed.has(ui) || d.unitSurelyOther(ui, at) {
			rest = append(rest, ui)
			continue
		}
		if c := d.score(ui, at); c.full() {
			full = append(full, c)
		} else {
			others = append(others, c)
		}
	}
	slices.SortFunc(full, byRank)
	var res matchResult
	bestRank := 99
	for _, c := range full {
		p, cue := d.polarity(&d.units[c.unit], c.vi, c.lo, c.hi)
		r := polarityRank(p)
		if p == Neutral && d.inRequest(c.unit) {
			r = polarityRank(Neutral) + 1
		}
		if r < bestRank {
			bestRank = r
			res = matchResult{cand: c, found: true, polarity: p, cue: cue}
		}
		if bestRank == 0 {
			break // nothing ranks before a pending mention
		}
	}
	best, scored := d.bestOther(at, others, rest)
	if best != nil {
		res.best = best
	}
	if !res.found {
		if w, ok := d.prunedWindow(at, others, rest, scored); ok {
			p, cue := d.polarity(&d.units[w.unit], w.vi, w.lo, w.hi)
			res = matchResult{cand: w, found: true, polarity: p, cue: cue, best: res.best}
		}
	}
	return res
}

// fullFirst is candidates' order: units holding both verb and head first,
// then byRank (the unit breaks every tie, so the order is total).
func fullFirst(a, b candidate) int {
	if a.full() != b.full() {
		if a.full() {
			return -1
		}
		return 1
	}
	return byRank(a, b)
}

// byRank orders candidates as candidates does within full and non-full
// ones: containment, then BM25, descending, then the earlier unit.
func byRank(a, b candidate) int {
	if a.containment != b.containment {
		return cmp.Compare(b.containment, a.containment)
	}
	if a.bm25 != b.bm25 {
		return cmp.Compare(b.bm25, a.bm25)
	}
	return cmp.Compare(a.unit, b.unit)
}

// candidateUnits are the units candidates scores: those holding one of the
// atom's terms or verbs, less the excluded ones.
func (d *doc) candidateUnits(at atom) []int {
	seen := d.seenUnits()
	var out []int
	add := func(t string) {
		for _, ui := range d.postings[t] {
			if !seen.has(ui) && !d.exclude[ui] {
				seen.add(ui)
				out = append(out, ui)
			}
		}
	}
	for _, t := range at.terms {
		add(t)
	}
	for v := range at.verbs {
		add(v)
	}
	return out
}

// headedUnits are the units with a word that can stand for the atom's head
// (see scoreTokens): the head or its alternative, its compound part, a
// hyphenated word ending with it, a re- word made of it.
func (d *doc) headedUnits(at atom) *unitSet {
	s := d.headed.reset(len(d.units))
	if at.head == "" {
		return s
	}
	for _, t := range []string{at.head, at.alt} {
		if t != "" {
			for _, ui := range d.postings[t] {
				s.add(ui)
			}
		}
	}
	d.eachSpecialHead(at, s.add)
	return s
}

// eachSpecialHead calls f with each unit where score can find the head in
// a word that is not the head's own term: its compound part, a hyphenated
// word ending with it, a re- word made of it (see scoreTokens).
func (d *doc) eachSpecialHead(at atom, f func(ui int)) {
	if at.head == "" {
		return
	}
	if at.headPart != "" {
		for _, ui := range d.postings[at.headPart] {
			f(ui)
		}
	}
	d.indexWordForms()
	for _, ui := range d.byLastPart[at.head] {
		f(ui)
	}
	if strings.HasPrefix(at.verb, "re") && len(at.head) >= 4 {
		for _, ui := range d.byReNoun[at.head] {
			f(ui)
		}
	}
}

// indexWordForms lists, once per doc, the units of each hyphenated word's
// last part and of each re- word's head (lastPart, reNoun).
func (d *doc) indexWordForms() {
	if d.byLastPart != nil {
		return
	}
	d.byLastPart, d.byReNoun = map[string][]int{}, map[string][]int{}
	add := func(m map[string][]int, k string, ui int) {
		if l := m[k]; len(l) == 0 || l[len(l)-1] != ui {
			m[k] = append(l, ui)
		}
	}
	for ui := range d.units {
		for _, t := range d.units[ui].toks {
			if strings.IndexByte(t.Word, '-') >= 0 {
				if p := lastPart(t.Word); p != "" {
					add(d.byLastPart, p, ui)
				}
			}
			if h := reNoun(t.Word); h != "" {
				add(d.byReNoun, h, ui)
			}
		}
	}
}

// bestOther returns the best non-full candidate (byRank) among the scored
// others and the units of rest, scoring of rest only those whose bounds on
// containment and BM25 can beat the best so far; scored holds what it
// scored.
func (d *doc) bestOther(at atom, others []candidate, rest []int) (*candidate, map[int]candidate) {
	var best *candidate
	consider := func(c candidate) {
		if best == nil || byRank(c, *best) < 0 {
			cc := c
			best = &cc
		}
	}
	for _, c := range others {
		consider(c)
	}
	scored := map[int]candidate{}
	if len(rest) == 0 {
		return best, scored
	}
	bounds := d.bounds(at, rest)
	slices.SortFunc(bounds, func(a, b unitBound) int {
		if a.containment != b.containment {
			return cmp.Compare(b.containment, a.containment)
		}
		if a.bm25 != b.bm25 {
			return cmp.Compare(b.bm25, a.bm25)
		}
		return cmp.Compare(a.unit, b.unit)
	})
	for _, b := range bounds {
		if best != nil {
			if b.containment < best.containment {
				break // nor can any after it
			}
			if !b.mayBeat(best) {
				continue
			}
		}
		c := d.score(b.unit, at)
		scored[b.unit] = c
		consider(c)
	}
	return best, scored
}

// unitBound is the most containment and BM25 score can give a unit.
type unitBound struct {
	unit              int
	containment, bm25 float64
}

// mayBeat reports whether a unit with these bounds can rank before c
// (byRank).
func (b unitBound) mayBeat(c *candidate) bool {
	switch {
	case b.containment != c.containment:
		return b.containment > c.containment
	case b.bm25 != c.bm25:
		return b.bm25 > c.bm25
	}
	return b.unit < c.unit
}

// bounds returns a unitBound for each unit of units: what score gives the
// unit if it holds the verb (a synonym or a stop-word verb fills the verb
// slot without the verb's own term) and every term of the atom its
// postings hold, summed in score's order (and doc.bm25's), so a unit that
// does gets exactly its bounds and any other less: float sums of
// non-negative terms in one order only grow with each term.
func (d *doc) bounds(at atom, units []int) []unitBound {
	var total float64
	for _, t := range at.terms {
		total += at.weights[t]
	}
	n := float64(len(d.units))
	idfs := make([]float64, len(at.terms))
	for k, t := range at.terms {
		idfs[k] = idf(n, len(d.postings[t]))
	}
	out := make([]unitBound, len(units))
	for i, ui := range units {
		u := &d.units[ui]
		var got, bm float64
		for k, t := range at.terms {
			if t != at.verb && !d.unitHasTerm(ui, t) {
				continue
			}
			got += at.weights[t]
			bm += d.bm25Term(u, t, idfs[k])
		}
		out[i] = unitBound{unit: ui, bm25: bm}
		if total > 0 {
			out[i].containment = got / total
		}
	}
	return out
}

// prunedWindow is window over the non-full candidates: those whose
// sentence refers back with a pronoun to the one before it, in the same
// section, are scored (scored holds the ones bestOther did), and the first
// in rank that window accepts is returned.
func (d *doc) prunedWindow(at atom, others []candidate, rest []int, scored map[int]candidate) (candidate, bool) {
	var pool []candidate
	mayRefer := func(ui int) bool {
		if ui == 0 {
			return false
		}
		u, prev := &d.units[ui], &d.units[ui-1]
		return u.section == prev.section && hasPronoun(u)
	}
	for _, c := range others {
		if mayRefer(c.unit) {
			pool = append(pool, c)
		}
	}
	for _, ui := range rest {
		if !mayRefer(ui) {
			continue
		}
		c, ok := scored[ui]
		if !ok {
			c = d.score(ui, at)
		}
		pool = append(pool, c)
	}
	slices.SortFunc(pool, byRank)
	return d.window(at, pool)
}

// sameMatch reports whether two match results are the same (the check of
// matchPruned against matchAll).
func sameMatch(a, b matchResult) bool {
	if (a.best == nil) != (b.best == nil) || a.best != nil && *a.best != *b.best {
		return false
	}
	a.best, b.best = nil, nil
	return a == b
}

// otherModifier reports whether one of a unit's head modifiers (see
// headModifiers) is not the atom's own word: conflictingModifier's test
// once the atom's modifiers are known to be absent.
func otherModifier(mods []string, at atom) bool {
	for _, m := range mods {
		if _, own := at.weights[m]; !own && !at.verbs[m] {
			return true
		}
	}
	return false
}

// unitSurelyOther is surelyOther for one unit of the doc: a unit naming
// the head that score will find speaks of another thing, so it cannot be a
// full candidate (it is ranked with the others by its bound).
func (d *doc) unitSurelyOther(ui int, at atom) bool {
	if at.head == "" || len(at.mods) == 0 && at.alt == "" {
		return false
	}
	mods, ok := d.headModifiers(at.head)[ui]
	if !ok || !otherModifier(mods, at) {
		return false
	}
	for _, t := range at.mods {
		if d.unitHasTerm(ui, t) {
			return false
		}
	}
	for _, t := range []string{at.alt, at.headPart} {
		if t != "" && d.unitHasTerm(ui, t) {
			return false
		}
	}
	d.indexWordForms()
	if slices.Contains(d.byLastPart[at.head], ui) {
		return false
	}
	if strings.HasPrefix(at.verb, "re") && len(at.head) >= 4 && slices.Contains(d.byReNoun[at.head], ui) {
		return false
	}
	return true
}

// unitHasTerm reports whether unit ui holds term t (postings are in unit
// order).
func (d *doc) unitHasTerm(ui int, t string) bool {
	_, ok := slices.BinarySearch(d.postings[t], ui)
	return ok
}

// headModifiers returns, for each unit holding the term head, the terms
// conflictingModifier may read as another modifier of it (the two content
// words before each head word, up to a preposition or a path separator,
// neither generic nor written with a digit), once per doc and head.
func (d *doc) headModifiers(head string) map[int][]string {
	if mods, ok := d.modsOf[head]; ok {
		return mods
	}
	out := map[int][]string{}
	for _, ui := range d.postings[head] {
		u := &d.units[ui]
		var mods []string
		for j, t := range u.toks {
			if t.Term != head {
				continue
			}
			for k, seen := j-1, 0; k >= 0 && seen < 2; k-- {
				p := u.toks[k]
				if strings.ContainsAny(d.text[p.End:u.toks[k+1].Start], "/\\") {
					break
				}
				if p.Term == "" {
					if lang.Prepositions[p.Word] {
						break
					}
					continue
				}
				seen++
				if !lang.GenericTerm[p.Term] && !lang.HasDigit(p.Word) {
					mods = append(mods, p.Term)
				}
			}
		}
		out[ui] = mods
	}
	if d.modsOf == nil {
		d.modsOf = map[string]map[int][]string{}
	}
	d.modsOf[head] = out
	return out
}

// candidatesFrom returns the candidates (as candidates ranks them) among
// the units that share a term with the atom whose containment can reach
// floor, and the best of the others by containment, then fullness, then
// BM25, then position (the first unit of the highest containment in
// candidates' order); the others are not scored where their bounds say
// they cannot be it. A rule needs most of its words in a unit: most units
// that share one of them are ruled out by their bound alone.
func (d *doc) candidatesFrom(at atom, floor float64) (top []candidate, part *candidate) {
	units := d.candidateUnits(at)
	if len(units) == 0 {
		return nil, nil
	}
	special := d.specialHeads(at)
	bounds := d.bounds(at, units)
	var low []unitBound
	for _, b := range bounds {
		if special[b.unit] || b.containment >= floor {
			c := d.score(b.unit, at)
			top = append(top, c)
			if part == nil || partBefore(c, *part) {
				cc := c
				part = &cc
			}
			continue
		}
		low = append(low, b)
	}
	slices.SortFunc(top, fullFirst)
	if part != nil && part.containment >= floor {
		return top, part // every unit left has less containment
	}
	slices.SortFunc(low, func(a, b unitBound) int { return cmp.Compare(b.containment, a.containment) })
	for _, b := range low {
		if part != nil && b.containment < part.containment {
			break
		}
		c := d.score(b.unit, at)
		if part == nil || partBefore(c, *part) {
			cc := c
			part = &cc
		}
	}
	return top, part
}

// partBefore orders the best partial restatement: containment, then a full
// candidate first, then BM25 and position (candidates' order within the
// highest containment).
func partBefore(a, b candidate) bool {
	if a.containment != b.containment {
		return a.containment > b.containment
	}
	if a.full() != b.full() {
		return a.full()
	}
	return byRank(a, b) < 0
}

// specialHeads are the units of eachSpecialHead: their bounds do not hold
// (the head counts without its term), so they are always scored.
func (d *doc) specialHeads(at atom) map[int]bool {
	out := map[int]bool{}
	d.eachSpecialHead(at, func(ui int) { out[ui] = true })
	return out
}
