package hook

import (
	"bytes"
	"errors"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// Rolling the snapshot forward. A snapshot's minimal source reproduces the
// preservation set where it was taken; that set and the lines appended
// since give the set at the end of the file, which the check of a summary
// against both relies on already (fromSnapshot). So a pre-compaction hook
// that finds a snapshot it can trust reads only the lines appended since
// it, and saves the new snapshot with the offset it read to: a session is
// read whole once, when loupe first takes a snapshot of it, or when the
// snapshot is missing, damaged or cannot reproduce its set. What a rolled
// snapshot no longer holds are the items that closed before the earlier
// one and are not finished plan steps: a later summary that presents one
// of them as open is not told (the same limit as checking a summary from
// a snapshot).

// maxRollTail is the most of the transcript a roll reads; past it, the
// transcript is read whole (as slow as a roll of it, and surer).
const maxRollTail = 64 << 20

// roll takes the snapshot from the previous one and the complete lines
// appended since. It returns (nil, nil) when it cannot (nothing appended,
// too much appended, a line cut short, a source it cannot reproduce): the
// caller reads the transcript whole.
func (c *call) roll(st *Session, tr transcript, size int64) (*preservation, error) {
	s := st.Snapshot
	if s == nil || !s.Fast || tr.marker == "" || size <= s.Size || size-s.Size > maxRollTail {
		return nil, nil
	}
	end, err := tr.completeLines(size)
	if err != nil || end <= s.Size {
		return nil, err
	}
	b, err := tr.tailBytes(s.Size)
	if errors.Is(err, errNoTail) || errors.Is(err, errTailTooLarge) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b = b[:min(int64(len(b)), end-s.Size)]
	base, err := readMinimalTranscript(s.File, s.Sum)
	if err != nil {
		return nil, err
	}
	answered, err := readChecked(s.File+".calls", s.CallsSum)
	if err != nil {
		return nil, err
	}
	tail, err := tr.importTail(c.req.spool, b, s.LastTurn)
	if err != nil {
		return nil, err
	}
	added := source(tail, len(tail.Events))
	events := append(base.Events[:len(base.Events):len(base.Events)], newInTail(base.Events, answered, added)...)
	lastTurn := s.LastTurn
	for _, e := range tail.Events {
		lastTurn = max(lastTurn, e.Header().Turn)
	}
	stand := &model.Compaction{Seq: s.Compactions + len(tail.Compactions) + 1, Trigger: "snapshot", Summary: snapshotSummary}
	stand.Turn = lastTurn + 1
	consumers := base.Meta.Consumers
	cr := restrict(verify.Check(events, stand, c.opts(consumers)), allowed(s, len(base.Events)))
	p := &preservation{cr: cr, events: events}
	minimal, closed, fast := minimalSource(p, consumers)
	if !fast {
		return nil, nil
	}
	mod := s.ModTime
	if _, m, err := tr.stat(); err == nil {
		mod = m
	}
	keys := openKeys(cr)
	next := &Snapshot{Taken: c.now.UTC(), Trigger: c.in.Trigger, Size: end, ModTime: mod,
		Compactions: stand.Seq - 1, LastTurn: lastTurn, Open: len(keys), Keys: keys,
		Fast: true, Closed: closed, File: s.File, Rolled: s.Rolled + 1}
	if next.Sum, err = writeMinimal(next.File, base.Meta, minimal); err != nil {
		return nil, err
	}
	calls := append(bytes.Clone(answered), answeredCalls(added)...)
	next.CallsSum = checksum(calls)
	if err := writeAtomic(next.File+".calls", calls); err != nil {
		return nil, err
	}
	st.Snapshot = next
	st.ScannedTo = end
	return p, nil
}
