package verify

// Claims: an assistant message that presents an open commitment as done.
// With a call that carried the action out, the claim closes it; without
// one, it is a false (or unsupported) completion and the commitment stays
// open (DESIGN.md: a claim does not discharge an obligation).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// claims looks in an assistant message for completion claims of open
// commitments. A claim backed by a call that carried the action out closes
// the item; one without is a false (or unsupported) completion, and the
// item stays open.
func (c *commitmentTracker) claims(m *model.Message) {
	var d *doc
	var items []*promise
	var results []matchResult
	open, few := c.openPromises()
	if !few {
		// A claim or report needs the head noun (or its alternative) in
		// the message: see doc.score and reported. Most messages name none
		// of the open commitments' heads with a verb: the words of the
		// whole message say so without parsing it.
		if len(c.idx.named(c.l.wordsOf(m, &c.words))) == 0 {
			if indexCheck != nil {
				c.checkNamed(nil, parseSummary(m.Text), m)
			}
			return
		}
		d = parseSummary(m.Text)
		open = c.idx.named(d)
		n := 0
		for _, p := range open {
			if reportable(p) || d.mayHaveVerb(p.atom) || d.viaReNoun(p.atom) {
				open[n] = p
				n++
			}
		}
		open = open[:n]
		if indexCheck != nil {
			c.checkNamed(open, d, m)
		}
	}
	for _, p := range open {
		if !p.item.Open || p.item.Event == m.Index {
			continue
		}
		if d == nil {
			d = parseSummary(m.Text)
		}
		if !reportable(p) && !c.mayBeFound(d, p.atom) {
			// Not found, it could only be reported (carried and not
			// planned): it takes no part.
			if indexCheck != nil && d.match(p.atom).found {
				indexCheck(fmt.Sprintf("claims: %s ruled out of %q but it matches", p.item.ID, m.Text))
			}
			continue
		}
		items = append(items, p)
		results = append(results, d.match(p.atom))
	}
	owner := bestOwners(results, items)
	for i, p := range items {
		r := results[i]
		if r.found && !owner[i] {
			// The sentence speaks of a sibling that matches it better
			// ("format 2" is claimed, not "format 1").
			r.found = false
		}
		switch {
		case r.found && r.polarity == Done:
			if p.carried >= 0 {
				// Supported: a call carried it out and the agent claims it.
				// A plan step needs the claim said outright ("is
				// finished"): the plan is the authority on its own steps,
				// and a description in the past tense does not overrule it.
				if !p.planned || outright(r.cue) {
					p.carriedOut = true
					c.l.close(p, m, fmt.Sprintf("carried out by %s and claimed at turn %d", callRef(p), m.Turn))
				}
				continue
			}
			if p.claimed {
				continue
			}
			p.claimed = true
			c.completionFinding(p, m, d.text[d.units[r.cand.unit].Start:d.units[r.cand.unit].End])
		case !p.planned && p.carried >= 0 && reported(d, p, r):
			p.carriedOut = true
			c.l.close(p, m, fmt.Sprintf("carried out by %s and reported at turn %d", callRef(p), m.Turn))
		}
	}
}

// outright reports whether a status cue says in so many words that the
// work is done ("finished", "[DONE]", "completed:"), not by a past tense.
func outright(cue string) bool {
	if cue == "done marker" {
		return true
	}
	for _, w := range strings.Fields(strings.ToLower(cue)) {
		if lang.DoneCues[strings.Trim(w, "[]():*")] {
			return true
		}
	}
	return false
}

// bestOwners says, for each match, whether it is the best of the matches
// that landed on the same unit: near-duplicate items ("the staging DB", "the
// prod DB") compete for a sentence, and the one it carries more of wins.
func bestOwners(rs []matchResult, items []*promise) []bool {
	type key struct {
		unit int
		head string
	}
	own := make([]bool, len(rs))
	best := map[key]float64{}
	for i, r := range rs {
		if k := (key{r.cand.unit, items[i].act.Head}); r.found && r.cand.containment > best[k] {
			best[k] = r.cand.containment
		}
	}
	for i, r := range rs {
		own[i] = !r.found || r.cand.containment >= best[key{r.cand.unit, items[i].act.Head}]
	}
	return own
}

// reported reports whether a message speaks of a carried-out item without
// presenting it as still to do: the action itself ("The pricing service
// now populates the currency field") or its object, not pending or negated.
func reported(d *doc, p *promise, r matchResult) bool {
	if r.found {
		return r.polarity == Done || r.polarity == Neutral
	}
	if r.best == nil || !r.best.head {
		return false
	}
	if p.act.Alt != "" && !d.unitHas(r.best.unit, p.act.Alt) {
		return false // "go test passes" does not report "add the golden test"
	}
	pol, _ := d.polarity(&d.units[r.best.unit], -1, r.best.lo, r.best.hi)
	return pol == Done || pol == Neutral
}

