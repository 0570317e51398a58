package verify

// The open commitments, indexed by the words that can concern them. Every
// assistant message was matched against every open commitment (for
// completion claims) and every tool call compared with each (could it
// carry it out?): runs that keep many commitments open grew with messages
// × commitments. A message now looks only at the commitments whose head
// noun it uses (a claim needs the verb and the head); a call only at those
// one of whose words it names, and those made in its own turn. The checks
// themselves are unchanged and see the candidates in the order they
// opened, so the result is the same as walking every open commitment.

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// scanBelow is the number of open commitments under which walking them all
// is cheaper than looking words up (a variable for the test that checks
// the index on every run).
var scanBelow = 16

// promiseIndex files open commitments; lists keep closed ones until a
// lookup meets them, and a reopened one is filed again.
type promiseIndex struct {
	// byHead: by head noun and its alternative (claims, restatements,
	// siblings); noHead: those without a head noun.
	byHead map[string][]*promise
	noHead []*promise
	// unsorted marks the byHead lists (and "" for noHead) that a reopened
	// commitment was appended to out of open order.
	unsorted map[string]bool
	// For claims: by head (or alternative, or compound part) and then by
	// a word that can fill the verb slot (claimVerbs); reportable, by head,
	// those a message may report done without their verb (see reported).
	byHeadVerb map[string]map[string][]*promise
	reportable map[string][]*promise
	// For restatements (sameAction needs one's modifiers among the
	// other's object words), under head (or alternative) and a word:
	// modless, those without modifiers; byMod, by first modifier; byObj,
	// by each object word.
	modless map[string][]*promise
	byMod   map[[2]string][]*promise
	byObj   map[[2]string][]*promise
	// byWord: by the words a call that carries one out or acts on it
	// must name (callWords); byPrefix: the words of four bytes or more by
	// their first four, since a call's word may extend them ("migrat" in
	// "migrate", see callInfo.hasTerm).
	byWord   map[string][]*promise
	byPrefix map[string][]wordOf
	byTurn   map[int][]*promise // by the turn they were made in
	byCall   map[int][]*promise // by the calls carrying them out or working on them
	worked   []*promise         // work on them succeeded (see closeActedOn)
	files    []*promise         // naming files a result may say it wrote (see writesFile)
	awaiting []*promise         // waiting for jobs (see jobsFinished)
	// looking: announced looks and starts of work that any later call of
	// the same stretch may carry out, whatever it names (see looksNext).
	looking []*promise
	// closedSince counts the commitments closed since the index was last
	// swept (see noteClosed).
	closedSince int
	// cooling are the latest closed commitments, not yet slimmed: a
	// summary soon after names the steps just finished, and making their
	// atoms again for each would cost more than keeping them a while.
	cooling []*promise
}

type wordOf struct {
	word string
	p    *promise
}

func (x *promiseIndex) init() {
	x.byHead, x.byWord, x.byPrefix = map[string][]*promise{}, map[string][]*promise{}, map[string][]wordOf{}
	x.modless, x.byMod, x.byObj = map[string][]*promise{}, map[[2]string][]*promise{}, map[[2]string][]*promise{}
	x.byHeadVerb, x.reportable = map[string]map[string][]*promise{}, map[string][]*promise{}
	x.unsorted = map[string]bool{}
	x.byTurn, x.byCall = map[int][]*promise{}, map[int][]*promise{}
}

// fileWord keys a file a commitment names by its last path segment.
func fileWord(path string) string { return "\x00file:" + lastSegment(path) }

// callWords are the words a call must name to carry out or act on the
// commitment (carries, relaxed or not): its verb and the forms hasVerb
// accepts, its head and alternative, its object's words, and its files.
func (p *promise) callWords() []string {
	out := actionWords(p.act)
	for _, f := range p.actionFiles() {
		out = append(out, fileWord(f))
	}
	return out
}

