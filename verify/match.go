package verify

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// atom is what an item's wording is matched by: its terms, with the verb
// and the head noun that must both be present.
type atom struct {
	verbs map[string]bool // the verb and what else carries it ("rerun" is carried by "run")
	verb  string
	head  string
	alt   string // also stands for the head (see action.alt)
	// mods are the object's specific modifiers ("refund-approved" in
	// "create the refund-approved macro"): a mention with another modifier
	// in their place is another thing.
	mods []string
	// ids are the PR, ticket and commit ids the action names: a mention
	// that names another of the same class ("PR #3180") is another thing.
	ids []lang.Ident
	// paths are the paths and URLs the action names: a mention naming
	// other paths and none of these is a sibling ("allow rules for
	// /admin/audit" is not "allow rules for /admin/billing").
	paths []string
	// own are the words of the item's own wording: a cue word among them
	// ("release holds already stuck in production") says nothing of status.
	own map[string]bool
	// headPart is the last part of a compound head ("hourly" of
	// "sessions_hourly"): "the hourly backfill" names it.
	headPart string
	terms    []string // every content term, verb and object
	weights  map[string]float64
}

func newAtom(a lang.Action, extra ...string) atom {
	at := atom{verbs: map[string]bool{}, verb: a.Verb, head: a.Head, alt: a.Alt, weights: map[string]float64{}, mods: a.Mods(), ids: a.IDs, paths: a.Paths, own: map[string]bool{}}
	for _, t := range lang.Tokenize(a.Text) {
		at.own[t.Word] = true
		if t.Term == a.Head && a.Head != "" && strings.ContainsAny(t.Word, "_-") {
			parts := strings.FieldsFunc(t.Word, func(r rune) bool { return r == '_' || r == '-' })
			if last := parts[len(parts)-1]; len(parts) > 1 && len(last) >= 4 && !lang.HasDigit(last) {
				if pt := lang.TermOf(last); !lang.GenericTerm[pt] {
					at.headPart = pt
				}
			}
		}
	}
	if a.Verb != "" {
		at.verbs[a.Verb] = true
		if base, ok := lang.ReVerbs[a.Verb]; ok {
			at.verbs[lang.TermOf(base)] = true
		}
		for _, w := range lang.AlsoVerbTerms[a.Verb] {
			at.verbs[w] = true
		}
		// "BrandBuilder Skill erstellen" in an English summary's "Create
		// BrandBuilder skill": the English verb of a foreign one counts.
		if en := lang.EnglishVerb(a.Verb); en != a.Verb {
			at.verbs[en] = true
			for _, w := range lang.AlsoVerbTerms[en] {
				at.verbs[w] = true
			}
		}
	}
	for _, t := range append(a.Terms(), extra...) {
		if t == "" {
			continue
		}
		at.terms = lang.AppendUnique(at.terms, t)
		w := 1.0
		switch {
		case t == a.Head:
			w = 1.5
		case lang.GenericTerm[t] || lang.HasDigit(t):
			w = 0.3
		}
		at.weights[t] = w
	}
	return at
}

// candidate is one unit's match of an atom.
type candidate struct {
	unit        int
	containment float64 // weighted share of the atom's terms in the unit
	bm25        float64
	verb, head  bool
	vi, lo, hi  int  // token index of the verb, and the matched range
	from        int  // first unit of a two-sentence window
	window      bool // the match spans units from..unit
	matched     int  // number of distinct terms matched
}

func (c candidate) full() bool { return c.verb && c.head }

// candidates returns the units that share a term with the atom, ranked:
// units holding both verb and head first, then by containment, then BM25.
func (d *doc) candidates(at atom) []candidate {
	var cands []candidate
	for _, ui := range d.candidateUnits(at) {
		cands = append(cands, d.score(ui, at))
	}
	slices.SortFunc(cands, fullFirst)
	return cands
}

