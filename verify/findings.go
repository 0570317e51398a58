package verify

// Run-level findings made during the sweep: completion claims (false or
// unsupported) and results that arrive with nowhere to go.

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// claims looks in an assistant message for completion claims of open
// commitments. A claim backed by a call that carried the action out closes
// the item; one without is a false (or unsupported) completion, and the
// item stays open: a claim does not discharge an obligation.
func (l *ledger) claims(m *model.Message) {
	var d *doc
	var items []*tracked
	var results []matchResult
	for _, tr := range l.open {
		if tr.item.Kind != Commitment || !tr.item.Open || tr.item.Event == m.Index {
			continue
		}
		if d == nil {
			d = parseSummary(m.Text)
		}
		items = append(items, tr)
		results = append(results, d.match(tr.atom))
	}
	owner := bestOwners(results, items)
	for i, tr := range items {
		r := results[i]
		if r.found && !owner[i] {
			// The sentence speaks of a sibling that matches it better
			// ("format 2" is claimed, not "format 1").
			r.found = false
		}
		switch {
		case r.found && r.polarity == Done:
			if tr.carried >= 0 {
				// Supported. A plan item still waits for its ledger to say
				// so: the plan is the authority on its own steps.
				if !tr.planned {
					tr.carriedOut = true
					l.close(tr, m, fmt.Sprintf("carried out by %s and claimed at turn %d", l.callRef(tr.carried), m.Turn))
				}
				continue
			}
			if tr.claimed {
				continue
			}
			tr.claimed = true
			l.completionFinding(tr, m, d.text[d.units[r.cand.unit].Start:d.units[r.cand.unit].End])
		case !tr.planned && tr.carried >= 0 && reported(d, tr, r):
			tr.carriedOut = true
			l.close(tr, m, fmt.Sprintf("carried out by %s and reported at turn %d", l.callRef(tr.carried), m.Turn))
		}
	}
}

// bestOwners says, for each match, whether it is the best of the matches
// that landed on the same unit: near-duplicate items ("the staging DB", "the
// prod DB") compete for a sentence, and the one it carries more of wins.
func bestOwners(rs []matchResult, items []*tracked) []bool {
	type key struct {
		unit int
		head string
	}
	own := make([]bool, len(rs))
	best := map[key]float64{}
	for i, r := range rs {
		if k := (key{r.cand.unit, items[i].act.Head}); r.found && r.cand.containment > best[k] {
			best[k] = r.cand.containment
		}
	}
	for i, r := range rs {
		own[i] = !r.found || r.cand.containment >= best[key{r.cand.unit, items[i].act.Head}]
	}
	return own
}

// reported reports whether a message speaks of a carried-out item without
// presenting it as still to do: the action itself ("The pricing service
// now populates the currency field") or its object, not pending or negated.
func reported(d *doc, tr *tracked, r matchResult) bool {
	if r.found {
		return r.polarity == Done || r.polarity == Neutral
	}
	if r.best == nil || !r.best.head {
		return false
	}
	if tr.act.Alt != "" && !d.unitHas(r.best.unit, tr.act.Alt) {
		return false // "go test passes" does not report "add the golden test"
	}
	p, _ := d.polarity(&d.units[r.best.unit], -1, r.best.lo, r.best.hi)
	return p == Done || p == Neutral
}

func (l *ledger) callRef(i int) string {
	if c, ok := l.t.Events[i].(*model.ToolCall); ok {
		return fmt.Sprintf("%s (%s, turn %d)", c.ID, c.Name, c.Turn)
	}
	return fmt.Sprintf("event %d", i)
}

func (l *ledger) completionFinding(tr *tracked, m *model.Message, claim string) {
	f := RunFinding{Kind: UnsupportedCompletion, Turn: m.Turn, Event: m.Index, Item: tr.item.Key, ItemID: tr.item.ID,
		OriginTurn: tr.item.Turn, Text: claim}
	if tr.firstLoss > 0 {
		f.Kind, f.LostAt = FalseCompletion, tr.firstLoss
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out; compaction %d lost it", tr.item.Action, tr.item.Turn, tr.firstLoss)
	} else {
		f.Why = fmt.Sprintf("claims “%s” done, but no tool call since turn %d carried it out", tr.item.Action, tr.item.Turn)
	}
	l.res.Findings = append(l.res.Findings, f)
}

// orphanCheck: a late result (or job completion) for a handle that was open
// at a compaction must find its id in the summary then in force.
func (l *ledger) orphanCheck(h *tracked, r *model.ToolResult) {
	if h.lastSeen == 0 || l.inForce == nil {
		return
	}
	id := h.callID
	if id == "" {
		id = h.jobID
	}
	if _, ok := l.inForce.findVerbatim(id); ok || kept(l.inForceComp, l.t.Events[h.item.Event], id) {
		return
	}
	l.res.Findings = append(l.res.Findings, RunFinding{
		Kind: OrphanedResult, Turn: r.Turn, Event: r.Index, Item: id, ItemID: h.item.ID, LostAt: h.firstLoss,
		OriginTurn: h.item.Turn, Text: model.Clip(firstLine(r.Text.Head()), 200),
		Why: fmt.Sprintf("the result of %s arrived at turn %d, but summary %d in force then does not carry its id", id, r.Turn, l.inForceComp.Seq),
	})
}

func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// kept reports whether the runtime carried an event verbatim into the new
// context (Claude Code's preserved segment, a retained tail).
func kept(c *model.Compaction, e model.Event, id string) bool {
	if c == nil || len(c.Kept) == 0 {
		return false
	}
	ref := e.Header().Ref
	for _, k := range c.Kept {
		if (id != "" && k == id) || (ref != "" && k == ref) {
			return true
		}
	}
	return false
}
