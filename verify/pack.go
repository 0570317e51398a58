package verify

// Packed items (issue 20). A run that keeps errors open lists every one of
// them at every compaction: a 1 GB run has a few hundred compactions and
// thousands of open items, so close to a million item results, and at 120
// bytes each (plus a why, an evidence and its text) they were most of the
// memory a report held until it was written. Nearly all of them say what
// the entry before them said. A packed compaction keeps each result as two
// numbers, its item's and its record's, in tables the run's compactions
// share. A record is the rest of the result (status, score, why, cue,
// evidence...) in a few bytes, its strings numbers in the same table: an
// item that fares the same at the next compaction has the same record,
// kept once. ItemResults gives back exactly the results packed.

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// Packer holds the items, strings and records of one run's packed
// compactions. One Packer serves every compaction of a run (they repeat
// from one to the next); it is not safe for concurrent use.
type Packer struct {
	index map[string]uint32
	strs  []string // strings and records, by number
	// items are the items packed, by number.
	items  []*Item
	itemNo map[*Item]uint32
	// allowed is the consumers' results of a compaction that every
	// consumer may have, shared by every such compaction (shareAllowed).
	allowed []ConsumerResult
}

// shareAllowed returns the table's copy of cs when every consumer in it is
// allowed with nothing to say: nearly every compaction of a long run that
// keeps its items says just that, and need not hold a list of its own.
func (p *Packer) shareAllowed(cs []ConsumerResult) []ConsumerResult {
	for _, c := range cs {
		if !c.Allowed || len(c.Why) > 0 {
			return cs
		}
	}
	if !slices.EqualFunc(cs, p.allowed, sameAllowed) {
		if p.allowed != nil || len(cs) == 0 {
			return cs // another list of consumers (a run has one): kept as is
		}
		p.allowed = cs
	}
	return p.allowed
}

func sameAllowed(a, b ConsumerResult) bool {
	return a.Name == b.Name && a.Allowed == b.Allowed && len(a.Why) == 0 && len(b.Why) == 0 && slices.Equal(a.Requires, b.Requires)
}

// NewPacker returns an empty table.
func NewPacker() *Packer {
	return &Packer{index: map[string]uint32{"": 0}, strs: []string{""}, itemNo: map[*Item]uint32{}}
}

// num is s's number in the table, adding it when new.
func (p *Packer) num(s string) uint32 {
	if n, ok := p.index[s]; ok {
		return n
	}
	n := uint32(len(p.strs))
	p.index[s] = n
	p.strs = append(p.strs, s)
	return n
}

// intern returns the table's copy of s: the same reason or why written at
// every compaction is then one string, not one per compaction.
func (p *Packer) intern(s string) string { return p.strs[p.num(s)] }

// item is it's number in the table, adding it when new.
func (p *Packer) item(it *Item) uint32 {
	if n, ok := p.itemNo[it]; ok {
		return n
	}
	n := uint32(len(p.items))
	p.itemNo[it] = n
	p.items = append(p.items, it)
	return n
}

// packedItems is a compaction's items as PackItems keeps them.
type packedItems struct {
	p    *Packer
	n    int
	data []byte // per item, in order: its number, then its record's
}

// The flags of a record.
const (
	packReview = 1 << iota
	packCrossLanguage
	packEvidence
)

// PackItems keeps the compaction's item results in a compact form and
// sets Items to nil (ItemResults gives them back, ItemCount counts them);
// the reasons and the consumers' whys become p's copies. A caller that
// holds every compaction of a long run until it writes the report packs
// each one as it is checked (Options.Packer): memory then grows with the
// items and what changes of them, not with items × compactions. Packing
// twice does nothing.
func (c *CompactionResult) PackItems(p *Packer) {
	for i, r := range c.Reasons {
		c.Reasons[i] = p.intern(r)
	}
	for i := range c.Consumers {
		for j, w := range c.Consumers[i].Why {
			c.Consumers[i].Why[j] = p.intern(w)
		}
	}
	c.Consumers = p.shareAllowed(c.Consumers)
	// A heading is a piece of its summary: interned, the summary's text
	// is not held to the end of the run for the sake of a few words.
	for i := range c.Sections {
		c.Sections[i].Heading = p.intern(c.Sections[i].Heading)
	}
	if c.packed != nil || c.Items == nil {
		return
	}
	var buf, rec []byte
	for i := range c.Items {
		ir := &c.Items[i]
		rec = ir.record(p, rec[:0])
		buf = binary.AppendUvarint(buf, uint64(p.item(ir.Item)))
		buf = binary.AppendUvarint(buf, uint64(p.num(string(rec))))
	}
	c.packed = &packedItems{p: p, n: len(c.Items), data: append([]byte(nil), buf...)}
	c.Items = nil
}

