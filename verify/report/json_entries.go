package report

// A run that keeps errors open and its summaries dropping them lists each
// such error in full at every compaction: a 1 GB run of the mixed shape
// writes some 600,000 full entries, most of them the bytes the item's
// previous entry had (the items are the ledger's, final by the time the
// report is written, and a dropped error fares the same from one summary
// to the next). Encoding, indenting and escaping each again was most of
// the time the report took. fullEntries keeps, for the items written in
// full at the previous compaction and at this one, the entry and its
// bytes: an entry equal to the previous one is those bytes again.

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/loupe-dev/loupe/verify"
)

// fullEntry is an item's full entry and the bytes written for it.
type fullEntry struct {
	item   JSONItem
	prefix string
	b      []byte
}

// fullEntries holds the full entries of the last two compactions written,
// by ref: what a long run holds is bounded by the items open at once, not
// by the compactions.
type fullEntries struct {
	prev, cur map[int]*fullEntry
	buf       bytes.Buffer
}

// next starts a compaction: the entries of the one before it are the ones
// reused.
func (fe *fullEntries) next() {
	fe.prev, fe.cur = fe.cur, make(map[int]*fullEntry, len(fe.cur))
}

// bytes returns the full entry of it indented at prefix, as writeIndented
// writes it, and escaped; valid until the next compaction but one.
func (fe *fullEntries) bytes(it *JSONItem, prefix string) ([]byte, error) {
	if e := fe.prev[it.Ref]; e != nil && e.prefix == prefix && sameButEvidence(&e.item, it) {
		if sameEvidence(e.item.Evidence, it.Evidence) {
			fe.cur[it.Ref] = e
			return e.b, nil
		}
		if b, ok := fe.withEvidence(e, it); ok {
			fe.cur[it.Ref] = &fullEntry{item: *it, prefix: prefix, b: b}
			return b, nil
		}
	}
	b, err := it.MarshalJSON()
	if err != nil {
		return nil, err
	}
	// What writeIndented writes: an encoder given the item calls
	// MarshalJSON and indents its bytes, and this is that without
	// encoding the item's value around it again.
	fe.buf.Reset()
	if err := json.Indent(&fe.buf, b, prefix, jsonIndent); err != nil {
		return nil, err
	}
	b = bytes.Clone(escapeInvisible(fe.buf.Bytes(), jsonEscape))
	if fe.cur == nil {
		fe.cur = map[int]*fullEntry{}
	}
	fe.cur[it.Ref] = &fullEntry{item: *it, prefix: prefix, b: b}
	return b, nil
}

// withEvidence is e's bytes with the evidence of it in place of e's: an
// item the summaries keep weakly is found at another place of each one,
// and only its evidence changes from one entry to the next. A member
// starts on a line of its own, and no string holds a raw newline, so the
// evidence is what lies between its key and the next member's.
func (fe *fullEntries) withEvidence(e *fullEntry, it *JSONItem) ([]byte, bool) {
	member := "\n" + e.prefix + jsonIndent
	key, next := []byte(member+`"evidence": `), []byte(`,`+member+`"self_report": `)
	i := bytes.Index(e.b, key)
	j := bytes.Index(e.b, next)
	if i < 0 || j < i {
		return nil, false
	}
	var out []byte
	err := withIndented(it.Evidence, e.prefix+jsonIndent, func(ev []byte) error {
		out = make([]byte, 0, len(e.b)+len(ev))
		out = append(append(append(out, e.b[:i+len(key)]...), ev...), e.b[j:]...)
		return nil
	})
	return out, err == nil
}

// sameButEvidence reports whether two full entries write the same bytes
// but for their evidence: every other field on the wire is equal (the
// pointers' values, not the pointers).
func sameButEvidence(a, b *JSONItem) bool {
	return a.Ref == b.Ref && a.ID == b.ID && a.Kind == b.Kind && a.Key == b.Key && a.Text == b.Text &&
		a.Action == b.Action && a.Condition == b.Condition && slices.Equal(a.Aliases, b.Aliases) &&
		a.Turn == b.Turn && a.Origin == b.Origin && a.Open == b.Open && a.ClosedBy == b.ClosedBy &&
		a.Status == b.Status && sameFloat(a.Score, b.Score) &&
		sameFinding(a.SelfReport, b.SelfReport) && a.Why == b.Why && a.Basis == b.Basis && a.Cue == b.Cue &&
		a.Review == b.Review && a.reference == b.reference
}

// sameFloat compares scores as their encodings: -0 and 0 differ there.
func sameFloat(a, b float64) bool { return a == b && (a != 0 || (1/a > 0) == (1/b > 0)) }

func sameEvidence(a, b *JSONEvidence) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameFinding(a, b *verify.Finding) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
