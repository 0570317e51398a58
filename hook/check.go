package hook

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// snapshot takes the snapshot before a compaction and saves it with the
// session's state. It returns the preservation set, for the runtimes that
// hand the summarizer what must survive. An unchanged transcript keeps the
// snapshot it has (Gemini CLI fires PreCompress on every turn that only
// considers compressing), and with reuse, so does one that only grew a
// little.
func (c *call) snapshot(st *Session, tr transcript) (*preservation, error) {
	size, mod, err := tr.stat()
	if err != nil {
		return nil, err
	}
	if s := st.Snapshot; s != nil && !s.Used && s.Fast && (s.Size == size && s.ModTime.Equal(mod) || c.reuse && size >= s.Size && size-s.Size < reuseGrowth(s.Size)) {
		return nil, nil
	}
	switch p, err := c.roll(st, tr, size); {
	case p != nil:
		return p, nil
	case errors.Is(err, errDamaged):
		c.snapshotDamaged(st, err)
	case err != nil:
		c.req.Store.Logf(c.now, "%s %s: the snapshot of session %s could not be rolled forward (%v); the transcript is read whole",
			c.req.Runtime, c.req.Event, st.Session, err)
	}
	offset, err := tr.completeLines(size)
	if err != nil {
		return nil, err
	}
	t, err := tr.open()
	if err != nil {
		return nil, err
	}
	p := preserve(t, c.req.Decide)
	snap := &Snapshot{Taken: c.now.UTC(), Trigger: c.in.Trigger, Size: offset, ModTime: mod,
		Compactions: len(t.Compactions), LastTurn: t.Turns(), Open: len(openKeys(p.cr)), Keys: openKeys(p.cr)}
	if tr.marker == "" {
		// Not an appended file: it is read whole after the compaction.
		st.Snapshot = snap
		st.ScannedTo = offset
		return p, nil
	}
	events, closed, fast := minimalSource(p, t.Meta.Consumers)
	if fast {
		snap.Fast, snap.Closed = true, closed
		snap.File = c.req.Store.snapshotPath(st.Runtime, st.Session)
		if snap.Sum, err = writeMinimal(snap.File, t.Meta, events); err != nil {
			return nil, err
		}
		calls := answeredCalls(p.events)
		snap.CallsSum = checksum(calls)
		if err := writeAtomic(snap.File+".calls", calls); err != nil {
			return nil, err
		}
	} else {
		c.req.Store.Logf(c.now, "%s %s: the minimal source of %s does not reproduce its preservation set; the transcript will be read whole after the compaction",
			c.req.Runtime, c.req.Event, tr.path)
	}
	st.Snapshot = snap
	st.ScannedTo = offset
	return p, nil
}

// reuseGrowth is how much a transcript may grow before a snapshot that is
// reused (see call.reuse) is taken again: the lines since the snapshot are
// read with the summary anyway, so an older snapshot only costs reading
// more of them.
func reuseGrowth(size int64) int64 { return max(4<<20, size/4) }

// verified is the check of one compaction, ready to record.
type verified struct {
	cr     *verify.CompactionResult
	events []model.Event // what cr's Item.Event indexes
	via    string
}

// newest verifies the compaction the transcript gained since the snapshot,
// or since loupe last looked; nil when there is none. explicit says the
// runtime reported a compaction just now (a compaction hook fired);
// otherwise (after every tool call) the transcript is read whole only when
// its new part holds a compaction line.
func (c *call) newest(st *Session, tr transcript, explicit bool) (*verified, error) {
	if s := st.Snapshot; s != nil && !s.Used && s.Fast {
		v, err := c.fromSnapshot(st, tr)
		if errors.Is(err, errDamaged) {
			c.snapshotDamaged(st, err)
		} else if !errors.Is(err, errNoTail) {
			return v, err
		}
	}
	// A state rebuilt after damage knows nothing of the compactions before:
	// a recent one in the transcript is verified from the transcript.
	explicit = explicit || st.Rebuilt
	size, _, err := tr.stat()
	if err != nil {
		return nil, err
	}
	scanned := st.ScannedTo
	st.ScannedTo = size
	if !explicit {
		if scanned == 0 && st.Snapshot == nil && len(st.Compactions) == 0 {
			return nil, nil // first sight of the session: what came before is not loupe's to put back
		}
		b, err := tr.tailBytes(min(scanned, size))
		if errors.Is(err, errNoTail) {
			return nil, nil
		}
		if errors.Is(err, errTailTooLarge) {
			b, err = []byte(tr.marker), nil // too much to search: read whole
		}
		if err != nil || !bytes.Contains(b, []byte(tr.marker)) {
			return nil, err
		}
		c.rescanned = true // read whole: remember that this part was searched
	}
	return c.fromTranscript(st, tr, explicit)
}

