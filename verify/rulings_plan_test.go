package verify

import (
	"testing"

	"github.com/loupe-dev/loupe/model"
)

func planOf(turn int, items ...model.PlanItem) *model.Plan {
	return &model.Plan{Base: model.Base{Turn: turn}, Items: items}
}

func step(id, text string, st model.PlanStatus) model.PlanItem {
	return model.PlanItem{ID: id, Text: text, Status: st}
}

// DESIGN.md, "Rulings on wording", plan steps: a step re-emitted keeps the
// turn it first appeared at; a step a later full plan leaves out without
// completing it stays owed when a compaction had lost it before (the loss
// caused it), and closes as abandoned otherwise.
func TestRulingPlanSteps(t *testing.T) {
	rotate := step("", "Rotate the signing keys", model.PlanPending)
	docs := step("", "Update the deploy docs", model.PlanPending)
	audit := step("", "Run the dependency audit", model.PlanPending)
	cases := []struct {
		name     string
		first    string // the first compaction's summary
		second   string // the second's
		wantOpen bool   // the docs step is owed by the second compaction
		status   Status // its status there, when owed
	}{
		{"dropped by the agent before any loss", "Pending: rotate the signing keys; update the deploy docs.", "Pending: rotate the signing keys; run the dependency audit.", false, ""},
		{"left out after a compaction lost it", "Pending: rotate the signing keys.", "Pending: rotate the signing keys; run the dependency audit.", true, Dropped},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := transcriptOf(
				planOf(1, rotate, docs),
				compaction(5, 1, c.first),
				planOf(8, rotate, audit), // a full plan: rotate restated unchanged
				compaction(12, 2, c.second),
			)
			res := Run(tr, Options{})
			cr := res.Compactions[1]
			var found *ItemResult
			for i := range cr.Items {
				if cr.Items[i].Kind == Commitment && cr.Items[i].Key == "update deploy docs" {
					found = &cr.Items[i]
				}
			}
			if !c.wantOpen {
				if found != nil && found.Status != Resurrected {
					t.Errorf("the abandoned step is owed (%s: %s)", found.Status, found.Why)
				}
				return
			}
			if found == nil || found.Status != c.status {
				t.Fatalf("the step lost at compaction 1: %+v, want %s", found, c.status)
			}
			if found.Turn != 1 {
				t.Errorf("origin turn %d, want 1 (its first appearance)", found.Turn)
			}
		})
	}
}

// A partial plan update (only what changed) says nothing of the steps it
// leaves out: they stay open.
func TestRulingPartialPlanKeepsSteps(t *testing.T) {
	tr := transcriptOf(
		planOf(1, step("1", "Rotate the signing keys", model.PlanPending), step("2", "Update the deploy docs", model.PlanPending)),
		planOf(3, step("1", "Rotate the signing keys", model.PlanCompleted)),
		compaction(5, 1, "Rotated the signing keys."),
	)
	cr := Run(tr, Options{}).Compactions[0]
	if ir := statusOf(t, cr, Commitment, "deploy docs"); ir.Status != Dropped {
		t.Errorf("status %s, want dropped: a partial update does not close the steps it leaves out", ir.Status)
	}
}

// DESIGN.md, "Rulings on wording", resurrection: a closed plan step is not
// resurrected by a summary that reports it done, even under a pending
// heading, nor by a pending cue in a sentence that does not name it; a
// sentence that names it as still to do does resurrect it.
func TestRulingResurrection(t *testing.T) {
	cases := []struct {
		name, summary string
		want          bool
	}{
		{"listed as pending", "## Pending Tasks\n- Rotate the signing keys", true},
		{"reported done under a pending heading", "## Pending Tasks\n- Rotate the signing keys (done)\n- Update the deploy docs", false},
		{"reported completed in prose", "Next steps: rotating the signing keys is completed; update the deploy docs next.", false},
		{"a pending cue beside it, not naming it", "The signing keys were rotated. Pending: update the deploy docs.", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := transcriptOf(
				planOf(1, step("1", "Rotate the signing keys", model.PlanPending), step("2", "Update the deploy docs", model.PlanPending)),
				planOf(3, step("1", "Rotate the signing keys", model.PlanCompleted), step("2", "Update the deploy docs", model.PlanPending)),
				compaction(5, 1, c.summary),
			)
			cr := Run(tr, Options{}).Compactions[0]
			got := false
			for _, ir := range cr.Items {
				if ir.Status == Resurrected && ir.Kind == Commitment {
					got = true
				}
			}
			if got != c.want {
				t.Errorf("resurrected = %v, want %v (%v)", got, c.want, cr.Items)
			}
			// A resurrected step matters to the planner, not the verifier.
			for _, cs := range cr.Consumers {
				if cs.Name == "planner" && cs.Allowed == c.want {
					t.Errorf("planner allowed = %v with resurrected = %v", cs.Allowed, got)
				}
				if cs.Name == "verifier" && !cs.Allowed {
					t.Errorf("verifier refused (%v): a plan step is not its concern", cs.Why)
				}
			}
		})
	}
}