// callRef names the call that carried p out.
func callRef(p *promise) string {
	if tc := p.carriedBy; tc.ok {
		return fmt.Sprintf("%s (%s, turn %d)", tc.id, tc.name, tc.turn)
	}
	return fmt.Sprintf("event %d", p.carried)
}

// calledAs is what a closing reason says of a call (callRef).
type calledAs struct {
	id, name string
	turn     int
	ok       bool // a call carried it out
}

func calledAsOf(tc *model.ToolCall) calledAs {
	if tc == nil {
		return calledAs{}
	}
	return calledAs{id: tc.ID, name: tc.Name, turn: tc.Turn, ok: true}
}

func (c *commitmentTracker) completionFinding(p *promise, m *model.Message, claim string) {
	f := RunFinding{Kind: UnsupportedCompletion, Turn: m.Turn, Event: m.Index, Item: p.item.Key, ItemID: p.item.ID,
		OriginTurn: p.item.Turn, Text: claim}
	if p.firstLoss > 0 {
		f.Kind, f.LostAt = FalseCompletion, p.firstLoss
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out; compaction %d lost it", p.item.Action, p.item.Turn, p.firstLoss)
	} else {
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out", p.item.Action, p.item.Turn)
	}
	c.l.res.Findings = append(c.l.res.Findings, f)
}

// fullKey is what decides which units score may find an atom's verb and
// head in (see doc.fullUnits): atom.verbs follow from the verb.
type fullKey struct{ verb, head, alt, headPart string }

// fullUnits is where a doc may hold a match of an atom: the units where
// score may find both its verb and its head, and whether a sentence where
// it may find the verb refers back with a pronoun to one with the head
// (a window).
type fullUnits struct {
	units  []int
	window bool
}

// mayBeFound reports whether match may find the atom in the doc: not when
// no unit may hold its verb and head together and no window may join them,
// nor when every unit that may is surely another's (unitSurelyOther: "Re-
// ran the zelto migration" is no mention of "re-run the kavron
// migration"). A message claiming one of many open steps of the same kind
// is checked against each of them; most are ruled out here. Where the
// units are is remembered for the message: the steps are of a few kinds
// ("deploy the X worker" for many X), with the same verb and head.
func (c *commitmentTracker) mayBeFound(d *doc, at atom) bool {
	if at.verb == "" || at.head == "" || at.verbs == nil {
		return true // score fills a missing slot with the other
	}
	if c.fullIn != d {
		c.fullIn = d
		clear(c.fullMemo)
	}
	if c.fullMemo == nil {
		c.fullMemo = map[fullKey]fullUnits{}
	}
	k := fullKey{at.verb, at.head, at.alt, at.headPart}
	f, ok := c.fullMemo[k]
	if !ok {
		f = d.fullUnits(at)
		c.fullMemo[k] = f
	}
	if f.window {
		return true
	}
	for _, ui := range f.units {
		if !d.unitSurelyOther(ui, at) {
			return true
		}
	}
	return false
}

// fullUnits finds where the doc may hold a match of the atom (see
// fullUnits): a full candidate needs the verb and the head in one unit
// (score), a window the verb in a sentence with a pronoun and the head in
// the one before, in the same section (window).
func (d *doc) fullUnits(at atom) fullUnits {
	var f fullUnits
	headed := d.headedUnits(at)
	for ui := range d.units {
		if !d.mayHoldVerb(ui, at) {
			continue
		}
		if headed.has(ui) {
			f.units = append(f.units, ui)
		}
		if ui > 0 && d.units[ui].section == d.units[ui-1].section && hasPronoun(&d.units[ui]) && headed.has(ui-1) {
			f.window = true
		}
	}
	return f
}

// mayHoldVerb reports whether score may fill the atom's verb slot in unit
// ui: a term of its verbs, a stop word that is one, a completion word, a
// re- word made of its head.
func (d *doc) mayHoldVerb(ui int, at atom) bool {
	for v := range at.verbs {
		if d.unitHasTerm(ui, v) {
			return true
		}
	}
	if strings.HasPrefix(at.verb, "re") && len(at.head) >= 4 {
		d.indexWordForms()
		if slices.Contains(d.byReNoun[at.head], ui) {
			return true
		}
	}
	for _, t := range d.units[ui].toks {
		if t.Term == lang.FinishTerm || t.Word == "done" {
			return true
		}
		if t.Term == "" && lang.StopVerbs[t.Word] && at.verbs[stopVerbTerm[t.Word]] {
			return true
		}
	}
	return false
}

// stopVerbTerm is the term of each of lang.StopVerbs.
var stopVerbTerm = func() map[string]string {
	out := map[string]string{}
	for _, w := range stopVerbTerms {
		out[w[0]] = w[1]
	}
	return out
}()
