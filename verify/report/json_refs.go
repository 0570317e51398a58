package report

// Version 3 of the JSON report writes an item once (DESIGN.md, "Command
// line", the JSON report): a long run keeps the same open items through
// hundreds of compactions, and writing each in full at each one made the
// report grow with open items × compactions (a 3 MB run, 92 compactions:
// 6.5 MB of report, nine entries in ten the same retained item again).
//
// An item entry is written in full (every field of version 2, plus its
// ref) the first time a file's report lists the item, whenever the
// summary does not retain it, and whenever what the source says of it
// changed (an identifier named by one more item, an error weakened once
// the run left it behind). Otherwise, retained and unchanged, it is a
// reference: its ref, kind, key, turn, status, score and self_report, with
// its evidence and why only when they differ from the item's previous
// listing (or always, with --evidence all). The text stays on a
// reference: scorers and scripts find an item by a phrase of its key or
// text at any compaction (shared/eval/score.py does), and a condition
// ("after the schema diff is reviewed") is in the text, not the key. A reader resolves a reference
// with the last full entry of the same ref before it in the same file, as
// JSONFile.UnmarshalJSON does.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/verify"
)

// itemRow is what the source says of an item: the fields a reference
// leaves out. A change in any of them writes the item in full again.
type itemRow struct {
	kind                                  verify.Kind
	key, text, action, condition, aliases string
	turn                                  int
	origin, closedBy                      string
	basis                                 verify.Basis
	cue                                   string
	open, review                          bool
}

// listing is an item's last entry in a file's report.
type listing struct {
	ref      int
	row      itemRow
	evidence *JSONEvidence
	why      string
}

// refKey names an item across a file's compactions: its id, and which of
// the entries with that id in one compaction it is (a plan step the
// transcript repeats verbatim is two items with one id).
type refKey struct {
	id string
	n  int
}

// itemRefs follows one file's compactions in the order they are written
// and decides each item entry's form.
type itemRefs struct {
	evidenceAll bool
	seen        map[refKey]*listing
	next        int
}

func newItemRefs(evidenceAll bool) *itemRefs {
	return &itemRefs{evidenceAll: evidenceAll, seen: map[refKey]*listing{}}
}

// mark numbers a compaction's item entries and makes references of those
// retained and unchanged since their previous listing.
func (t *itemRefs) mark(items []JSONItem) {
	dup := map[string]int{}
	for i := range items {
		it := &items[i]
		k := refKey{it.ID, dup[it.ID]}
		dup[it.ID]++
		row := rowOf(it)
		l := t.seen[k]
		if l == nil {
			t.next++
			l = &listing{ref: t.next}
			t.seen[k] = l
		} else if row == l.row && it.Status == verify.Retained {
			it.reference = true
			if !t.evidenceAll {
				it.evidence, it.sameWhy = evidenceChange(l.evidence, it.Evidence), l.why == it.Why
			}
		}
		it.Ref = l.ref
		l.row, l.evidence, l.why = row, it.Evidence, it.Why
	}
}

// How a reference writes its evidence: whole (it changed, or --evidence
// all), not at all (the previous entry's), or only its span (the same
// sentence, moved within a summary that grew before it).
const (
	evidenceWritten = iota
	evidenceSame
	evidenceMoved
)

func evidenceChange(prev, cur *JSONEvidence) int {
	switch {
	case prev == nil || cur == nil:
		if prev == cur {
			return evidenceSame
		}
		return evidenceWritten
	case *prev == *cur:
		return evidenceSame
	case prev.Text == cur.Text && prev.Section == cur.Section && prev.Polarity == cur.Polarity:
		return evidenceMoved
	}
	return evidenceWritten
}

func rowOf(it *JSONItem) itemRow {
	return itemRow{kind: it.Kind, key: it.Key, text: it.Text, action: it.Action, condition: it.Condition,
		aliases: strings.Join(it.Aliases, "\x00"), turn: it.Turn, origin: it.Origin, closedBy: it.ClosedBy,
		basis: it.Basis, cue: it.Cue, open: it.Open, review: it.Review}
}

