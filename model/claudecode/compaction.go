package claudecode

import (
	"slices"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// The compaction event: a boundary with its summary, a micro-compaction, or
// a summary with no boundary.

func (e *emitter) compaction(b *boundary, v *fastjson.Value) {
	c := &model.Compaction{
		Trigger:      b.trigger,
		Summary:      b.text,
		TokensBefore: b.pre,
		TokensAfter:  e.imp.tokensAfter(b),
	}
	c.Ref, c.TS = e.ref, b.ts
	events := e.b.T.Events
	switch {
	case b.micro:
		// Old tool results were cleared in place; everything else since
		// the last full compaction (and its summary) is still there.
		c.Trigger = "microcompact"
		if b.trigger != "" && b.trigger != "auto" {
			c.Trigger += "/" + b.trigger
		}
		for _, id := range b.compacted {
			e.clearedIDs[id] = true
		}
		cleared := map[string]bool{}
		for _, ev := range events[e.lastFull:] {
			if r, ok := ev.(*model.ToolResult); ok && e.clearedIDs[r.ID] {
				cleared[r.Ref] = true
			}
		}
		var refs []string
		if e.lastFullRef != "" {
			refs = append(refs, e.lastFullRef)
		}
		for _, ev := range events[e.lastFull:] {
			switch ev.Kind() {
			case model.KindRaw, model.KindCompaction:
				continue
			}
			if r := ev.Header().Ref; r != "" && !cleared[r] {
				refs = append(refs, r)
			}
		}
		c.Kept = kit.Kept(events[e.lastFull:], refs)
	case b.lone:
		c.Trigger = "unknown"
	default:
		if refs := e.preserved(b); len(refs) > 0 {
			c.Kept = kit.Kept(events, refs)
		}
	}
	lost := e.lostResults(b)
	e.b.NextTurn()
	e.b.Add(c)
	if len(lost) > 0 {
		e.b.Warn("system", "compaction %d: no result in the file for %s; Claude Code compacts only after calls return, so taken as answered before it", c.Seq, strings.Join(lost, ", "))
	}
	switch {
	case b.lone:
		e.b.Warn("user", "compaction %d: a summary with no compact_boundary; what it summarised is not in this file (an earlier session?)", c.Seq)
	case !b.micro && b.summary < 0:
		e.b.Warn("system", "compaction %d: compact_boundary with no summary line after it", c.Seq)
	}
	if b.fallback != "" {
		e.b.Warn("system", "compaction %d: source taken in file order, because %s", c.Seq, b.fallback)
	}
	if !b.micro {
		e.lastFull = len(e.b.T.Events)
		e.lastFullRef = c.Ref
		clear(e.clearedIDs)
	}
	e.asstMsgID = ""
}

// preserved returns the refs of the lines a partial compaction kept.
func (e *emitter) preserved(b *boundary) []string {
	uuids := b.preserved
	if len(uuids) == 0 && b.segment[0] != "" {
		uuids = e.imp.segment(b.segment[0], b.segment[2])
	}
	out := make([]string, 0, len(uuids))
	for _, u := range uuids {
		if r, ok := e.mergedRef[u]; ok {
			u = r
		}
		out = append(out, u)
	}
	return out
}

// segment lists the uuids from head to tail, walking back from tail.
func (imp *importer) segment(head, tail string) []string {
	var out []string
	i := imp.resolve(tail)
	for steps := 0; i >= 0 && steps < len(imp.recs); steps++ {
		r := &imp.recs[i]
		out = append(out, r.uuid)
		if r.uuid == head {
			slices.Reverse(out)
			return out
		}
		i = imp.resolve(r.parent)
	}
	if head == tail {
		return []string{head}
	}
	return []string{head, tail}
}

// lostText is the text of a result Claude Code did not write (see callOrder).
const lostText = "[no result in the transcript: Claude Code compacted after this call returned and did not write its result to the file; the result was in the context it summarised]"

// lostResults adds, just before compaction b, a result for each call before
// it that no result line answers, and returns their ids.
func (e *emitter) lostResults(b *boundary) []string {
	ids := e.imp.order.lost[int32(b.rec)]
	if len(ids) == 0 {
		return nil
	}
	e.b.NextTurn()
	for _, id := range ids {
		r := &model.ToolResult{ID: id, IsError: e.imp.order.failedHook[id], Text: model.NewText(lostText)}
		r.TS = b.ts
		if len(ids) == 1 {
			// The boundary's logical parent is the line that was lost.
			r.Ref = b.lparent
		}
		e.b.Add(r)
	}
	return ids
}