// score measures how much of the atom unit ui carries.
func (d *doc) score(ui int, at atom) candidate {
	u := &d.units[ui]
	present := d.scratchPresent()
	c, hj := d.scoreTokens(ui, u, at, present)
	// "Completed the user CRUD endpoints" speaks of "add the user CRUD
	// endpoints" through a completion verb: the verb slot is filled by it.
	if !c.verb && c.head && at.verb != "" {
		for j, t := range u.toks {
			if (t.Term == lang.FinishTerm || t.Word == "done") && d.sameClause(u, hj, j) {
				c.verb, c.vi = true, j
				c.lo, c.hi = min(c.lo, j), max(c.hi, j)
				break
			}
		}
	}
	if c.verb && c.head && d.namesAnother(u, at, present) {
		c.head = false
	}
	if at.head == "" {
		c.head = c.verb
	}
	if at.verb == "" {
		c.verb = c.head
	}
	var got, total float64
	for _, t := range at.terms {
		w := at.weights[t]
		total += w
		if present[t] {
			got += w
			c.matched++
		}
	}
	if total > 0 {
		c.containment = got / total
	}
	c.bm25 = d.bm25(u, at.terms, present)
	if c.hi < 0 {
		c.lo, c.hi = 0, 0
	}
	return c
}

// scoreTokens finds the atom's verb, head and terms among the unit's
// tokens, marking each term found in present; it returns the candidate so
// far and where the head is (-1 without one).
func (d *doc) scoreTokens(ui int, u *unit, at atom, present map[string]bool) (candidate, int) {
	c := candidate{unit: ui, vi: -1, lo: len(u.toks), hi: -1}
	hj := -1
	for j, t := range u.toks {
		vt := t.Term
		if vt == "" && at.verb != "" && lang.StopVerbs[t.Word] {
			vt = lang.TermOf(t.Word) // "make X restore Y": the verb is a stop word
		}
		if vt == "" {
			continue
		}
		hit := false
		if at.verbs[vt] && !c.verb && !t.Code { // a flag in `go test -run X` is not the verb run
			c.verb, c.vi, hit = true, j, true
			present[at.verb] = true
		}
		if _, ok := at.weights[t.Term]; ok {
			present[t.Term] = true
			hit = true
			if t.Term == at.head || (at.alt != "" && t.Term == at.alt) {
				c.head, hj = true, j
			}
		}
		if at.headPart != "" && t.Term == at.headPart && !c.head {
			present[at.head], c.head, hj, hit = true, true, j, true
		}
		if !c.head && at.head != "" && strings.ContainsAny(t.Word, "-") && lastPart(t.Word) == at.head {
			// "the old-cert revocation" names "the old cert".
			present[at.head], c.head, hj, hit = true, true, j, true
		}
		if !hit && strings.HasPrefix(at.verb, "re") && len(at.head) >= 4 && reNoun(t.Word) == at.head {
			// "fr-FR reindexing remains" speaks of "rebuild the index for
			// fr-FR": for an action that redoes its object, a re- word made
			// of the head noun names both. (Only then: "resource" is no
			// redone "source".)
			present[at.head], c.head, hit = true, true, true
			if !c.verb {
				c.verb, c.vi = true, j
				present[at.verb] = true
			}
		}
		if hit {
			c.lo, c.hi = min(c.lo, j), max(c.hi, j)
		}
	}
	return c, hj
}

// namesAnother reports whether a unit that holds the atom's verb and head
// speaks of another thing of that kind: another modifier, id or path.
func (d *doc) namesAnother(u *unit, at atom, present map[string]bool) bool {
	return (len(at.mods) > 0 || at.alt != "") && d.conflictingModifier(u, at, present) ||
		len(at.ids) > 0 && d.conflictingID(u, at) ||
		len(at.paths) > 0 && d.otherPaths(u, at)
}

// lastPart returns the term of a hyphenated word's last part.
func lastPart(w string) string {
	i := strings.LastIndexByte(w, '-')
	if i < 0 || len(w)-i-1 < 3 {
		return ""
	}
	return lang.TermOf(w[i+1:])
}

// sameClause reports whether tokens i and j of a unit are in one clause:
// no comma, semicolon or colon between them. In "the hourly backfill is
// done, so the extracts come next" the "done" is not the extracts'.
func (d *doc) sameClause(u *unit, i, j int) bool {
	if i < 0 {
		return true
	}
	lo, hi := min(i, j), max(i, j)
	from, to := u.toks[lo].End, u.toks[hi].Start
	if from >= to {
		// One token, or two parts of one word ("re-run" read as "re" and
		// "run" over the same bytes): nothing between them.
		return true
	}
	return !strings.ContainsAny(d.text[from:to], ",;:")
}

