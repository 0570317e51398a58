package shapes

import (
	"fmt"
	"io"

	"github.com/loupe-dev/loupe/model"
)

// step is a kind of plan item: its verb and head noun, the file an edit
// of it touches, and how the agent reports it.
type step struct{ verb, head, file, did string }

// Their heads are not category nouns ("endpoint", "route", "field"): the
// verifier takes "port the kavron endpoint" and "port the belmir endpoint"
// for one action (a category head's specific word is not a modifier to it),
// and this shape needs thousands of distinct items.
var steps = []step{
	{"Port", "handler", "api/%s/handler.go", "Ported"},
	{"Add", "regression test", "api/%s/regression_test.go", "Added"},
	{"Update", "serializer", "api/%s/serialize.go", "Updated"},
	{"Remove", "shim", "compat/%s.go", "Removed"},
	{"Document", "schema", "docs/schemas/%s.md", "Documented"},
	{"Migrate", "table", "migrations/%s.sql", "Migrated"},
	{"Wire", "middleware", "api/%s/middleware.go", "Wired"},
	{"Fix", "parser", "api/%s/parse.go", "Fixed"},
}

// planItem is item i of a generated plan: each names its own thing, so no
// item restates another.
func planItem(i int) (model.PlanItem, step, string) {
	st := steps[i%len(steps)]
	n := name(i)
	return model.PlanItem{ID: fmt.Sprintf("t%d", i+1), Text: fmt.Sprintf("%s the %s %s", st.verb, n, st.head), Status: model.PlanPending}, st, n
}

// planItemBytes is about what an item takes in a plan event.
const planItemBytes = 66

// bigPlan is one plan event of about size/66 items (the agent writes out a
// port of a whole legacy API), then some work on the first items and a
// compaction listing the next 200. Every new plan item is compared
// with every open commitment (is it a restatement?), and every later
// message and call with every item.
func bigPlan(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "big-plan", opt.Seed, 0xb19)
	n := int(max(size*9/10/planItemBytes, 10))
	r.user("Port every endpoint of the legacy API to the new service. Work through the plan one item at a time.")
	r.say(fmt.Sprintf("Writing the plan: %d items, one per handler, test, serializer, shim, schema, table, middleware and parser.", n))
	items := make([]model.PlanItem, n)
	for i := range items {
		items[i], _, _ = planItem(i)
	}
	items[0].Status = model.PlanInProgress
	r.plan(items)
	done := 0
	for i := 0; i < 40 && i < n; i++ {
		_, st, nm := planItem(i)
		path := fmt.Sprintf(st.file, nm)
		id := r.call("edit_file", fmt.Sprintf(`{"path":%q,"old":"legacy","new":"v2"}`, path))
		r.result(id, false, "Edited "+path+".")
		r.say(fmt.Sprintf("%s the %s %s. %s", st.did, nm, st.head, sentence(r.rng, 8)))
		done++
	}
	s := &ccSummary{
		request:  "Port every endpoint of the legacy API to the new service, one plan item at a time.",
		concepts: []string{"the legacy API", "the new service's v2 handlers"},
		files:    []string{"api/*: one package per endpoint"},
		errors:   []string{"none"},
		solving:  []string{fmt.Sprintf("Worked through the first %d plan items.", done)},
		users:    []string{"Port every endpoint of the legacy API to the new service. Work through the plan one item at a time."},
		current:  "Working through the plan in order.",
		next:     "Carry on with the next plan item.",
	}
	for i := done; i < n && i < done+200; i++ {
		it, _, _ := planItem(i)
		s.pending = append(s.pending, fmt.Sprintf("%s (plan %s)", it.Text, it.ID))
	}
	if n > done+200 {
		s.pending = append(s.pending, fmt.Sprintf("…and %d more items of the plan.", n-done-200))
	}
	r.compact(s.String())
	return r.done()
}

// planUpdates keeps a plan of 5,000 items and writes it whole on every
// update, as runtimes with a todo tool do: between updates the agent works
// on the item in progress (an edit, a test run, a report), then marks it
// completed and the next in progress; the oldest completed item leaves
// the list and a newly found one joins it. A compaction every fourth
// update lists the completed steps, the one in progress and the next few
// hundred. Per update: 5,000 items looked up, every message and call
// compared with 5,000 open items.
func planUpdates(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "plan-updates", opt.Seed, 0x9a5)
	const n = 5000
	list := make([]model.PlanItem, n)
	which := make([]int, n) // the planItem index of each list entry
	for i := range list {
		list[i], _, _ = planItem(i)
		which[i] = i
	}
	list[0].Status = model.PlanInProgress
	cur := 0 // the entry in progress
	r.user("Port every endpoint of the legacy API to the new service. Keep the plan up to date as you go.")
	r.plan(list)
	var completed []string
	for updates := 1; r.n < size && r.err == nil; updates++ {
		it, st, nm := planItem(which[cur])
		path := fmt.Sprintf(st.file, nm)
		for k := 0; k < 3; k++ {
			id := r.call("edit_file", fmt.Sprintf(`{"path":%q,"old":"legacy","new":"v2"}`, path))
			r.result(id, false, "Edited "+path+".")
		}
		r.exec("go test ./api/...", false, passingTests(r.rng, nm, 800)+"ok  \tgithub.com/acme/api\t1.2s\n")
		r.say(fmt.Sprintf("%s the %s %s; the api tests pass.", st.did, nm, st.head))
		list[cur].Status = model.PlanCompleted
		completed = append(completed, it.Text)
		// The list keeps the last 20 completed items; a newly found item
		// joins at the end for each one that leaves.
		cur++
		if cur > 20 {
			list, which = list[1:], which[1:]
			cur--
			added, _, _ := planItem(which[len(which)-1] + 1)
			list = append(list, added)
			which = append(which, which[len(which)-1]+1)
		}
		list[cur].Status = model.PlanInProgress
		r.plan(list)
		if updates%4 == 0 {
			r.compact(planSummary(list, cur, completed))
		}
	}
	return r.done()
}

// planSummary lists the completed steps, the one in progress and the next
// 300 of the plan.
func planSummary(list []model.PlanItem, cur int, completed []string) string {
	s := &ccSummary{
		request:  "Port every endpoint of the legacy API to the new service, keeping the plan up to date.",
		concepts: []string{"the legacy API", "the plan"},
		files:    []string{"api/*: one package per endpoint"},
		errors:   []string{"none"},
		users:    []string{"Port every endpoint of the legacy API to the new service. Keep the plan up to date as you go."},
		current:  "Working on " + list[cur].Text + " (plan " + list[cur].ID + ", in progress).",
		next:     "Carry on with the next plan item.",
	}
	for _, c := range completed {
		s.solving = append(s.solving, "[x] "+c)
	}
	rest := list[cur+1:]
	for _, p := range rest[:min(len(rest), 300)] {
		s.pending = append(s.pending, fmt.Sprintf("[ ] %s (plan %s)", p.Text, p.ID))
	}
	if len(rest) > 300 {
		s.pending = append(s.pending, fmt.Sprintf("…and %d more items of the plan.", len(rest)-300))
	}
	return s.String()
}
