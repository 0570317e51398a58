// Package kittest holds what the importers' tests share: counting a
// transcript's events, the handles pending at a compaction, the check
// that converting to loupe JSONL and reading it back keeps the events, the
// checks that a lazy import is the in-memory one, and the scaffolding of
// the generators of large sessions and their benchmarks.
package kittest

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/loupe-dev/loupe/model"
)

// Opener is an importer's Open.
type Opener func(path string, opt model.ReadOptions) (*model.Transcript, error)

// Counts are the numbers a table test asserts.
type Counts struct {
	Events, Messages, Calls, Results, Errors int
	Plans, PlanItems                         int
	Compactions, Raw                         int
}

// Count counts t's events.
func Count(t *model.Transcript) Counts {
	var c Counts
	c.Events = len(t.Events)
	for _, e := range t.Events {
		switch ev := e.(type) {
		case *model.Message:
			c.Messages++
		case *model.ToolCall:
			c.Calls++
		case *model.ToolResult:
			c.Results++
			if ev.IsError {
				c.Errors++
			}
		case *model.Plan:
			c.Plans++
			c.PlanItems += len(ev.Items)
		case *model.Compaction:
			c.Compactions++
		case *model.Raw:
			c.Raw++
		}
	}
	return c
}

// Pending returns the handles open at each compaction, in order: the ids of
// calls with no result before it ("call:ID") and of asynchronous jobs a
// result reported running and none reported done or killed ("job:ID").
func Pending(t *model.Transcript) [][]string {
	var out [][]string
	p := t.Pairing()
	for _, c := range t.Compactions {
		var ids []string
		for _, ci := range p.OpenAt(c.Index) {
			ids = append(ids, "call:"+t.Events[ci].(*model.ToolCall).ID)
		}
		jobs := map[string]bool{}
		for _, e := range t.Events[:c.Index] {
			if r, ok := e.(*model.ToolResult); ok && r.Job != nil {
				if r.Job.State == model.JobRunning {
					jobs[r.Job.ID] = true
				} else {
					delete(jobs, r.Job.ID)
				}
			}
		}
		var js []string
		for id := range jobs {
			js = append(js, "job:"+id)
		}
		sort.Strings(js)
		out = append(out, append(ids, js...))
	}
	return out
}

// RoundTrip writes t as loupe JSONL, reads it back and reports the first
// difference in the events (kinds, turns, refs, ids, texts, summaries, kept
// refs, jobs, plan items) or in meta.source.
func RoundTrip(t *model.Transcript) error {
	var buf bytes.Buffer
	if err := model.Write(&buf, t); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	back, err := model.Read(bytes.NewReader(buf.Bytes()), model.ReadOptions{Name: "roundtrip"})
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	if errs := back.Problems.Errors(); len(errs) > 0 {
		return fmt.Errorf("read back with errors: %v", errs)
	}
	if back.Meta.Source != t.Meta.Source {
		return fmt.Errorf("meta.source %q, read back %q", t.Meta.Source, back.Meta.Source)
	}
	if len(back.Events) != len(t.Events) {
		return fmt.Errorf("%d events, read back %d", len(t.Events), len(back.Events))
	}
	for i, e := range t.Events {
		if err := sameEvent(e, back.Events[i]); err != nil {
			return fmt.Errorf("event %d (line %d, %s): %w", i, e.Header().Line, e.Kind(), err)
		}
	}
	return nil
}

func sameEvent(a, b model.Event) error {
	if a.Kind() != b.Kind() {
		return fmt.Errorf("kind %s, read back %s", a.Kind(), b.Kind())
	}
	ha, hb := a.Header(), b.Header()
	if ha.Turn != hb.Turn || ha.Ref != hb.Ref || ha.TS != hb.TS {
		return fmt.Errorf("header turn/ref/ts %d %q %q, read back %d %q %q", ha.Turn, ha.Ref, ha.TS, hb.Turn, hb.Ref, hb.TS)
	}
	load := func(t model.Text) string {
		s, err := t.Load()
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return s
	}
	diff := func(what string, x, y any) error {
		if !reflect.DeepEqual(x, y) {
			return fmt.Errorf("%s %#v, read back %#v", what, x, y)
		}
		return nil
	}
	switch x := a.(type) {
	case *model.Message:
		y := b.(*model.Message)
		return diff("message", [2]string{string(x.Role), x.Text}, [2]string{string(y.Role), y.Text})
	case *model.ToolCall:
		y := b.(*model.ToolCall)
		if err := diff("call", [2]string{x.ID, x.Name}, [2]string{y.ID, y.Name}); err != nil {
			return err
		}
		// Inputs are compact JSON, byte for byte, so that sizes (and loss
		// ratios) do not change through loupe JSONL.
		return diff("input", load(x.Input), load(y.Input))
	case *model.ToolResult:
		y := b.(*model.ToolResult)
		if err := diff("result", []any{x.ID, x.IsError, load(x.Text)}, []any{y.ID, y.IsError, load(y.Text)}); err != nil {
			return err
		}
		return diff("job", x.Job, y.Job)
	case *model.Plan:
		y := b.(*model.Plan)
		return diff("plan", x.Items, y.Items)
	case *model.CommitmentEvent:
		y := b.(*model.CommitmentEvent)
		return diff("commitment", []any{x.ID, x.Text, x.Status}, []any{y.ID, y.Text, y.Status})
	case *model.Compaction:
		y := b.(*model.Compaction)
		return diff("compaction",
			[]any{x.Seq, x.Trigger, x.Summary, x.Opaque, slices.Clone(x.Kept), x.TokensBefore, x.TokensAfter, x.SelfReport},
			[]any{y.Seq, y.Trigger, y.Summary, y.Opaque, slices.Clone(y.Kept), y.TokensBefore, y.TokensAfter, y.SelfReport})
	case *model.Raw:
		y := b.(*model.Raw)
		return diff("raw", []any{x.Type, x.Reason, load(x.JSON)}, []any{y.Type, y.Reason, load(y.JSON)})
	}
	return nil
}