// reNoun returns the term of what a re- word redoes ("index" of
// "reindexing", "deploy" of "re-deploy"), or "".
func reNoun(w string) string {
	rest, ok := strings.CutPrefix(w, "re")
	if !ok || len(rest) < 4 {
		return ""
	}
	return lang.TermOf(strings.TrimPrefix(rest, "-"))
}

// conflictingModifier reports whether the unit names the atom's head with a
// different specific modifier and none of the atom's own: "create the
// refund-approved macro" does not carry "create the refund-denied macro".
func (d *doc) conflictingModifier(u *unit, at atom, present map[string]bool) bool {
	for _, m := range at.mods {
		if present[m] {
			return false
		}
	}
	if at.alt != "" && present[at.alt] {
		return false
	}
	for j, t := range u.toks {
		if t.Term != at.head {
			continue
		}
		for k, seen := j-1, 0; k >= 0 && seen < 2; k-- {
			p := u.toks[k]
			if strings.ContainsAny(d.text[p.End:u.toks[k+1].Start], "/\\") {
				break // "src/i18n/catalog.gen.ts": a directory is no modifier
			}
			if p.Term == "" {
				if lang.Prepositions[p.Word] {
					break
				}
				continue
			}
			seen++
			if _, own := at.weights[p.Term]; own || at.verbs[p.Term] || lang.GenericTerm[p.Term] || lang.HasDigit(p.Word) {
				continue
			}
			return true
		}
	}
	return false
}

// conflictingID reports whether the unit names an id of the same class as
// the atom's (a PR number, a ticket, a commit) but none of the atom's own.
func (d *doc) conflictingID(u *unit, at atom) bool {
	found := d.unitIdents(u)
	other := false
	for _, want := range at.ids {
		for _, got := range found {
			if got.Class != want.Class {
				continue
			}
			if got.Value == want.Value || strings.HasPrefix(want.Value, got.Value) && want.Class == lang.ClassSHA {
				return false
			}
			other = true
		}
	}
	return other
}

// unitIdents returns the identifiers in a unit of the doc, extracted once:
// every open commitment naming an id or a path is checked against each
// unit that names its verb and head (namesAnother), and a summary that
// restates many steps of one kind has many such units.
func (d *doc) unitIdents(u *unit) []lang.Ident {
	if !u.identsRead {
		u.idents, u.identsRead = lang.ExtractIdents(d.text[u.Start:u.End]), true
	}
	return u.idents
}

// otherPaths reports whether the unit names another open item's path and
// none of the atom's: it is that sibling's line. (A path no item names is
// left to the identifier items: "fix src/oauth.ts" still carries "fix
// src/auth.ts", whose path is then lost.)
func (d *doc) otherPaths(u *unit, at atom) bool {
	if len(d.itemPaths) == 0 {
		return false
	}
	other := false
	for _, got := range d.unitIdents(u) {
		if got.Class != lang.ClassPath && got.Class != lang.ClassURL || !d.itemPaths[got.Value] {
			continue
		}
		for _, want := range at.paths {
			if got.Value == want || samePath(got.Value, want) {
				return false
			}
		}
		other = true
	}
	return other
}

// bm25 ranks a unit for a set of present query terms (k1 1.2, b 0.75).
// It sums in the atom's term order, so equal mentions score exactly equal
// and the report is the same from run to run.
func (d *doc) bm25(u *unit, terms []string, present map[string]bool) float64 {
	n := float64(len(d.units))
	var s float64
	for _, t := range terms {
		if !present[t] {
			continue
		}
		s += d.bm25Term(u, t, idf(n, len(d.postings[t])))
	}
	return s
}

// idf is BM25's inverse document frequency of a term in df of n units.
func idf(n float64, df int) float64 {
	f := float64(df)
	return math.Log(1 + (n-f+0.5)/(f+0.5))
}

// bm25Term is one term's part of a unit's BM25 (k1 1.2, b 0.75). The
// bounds of pruned matching sum the same parts in the same order.
func (d *doc) bm25Term(u *unit, t string, idf float64) float64 {
	tf := float64(u.termCount(t))
	return idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*float64(len(u.toks))/math.Max(d.avgLen, 1)))
}

