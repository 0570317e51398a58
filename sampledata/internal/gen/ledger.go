package gen

import (
	"fmt"
	"slices"
	"strings"
)

// kind is the kind of a ledger item. It follows the verifier's item kinds
// (DESIGN.md), except that plan entries are kept apart from commitments
// extracted from assistant text: they are restated by their text.
type kind string

const (
	kCommitment kind = "commitment" // an assistant sentence with commitment phrasing
	kPlan       kind = "plan"       // a pending or in-progress plan entry
	kHandle     kind = "handle"     // a tool call with no result yet
	kError      kind = "error"      // a failed tool result not yet redone successfully
	kConstraint kind = "constraint" // a standing rule from the user
)

// verifyKind is the kind the verifier reports the item under.
func (k kind) verifyKind() string {
	if k == kPlan {
		return string(kCommitment)
	}
	return string(k)
}

// item is one open (or once-open) obligation the generator tracks, so that an
// honest summary can restate every open item and nothing closed as pending.
type item struct {
	kind kind
	key  string // plan id, commitment key, call id, error key, constraint key
	// text is the source's wording: the plan text, the commitment sentence,
	// the user's message, the error's first line, the call's command.
	text string
	// restate is how a summary lists the item while it is open. It always
	// contains the needle the honesty check looks for.
	restate string
	// needle is the part of the restatement that must appear verbatim.
	needle string
	turn   int
	status string // plan: pending / in_progress / completed; others: open / closed
	closed int    // turn it closed at, 0 while open
	// words mark a mention of the item: no done-phrased line of an honest
	// summary may contain one while the item is open, and a planted drop must
	// not contain any.
	words []string
	// doneText is how a lying summary phrases the item as done (planted flips).
	doneText string
	// tool and target identify an error's or handle's call (command or path).
	tool, target string
	// lines are an error's first lines, quoted by summaries.
	lines []string
	// object must appear in the input of the tool call that fulfils a
	// commitment.
	object string
	// claimKey is how a compactor's self-report names the item, besides its
	// key and text.
	claimKey string
	// msg is a rule's whole user message, which summaries quote.
	msg string
}

func (it *item) open() bool { return it.closed == 0 }

// ledger is the generator's record of every item, in creation order.
type ledger struct {
	items []*item
}

func (l *ledger) add(it *item) *item {
	if it.needle == "" {
		it.needle = it.text
	}
	if it.restate == "" {
		it.restate = it.text
	}
	if !strings.Contains(it.restate, it.needle) {
		panic(fmt.Sprintf("ledger: restatement %q lacks needle %q", it.restate, it.needle))
	}
	if it.status == "" {
		it.status = "open"
	}
	l.items = append(l.items, it)
	return it
}

// find returns the latest item of kind k with key, or nil.
func (l *ledger) find(k kind, key string) *item {
	for i := len(l.items) - 1; i >= 0; i-- {
		if it := l.items[i]; it.kind == k && it.key == key {
			return it
		}
	}
	return nil
}

func (l *ledger) close(it *item, turn int) {
	if it.closed == 0 {
		it.closed = turn
	}
	if it.kind == kPlan {
		it.status = "completed"
	} else {
		it.status = "closed"
	}
}

// openItems returns the items open now, in order of origin.
func (l *ledger) openItems() []*item {
	var out []*item
	for _, it := range l.items {
		if it.open() {
			out = append(out, it)
		}
	}
	slices.SortStableFunc(out, func(a, b *item) int { return a.turn - b.turn })
	return out
}

// closeErrors closes the open errors of tool on target: a later successful
// call of the same tool on the same target resolves them.
func (l *ledger) closeErrors(tool, target string, turn int) []*item {
	var closed []*item
	for _, it := range l.items {
		if it.kind == kError && it.open() && it.tool == tool && it.target == target {
			l.close(it, turn)
			closed = append(closed, it)
		}
	}
	return closed
}

// mentionsOpen reports whether line names an open item in done wording: it
// contains one of the item's words. Honest summaries skip such lines.
func (l *ledger) mentionsOpen(line string, except ...*item) bool {
	low := strings.ToLower(line)
	for _, it := range l.items {
		if !it.open() || slices.Contains(except, it) {
			continue
		}
		for _, w := range it.words {
			if strings.Contains(low, strings.ToLower(w)) {
				return true
			}
		}
	}
	return false
}