// actionWords are the words of an action that carries looks for in a call,
// and those of the means it is done by ("by pre-tokenising the logs").
func actionWords(a lang.Action) []string {
	var out []string
	if v := a.Verb; v != "" {
		out = append(out, v)
		if base, ok := lang.ReVerbs[v]; ok {
			out = append(out, lang.TermOf(base))
		}
		if strings.HasPrefix(v, "re") && len(v) > 5 {
			out = append(out, v[2:])
		}
		out = append(out, lang.AlsoVerbTerms[v]...)
	}
	out = append(out, a.Head, a.Alt)
	out = append(out, a.Direct...)
	out = append(out, a.Object...)
	out = append(out, a.Own...)
	out = append(out, distinct(a)...) // what sets it apart from siblings (meantForSibling)
	if a.Means != nil {
		out = append(out, actionWords(*a.Means)...)
	}
	return out
}

// add files an opened or reopened commitment.
func (x *promiseIndex) add(p *promise) {
	if h := p.act.Head; h != "" {
		heads := []string{h}
		if a := p.act.Alt; a != "" && a != h {
			heads = append(heads, a)
		}
		if hp := p.atom.headPart; hp != "" && hp != h && hp != p.act.Alt {
			// doc.score also takes the last part of a compound head for
			// it ("hourly" of "sessions_hourly"): a claim may name only
			// that. (Restatements compare heads, not parts: byHead only.)
			x.appendHead(hp, p)
		}
		for _, h := range heads {
			x.appendHead(h, p)
			if mods := p.act.Mods(); len(mods) == 0 {
				x.modless[h] = append(x.modless[h], p)
			} else {
				k := [2]string{h, mods[0]}
				x.byMod[k] = append(x.byMod[k], p)
			}
			for _, o := range uniq(p.act.Object) {
				k := [2]string{h, o}
				x.byObj[k] = append(x.byObj[k], p)
			}
		}
	} else {
		if n := len(x.noHead); n > 0 && x.noHead[n-1].openSeq >= p.openSeq {
			x.unsorted[""] = true
		}
		x.noHead = append(x.noHead, p)
	}
	for _, h := range p.claimHeads() {
		hv := x.byHeadVerb[h]
		if hv == nil {
			hv = map[string][]*promise{}
			x.byHeadVerb[h] = hv
		}
		for _, v := range p.claimVerbs() {
			hv[v] = append(hv[v], p)
		}
	}
	if reportable(p) {
		x.addReportable(p)
	}
	seen := map[string]bool{}
	for _, w := range p.callWords() {
		if w == "" || seen[w] {
			continue
		}
		seen[w] = true
		x.byWord[w] = append(x.byWord[w], p)
		if len(w) >= 4 {
			x.byPrefix[w[:4]] = append(x.byPrefix[w[:4]], wordOf{w, p})
		}
	}
	x.byTurn[p.item.Turn] = append(x.byTurn[p.item.Turn], p)
	if p.worked {
		x.worked = append(x.worked, p)
	}
	if (editVerbs[p.act.Verb] || execVerbs[p.act.Verb]) && len(p.actionFiles()) > 0 {
		x.files = append(x.files, p)
	}
	if len(p.awaits) > 0 {
		x.awaiting = append(x.awaiting, p)
	}
	if mayLookNext(p) {
		x.looking = append(x.looking, p)
	}
}

// noteClosed counts a closed commitment and, once as many have closed
// since the last sweep as there are open ones (and at least sweepEvery),
// sweeps the index. Lookups drop closed commitments from the lists they
// meet, but a list under a word never looked up again kept them for the
// whole run: at a compaction every few events, 100,000 closed steps held
// some 46 MB there. Sweeping after a number of closes proportional to
// what is left keeps the cost per close constant.
func (x *promiseIndex) noteClosed(open int) {
	x.closedSince++
	if x.closedSince < sweepEvery || x.closedSince < open {
		return
	}
	x.closedSince = 0
	x.sweep()
}