// fromSnapshot checks the newest compaction against the minimal source and
// the lines appended since the snapshot.
func (c *call) fromSnapshot(st *Session, tr transcript) (*verified, error) {
	s := st.Snapshot
	b, err := tr.tailBytes(s.Size)
	if errors.Is(err, errTailTooLarge) {
		return nil, errNoTail // read whole instead
	}
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(b, []byte(tr.marker)) {
		return nil, nil
	}
	tail, err := tr.importTail(c.req.spool, b, s.LastTurn)
	if err != nil {
		return nil, err
	}
	if len(tail.Compactions) == 0 {
		return nil, nil
	}
	base, err := readMinimal(s.File, s.Sum)
	if err != nil {
		return nil, err
	}
	last := tail.Compactions[len(tail.Compactions)-1]
	cc := *last
	cc.Seq = s.Compactions + len(tail.Compactions)
	if cc.Summary == "" && !cc.Opaque && c.in.CompactSummary != "" {
		return nil, nil // the summary line is not written yet: the payload has it
	}
	answered, err := readChecked(s.File+".calls", s.CallsSum)
	if err != nil {
		return nil, err
	}
	events := append(slices.Clip(base), newInTail(base, answered, source(tail, last.Index))...)
	cr := verify.Check(events, &cc, c.opts(nil))
	keep := allowed(s, len(base))
	cr = restrict(cr, keep)
	s.Used = true
	st.ScannedTo = s.Size + int64(len(b))
	return &verified{cr: cr, events: events, via: "snapshot"}, nil
}

// snapshotDamaged drops the fast path of a snapshot whose files are not
// the ones written (cut short, changed): the compaction is verified from
// the transcript, read whole, and never from the damaged snapshot.
func (c *call) snapshotDamaged(st *Session, err error) {
	c.req.Store.Logf(c.now, "%s %s: the snapshot of session %s is %v; the transcript is read whole instead",
		c.req.Runtime, c.req.Event, st.Session, err)
	st.Snapshot.Fast = false
}

