package verify

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// reconcile compares the compactor's self-report with what the source-based
// check found. The self-report is never ground truth: a claim is resolved
// against the source's items (by id, key or wording), and its truth comes
// from the item's status.
func (l *ledger) reconcile(c *model.Compaction, cr *CompactionResult, set []tracked) {
	sr := c.SelfReport
	if sr == nil {
		for i := range cr.Items {
			cr.Items[i].SelfReport = Unattested
		}
		return
	}
	index := map[*Item]int{}
	for i := range cr.Items {
		index[cr.Items[i].Item] = i
	}
	claimed := map[*Item]bool{}
	for _, claim := range sr.Retained {
		open, closed := l.resolveClaim(claim, set)
		switch {
		case len(open) > 0:
			for _, tr := range open {
				claimed[tr.base().item] = true
				ir := &cr.Items[index[tr.base().item]]
				if ir.Status.Verified() {
					ir.SelfReport = Agree
					continue
				}
				ir.SelfReport = Overclaim
				if ir.Review {
					// Only inferred: the claim is listed beside the item,
					// for a person to judge, and is no reason.
					continue
				}
				cr.Reasons = append(cr.Reasons, fmt.Sprintf("self-report overclaims “%s”: the %s “%s” (turn %d) is %s", claim, tr.base().item.Kind, tr.base().item.Label(), tr.base().item.Turn, statusWords(ir.Status)))
			}
		case len(closed) > 0:
			tr := closed[0]
			if i, ok := index[tr.base().item]; ok {
				cr.Items[i].SelfReport = StaleClaim
			}
			cr.Warnings = append(cr.Warnings, Warning{Line: c.Line, Seq: c.Seq, Msg: fmt.Sprintf("stale claim “%s”: the %s was already closed at turn %d (%s)", claim, tr.base().item.Kind, tr.base().item.ClosedTurn, tr.base().item.ClosedBy)})
		default:
			cr.UnsourcedClaims = append(cr.UnsourcedClaims, claim)
			cr.Reasons = append(cr.Reasons, fmt.Sprintf("self-report claims “%s”, which matches nothing in the source: the claim was invented or taken from the summary", claim))
		}
	}
	for _, claim := range sr.Dropped {
		open, _ := l.resolveClaim(claim, set)
		for _, tr := range open {
			if i, ok := index[tr.base().item]; ok && !claimed[tr.base().item] {
				cr.Items[i].SelfReport = Agree
				claimed[tr.base().item] = true
			}
		}
	}
	unverified := 0
	for i := range cr.Items {
		ir := &cr.Items[i]
		if ir.Status == Retained && !claimed[ir.Item] {
			ir.SelfReport = Underclaim
		}
		if ir.Counts() {
			unverified++
		}
	}
	if unverified > 0 && claimsPreservation(sr.Claim) {
		cr.Reasons = append(cr.Reasons, fmt.Sprintf("self-report claims “%s”, but %d item(s) of the preservation set are not verified", sr.Claim, unverified))
	}
}

// claimsPreservation reports whether a free-text claim asserts that what had
// to be kept was kept.
func claimsPreservation(claim string) bool {
	l := strings.ToLower(claim)
	for _, w := range []string{"preserv", "retain", "kept", "keeps", "intact", "all open", "nothing lost", "no loss"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// resolveClaim finds the items a self-report claim names: by alias (plan id,
// commitment id, call or job id, identifier), by key, or by wording (the same
// verb and object as the item's action).
func (l *ledger) resolveClaim(claim string, set []tracked) (open, closed []tracked) {
	c := strings.TrimSpace(claim)
	exact := func(tr tracked) bool {
		e := tr.base()
		// An empty claim names everything: every item has some empty id.
		if c == "" || strings.EqualFold(e.item.Key, c) || strings.EqualFold(strings.TrimSpace(e.item.Text), c) || tr.ref() == c {
			return true
		}
		for _, a := range e.aliases {
			if a != "" && a == c {
				return true
			}
		}
		return false
	}
	ca := claimAction(c)
	catom := newAtom(ca)
	worded := func(tr tracked) bool {
		var act lang.Action
		var has func(string) bool
		switch x := tr.(type) {
		case *promise:
			act, has = x.act, x.hasTerm
		case *rule:
			act, has = x.act, func(t string) bool { return x.atom.weights[t] > 0 || x.atom.verbs[t] }
		default:
			return false
		}
		if sameAction(act, ca) {
			return true
		}
		// Most of the claim's words are the item's.
		if len(catom.terms) == 0 {
			return false
		}
		hit := 0
		for _, t := range catom.terms {
			if has(t) {
				hit++
			}
		}
		return hit == len(catom.terms) && hit >= 2
	}
	for pi, pass := range []func(tracked) bool{exact, worded} {
		for _, tr := range set {
			if pass(tr) {
				open = append(open, tr)
			}
		}
		if len(open) > 0 {
			return open, nil
		}
		for _, tr := range l.items() {
			if !tr.base().item.Open && pass(tr) {
				closed = append(closed, tr)
			}
		}
		if pi == 0 {
			// An answered call the sweep demoted comes first when it was
			// made first (only the first closed item is used).
			before := -1
			if len(closed) > 0 {
				before = closed[0].base().born
			}
			if p := l.handles.claimedAnswered(c, before); p != nil {
				closed = append([]tracked{p}, closed...)
			}
		}
		if len(closed) > 0 {
			return nil, closed
		}
	}
	return nil, nil
}

// claimAction parses a claim's wording: a kind prefix ("commitment: ...") is
// dropped, and a claim phrased as a commitment ("will re-run the migration
// after review") is reduced to its action.
func claimAction(c string) lang.Action {
	if k, rest, ok := strings.Cut(c, ":"); ok && len(k) < 20 && !strings.ContainsAny(k, " /") {
		for _, kind := range Kinds {
			if strings.EqualFold(strings.TrimSpace(k), string(kind)) || strings.EqualFold(strings.TrimSpace(k), string(kind)+"s") {
				c = strings.TrimSpace(rest)
			}
		}
	}
	if fc := lang.FindPromises(c); len(fc) > 0 {
		return fc[0].Action
	}
	return lang.ParseAction(c)
}

// Label is the item's wording for reasons and reports: a commitment's
// action, a rule as the user wrote it, otherwise its key.
func (it *Item) Label() string {
	switch {
	case it.Kind == Commitment && it.Action != "":
		return it.Action
	case it.Kind == Constraint:
		return it.Text
	}
	return it.Key
}

func statusWords(s Status) string {
	switch s {
	case IntentOnly:
		return "intent-only (its id is lost)"
	case Weak:
		return "only weakly evidenced"
	}
	return string(s)
}