// cool slims closed commitments once coolKeep later ones have closed
// (in batches, so that the list is shifted once per coolKeep closes).
func (x *promiseIndex) cool(p *promise) {
	x.cooling = append(x.cooling, p)
	if coolKeep > 0 && len(x.cooling) <= 2*coolKeep {
		return
	}
	old := len(x.cooling) - coolKeep
	for _, q := range x.cooling[:old] {
		q.slim()
	}
	n := copy(x.cooling, x.cooling[old:])
	clear(x.cooling[n:])
	x.cooling = x.cooling[:n]
}

// coolKeep is how many of the latest closed commitments keep their atoms,
// and sweepEvery the fewest closes between two sweeps of the index
// (variables for the test that slims and sweeps at every close).
var coolKeep, sweepEvery = 256, 1024

// sweep drops closed commitments from the index, as a lookup that met
// them would. The lists keyed by a commitment's words hold it under the
// same keys whenever it is filed, and every lookup of them sorts and
// de-duplicates what it finds (or filters closed ones): a plan step
// reopened after its entries went is filed again under the same keys,
// and one reopened with its old entries still there is found once. The
// lists a commitment joins by its state (reportable, worked, files,
// awaiting, looking, byCall) may not be rebuilt the same when a plan step
// reopens, so there only commitments that cannot reopen (not from a plan)
// leave.
func (x *promiseIndex) sweep() {
	open := func(p *promise) bool { return p.item.Open }
	settled := func(p *promise) bool { return p.item.Open || p.planned }
	sweepMap(x.byHead, open)
	sweepMap(x.modless, open)
	sweepMap(x.byMod, open)
	sweepMap(x.byObj, open)
	sweepMap(x.byWord, open)
	sweepMap(x.byTurn, open)
	for h, hv := range x.byHeadVerb {
		if sweepMap(hv, open); len(hv) == 0 {
			delete(x.byHeadVerb, h)
		}
	}
	for k, ws := range x.byPrefix {
		live := ws[:0]
		for _, e := range ws {
			if e.p.item.Open {
				live = append(live, e)
			}
		}
		clear(ws[len(live):])
		if len(live) == 0 {
			delete(x.byPrefix, k)
		} else {
			x.byPrefix[k] = live
		}
	}
	x.noHead = keepIf(x.noHead, open)
	sweepMap(x.reportable, settled)
	sweepMap(x.byCall, settled)
	x.worked = keepIf(x.worked, settled)
	x.files = keepIf(x.files, settled)
	x.awaiting = keepIf(x.awaiting, settled)
	x.looking = keepIf(x.looking, settled)
}

// sweepMap keeps the promises of each list that keep says to, dropping
// emptied lists.
func sweepMap[K comparable](m map[K][]*promise, keep func(*promise) bool) {
	for k, ps := range m {
		if ps = keepIf(ps, keep); len(ps) == 0 {
			delete(m, k)
		} else {
			m[k] = ps
		}
	}
}

// keepIf filters ps in place.
func keepIf(ps []*promise, keep func(*promise) bool) []*promise {
	live := ps[:0]
	for _, p := range ps {
		if keep(p) {
			live = append(live, p)
		}
	}
	clear(ps[len(live):])
	return live
}

// appendHead files p under a head, noting when that breaks open order.
func (x *promiseIndex) appendHead(h string, p *promise) {
	ps := x.byHead[h]
	if n := len(ps); n > 0 && ps[n-1].openSeq >= p.openSeq {
		x.unsorted[h] = true
	}
	x.byHead[h] = append(ps, p)
}

// siblings returns the list of commitments filed under p's head (noHead
// for none), in open order, closed ones included: meantForSibling walks
// it until one decides, without copying it.
func (x *promiseIndex) siblings(p *promise) []*promise {
	h := p.act.Head
	ps := x.noHead
	if h != "" {
		ps = x.byHead[h]
	}
	sorted := x.unsorted[h]
	if sorted {
		ps = inOrder(ps)
		delete(x.unsorted, h)
	}
	// Closed commitments leave the list here as take leaves them: a run
	// that makes and closes thousands of steps with one head (a compaction
	// every few events) walked them all at every call.
	live := ps[:0]
	for _, o := range ps {
		if o.item.Open {
			live = append(live, o)
		}
	}
	if len(live) < len(ps) || sorted {
		clear(ps[len(live):])
		if h != "" {
			x.byHead[h] = live
		} else {
			x.noHead = live
		}
	}
	return live
}