// answeredCalls lists the calls a source has a result for, one id a line.
func answeredCalls(events []model.Event) []byte {
	var b bytes.Buffer
	for _, e := range events {
		if r, ok := e.(*model.ToolResult); ok && r.Job == nil {
			b.WriteString(r.ID)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// newInTail drops from the tail's events the calls and results the
// snapshot already had: a runtime that writes a record again (Gemini CLI
// rewrites a message when its tool call finishes) repeats them in the new
// lines, and a call seen twice would stay open forever.
func newInTail(base []model.Event, answered []byte, tail []model.Event) []model.Event {
	done := map[string]bool{}
	for _, id := range strings.Split(string(answered), "\n") {
		done[id] = true
	}
	called := map[string]bool{}
	for _, e := range base {
		if c, ok := e.(*model.ToolCall); ok {
			called[c.ID] = true
		}
	}
	out := tail[:0:0]
	for _, e := range tail {
		switch ev := e.(type) {
		case *model.ToolCall:
			if done[ev.ID] || called[ev.ID] {
				continue
			}
		case *model.ToolResult:
			if done[ev.ID] && ev.Job == nil {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// fromPayload checks the summary a hook was handed (Claude Code's
// PostCompact compact_summary) before the transcript has it.
func (c *call) fromPayload(st *Session, tr transcript, summary string) (*verified, error) {
	if s := st.Snapshot; s != nil && !s.Used && s.Fast {
		base, err := readMinimal(s.File, s.Sum)
		if errors.Is(err, errDamaged) {
			c.snapshotDamaged(st, err)
			return c.fromPayload(st, tr, summary)
		}
		if err != nil {
			return nil, err
		}
		cc := &model.Compaction{Seq: s.Compactions + 1, Trigger: c.in.Trigger, Summary: summary}
		cc.Turn = s.LastTurn + 1
		cr := restrict(verify.Check(base, cc, c.opts(nil)), allowed(s, len(base)))
		s.Used = true
		return &verified{cr: cr, events: base, via: "payload"}, nil
	}
	t, err := tr.open()
	if err != nil {
		return nil, err
	}
	cc := &model.Compaction{Seq: len(t.Compactions) + 1, Trigger: c.in.Trigger, Summary: summary}
	cc.Turn = t.Turns() + 1
	src := source(t, len(t.Events))
	if st.Snapshot != nil {
		st.Snapshot.Used = true
	}
	return &verified{cr: verify.Check(src, cc, c.opts(t.Meta.Consumers)), events: src, via: "payload"}, nil
}

// recentCompaction is how old the newest compaction of a transcript read
// whole, with no snapshot, may be for loupe to take it as the one the
// runtime just reported.
const recentCompaction = 15 * time.Minute

// fromTranscript reads the transcript whole and checks its newest
// compaction when loupe has not verified it yet.
func (c *call) fromTranscript(st *Session, tr transcript, explicit bool) (*verified, error) {
	t, err := tr.open()
	if err != nil {
		return nil, err
	}
	if len(t.Compactions) == 0 {
		return nil, nil
	}
	last := t.Compactions[len(t.Compactions)-1]
	if last.Seq <= st.lastSeq() {
		return nil, nil
	}
	if s := st.Snapshot; s != nil && last.Seq <= s.Compactions {
		return nil, nil // the compaction the snapshot was taken for is not in the file yet
	}
	if st.Snapshot == nil && explicit && !recent(last, c.now) {
		return nil, nil
	}
	if last.Summary == "" && !last.Opaque && c.in.CompactSummary != "" {
		return nil, nil
	}
	src := source(t, last.Index)
	cr := verify.Check(src, last, c.opts(t.Meta.Consumers))
	if st.Snapshot != nil {
		st.Snapshot.Used = true
	}
	return &verified{cr: cr, events: src, via: "transcript"}, nil
}

func recent(cc *model.Compaction, now time.Time) bool {
	ts, err := time.Parse(time.RFC3339, cc.TS)
	return err == nil && now.Sub(ts) < recentCompaction && now.Sub(ts) > -recentCompaction
}

// allowed is the set of items a check on the minimal source may report:
// the snapshot's open items, the finished steps it carries, and anything
// that comes from the lines appended after it (index n on).
func allowed(s *Snapshot, n int) func(it *verify.Item) bool {
	open := map[string]bool{}
	for _, k := range s.Keys {
		open[k] = true
	}
	closed := map[string]bool{}
	for _, k := range s.Closed {
		closed[k] = true
	}
	return func(it *verify.Item) bool {
		if it.Event >= n {
			return true
		}
		if it.Open {
			return open[itemKey(it)]
		}
		return open[itemKey(it)] || closed[string(it.Kind)+"\x00"+strings.TrimPrefix(it.Origin, "plan ")] || closed[itemKey(it)]
	}
}

// restrict keeps the items keep allows and decides the verdict again on
// them: the minimal source may hold items the transcript had closed (a
// message carrying a promise kept for another one).
func restrict(cr *verify.CompactionResult, keep func(*verify.Item) bool) *verify.CompactionResult {
	out := *cr
	out.Items = nil
	violate := cr.Unverifiable
	for _, ir := range cr.Items {
		if !keep(ir.Item) {
			continue
		}
		out.Items = append(out.Items, ir)
		if ir.Counts() { // a review item (only inferred) is no reason
			violate = true
		}
	}
	out.Verdict = verify.Degrade
	if violate {
		out.Verdict = verify.Violate
	}
	if len(out.Items) != len(cr.Items) {
		out.Reasons = []string{fmt.Sprintf("%d item(s) of the summary's source were not kept", owedCount(out.Items))}
	}
	return &out
}

func owedCount(items []verify.ItemResult) int {
	n := 0
	for _, ir := range items {
		if ir.Counts() {
			n++
		}
	}
	return n
}

// record turns a check into the session's record of the compaction.
func (c *call) record(v *verified, transcriptPath string) Record {
	rh := verify.Rehydrate(v.cr, v.events, verify.RehydrateOptions{MaxChars: c.maxChars(), Transcript: transcriptPath})
	r := Record{Seq: v.cr.Seq, Turn: v.cr.Turn, Verdict: string(v.cr.Verdict), Owed: len(rh.Items) + len(rh.Omitted),
		Block: rh.Text, Via: v.via, VerifiedAt: c.now.UTC(), VerifiedBy: c.req.Event, State: stateNothing}
	for _, o := range rh.Items {
		r.Lines = append(r.Lines, o.Line)
	}
	if rh.Text != "" {
		r.State = statePending
	}
	return r
}
