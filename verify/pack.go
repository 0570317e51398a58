package verify

// Packed items (issue 20). A run that keeps errors open lists every one of
// them at every compaction: a 1 GB run has a few hundred compactions and
// thousands of open items, so close to a million item results, and at 120
// bytes each (plus a why, an evidence and its text) they were most of the
// memory a report held until it was written. Nearly all of them say what
// the entry before them said. A packed compaction keeps each result as
// its *Item (shared with the ledger and the other compactions) and a few
// bytes: the strings it names (status, why, cue, evidence text...) are
// numbers in a table the run's compactions share, where each distinct
// string is kept once. ItemResults gives back exactly the results packed.

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Packer holds the strings of one run's packed compactions. One Packer
// serves every compaction of a run (its strings repeat from one to the
// next); it is not safe for concurrent use.
type Packer struct {
	index map[string]uint32
	strs  []string
}

// NewPacker returns an empty table.
func NewPacker() *Packer {
	return &Packer{index: map[string]uint32{"": 0}, strs: []string{""}}
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

// packedItems is a compaction's items as PackItems keeps them.
type packedItems struct {
	p     *Packer
	items []*Item
	data  []byte // per item, in order: see PackItems
}

// The flags of a packed result.
const (
	packReview = 1 << iota
	packCrossLanguage
	packEvidence
)

// PackItems keeps the compaction's item results in a compact form and
// sets Items to nil (ItemResults gives them back, ItemCount counts them);
// the reasons and the consumers' whys become p's copies. A caller that
// holds every compaction of a long run until it writes the report packs
// each one as it is handed out (NewStream's each): memory then grows with
// the items, not with items × compactions. Packing twice does nothing.
func (c *CompactionResult) PackItems(p *Packer) {
	for i, r := range c.Reasons {
		c.Reasons[i] = p.intern(r)
	}
	for i := range c.Consumers {
		for j, w := range c.Consumers[i].Why {
			c.Consumers[i].Why[j] = p.intern(w)
		}
	}
	if c.packed != nil || c.Items == nil {
		return
	}
	pk := &packedItems{p: p, items: make([]*Item, len(c.Items))}
	var buf []byte
	for i := range c.Items {
		ir := &c.Items[i]
		pk.items[i] = ir.Item
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
	}
	pk.data = append([]byte(nil), buf...) // exactly its size
	c.packed, c.Items = pk, nil
}

// ItemResults returns the compaction's item results: Items, or, once
// packed, the results PackItems kept (a new slice at each call).
func (c *CompactionResult) ItemResults() []ItemResult {
	if c.packed == nil {
		return c.Items
	}
	pk := c.packed
	out := make([]ItemResult, len(pk.items))
	b := pk.data
	uv := func() uint64 {
		v, n := binary.Uvarint(b)
		b = b[n:]
		return v
	}
	sv := func() int {
		v, n := binary.Varint(b)
		b = b[n:]
		return int(v)
	}
	str := func() string { return pk.p.strs[uv()] }
	for i, it := range pk.items {
		flags := b[0]
		b = b[1:]
		ir := &out[i]
		ir.Item = it
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
	return out
}

// ItemCount is the number of the compaction's item results, packed or not.
func (c *CompactionResult) ItemCount() int {
	if c.packed != nil {
		return len(c.packed.items)
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