// restating returns the open commitments that sameAction may find the
// same as an action a with modifiers: with its head (or alternative), and
// either no modifiers, a first one among a's object words, or a's first
// modifier among their object words.
func (x *promiseIndex) restating(a lang.Action) []*promise {
	var out []*promise
	heads := []string{a.Head}
	if a.Alt != "" && a.Alt != a.Head {
		heads = append(heads, a.Alt)
	}
	for _, h := range heads {
		take(x.modless, h, &out)
		for _, o := range uniq(a.Object) {
			take(x.byMod, [2]string{h, o}, &out)
		}
		take(x.byObj, [2]string{h, a.Mods()[0]}, &out)
	}
	return inOrder(out)
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		out = lang.AppendUnique(out, x)
	}
	return out
}

// livePromises appends the open promises of ps to out and returns ps
// without the closed ones.
func livePromises(ps []*promise, out *[]*promise) []*promise {
	live := ps[:0]
	for _, p := range ps {
		if p.item.Open {
			live = append(live, p)
			*out = append(*out, p)
		}
	}
	clear(ps[len(live):])
	return live
}

// take adds the open promises filed under k.
func take[K comparable](m map[K][]*promise, k K, out *[]*promise) {
	if ps, ok := m[k]; ok {
		if ps = livePromises(ps, out); len(ps) == 0 {
			delete(m, k)
		} else {
			m[k] = ps
		}
	}
}

// inOrder sorts candidates into the order of the open list, once each.
func inOrder(ps []*promise) []*promise {
	if len(ps) > 1 {
		slices.SortFunc(ps, func(a, b *promise) int { return a.openSeq - b.openSeq })
		ps = slices.Compact(ps)
	}
	return ps
}

// claimHeads are the terms doc.score takes for the head: the head noun,
// its alternative and the last part of a compound head.
func (p *promise) claimHeads() []string {
	var out []string
	for _, h := range []string{p.act.Head, p.act.Alt, p.atom.headPart} {
		if h != "" {
			out = lang.AppendUnique(out, h)
		}
	}
	return out
}

// claimVerbs are the words that fill the verb slot in doc.score: the
// atom's verb terms, and its stop-word verbs as "\x00stop:" and the word
// ("make"); "" for an atom without a verb, which needs none.
func (p *promise) claimVerbs() []string {
	if p.atom.verb == "" {
		return []string{""}
	}
	var out []string
	for v := range p.atom.verbs {
		out = append(out, v)
	}
	for _, w := range stopVerbTerms {
		if p.atom.verbs[w[1]] {
			out = append(out, "\x00stop:"+w[0])
		}
	}
	return out
}

// addReportable files a commitment a message may now report done.
func (x *promiseIndex) addReportable(p *promise) {
	for _, h := range p.claimHeads() {
		x.reportable[h] = append(x.reportable[h], p)
	}
}

// named returns, in open order, the open commitments a message may claim
// or report done: a head noun (or its alternative or compound part) among
// the document's terms, and a word for the verb slot unless the message
// has a completion word (which fills it) or the commitment may be
// reported without one; those named through a re- word ("reindexing");
// and those without a head.
func (x *promiseIndex) named(d termSource) []*promise {
	var out []*promise
	x.noHead = livePromises(x.noHead, &out)
	finish := d.hasTerm(lang.FinishTerm) || d.hasWord("done")
	head := func(t string) {
		take(x.reportable, t, &out)
		if finish {
			take(x.byHead, t, &out)
			return
		}
		hv := x.byHeadVerb[t]
		for v := range hv {
			if v == "" || d.hasTerm(v) || strings.HasPrefix(v, "\x00stop:") && d.hasWord(v[len("\x00stop:"):]) {
				take(hv, v, &out)
			}
		}
		if hv != nil && len(hv) == 0 {
			delete(x.byHeadVerb, t)
		}
	}
	for t := range d.terms() {
		head(t)
	}
	for t := range d.partHeads() {
		head(t)
	}
	for h := range d.reHeads() {
		take(x.byHead, h, &out)
		take(x.reportable, h, &out)
	}
	return inOrder(out)
}

