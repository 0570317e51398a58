package verify

// Answered calls. A long run makes millions of tool calls, nearly all
// answered before the next compaction: their handles are never part of a
// preservation set, and only a summary or a self-report that names one
// (a resurrection, a stale claim) needs its item again. So a handle closed
// by its result before any compaction checked it keeps only its call's id
// and place (event index, turn, byte offset), where its result closed it,
// its place in the order items were made and a hash of its wording;
// materialize rebuilds the same *pending when one is named (the call event
// is asked of the transcript again, which keeps it or reads it again from
// its file, and parsed again: parseCall is a pure function of the event),
// and from then on it is an item like any other. A transcript that can do
// neither (standard input, a compressed file, an importer's records) has
// its answered calls kept by the tracker instead.

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
)

// answered is a demoted handle: a quarter of the call event it stands for,
// for the millions of calls a long run answers. Even the call's id is not
// kept: answeredBy finds a handle by a hash of it, and the call read again
// confirms it (answeredOf).
type answered struct {
	off int64 // the byte offset of the call's line
	// the call's turn and event index, and those of the result that
	// closed it
	turn, event             int32
	closedTurn, closedEvent int32
	born                    int32  // entry.born of the item it was
	textFold                uint32 // foldHash of its item's trimmed Text (resolveClaim)
	idFold                  uint32 // foldHash of the call's id
	rebuilt                 bool   // materialized: the call is the item's now
}

// idKey is what answeredBy files a call id under.
func (h *handleTracker) idKey(id string) uint64 { return maphash.String(h.seed, id) }

// answeredOf returns the live demoted handle of call id.
func (h *handleTracker) answeredOf(id string) (int32, bool) {
	j, ok := h.answeredBy[h.idKey(id)]
	if !ok || h.answeredCall(j).ID != id {
		return 0, false // none, or another id of the same hash
	}
	return j, true
}

// answeredCall is the call event demoted handle j came from. One that
// cannot be had again is a bug (or a file changed while it is read): the
// sweep reports it on the event in hand and goes on.
func (h *handleTracker) answeredCall(j int32) *model.ToolCall {
	if c, ok := h.answeredKept[j]; ok {
		return c
	}
	a := h.answered.at(j)
	e, err := h.l.source.EventAt(int(a.event), a.off)
	c, ok := e.(*model.ToolCall)
	if err != nil || !ok || foldHash(c.ID) != a.idFold {
		panic(fmt.Sprintf("the call of event %d cannot be had again: %v", a.event, err))
	}
	if c.Turn != int(a.turn) || c.Index != int(a.event) {
		// Read again from its line alone: its place is the first reading's.
		cc := *c
		cc.Turn, cc.Index = int(a.turn), int(a.event)
		c = &cc
	}
	return c
}

// answeredList holds the demoted handles in chunks: a run answers millions
// of calls, and a slice grown by doubling would hold up to twice their
// size, and both copies while it grows.
type answeredList struct {
	chunks [][]answered
	n      int
}

const answeredChunk = 4096

func (al *answeredList) add(a answered) int32 {
	if al.n%answeredChunk == 0 {
		al.chunks = append(al.chunks, make([]answered, 0, answeredChunk))
	}
	c := &al.chunks[len(al.chunks)-1]
	*c = append(*c, a)
	al.n++
	return int32(al.n - 1)
}

func (al *answeredList) at(j int32) *answered {
	return &al.chunks[j/answeredChunk][j%answeredChunk]
}

// demotable: a call's handle, closed by its result, that no compaction has
// checked, and that nothing has been attached to since it was made.
func (p *pending) demotable() bool {
	// Only a result closes a call's handle (handleTracker.result).
	return p.callID != "" && p.call != nil && p.lastSeen == 0 && len(p.steps) == 0 &&
		len(p.aliases) == 0 && p.idents == nil && !p.identsDone
}