// Check of a later compaction from the raw events alone cannot tell
// whether an earlier compaction lost a vanished step: it stays owed (fail
// closed). At the first compaction no earlier one could have: abandoned.
func TestRulingVanishedStepInCheck(t *testing.T) {
	src := []model.Event{
		planOf(1, step("", "Rotate the signing keys", model.PlanPending), step("", "Update the deploy docs", model.PlanPending)),
		planOf(8, step("", "Rotate the signing keys", model.PlanPending), step("", "Run the dependency audit", model.PlanPending)),
	}
	for _, c := range []struct {
		seq  int
		owed bool
	}{{1, false}, {3, true}} {
		r := Check(src, compaction(12, c.seq, "Pending: rotate the signing keys; run the dependency audit."), Options{})
		owed := false
		for _, it := range r.Items {
			if it.Kind == Commitment && it.Key == "update deploy docs" && it.Status != Resurrected {
				owed = true
			}
		}
		if owed != c.owed {
			t.Errorf("compaction %d: the vanished step owed = %v, want %v", c.seq, owed, c.owed)
		}
	}
}

// Plan-status lag: a step in progress whose work a call carried out, with
// the plan not yet updated when the compaction came, is reported done by
// a summary that says so; that is what the run did, not a flip. A step
// never started, or one only dry-run, that the summary calls done is
// flipped.
func TestPlanStatusLag(t *testing.T) {
	wire := call(5, "e1", "Edit", `{"file_path":"strategy/hooks.go","old_string":"state.Save()","new_string":"res := session.Transition(state.Phase, EventTurnStart)\nstate.Save()"}`)
	cases := []struct {
		name   string
		status model.PlanStatus
		work   []model.Event
		want   Status
	}{
		{"in progress, the edit made", model.PlanInProgress, []model.Event{wire, result(6, "e1", "The file strategy/hooks.go has been updated.", false)}, Retained},
		{"never started", model.PlanPending, []model.Event{wire, result(6, "e1", "The file strategy/hooks.go has been updated.", false)}, Flipped},
		{"in progress, nothing done", model.PlanInProgress, nil, Flipped},
		{"in progress, only a dry run", model.PlanInProgress, []model.Event{
			call(5, "d1", "Bash", `{"command":"python scripts/wire.py --transition --dry-run"}`), result(6, "d1", "would wire Transition into hooks", false)}, Flipped},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := append([]model.Event{msg(1, model.RoleUser, "Wire the phase transitions."),
				planOf(2, step("2", "Wire Transition() into the turn-start hook", c.status))}, c.work...)
			r := Check(src, compaction(20, 1, "Wired the Transition() into the turn-start hook."), Options{})
			got := statusOf(t, r, Commitment, "wire").Status
			if got != c.want {
				t.Errorf("step is %s, want %s", got, c.want)
			}
		})
	}
}

// A step whose work is a new file named for it: "Implement Embedded
// Autonomic Controller", in progress, and the Write of
// embedded_autonomic.rs. The summary that reports it done reports what the
// run did; a file named for something else does not carry it out.
func TestPlanStepCarriedByTheFileNamedForIt(t *testing.T) {
	cases := []struct {
		name, path string
		want       Status
	}{
		{"the file named for the step", "crates/adapters/src/embedded_autonomic.rs", Retained},
		{"a file named for one word of it", "crates/adapters/src/autonomic.rs", Flipped},
		{"a file named for something else", "crates/adapters/src/policy_gate.rs", Flipped},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Go through the plan."),
				planOf(2, step("3", "Step 3: Implement Embedded Autonomic Controller", model.PlanPending)),
				// An exploring agent's report names the step's words before it starts.
				call(3, "x1", "Task", `{"prompt":"Explore how the embedded autonomic controller could subscribe to the journal"}`),
				result(3, "x1", "The embedded autonomic controller can poll the journal.", false),
				planOf(4, step("3", "Step 3: Implement Embedded Autonomic Controller", model.PlanInProgress)),
				call(5, "w1", "Write", `{"file_path":"`+c.path+`","content":"//! the loop\npub struct Loop;"}`),
				result(6, "w1", "File created successfully at: "+c.path, false)}
			r := Check(src, compaction(20, 1, "Step 3 (Implement Embedded Autonomic Controller) just completed successfully."), Options{})
			if got := statusOf(t, r, Commitment, "autonomic").Status; got != c.want {
				t.Errorf("step is %s, want %s", got, c.want)
			}
		})
	}
}