// termSource is what named reads of a message: a parsed doc, or the
// quicker msgWords.
type termSource interface {
	terms() iter.Seq[string]
	hasTerm(t string) bool
	hasWord(w string) bool
	reHeads() map[string]bool
	partHeads() map[string]bool
}

func (d *doc) terms() iter.Seq[string] { return maps.Keys(d.postings) }

// msgWords holds every term and word that parsing a message could give its
// units' tokens, and more: the words of the whole text unfolded, the word
// of each phrase whose two words it holds anywhere, "rerun" when it holds
// "run" and "again". named on it returns all that named on the parsed
// message would, so a message it finds nothing for needs no parsing.
type msgWords struct {
	termSet, wordSet, stems, re, parts map[string]bool
}

// reset reads a message into m, emptied first: one is reused for every
// message.
func (m *msgWords) reset(text string) *msgWords {
	if m.termSet == nil {
		m.termSet, m.wordSet, m.stems = map[string]bool{}, map[string]bool{}, map[string]bool{}
	}
	clear(m.termSet)
	clear(m.wordSet)
	clear(m.stems)
	m.re, m.parts = nil, nil
	lang.EachWord(text, func(t lang.Token) {
		m.wordSet[t.Word] = true
		if t.Term != "" {
			m.termSet[t.Term] = true
		}
	})
	var folded []string
	phrase := func(first, w string) {
		if len(m.stems) == 0 {
			for x := range m.wordSet {
				m.stems[lang.StemOf(x)] = true
			}
		}
		if m.stems[first] {
			folded = append(folded, w)
		}
	}
	if byLast, n := phrasesByLast(); len(m.wordSet) < n {
		// A message has fewer words than there are phrases: look its
		// words up rather than walk every phrase (7% of a mixed run).
		for x := range m.wordSet {
			for _, ph := range byLast[x] {
				phrase(ph[0], ph[1])
			}
		}
	} else {
		lang.Phrases(func(first, last, w string) {
			if m.wordSet[last] {
				phrase(first, w)
			}
		})
	}
	for _, w := range folded {
		m.wordSet[w] = true
		m.termSet[lang.TermOf(w)] = true
	}
	if m.termSet["run"] && m.wordSet["again"] {
		m.termSet["rerun"] = true
	}
	return m
}

// phrasesByLast is lang.Phrases by last word (the first word's stem and
// the phrase), and their number, made once.
var phrasesByLast = sync.OnceValues(func() (map[string][][2]string, int) {
	out, n := map[string][][2]string{}, 0
	lang.Phrases(func(first, last, w string) {
		out[last] = append(out[last], [2]string{first, w})
		n++
	})
	return out, n
})

func (m *msgWords) terms() iter.Seq[string] { return maps.Keys(m.termSet) }
func (m *msgWords) hasTerm(t string) bool   { return m.termSet[t] }
func (m *msgWords) hasWord(w string) bool   { return m.wordSet[w] }

func (m *msgWords) reHeads() map[string]bool {
	if m.re == nil {
		m.re = map[string]bool{}
		for w := range m.wordSet {
			if h := reNoun(w); h != "" {
				m.re[h] = true
			}
		}
	}
	return m.re
}

func (m *msgWords) partHeads() map[string]bool {
	if m.parts == nil {
		m.parts = hyphenParts(maps.Keys(m.wordSet))
	}
	return m.parts
}