// plainItem is JSONItem without its methods: the full entry.
type plainItem JSONItem

// refItem is a reference entry on the wire. Evidence is a pointer to the
// pointer so that "unchanged" (left out) and "none" (null) differ.
type refItem struct {
	Ref        int             `json:"ref"`
	Kind       verify.Kind     `json:"kind"`
	Key        string          `json:"key"`
	Text       string          `json:"text"`
	Turn       int             `json:"turn"`
	Status     verify.Status   `json:"status"`
	Score      float64         `json:"score"`
	Evidence   **JSONEvidence  `json:"evidence,omitempty"`
	Span       *[2]int         `json:"span,omitempty"`
	SelfReport *verify.Finding `json:"self_report"`
	Why        *string         `json:"why,omitempty"`
}

// MarshalJSON writes the entry in full or as a reference (see mark).
func (it JSONItem) MarshalJSON() ([]byte, error) {
	var v any = plainItem(it)
	if it.reference {
		r := refItem{Ref: it.Ref, Kind: it.Kind, Key: it.Key, Text: it.Text, Turn: it.Turn, Status: it.Status, Score: it.Score, SelfReport: it.SelfReport}
		switch it.evidence {
		case evidenceWritten:
			r.Evidence = &it.Evidence
		case evidenceMoved:
			r.Span = &[2]int{it.Evidence.Start, it.Evidence.End}
		}
		if !it.sameWhy {
			r.Why = &it.Why
		}
		v = r
	}
	return plainJSON(v)
}

// UnmarshalJSON reads an entry in either form; a reference is completed
// by JSONFile.UnmarshalJSON, which knows the entries before it.
func (it *JSONItem) UnmarshalJSON(b []byte) error {
	var p plainItem
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var has struct {
		ID       *string         `json:"id"`
		Evidence json.RawMessage `json:"evidence"`
		Span     *[2]int         `json:"span"`
		Why      *string         `json:"why"`
	}
	if err := json.Unmarshal(b, &has); err != nil {
		return err
	}
	*it = JSONItem(p)
	if it.reference = has.ID == nil; it.reference {
		it.sameWhy = has.Why == nil
		switch {
		case has.Evidence != nil:
			it.evidence = evidenceWritten
		case has.Span != nil:
			it.evidence = evidenceMoved
			it.Evidence = &JSONEvidence{Start: has.Span[0], End: has.Span[1]}
		default:
			it.evidence = evidenceSame
		}
	}
	return nil
}

// resolveRefs completes a decoded file's references from the entries
// before them, so that a decoded report holds every item in full.
func (f *JSONFile) resolveRefs() error {
	last := map[int]JSONItem{}
	for ci := range f.Compactions {
		c := &f.Compactions[ci]
		for i := range c.Items {
			it := &c.Items[i]
			if it.reference {
				prev, ok := last[it.Ref]
				if !ok {
					return fmt.Errorf("report: %s, compaction %d: item ref %d has no full entry before it", f.Path, c.Seq, it.Ref)
				}
				full := prev
				full.Ref, full.Kind, full.Key, full.Turn, full.Status, full.Score, full.SelfReport = it.Ref, it.Kind, it.Key, it.Turn, it.Status, it.Score, it.SelfReport
				full.reference, full.evidence, full.sameWhy = true, it.evidence, it.sameWhy
				switch it.evidence {
				case evidenceWritten:
					full.Evidence = it.Evidence
				case evidenceMoved:
					if prev.Evidence == nil {
						return fmt.Errorf("report: %s, compaction %d: item ref %d moves an evidence it does not have", f.Path, c.Seq, it.Ref)
					}
					moved := *prev.Evidence
					moved.Start, moved.End = it.Evidence.Start, it.Evidence.End
					full.Evidence = &moved
				}
				if !it.sameWhy {
					full.Why = it.Why
				}
				*it = full
			}
			last[it.Ref] = *it
		}
	}
	return nil
}

// UnmarshalJSON reads a file's entry and completes its item references.
func (f *JSONFile) UnmarshalJSON(b []byte) error {
	var p plainFile
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*f = JSONFile(p)
	return f.resolveRefs()
}
