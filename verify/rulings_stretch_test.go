package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// A call that writes the plan (update_plan, TodoWrite, TaskCreate) names the
// work without doing it: a promise made beside it stays owed, with its
// condition, and the plan step it mirrors is the same item. A promise about
// the plan itself is what the call does.
func TestPlanCallsDoNotCarryOutPromises(t *testing.T) {
	const plan = `{"plan":[{"step":"Re-run the migration","status":"pending"}]}`
	cases := []struct {
		name string
		tool string
		src  []model.Event
		owed string // a word of the commitment the summary owes, or ""
		cond string // its condition, when owed
	}{
		{
			name: "Codex: the promise and update_plan in one response",
			src: []model.Event{
				msg(10, model.RoleAssistant, "The diff is posted. I will re-run the migration after the schema diff is reviewed."),
				call(10, "p1", "update_plan", plan),
				result(11, "p1", "Plan updated", false),
			},
			owed: "migration", cond: "after the schema diff is reviewed",
		},
		{
			name: "Claude Code: TodoWrite is not an edit that does the work",
			src: []model.Event{
				msg(10, model.RoleAssistant, "I'll add the retry test once the flaky runner is replaced."),
				call(10, "p1", "TodoWrite", `{"todos":[{"content":"Add the retry test","status":"pending"}]}`),
				result(11, "p1", "Todos have been modified successfully", false),
			},
			owed: "retry", cond: "once the flaky runner is replaced",
		},
		{
			name: "a promise to write the todo list is kept by writing it",
			src: []model.Event{
				msg(10, model.RoleAssistant, "Let me create a todo list to track the remaining tasks."),
				call(10, "p1", "TodoWrite", `{"todos":[{"content":"Fix the parser","status":"pending"}]}`),
				result(11, "p1", "Todos have been modified successfully", false),
				msg(12, model.RoleAssistant, "The list is in place."),
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(300, 1, "Posted the diff and talked about the parser."), Options{})
			if c.owed == "" {
				for _, it := range r.Items {
					if it.Kind == Commitment && strings.Contains(it.Key, "todo") {
						t.Errorf("commitment %q is owed (%s); the call wrote the list", it.Key, it.Status)
					}
				}
				return
			}
			it := statusOf(t, r, Commitment, c.owed)
			if it.Status != Dropped || it.Condition != c.cond {
				t.Errorf("commitment %q: status %s, condition %q; want dropped with %q", it.Key, it.Status, it.Condition, c.cond)
			}
		})
	}
}

// A look the agent announces with no condition ("I'll start by exploring
// the codebase") is done by the reads that follow in the same stretch of
// work, even when the first responses only write the plan. The user
// speaking in between ends the stretch: the look is then still owed.
func TestAnnouncedLookDoneLaterInTheStretch(t *testing.T) {
	announce := msg(2, model.RoleAssistant, "I'll start by exploring the existing codebase to understand the patterns I need to follow.")
	task := call(2, "t1", "TaskCreate", `{"subject":"Add IsEnabled() to settings"}`)
	taskDone := result(3, "t1", "Task #1 created successfully", false)
	read := call(4, "r1", "Read", `{"file_path":"settings/settings.go"}`)
	readDone := result(5, "r1", "package settings", false)
	after := msg(6, model.RoleAssistant, "The settings package keeps each flag in one struct.")
	cases := []struct {
		name string
		src  []model.Event
		owed bool
	}{
		{"reads after the plan, same stretch", []model.Event{msg(1, model.RoleUser, "Add a wingman setting."), announce, task, taskDone, read, readDone, after}, false},
		{"the user spoke before any read", []model.Event{msg(1, model.RoleUser, "Add a wingman setting."), announce, task, taskDone, msg(4, model.RoleUser, "Wait, first tell me the plan."), read, readDone, after}, true},
		{"no read at all", []model.Event{msg(1, model.RoleUser, "Add a wingman setting."), announce, task, taskDone}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(300, 1, "Set up the tasks for the wingman setting."), Options{})
			owed := false
			for _, it := range r.Items {
				if it.Kind == Commitment && containsTerm(it.Key, "explore") {
					owed = true
				}
			}
			if owed != c.owed {
				t.Errorf("the look is owed = %v, want %v (items %v)", owed, c.owed, r.Items)
			}
		})
	}
}

