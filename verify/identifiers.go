package verify

// Identifiers: the external ids an open item depends on (PR and issue
// numbers, ticket keys, commit SHAs, paths, URLs, branches). They are not
// found in the source on their own: each compaction derives them from the
// open items that name them, and an identifier is open while any item naming
// it is. A summary must carry them verbatim, at the class's own boundaries
// (lang.Ident, and findIdent in ids.go).

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// WorkBranchOrigin is the origin of an identifier that is the branch the
// agent made to work on (its Event is the result of the call that made
// it), owed by the work promised on it rather than named in its words.
const WorkBranchOrigin = "work branch, made by a call"

// named is an identifier item.
type named struct {
	entry
	ident  lang.Ident
	namers []tracked // the open items naming it at the latest compaction
}

func (n *named) ref() string        { return n.ident.Value }
func (n *named) weighs(string) bool { return false }

// identifierTracker is the identifier tracker.
type identifierTracker struct {
	l      *ledger
	idents map[lang.Ident]*named
	// shas are every commit SHA the source mentions, for the rule that a
	// summary's SHA prefix must be unique among them.
	shas shaSet
}

func (t *identifierTracker) init(l *ledger) {
	t.l = l
	t.idents = map[lang.Ident]*named{}
}

// collectSHAs remembers the commit SHAs in s (a command, a result's head).
func (t *identifierTracker) collectSHAs(s string) { lang.ScanHex(s, t.addSHA) }

// addSHA remembers one commit SHA.
func (t *identifierTracker) addSHA(h string) { t.shas.add(h) }

// shaSet is a set of commit SHAs (lang.ScanHex's: 7 to 40 lower-case hex
// digits), two to a byte. A run names every commit it touches, and a long
// one hundreds of thousands: kept as strings in a list and a map they were
// a hundred bytes each, 25 MB at 1 GB of the mixed shape; here they are a
// hash and about half their length. It only answers how many of them a
// prefix starts (findSHA).
type shaSet struct {
	seed maphash.Seed
	// seen holds each SHA's hash. Two SHAs of one 64-bit hash would count
	// as one, once in billions of runs (model's checker files call ids
	// the same way).
	seen map[uint64]struct{}
	// packed holds each SHA as its length, then its digits two to a byte.
	packed []byte
}

// add files h; its digits are copied, so h may be a piece of a larger text.
func (s *shaSet) add(h string) {
	if s.seen == nil {
		s.seed, s.seen = maphash.MakeSeed(), map[uint64]struct{}{}
	}
	k := maphash.String(s.seed, h)
	if _, ok := s.seen[k]; ok {
		return
	}
	s.seen[k] = struct{}{}
	s.packed = append(s.packed, byte(len(h)))
	for i := 0; i < len(h); i += 2 {
		b := nibble(h[i]) << 4
		if i+1 < len(h) {
			b |= nibble(h[i+1])
		}
		s.packed = append(s.packed, b)
	}
}

// prefixed counts the SHAs that start with t, up to most.
func (s *shaSet) prefixed(t string, most int) int {
	if s == nil {
		return 0
	}
	n := 0
	for b := s.packed; len(b) > 0 && n < most; {
		l := int(b[0])
		digits := b[1 : 1+(l+1)/2]
		b = b[1+(l+1)/2:]
		if len(t) > l {
			continue
		}
		ok := true
		for i := 0; i < len(t) && ok; i++ {
			d := digits[i/2] >> 4
			if i%2 == 1 {
				d = digits[i/2] & 0xf
			}
			ok = hexDigit(t[i]) == int(d)
		}
		if ok {
			n++
		}
	}
	return n
}

// nibble is a lower-case hex digit's value.
func nibble(c byte) byte {
	if c >= 'a' {
		return c - 'a' + 10
	}
	return c - '0'
}

// hexDigit is a lower-case hex digit's value, -1 for another byte.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

