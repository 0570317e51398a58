package verify

// The index of closed items a summary may resurrect, searched through the
// summary's own words.

import (
	"sort"

	"github.com/loupe-dev/loupe/verify/lang"
)

// resurrectionKeys are the keys under which a closed error or handle is
// indexed for the resurrection check (commitments are indexed by head and
// verb in closedByHead): a summary is searched through its own words, so the
// check costs the summary's size, not the run's.
func resurrectionKeys(tr *tracked) []string {
	switch tr.item.Kind {
	case Error:
		var keys []string
		for _, tok := range tr.errTokens {
			if ts := lang.Tokenize(tok); len(ts) > 0 && ts[0].Term != "" {
				keys = append(keys, "t:"+ts[0].Term)
			}
		}
		return keys
	case Handle:
		if tr.callID != "" {
			return []string{"id:" + tr.callID}
		}
		return []string{"id:" + tr.jobID}
	}
	return nil
}

// resurrectionCandidates returns the closed items a summary's words point at,
// once each, in the order they were created: commitments whose verb and head
// noun share a unit of the summary, errors whose identifying word it uses,
// handles whose id it names.
func (l *ledger) resurrectionCandidates(d *doc) []*tracked {
	seen := map[*tracked]bool{}
	var out []*tracked
	add := func(m map[string]*tracked) {
		for _, tr := range m {
			if !seen[tr] && !tr.item.Open {
				seen[tr] = true
				out = append(out, tr)
			}
		}
	}
	for h, hu := range d.postings {
		for v, m := range l.closedByHead[h] {
			if v == "" || intersects(hu, d.postings[v]) {
				add(m)
			}
		}
		add(l.closedIdx["t:"+h])
	}
	for _, m := range idWords(d.text) {
		add(l.closedIdx["id:"+m])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].item.Event < out[j].item.Event })
	return out
}

// idWords splits a text into its id-like words (call_1, toolu_01, bash_4):
// runs of letters, digits, "_" and "-", starting with a letter or digit.
func idWords(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !lang.IsIdentByte(s[i]) || s[i] == '_' {
			i++
			continue
		}
		j := i
		for j < len(s) && (lang.IsIdentByte(s[j]) || s[j] == '-') {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
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