// The branch the agent made to work on in a worktree of its own is an
// identifier of the work it then promises, and of the work in hand when no
// open item names it: a summary that keeps the open step but not the
// branch loses where the work lives. A branch it left
// (checked out another) is not owed by later work; a plain checkout -b is
// for review, since the repository names it again.
func TestWorkBranchIsOwedByOpenWork(t *testing.T) {
	mk := call(3, "g1", "Bash", `{"command":"git worktree add -b feat/prepare-trace-docs ../wt/prepare-trace-docs origin/main"}`)
	mkDone := result(4, "g1", "Preparing worktree (new branch 'feat/prepare-trace-docs')", false)
	step := planEv(5, "1", "Document the trace surfaces", model.PlanInProgress)
	cases := []struct {
		name    string
		src     []model.Event
		summary string
		want    Status // of the branch; "" for not in the set
	}{
		{"kept", []model.Event{mk, mkDone, step}, "Pending: document the trace surfaces on feat/prepare-trace-docs.", Retained},
		{"lost", []model.Event{mk, mkDone, step}, "Pending: document the trace surfaces.", Dropped},
		{"a file restored stays on it", []model.Event{mk, mkDone, call(5, "g2", "Bash", `{"command":"git checkout src/app.go"}`), result(5, "g2", "Updated 1 path from the index", false), planEv(6, "1", "Document the trace surfaces", model.PlanInProgress)}, "Pending: document the trace surfaces.", Dropped},
		{"left for main", []model.Event{mk, mkDone, call(5, "g2", "Bash", `{"command":"git checkout main"}`), result(5, "g2", "Switched to branch 'main'", false), planEv(6, "1", "Document the trace surfaces", model.PlanInProgress)}, "Pending: document the trace surfaces.", ""},
		// The work on the branch went on past every promise (a PR opened
		// for review, the user's next question): the worktree's branch is
		// still where the work lives.
		{"no open item names it", []model.Event{mk, mkDone, msg(6, model.RoleUser, "where is the dogfood output saved?")}, "The user asked where the dogfood output is saved.", Dropped},
		{"no open item, kept", []model.Event{mk, mkDone, msg(6, model.RoleUser, "where is the dogfood output saved?")}, "Work is on feat/prepare-trace-docs; the user asked where the output is saved.", Retained},
		{"no open item, left for main", []model.Event{mk, mkDone, call(5, "g2", "Bash", `{"command":"git switch main"}`), result(5, "g2", "Switched to branch 'main'", false)}, "On main.", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(300, 1, c.summary), Options{})
			var got Status
			for _, it := range r.Items {
				if it.Kind == Identifier && it.Key == "feat/prepare-trace-docs" {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("branch status %q, want %q (items %v)", got, c.want, r.Items)
			}
		})
	}
	r := Check([]model.Event{call(3, "g1", "Bash", `{"command":"git checkout -b feat/trace-docs"}`), result(4, "g1", "Switched to a new branch 'feat/trace-docs'", false), step},
		compaction(300, 1, "Pending: document the trace surfaces."), Options{})
	found := false
	for _, it := range r.Items {
		if it.Kind == Identifier && it.Key == "feat/trace-docs" {
			found = true
			if it.Basis != Inferred || it.Status != Dropped {
				t.Errorf("a checkout -b branch is %s %s, want dropped and inferred (review)", it.Status, it.Basis)
			}
		}
	}
	if !found {
		t.Errorf("a checkout -b branch is not in the set at all: %v", r.Items)
	}
}

// A runtime that marks a message as commentary on the work under way
// (Codex's phase) says the promise in it is the step being taken: inferred,
// listed for review when lost. A wait in it keeps it stated.
func TestCommentaryPromisesAreNarration(t *testing.T) {
	for _, c := range []struct {
		name       string
		text       string
		commentary bool
		basis      Basis
	}{
		{"commentary, no wait", "I'm going to prime the repo state first, then dispatch the worker tasks.", true, Inferred},
		{"commentary with a wait", "I'll re-run the migration after the schema diff is reviewed.", true, Stated},
		{"the turn's answer", "I'm going to prime the repo state first, then dispatch the worker tasks.", false, Stated},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := msg(5, model.RoleAssistant, c.text)
			m.Commentary = c.commentary
			r := Check([]model.Event{msg(1, model.RoleUser, "Go."), m}, compaction(300, 1, "Talked about the workers."), Options{})
			var got Basis
			for _, it := range r.Items {
				if it.Kind == Commitment {
					got = it.Basis
					break
				}
			}
			if got != c.basis {
				t.Errorf("basis %q, want %q (items %v)", got, c.basis, r.Items)
			}
		})
	}
}