// A step's work done while in progress, then a run that fails on what the
// step is for: the step is not done, and a summary that calls it done
// flips it. A failure about something else leaves the lag alone.
func TestPlanStatusLagUndoneByFailure(t *testing.T) {
	edit := call(5, "e1", "Edit", `{"file_path":"test/dst.spec.ts","old_string":"});","new_string":"it('keeps 10:00 in America/Sao_Paulo', () => {});\n});"}`)
	cases := []struct {
		name, out string
		want      Status
	}{
		{"the run fails on it", "× weekly across DST > keeps 10:00 in America/Sao_Paulo across November\nTests  1 failed | 1 passed", Flipped},
		{"the run fails on something else", "× parser > reads BYMONTHDAY lists\nTests  1 failed | 1 passed", Retained},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Add the DST regression tests."),
				planOf(2, step("4", "Add a DST regression test for America/Sao_Paulo", model.PlanInProgress)),
				edit, result(6, "e1", "The file test/dst.spec.ts has been updated.", false),
				call(7, "t1", "Bash", `{"command":"npx vitest run test/dst.spec.ts"}`), result(8, "t1", c.out, true)}
			r := Check(src, compaction(20, 1, "- [x] Add a DST regression test for America/Sao_Paulo"), Options{})
			if got := statusOf(t, r, Commitment, "sao_paulo").Status; got != c.want {
				t.Errorf("step is %s, want %s", got, c.want)
			}
		})
	}
}

// Work over many files ("update all 65 test files") is not done by one
// file's edit: the summary that lists it as still to do resurrects
// nothing.
func TestManyFilesNotCarriedByOneEdit(t *testing.T) {
	src := []model.Event{msg(1, model.RoleUser, "Make the e2e tests follow arrange/act/assert."),
		msg(2, model.RoleAssistant, "I'll update `conftest.py` with an `assert_invoke` helper, then update all 65 test files with `# Arrange` / `# Act` / `# Assert` comments and proper verification assertions."),
		call(2, "e1", "Edit", `{"file_path":"tests/e2e/conftest.py","old_string":"import pytest","new_string":"import pytest\n\ndef assert_invoke(): pass\n# Arrange / Act / Assert test files"}`),
		result(3, "e1", "The file tests/e2e/conftest.py has been updated.", false)}
	r := Check(src, compaction(20, 1, "Pending Tasks:\n- Update all 65 test files to add `# Arrange` / `# Act` / `# Assert` comments and verification assertions."), Options{})
	for _, it := range r.Items {
		if it.Kind == Commitment && it.Status == Resurrected {
			t.Errorf("%q resurrected: %s", it.Item.Action, it.Why)
		}
	}
}

// A step named by what it makes ("Glossary page + Research Discovery
// prompt generator") has no verb for a summary to repeat: a summary that
// names the things keeps it. A step that opens with a verb still needs it.
func TestTitleStepsHaveNoVerb(t *testing.T) {
	cases := []struct {
		step string
		want Status
	}{
		{"Glossary page + Research Discovery prompt generator", Retained},
		{"Draft glossary page + Research Discovery prompt generator", Weak},
	}
	summary := "Pending Tasks:\n- The Research Discovery prompt generator and its page (next after the review)\n"
	for _, c := range cases {
		t.Run(c.step, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Go through the feature list."), planOf(2, step("6", c.step, model.PlanPending))}
			r := Check(src, compaction(20, 1, summary), Options{})
			if got := statusOf(t, r, Commitment, "glossary").Status; got != c.want {
				t.Errorf("step is %s, want %s", got, c.want)
			}
		})
	}
}

// A step whose verb only says work is due on its object ("Fix CMS auth
// token injection") is carried by a pending line naming that object with
// the work it takes; a line elsewhere, or a step of a specific verb, is not.
func TestWorkVerbStepCarriedAsPending(t *testing.T) {
	cases := []struct {
		step, summary string
		want          Status
	}{
		{"Fix CMS auth token injection (401 error)",
			"Pending Tasks:\n- Add Firebase Auth ID token fetching and injection into CMS requests (needs AuthenticationRepository changes)\n", Retained},
		{"Fix CMS auth token injection (401 error)",
			"Key Technical Concepts:\n- Add Firebase Auth ID token fetching and injection into CMS requests (needs AuthenticationRepository changes)\n", Weak},
		{"Remove CMS auth token injection (401 error)",
			"Pending Tasks:\n- Add Firebase Auth ID token fetching and injection into CMS requests (needs AuthenticationRepository changes)\n", Weak},
	}
	for _, c := range cases {
		t.Run(c.step+" | "+c.summary[:12], func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Fix the trainer issues."), planOf(2, step("3", c.step, model.PlanPending))}
			r := Check(src, compaction(20, 1, c.summary), Options{})
			if got := statusOf(t, r, Commitment, "injection"); got.Status != c.want {
				t.Errorf("step is %s (%s), want %s", got.Status, got.Why, c.want)
			}
		})
	}
}
