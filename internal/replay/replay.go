// Package replay writes a loupe transcript as the session file of an agent
// runtime, so that the live gate's tests can replay a run (the built-in
// migration run above all) as the runtime would write it, line by line, and
// call `loupe hook` between the lines as the runtime would.
//
// The files are what the importers in model/ read back: each loupe event
// becomes one record, so the turns the importer gives are the run's own
// (the "promise at turn 210" is at turn 210 in the replay too). Plan
// updates, which share a turn with the message before them, ride on a
// record of their own kind where the runtime has one (Claude Code's todos
// field of the next user record).
package replay

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// Record is one line of a replayed session.
type Record struct {
	Line []byte
	// Seq is the compaction the line records (0 for conversation lines).
	Seq int
}

// Split returns the lines before compaction seq and that compaction's own
// lines; what follows it starts at next.
func Split(recs []Record, seq int) (before, compaction []Record, next int) {
	i := 0
	for i < len(recs) && recs[i].Seq != seq {
		i++
	}
	j := i
	for j < len(recs) && recs[j].Seq == seq {
		j++
	}
	return recs[:i], recs[i:j], j
}

// Bytes joins records into file content, one line each.
func Bytes(recs []Record) []byte {
	var b []byte
	for _, r := range recs {
		b = append(b, r.Line...)
		b = append(b, '\n')
	}
	return b
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("replay: %v", err))
	}
	return b
}

// rawInput is a call's input as JSON (an object when the input is not one).
func rawInput(c *model.ToolCall) json.RawMessage {
	s, err := c.Input.Load()
	if err != nil || !json.Valid([]byte(s)) {
		return mustJSON(map[string]string{"input": s})
	}
	if !strings.HasPrefix(strings.TrimSpace(s), "{") {
		return mustJSON(map[string]json.RawMessage{"input": json.RawMessage(s)})
	}
	return json.RawMessage(s)
}

func text(t model.Text) string {
	s, err := t.Load()
	if err != nil {
		return t.Head()
	}
	return s
}

// planList keeps a todo list whole, as the runtimes write it, from loupe's
// plan events, which list only the steps they change.
type planList struct {
	order []string
	items map[string]model.PlanItem
}

func (p *planList) apply(pl *model.Plan) {
	if p.items == nil {
		p.items = map[string]model.PlanItem{}
	}
	for _, it := range pl.Items {
		if _, ok := p.items[it.ID]; !ok {
			p.order = append(p.order, it.ID)
		}
		p.items[it.ID] = it
	}
}

func (p *planList) list() []model.PlanItem {
	out := make([]model.PlanItem, 0, len(p.order))
	for _, id := range p.order {
		out = append(out, p.items[id])
	}
	return out
}