// partHeads are the heads the document's hyphenated words end with ("cert"
// of "old-cert", see doc.score), once.
func (d *doc) partHeads() map[string]bool {
	if d.hyphenHeads == nil {
		d.hyphenHeads = hyphenParts(func(yield func(string) bool) {
			for _, u := range d.units {
				for _, t := range u.toks {
					if !yield(t.Word) {
						return
					}
				}
			}
		})
	}
	return d.hyphenHeads
}

// hyphenParts returns lastPart of each hyphenated word.
func hyphenParts(words iter.Seq[string]) map[string]bool {
	out := map[string]bool{}
	for w := range words {
		if strings.IndexByte(w, '-') >= 0 {
			if p := lastPart(w); p != "" {
				out[p] = true
			}
		}
	}
	return out
}

// reHeads are the head nouns the document's re- words name for an action
// that redoes them ("index" of "reindexing", see doc.score), once.
func (d *doc) reHeads() map[string]bool {
	if d.reNouns == nil {
		d.reNouns = map[string]bool{}
		for _, u := range d.units {
			for _, t := range u.toks {
				if h := reNoun(t.Word); h != "" {
					d.reNouns[h] = true
				}
			}
		}
	}
	return d.reNouns
}

// viaReNoun reports whether a re- word of the document names the atom's
// head and verb at once (see doc.score).
func (d *doc) viaReNoun(at atom) bool {
	return strings.HasPrefix(at.verb, "re") && len(at.head) >= 4 && d.reHeads()[at.head]
}

// forCall returns the open commitments a call may carry out or act on: the
// ones of its turn, and those one of whose callWords it names
// (ci.hasTerm).
func (x *promiseIndex) forCall(tc *model.ToolCall, ci *callInfo, stretch int) []*promise {
	var out []*promise
	take(x.byTurn, tc.Turn, &out)
	// The looks of this stretch; those of a stretch gone by never close
	// this way again.
	live := x.looking[:0]
	for _, p := range x.looking {
		if p.item.Open && p.stretch == stretch {
			live = append(live, p)
			out = append(out, p)
		}
	}
	clear(x.looking[len(live):])
	x.looking = live
	for w := range ci.termSet() {
		take(x.byWord, w, &out)
		if len(w) < 4 {
			continue
		}
		if ws, ok := x.byPrefix[w[:4]]; ok {
			live := ws[:0]
			for _, e := range ws {
				if !e.p.item.Open {
					continue
				}
				live = append(live, e)
				if strings.HasPrefix(w, e.word) {
					out = append(out, e.p)
				}
			}
			clear(ws[len(live):])
			x.byPrefix[w[:4]] = live
		}
	}
	if ci.path != "" {
		take(x.byWord, fileWord(ci.path), &out)
	}
	return inOrder(out)
}

// reportable reports whether a message that names the commitment's head
// without its verb may still report it done (see reported): one carried
// out, not from a plan.
func reportable(p *promise) bool { return !p.planned && p.carried >= 0 }

// mayHaveVerb reports whether the document has a word that can fill the
// atom's verb slot (see doc.score): one of its verbs, a stop word that is
// one, or a completion word. Without one no unit is a full match.
func (d *doc) mayHaveVerb(at atom) bool {
	if at.verb == "" {
		return true
	}
	for v := range at.verbs {
		if d.hasTerm(v) {
			return true
		}
	}
	if d.hasTerm(lang.FinishTerm) || d.hasWord("done") {
		return true
	}
	for _, w := range stopVerbTerms {
		if at.verbs[w[1]] && d.hasWord(w[0]) {
			return true
		}
	}
	return false
}

// stopVerbTerms pairs each of lang.StopVerbs with its term.
var stopVerbTerms = func() (out [][2]string) {
	for w := range lang.StopVerbs {
		out = append(out, [2]string{w, lang.TermOf(w)})
	}
	return out
}()

// hasWord reports whether any unit has a token of this (lower-case) word.
func (d *doc) hasWord(w string) bool {
	if d.words == nil {
		d.words = map[string]bool{}
		for _, u := range d.units {
			for _, t := range u.toks {
				d.words[t.Word] = true
			}
		}
	}
	return d.words[w]
}