// evidence builds the Evidence of a candidate.
func (d *doc) evidence(c candidate, p Polarity) *Evidence {
	u := &d.units[c.unit]
	sp := u.Span
	if c.window {
		sp.Start = d.units[c.from].Start // a window over two sentences
	}
	e := &Evidence{Span: sp, Text: d.text[sp.Start:sp.End], Polarity: p}
	if s := d.section(u); s != nil {
		e.Section = s.Heading
	}
	return e
}

// matchResult is the outcome of matching one atom.
type matchResult struct {
	cand     candidate
	found    bool // a full match (verb and head)
	polarity Polarity
	cue      string
	best     *candidate // the best partial candidate when not found
}

// match finds the atom in the summary. Among full matches it prefers one
// that presents the action as pending, then done, then neutral, then
// negated: a summary that lists the task under "Pending Tasks" and describes
// earlier steps of it elsewhere still carries it, and one that marks it
// [DONE] in its plan is not saved by restating the goal elsewhere.
func (d *doc) match(at atom) matchResult {
	d.own = at.own
	defer func() { d.own = nil }()
	res := d.matchPruned(at)
	if indexCheck != nil {
		if all := d.matchAll(at); !sameMatch(res, all) {
			indexCheck(fmt.Sprintf("match: pruned %+v where scoring every unit gives %+v (%s)", res, all, at.verb+" "+at.head))
		}
	}
	return res
}

// polarityRank orders a full match's polarities: pending first, then
// done, neutral, negated.
func polarityRank(p Polarity) int {
	switch p {
	case Done:
		return 1
	case Neutral:
		return 2
	case Negated:
		return 4
	}
	return 0 // Pending
}

// matchAll is match scoring every unit that shares a term with the atom
// (candidates): matchPruned must agree with it.
func (d *doc) matchAll(at atom) matchResult {
	cands := d.candidates(at)
	var res matchResult
	// A mention that carries a status outranks one that does not: a goal
	// sentence restating the task says nothing of whether it is done.
	bestRank := 99
	for i := range cands {
		c := cands[i]
		if !c.full() {
			if res.best == nil {
				res.best = &cands[i]
			}
			continue
		}
		p, cue := d.polarity(&d.units[c.unit], c.vi, c.lo, c.hi)
		r := polarityRank(p)
		if p == Neutral && d.inRequest(c.unit) {
			r = polarityRank(Neutral) + 1 // the user's request restated: the weakest evidence
		}
		if r < bestRank {
			bestRank = r
			res = matchResult{cand: c, found: true, polarity: p, cue: cue, best: res.best}
		}
	}
	if !res.found {
		if w, ok := d.window(at, cands); ok {
			p, cue := d.polarity(&d.units[w.unit], w.vi, w.lo, w.hi)
			res = matchResult{cand: w, found: true, polarity: p, cue: cue, best: res.best}
		}
	}
	return res
}

// window finds an action split over two sentences by a pronoun: "The
// stock rounding fix sits on fix/stock-rounding. Will rebase it onto main."
// The verb's sentence must refer back (it, them, this...) and the sentence
// before it, in the same section, must hold the head noun.
func (d *doc) window(at atom, cands []candidate) (candidate, bool) {
	for _, c := range cands {
		if !c.verb || c.head || c.unit == 0 {
			continue
		}
		u, prev := &d.units[c.unit], &d.units[c.unit-1]
		if u.section != prev.section || !hasPronoun(u) {
			continue
		}
		pc := d.score(c.unit-1, at)
		if !pc.head {
			continue
		}
		w := c
		w.head, w.from, w.window = true, c.unit-1, true
		w.containment = max(c.containment, pc.containment)
		w.matched = max(c.matched, pc.matched)
		return w, true
	}
	return candidate{}, false
}

func hasPronoun(u *unit) bool {
	for _, t := range u.toks {
		switch t.Word {
		case "it", "them", "this", "that", "these", "those":
			return true
		}
	}
	return false
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

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

func cueSuffix(cue string) string {
	if cue == "" {
		return ""
	}
	return " (" + cue + ")"
}
