package verify

// Resurrection: a closed item — a completed plan step, a resolved error, an
// answered call — that a summary presents as still open, so the agent would
// redo finished work. Each tracker indexes its closed items by the words
// that can resurrect them, so a summary is searched through its own words:
// the check costs the summary's size, not the run's.

import (
	"sort"

	"github.com/loupe-dev/loupe/verify/lang"
)

// resurrectionCandidates returns the closed items a summary's words point at,
// once each, in the order they were created: commitments whose verb and head
// noun share a unit of the summary, errors whose identifying word it uses,
// handles whose id it names.
func (l *ledger) resurrectionCandidates(d *doc) []tracked {
	seen := map[tracked]bool{}
	var out []tracked
	add := func(tr tracked) {
		if !seen[tr] && !tr.base().item.Open {
			seen[tr] = true
			out = append(out, tr)
		}
	}
	l.commitments.closedNamedIn(d, add)
	l.errors.closedNamedIn(d, add)
	l.handles.closedNamedIn(d, add)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].base().item, out[j].base().item
		if a.Event != b.Event {
			return a.Event < b.Event
		}
		return a.ID < b.ID // plan steps of one event: deterministic
	})
	return out
}

// resurrection asks the candidate's kind whether the summary resurrects it.
func resurrection(tr tracked, d *doc, open []tracked, claimed map[int][]tracked) (ItemResult, bool) {
	switch x := tr.(type) {
	case *promise:
		return x.resurrected(d, open, claimed)
	case *failure:
		return x.resurrected(d, claimed)
	case *pending:
		return x.resurrected(d)
	}
	return ItemResult{}, false
}

// eachIDWord calls f with each id-like word of a text (call_1, toolu_01,
// bash_4), in order: runs of letters, digits, "_" and "-", starting with a
// letter or digit. A summary is searched through them without a slice of
// them.
func eachIDWord(s string, f func(string)) {
	for i := 0; i < len(s); {
		if !lang.IsIdentByte(s[i]) || s[i] == '_' {
			i++
			continue
		}
		j := i
		for j < len(s) && (lang.IsIdentByte(s[j]) || s[j] == '-') {
			j++
		}
		f(s[i:j])
		i = j
	}
}

// intersects reports whether two sorted lists of unit indexes share one.
func intersects(a, b []int) bool {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}