// record appends what the result says of its item, its strings as their
// numbers in p.
func (ir *ItemResult) record(p *Packer, buf []byte) []byte {
	var flags byte
	if ir.Review {
		flags |= packReview
	}
	if ir.CrossLanguage {
		flags |= packCrossLanguage
	}
	if ir.Evidence != nil {
		flags |= packEvidence
	}
	buf = append(buf, flags)
	buf = binary.AppendUvarint(buf, uint64(p.num(string(ir.Status))))
	// A score's bits reversed: 0, 1 and 0.5 take a byte or two.
	buf = binary.AppendUvarint(buf, bits.ReverseBytes64(math.Float64bits(ir.Score)))
	buf = binary.AppendUvarint(buf, uint64(p.num(string(ir.SelfReport))))
	buf = binary.AppendUvarint(buf, uint64(p.num(ir.Why)))
	buf = binary.AppendUvarint(buf, uint64(p.num(string(ir.Basis))))
	buf = binary.AppendUvarint(buf, uint64(p.num(ir.Cue)))
	if e := ir.Evidence; e != nil {
		buf = binary.AppendVarint(buf, int64(e.Start))
		buf = binary.AppendVarint(buf, int64(e.End))
		buf = binary.AppendUvarint(buf, uint64(p.num(e.Text)))
		buf = binary.AppendUvarint(buf, uint64(p.num(e.Section)))
		buf = binary.AppendUvarint(buf, uint64(p.num(string(e.Polarity))))
	}
	return buf
}

// ItemResults returns the compaction's item results: Items, or, once
// packed, the results PackItems kept (a new slice at each call).
func (c *CompactionResult) ItemResults() []ItemResult {
	if c.packed == nil {
		return c.Items
	}
	pk := c.packed
	out := make([]ItemResult, pk.n)
	d := pk.data
	for i := range out {
		it, n := binary.Uvarint(d)
		rec, m := binary.Uvarint(d[n:])
		d = d[n+m:]
		out[i].Item = pk.p.items[it]
		out[i].unrecord(pk.p, pk.p.strs[rec])
	}
	return out
}

// unrecord sets the result but its item from a record (record).
func (ir *ItemResult) unrecord(p *Packer, b string) {
	uv := func() uint64 {
		var v uint64
		for s := 0; ; s += 7 {
			c := b[0]
			b = b[1:]
			v |= uint64(c&0x7f) << s
			if c < 0x80 {
				return v
			}
		}
	}
	str := func() string { return p.strs[uv()] }
	sv := func() int {
		u := uv()
		v := int64(u >> 1) // zig-zag, as binary.AppendVarint writes it
		if u&1 != 0 {
			v = ^v
		}
		return int(v)
	}
	flags := b[0]
	b = b[1:]
	ir.Review, ir.CrossLanguage = flags&packReview != 0, flags&packCrossLanguage != 0
	ir.Status = Status(str())
	ir.Score = math.Float64frombits(bits.ReverseBytes64(uv()))
	ir.SelfReport = Finding(str())
	ir.Why = str()
	ir.Basis = Basis(str())
	ir.Cue = str()
	if flags&packEvidence != 0 {
		e := &Evidence{}
		e.Start = sv()
		e.End = sv()
		e.Text, e.Section, e.Polarity = str(), str(), Polarity(str())
		ir.Evidence = e
	}
}

// ItemCount is the number of the compaction's item results, packed or not.
func (c *CompactionResult) ItemCount() int {
	if c.packed != nil {
		return c.packed.n
	}
	return len(c.Items)
}

// stepRun is a run of an item's lineage steps: the compactions at, at+1,
// … at+n-1 of the run (places in Result.Compactions) gave it one status.
type stepRun struct {
	at, n  int32
	status Status
	review bool
}

// addStep adds the item's step at the run's compaction number at.
func addStep(runs []stepRun, at int, status Status, review bool) []stepRun {
	if k := len(runs) - 1; k >= 0 {
		if r := &runs[k]; int(r.at+r.n) == at && r.status == status && r.review == review {
			r.n++
			return runs
		}
	}
	return append(runs, stepRun{at: int32(at), n: 1, status: status, review: review})
}

// expandSteps makes the steps runs stand for, each with its compaction's
// seq; nil for none.
func expandSteps(runs []stepRun, comps []*CompactionResult) []LineageStep {
	if len(runs) == 0 {
		return nil
	}
	n := 0
	for _, r := range runs {
		n += int(r.n)
	}
	out := make([]LineageStep, 0, n)
	for _, r := range runs {
		for i := r.at; i < r.at+r.n; i++ {
			out = append(out, LineageStep{Seq: comps[i].Seq, Status: r.status, Review: r.review})
		}
	}
	return out
}
