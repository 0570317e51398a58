package model

import "slices"

// Format is the value of meta.format that this package reads and writes.
const Format = "loupe/v1"

// Consumer is a downstream component that reads summaries and depends on
// some item kinds (commitment, handle, error, identifier, constraint).
type Consumer struct {
	Name     string
	Requires []string
	// Strict: the consumer counts inferred items too (DESIGN.md, "How sure
	// the source is that an item is owed"): a lost one refuses it.
	Strict bool
}

// Meta is the transcript's meta line.
type Meta struct {
	Format string
	Run    string
	Agent  string
	// Source names the runtime (and version when known) an importer read.
	Source    string
	Consumers []Consumer
	// Extra keeps the other scalar fields of the meta line as text (a prompt
	// variant, the compactor's name): `loupe verify --group-by` reads them.
	Extra map[string]string
	// TS is the meta line's timestamp, if any.
	TS string
}

// Field returns a meta field by its JSON name, including Extra ones.
func (m Meta) Field(name string) string {
	switch name {
	case "format":
		return m.Format
	case "run":
		return m.Run
	case "agent":
		return m.Agent
	case "source":
		return m.Source
	}
	return m.Extra[name]
}

// Transcript is a whole run: its meta, every event in file order, and the
// problems found while reading it.
type Transcript struct {
	// Path is the file the transcript came from ("-" for standard input).
	Path string
	// Meta is the meta line (zero when the file has none).
	Meta Meta
	// Runtime names the format the file was read as (formats.Open sets
	// it): an importer's name (claude-code, codex…), or "loupe" for a
	// file in loupe's own format; "" when unknown. An imported transcript's
	// Meta.Format is loupe's, whatever it was read from.
	Runtime string
	// Events are every line but the meta, in file order. Compactions are
	// events too.
	Events []Event
	// Compactions are the compaction events in file order (normally seq 1..n).
	Compactions []*Compaction
	// Problems are parse errors and consistency warnings, in line order.
	Problems Problems
	// Bytes is the size of the transcript as read (uncompressed).
	Bytes int64

	pairing *Pairing
	// reread reads an event again from the file (EventAt), when OpenEach
	// read a plain file.
	reread *rereader
}

// Compaction returns the compaction with the given seq, or nil.
func (t *Transcript) Compaction(seq int) *Compaction {
	for _, c := range t.Compactions {
		if c.Seq == seq {
			return c
		}
	}
	return nil
}

// Turns is the number of the last turn in the run (0 for an empty one).
func (t *Transcript) Turns() int {
	for i := len(t.Events) - 1; i >= 0; i-- {
		if turn := t.Events[i].Header().Turn; turn > 0 {
			return turn
		}
	}
	return 0
}

// Previous returns the compaction before c, or nil when c is the first.
func (t *Transcript) Previous(c *Compaction) *Compaction {
	i := slices.Index(t.Compactions, c)
	if i <= 0 {
		return nil
	}
	return t.Compactions[i-1]
}

// SourceEnd returns the end (exclusive) of compaction c's source in Events: its
// source is every non-compaction event of Events[:SourceEnd(c)], that is the
// persisted raw events up to the compaction (never the summaries).
func (t *Transcript) SourceEnd(c *Compaction) int { return c.Index }

// ReplacedSpan returns the bounds [lo, hi) in Events of the raw events between
// the previous compaction and c: what the compactor read besides the previous
// summary.
func (t *Transcript) ReplacedSpan(c *Compaction) (lo, hi int) {
	if p := t.Previous(c); p != nil {
		lo = p.Index + 1
	}
	return lo, c.Index
}

// Source returns compaction c's source: the raw events before it, without the
// earlier compaction events. It allocates; use SourceEnd to walk in place.
func (t *Transcript) Source(c *Compaction) []Event {
	out := make([]Event, 0, c.Index)
	for _, e := range t.Events[:c.Index] {
		if e.Kind() != KindCompaction {
			out = append(out, e)
		}
	}
	return out
}

// IsSource reports whether e belongs in a compaction's source (every event but
// a compaction).
func IsSource(e Event) bool { return e.Kind() != KindCompaction }

// Pairing returns the call/result pairing of the transcript, computed once.
func (t *Transcript) Pairing() *Pairing {
	if t.pairing == nil {
		t.pairing = newPairing(t.Events)
	}
	return t.pairing
}