// checkCall tells indexCheck of an open commitment that call would have
// changed but forCall did not return.
func (c *commitmentTracker) checkCall(cands []*promise, tc *model.ToolCall, ci *callInfo) {
	in := map[*promise]bool{}
	for _, p := range cands {
		in[p] = true
	}
	for p := range openOf[*promise](c.l) {
		if !p.item.Open || p.carried >= 0 || in[p] {
			continue
		}
		sameTurn := tc.Turn == p.item.Turn && !p.planned
		if sameTurn || carries(p.act, p.actionFiles(), ci, false) || actsOn(p, ci, sameTurn) || looksNext(p, ci, c.l.stretch) {
			indexCheck(fmt.Sprintf("commitment index: call %s (%s) concerns %s but is not a candidate", tc.ID, ci.input, p.item.ID))
		}
	}
}

// checkNamed tells indexCheck of an open commitment that a message
// matches but named did not return.
func (c *commitmentTracker) checkNamed(cands []*promise, d *doc, m *model.Message) {
	in := map[*promise]bool{}
	for _, p := range cands {
		in[p] = true
	}
	for p := range openOf[*promise](c.l) {
		if !p.item.Open || in[p] || p.item.Event == m.Index {
			continue
		}
		if r := d.match(p.atom); r.found || reportable(p) && r.best != nil && r.best.head {
			indexCheck(fmt.Sprintf("commitment index: message at turn %d matches %s but it is not a candidate", m.Turn, p.item.ID))
		}
	}
}

// openPromises is the open list of commitments (with closed ones not yet
// pruned), in order, or nil and false when it is long enough to look
// candidates up in the index instead.
func (c *commitmentTracker) openPromises() ([]*promise, bool) {
	if len(c.l.openKind[slotPromise]) >= scanBelow {
		return nil, false
	}
	var out []*promise
	for p := range openOf[*promise](c.l) {
		out = append(out, p)
	}
	return out, true
}

// checkSucceeded tells indexCheck of an open commitment that a successful
// call would have changed but succeeded did not look at.
func (c *commitmentTracker) checkSucceeded(cands []*promise, ci int, r *model.ToolResult, info *callInfo) {
	in := map[*promise]bool{}
	for _, p := range cands {
		in[p] = true
	}
	for p := range openOf[*promise](c.l) {
		if !p.item.Open || p.carried >= 0 || in[p] {
			continue
		}
		writes := (editVerbs[p.act.Verb] || execVerbs[p.act.Verb]) && !info.checks && writesFile(r.Text.Head(), p.actionFiles())
		if slices.Contains(p.working, ci) || slices.Contains(p.carrying, ci) || writes {
			indexCheck(fmt.Sprintf("commitment index: the result of %s concerns %s but it is not a candidate", r.ID, p.item.ID))
		}
	}
}

// sibling is meantForSibling, checked against siblingWalk when a test asks.
func (c *commitmentTracker) sibling(p *promise, ci *callInfo, cands *callNames) bool {
	got := c.meantForSibling(p, ci, cands)
	if indexCheck != nil && got != c.siblingWalk(p, ci) {
		indexCheck(fmt.Sprintf("commitment index: meantForSibling(%s) is %v, the walk over every open commitment says otherwise", p.item.ID, got))
	}
	return got
}

// siblingWalk is meantForSibling over the whole open list, in order.
func (c *commitmentTracker) siblingWalk(p *promise, ci *callInfo) bool {
	own := p.distinctWords()
	for o := range openOf[*promise](c.l) {
		if o == p || !o.item.Open || o.act.Head != p.act.Head {
			continue
		}
		theirs := o.distinctWords()
		if slices.ContainsFunc(own, func(t string) bool { return !slices.Contains(theirs, t) && ci.hasTerm(t) }) {
			return false
		}
		if slices.ContainsFunc(theirs, func(t string) bool { return !slices.Contains(own, t) && ci.hasTerm(t) }) {
			return true
		}
	}
	return false
}