// derive returns the identifier items the open items of set name, in the
// order they are first named.
func (t *identifierTracker) derive(set []tracked) []tracked {
	var out []tracked
	namedBy := map[lang.Ident][]tracked{}
	// madeAt: work branches (see ledger.workBranch) by the result that
	// made them, their origin when no item's own words name them.
	madeAt := map[lang.Ident]int{}
	inTree := map[lang.Ident]bool{}
	var order []lang.Ident
	for _, tr := range set {
		if h, ok := tr.(*pending); ok && h.idents == nil && !h.identsDone {
			if what, ok := h.callText(); ok {
				h.idents = callIdents(what)
			}
			h.identsDone = true
		}
		ids := tr.base().idents
		if p, ok := tr.(*promise); ok && p.branch.Value != "" && !slices.Contains(ids, p.branch) {
			ids = append(ids[:len(ids):len(ids)], p.branch)
			if _, ok := madeAt[p.branch]; !ok {
				madeAt[p.branch] = p.branchAt
			}
			inTree[p.branch] = inTree[p.branch] || p.inTree
		}
		for _, id := range ids {
			if _, ok := namedBy[id]; !ok {
				order = append(order, id)
			}
			namedBy[id] = append(namedBy[id], tr)
		}
	}
	for _, id := range order {
		by := namedBy[id]
		n := t.idents[id]
		isNew := n == nil
		if isNew {
			first := by[0].base().item
			for _, b := range by {
				if b.base().item.Turn < first.Turn {
					first = b.base().item
				}
			}
			it := &Item{ID: "identifier:" + id.Value, Kind: Identifier, Key: id.Value, Turn: first.Turn,
				Event: first.Event, Origin: id.Class.String() + " named by " + string(first.Kind), ClosedEvent: -1}
			if at, ok := madeAt[id]; ok && !slices.Contains(by[0].base().idents, id) {
				it.Event, it.Origin = at, WorkBranchOrigin
			}
			n = &named{entry: entry{item: it}, ident: id}
			t.idents[id] = n
			t.l.byItem[it] = n
		}
		keys := make([]string, 0, len(by))
		var names []string
		for _, b := range by {
			keys = append(keys, b.base().item.Key)
			names = append(names, describeItem(b.base().item))
		}
		text := fmt.Sprintf("%s %s, named by %s", id.Class, id.Value, strings.Join(names, "; "))
		basis, cue := strongestBasis(by)
		if _, made := madeAt[id]; made && !inTree[id] && !namedByWords(by, id) {
			// "git checkout -b feat/x": the checkout is on it, and the
			// repository says so again after the compaction. A worktree's
			// branch is owed: the work lives in a directory of its own.
			basis, cue = Inferred, "the branch the checkout is on (git checkout -b): the repository names it again"
		}
		n.aliases = []string{id.Value}
		n.namers = by
		if it := n.item; !isNew && it.Open && it.Text == text && it.Basis == basis && it.Cue == cue && slices.Equal(it.Names, keys) {
			// Named as at the compaction before: that compaction's copy
			// serves this one too (nothing changes an identifier's item
			// but this function), and a run that keeps thousands of
			// identifiers open through hundreds of compactions holds one
			// copy of each while it is unchanged, not one per compaction.
			out = append(out, n)
			continue
		}
		// Each compaction whose namers changed gets its own copy of the
		// item: an earlier report must keep what was true then. The
		// earlier copy is the earlier results' alone: the ledger forgets
		// it (byItem serves the compaction in hand).
		delete(t.l.byItem, n.item)
		snap := *n.item
		n.item = &snap
		t.l.byItem[n.item] = n
		n.item.Open = true
		n.item.Names = keys
		n.item.Text = text
		n.item.setBasis(basis, cue)
		out = append(out, n)
	}
	if wb := t.l.workBranch; wb.Value != "" && namedBy[wb] == nil {
		if n := t.workBranchItem(wb); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// workBranchItem is the branch the work is on when no open item names it:
// a branch made by a call and not left since. A worktree's branch is where
// the work lives, and what a resumed agent must find again (stated); a
// checkout's the repository names again after the compaction (inferred).
func (t *identifierTracker) workBranchItem(wb lang.Ident) tracked {
	n := t.idents[wb]
	if n == nil {
		it := &Item{ID: "identifier:" + wb.Value, Kind: Identifier, Key: wb.Value, Event: t.l.workBranchAt,
			Origin: WorkBranchOrigin, ClosedEvent: -1}
		n = &named{entry: entry{item: it}, ident: wb}
		t.idents[wb] = n
		t.l.byItem[it] = n
	}
	basis, cue := Stated, "the worktree branch the work is on (made by a call, not left since)"
	if !t.l.workTree {
		basis, cue = Inferred, "the branch the checkout is on (git checkout -b): the repository names it again"
	}
	text := fmt.Sprintf("%s %s, the branch the work is on", wb.Class, wb.Value)
	if it := n.item; it.Open && it.Text == text && it.Basis == basis && len(it.Names) == 0 {
		return n
	}
	delete(t.l.byItem, n.item)
	snap := *n.item
	n.item = &snap
	t.l.byItem[n.item] = n
	n.item.Open, n.item.Names, n.item.Text = true, nil, text
	n.aliases, n.namers = []string{wb.Value}, nil
	n.item.setBasis(basis, cue)
	return n
}

// namedByWords reports whether an item names id in its own words (not only
// as the branch it was promised on).
func namedByWords(by []tracked, id lang.Ident) bool {
	for _, b := range by {
		if slices.Contains(b.base().idents, id) {
			return true
		}
	}
	return false
}

func describeItem(it *Item) string {
	s := it.Action
	if s == "" {
		s = it.Text
	}
	return fmt.Sprintf("%s “%s” (turn %d)", it.Kind, model.Clip(s, 80), it.Turn)
}

// callIdents are the identifiers a call's input names, from the fields that
// say what it acts on: URLs, PR and ticket numbers, commits, branches, and
// files (a path with an extension, known or shaped like one). Directory arguments ("./integration/...")
// describe what the call does rather than something it depends on.
func callIdents(what string) []lang.Ident {
	var out []lang.Ident
	for _, id := range lang.ExtractCallIdents(what) {
		if id.Class == lang.ClassPath && !lang.HasFileExt(id.Value) {
			continue
		}
		out = append(out, id)
	}
	return out
}

func (n *named) match(l *ledger, d *doc, ir *ItemResult) {
	m := d.findIdent(n.ident, &l.identifiers.shas)
	if (m.found || m.weak) && unitAt(d, m.span.Start) < 0 {
		m = identMatch{} // only in the runtime's framing
	}
	switch {
	case m.found:
		ir.Status, ir.Score, ir.Why = Retained, 1, "verbatim at token boundaries"
	case m.weak:
		ir.Status, ir.Score, ir.Why = Weak, 0.5, m.why
	default:
		ir.Status, ir.Why = Dropped, "not in the summary verbatim"
		return
	}
	ui := unitAt(d, m.span.Start)
	ir.Evidence = &Evidence{Span: m.span, Text: d.text[d.units[ui].Start:d.units[ui].End], Polarity: Neutral}
}