// demote replaces p by its indexes.
func (h *handleTracker) demote(p *pending) {
	l := h.l
	c := p.call
	j := h.answered.add(answered{
		off: c.Offset, turn: int32(c.Turn), event: int32(c.Index),
		closedTurn: int32(p.item.ClosedTurn), closedEvent: int32(p.item.ClosedEvent), born: int32(p.born),
		textFold: foldHash(strings.TrimSpace(p.item.Text)), idFold: foldHash(c.ID),
	})
	if l.source == nil {
		h.answeredKept[j] = c
	}
	h.answeredBy[h.idKey(p.callID)] = j
	if h.byCall[p.callID] == p {
		delete(h.byCall, p.callID)
	}
	delete(l.byItem, p.item)
	// l.all drops it at the next pruneOpen.
	p.demoted = true
	if l.demotedLow < 0 || p.born < l.demotedLow {
		l.demotedLow = p.born
	}
}

// textOf is the wording of a demoted handle's item.
func (h *handleTracker) textOf(j int32) string {
	c := h.answeredCall(j)
	return h.newPending(c, parseCall(c)).item.Text
}

// materialize rebuilds the demoted handle j as the *pending it was, closed
// as it was, filed among the closed handles and the ledger's items. It
// returns nil when j was rebuilt before.
func (h *handleTracker) materialize(j int32) *pending {
	a := h.answered.at(j)
	if a.rebuilt {
		return nil
	}
	l := h.l
	c := h.answeredCall(j)
	p := h.newPending(c, parseCall(c))
	p.originRef = c.Ref
	it := p.item
	it.Open, it.ClosedTurn, it.ClosedEvent, it.ClosedBy = false, int(a.closedTurn), int(a.closedEvent), arrivedAt(int(a.closedTurn))
	p.born = int(a.born)
	*a = answered{born: a.born, rebuilt: true}
	delete(h.answeredKept, j)
	if k, ok := h.answeredBy[h.idKey(p.callID)]; ok && k == j {
		delete(h.answeredBy, h.idKey(p.callID))
		ps := h.closed[p.callID]
		h.closed[p.callID] = append(ps, p)
	}
	l.all = append(l.all, p)
	l.byItem[it] = p
	l.allUnsorted = true
	return p
}

// claimedAnswered returns the first demoted handle, in the order items were
// made, that resolveClaim's exact pass would take for claim c (its key, its
// call id or its wording), rebuilt; nil for none. before bounds the search:
// only handles made before it count (-1 for no bound).
func (h *handleTracker) claimedAnswered(c string, before int) *pending {
	fold := foldHash(c)
	for j := range int32(h.answered.n) {
		a := h.answered.at(j)
		if a.rebuilt {
			continue
		}
		if before >= 0 && int(a.born) >= before {
			break
		}
		// The hashes pick the few candidates; the call read again decides.
		hit := c == "" || a.idFold == fold && strings.EqualFold(h.answeredCall(j).ID, c)
		if !hit {
			hit = a.textFold == fold && strings.EqualFold(strings.TrimSpace(h.textOf(int32(j))), c)
		}
		if hit {
			return h.materialize(int32(j))
		}
	}
	return nil
}

// foldHash hashes s so that strings.EqualFold strings hash alike: each rune
// stands for the least rune of its case-folding orbit (FNV-1a).
func foldHash(s string) uint32 {
	h := uint32(2166136261)
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
		default:
			least := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				least = min(least, f)
			}
			r = least
		}
		for i := 0; i < 4; i++ {
			h ^= uint32(byte(r >> (8 * i)))
			h *= 16777619
		}
	}
	return h
}

// items returns every item the ledger made and keeps, in the order it made
// them (demoted handles rebuilt since are put back in their place).
func (l *ledger) items() []tracked {
	l.dropDemoted()
	return l.all
}

// dropDemoted takes the demoted handles out of l.all and puts the rebuilt
// ones in their place. Handles are demoted soon after they are made, so
// only the end of the list is walked.
func (l *ledger) dropDemoted() {
	if l.allUnsorted {
		slices.SortFunc(l.all, func(a, b tracked) int { return a.base().born - b.base().born })
		l.allUnsorted = false
	}
	if l.demotedLow < 0 {
		return
	}
	from, _ := slices.BinarySearchFunc(l.all, l.demotedLow, func(tr tracked, born int) int { return tr.base().born - born })
	out := l.all[:from]
	for _, tr := range l.all[from:] {
		if p, ok := tr.(*pending); ok && p.demoted {
			continue
		}
		out = append(out, tr)
	}
	clear(l.all[len(out):])
	l.all = out
	l.demotedLow = -1
}
