package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// Rules a user states inside a request for one piece of work scope that
// request unless their sentence says they last (DESIGN.md, rulings: a
// request about the thing at hand is one-off unless phrased as lasting); a
// lost one is for review, not a loss. "avoid" after a modal or "to" says
// what something does, not what to do. Found on unlabelled real sessions of
// the training repositories, where each was reported dropped.
func TestRulesScopedToARequest(t *testing.T) {
	cases := []struct {
		name  string
		msg   string
		key   string // a rule key (substring)
		basis Basis  // "" when no rule should be found
	}{
		{"a prohibition scoping the question's check", "Can you check the retry path works? Don't change anything, just confirm it.", "change", Inferred},
		{"an 'also' prohibition on the artefact asked for", "Could we redo the changelog entry for the parser? Also don't give it a version number.", "version number", Inferred},
		{"lasting words keep it standing inside a request", "Can you check the retry path works? Never push to main from now on.", "push", Stated},
		{"'never' keeps it standing inside a request", "Can you look at the flaky test? Never edit the fixtures.", "fixtures", Stated},
		{"a bare prohibition is standing", "Don't change the public API.", "public api", Stated},
		{"a go-ahead after the rule does not scope it", "Keep it local! Can you proceed with the plan?", "local", Stated},
		{"an imperative 'avoid' is a rule", "Avoid force-pushes to the release branch.", "force", Stated},
		{"'avoid' after a modal describes", "Storing offsets in UTC would be simpler and avoid drift between hosts.", "drift", ""},
		{"'avoid' of a purpose describes", "We pin the version to avoid surprise upgrades.", "upgrades", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, c.msg)}
			r := Check(src, compaction(20, 1, "Worked on the release."), Options{})
			var got *ItemResult
			for i := range r.Items {
				if it := &r.Items[i]; it.Kind == Constraint && strings.Contains(strings.ToLower(it.Item.Key), c.key) {
					got = it
				}
			}
			switch {
			case c.basis == "" && got != nil:
				t.Fatalf("found rule %q (%s), want none", got.Item.Key, got.Basis)
			case c.basis == "":
			case got == nil:
				t.Fatalf("no rule with %q found, want one %s", c.key, c.basis)
			case got.Basis != c.basis:
				t.Errorf("rule %q is %s (%s), want %s", got.Item.Key, got.Basis, got.Cue, c.basis)
			case c.basis == Inferred && !got.Review:
				t.Errorf("rule %q lost but not review", got.Item.Key)
			}
		})
	}
}

// A plan step that names a test, a file or a symbol is reported done or
// pending again by a summary sentence only if that sentence speaks of it: a
// sentence naming other names and none of the step's speaks of a sibling
// (found on unlabelled real sessions, where "Fixed import sorting in
// testing.py" flipped "Fix test_plan_save" and "remove the test of the
// issue-based branch" resurrected "Remove 'issues' branches in statusline.py").
func TestStepNamesDecideItsStatus(t *testing.T) {
	cases := []struct {
		name    string
		steps   []model.PlanItem
		summary string
		key     string // the step's text (substring)
		want    Status
	}{
		{"done for another file is not the step done",
			[]model.PlanItem{step("a", "Fix test_cache_expiry comment test", model.PlanPending)},
			"Applied fixes for the lint errors:\n- **testing.py**: Fixed import block sorting (moved the typing block up)",
			"test_cache_expiry", Dropped},
		{"done for the step's own file is flipped",
			[]model.PlanItem{step("a", "Fix test_cache_expiry in cache_test.go", model.PlanPending)},
			"Done: fixed test_cache_expiry in cache_test.go.",
			"test_cache_expiry", Flipped},
		{"done in plain words with no names is flipped",
			[]model.PlanItem{step("a", "Finalise the privilege log (privilege_log.xlsx)", model.PlanPending)},
			"The privilege log has been finalized.",
			"privilege", Flipped},
		{"a sibling's pending sentence does not resurrect the step",
			[]model.PlanItem{step("a", "Remove 'legacy' branches in router.py", model.PlanCompleted),
				step("c", "Remove 'legacy' branches in dispatch.py and hooks.py", model.PlanCompleted),
				step("b", "Update tests", model.PlanPending)},
			"Optional Next Step:\n   Fix the remaining test failures. Specifically:\n   1. Remove or rewrite `test_fallback_with_branch_inference` in `tests/test_fallback.py` - this test exercises the removed legacy-based branch inference in `_route_direct()`\n2. Update tests.",
			"router.py", ""},
		{"the step's own pending sentence resurrects it",
			[]model.PlanItem{step("a", "Remove the legacy branches in router.py", model.PlanCompleted),
				step("b", "Update tests", model.PlanPending)},
			"Next steps:\n- Remove the legacy branches in router.py.\n- Update tests.",
			"router.py", Resurrected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Clean up the module."), planOf(2, c.steps...)}
			r := Check(src, compaction(20, 1, c.summary), Options{})
			var got Status
			for _, it := range r.Items {
				if it.Kind == Commitment && strings.Contains(it.Item.Text, c.key) {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("step %q is %q, want %q", c.key, got, c.want)
			}
		})
	}
}

// Narration of a look over the work, of where the response starts, or of
// thinking the message itself carries out is no obligation once the same
// response does it; the same words with nothing after them are owed (found
// on unlabelled real sessions, where each was reported dropped).
func TestNarrationCarriedOutBySameResponse(t *testing.T) {
	grep := `{"pattern":"LoadConfig","path":"internal"}`
	cases := []struct {
		name  string
		say   string
		calls bool // a search follows in the same turn
		key   string
		owed  bool
	}{
		{"an audit with a search beside it", "I'll do another thorough audit to make sure nothing is missed.", true, "audit", false},
		{"an audit with nothing after it", "I'll do another thorough audit to make sure nothing is missed.", false, "audit", true},
		{"a sweep verb with a search beside it", "I'll sweep the handlers for relative paths.", true, "handlers", false},
		{"starting the work with a call beside it", "I'll start by parsing the manifest and setting up the workspace.", true, "manifest", false},
		{"starting the work with no call", "I'll start by parsing the manifest and setting up the workspace.", false, "manifest", true},
		{"thinking the message carries out", "Let me think about how the lock gets stuck after a crash. The writer holds it while the reader waits, so a crash between the two leaves it held.", false, "think", false},
		{"framing the answer the message goes on to give", "Given the session context, I'll frame it around what just happened and what's next across the ecosystem. The ingest rewrite landed, the lore rename is done, and the two open reviews wait on CI.", false, "frame", false},
		{"an outline the message gives", "I'll outline the three options for the cache layer. First, a write-through cache in front of the store, which keeps reads fast.", false, "outline", false},
		{"an analysis the message gives", "I'll analyze your proposal and think through the implications of a single shadow branch. With one branch, every session writes to the same ref, so two sessions race on it.", false, "proposal", false},
		{"thinking deferred to later", "I'll think about the naming of the flags and get back to you.", false, "naming", true},
		{"a change is not a look", "I'll add the retry to the loader.", true, "retry", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Please look at the config loader."), msg(2, model.RoleAssistant, c.say)}
			if c.calls {
				src = append(src, call(2, "c1", "Grep", grep), result(3, "c1", "internal/a.go:3: LoadConfig()", false))
			}
			src = append(src, msg(4, model.RoleUser, "Thanks."))
			r := Check(src, compaction(20, 1, "The user asked about the config loader."), Options{})
			owed := false
			for _, it := range r.Items {
				if it.Kind == Commitment && strings.Contains(it.Item.Key, c.key) && it.Counts() {
					owed = true
				}
			}
			if owed != c.owed {
				t.Errorf("owed = %v, want %v (items %v)", owed, c.owed, r.Items)
			}
		})
	}
}

// A step that names a file is sent back to by a summary only in a sentence
// that names it: "the next step is Step 12: Update documentation" does not
// resurrect "Step 3: Update submit.py".
func TestResurrectionNeedsTheStepsNames(t *testing.T) {
	cases := []struct {
		name, summary string
		want          Status
	}{
		{"an umbrella next step", "The next step in the todo list is **Step 12: Update documentation**.", ""},
		{"the step itself as next", "The next step in the todo list is **Step 3: Update loader.py (primary consumer)**.", Resurrected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Move the consumers over."),
				planOf(2, step("s3", "Step 3: Update loader.py (primary consumer)", model.PlanPending),
					step("s12", "Step 12: Update documentation", model.PlanPending)),
				planOf(5, step("s3", "Step 3: Update loader.py (primary consumer)", model.PlanCompleted),
					step("s12", "Step 12: Update documentation", model.PlanPending))}
			r := Check(src, compaction(20, 1, c.summary), Options{})
			var got Status
			for _, it := range r.Items {
				if strings.Contains(it.Item.Text, "loader.py") {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("step 3 is %q, want %q", got, c.want)
			}
		})
	}
}

// A summary that numbers its steps as the plan did speaks of the step it
// numbers: "Task 3 (IN PROGRESS): … tests for the quality check" does not
// send the agent back to finished task 2, "Add a quality check to the
// translator", whose words it shares.
func TestResurrectionOfAnotherNumberedStep(t *testing.T) {
	cases := []struct {
		name, summary string
		want          Status
	}{
		{"another task by number", "Pending Tasks:\n- **Task 3 (IN PROGRESS)**: Update the translator tests - need to add new test cases for the post-translation quality check.", ""},
		{"the task itself by number", "Pending Tasks:\n- **Task 2**: Add the post-translation quality check to the translator - still to do.", Resurrected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Fix the translations."),
				planOf(2, step("2", "Add post-translation quality check to the translator", model.PlanPending),
					step("3", "Update the translator tests", model.PlanPending)),
				planOf(5, step("2", "Add post-translation quality check to the translator", model.PlanCompleted),
					step("3", "Update the translator tests", model.PlanInProgress))}
			r := Check(src, compaction(20, 1, c.summary), Options{})
			var got Status
			for _, it := range r.Items {
				if strings.Contains(it.Item.Text, "quality check") && it.Status == Resurrected {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("task 2 is %q, want %q", got, c.want)
			}
		})
	}
}

// "Commit changes and create PR" finished for one piece of work is not
// redone by the next piece's commit: a step that publishes no work it
// names is never resurrected; a step with its own object still is.
func TestPublishingStepIsNotResurrected(t *testing.T) {
	cases := []struct {
		name, step string
		want       Status
	}{
		{"commit and PR of no named work", "Commit changes and create PR", ""},
		{"a step with its own object", "Add the retry test for the uploader", Resurrected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Fix issue #84."),
				planOf(2, step("1", c.step, model.PlanPending)),
				planOf(5, step("1", c.step, model.PlanCompleted)),
				msg(6, model.RoleUser, "Now add the Firebase proxy.")}
			summary := "Pending Tasks:\n- Commit changes and create PR for the Firebase proxy changes\n- Add the retry test for the uploader"
			r := Check(src, compaction(20, 1, summary), Options{})
			var got Status
			for _, it := range r.Items {
				if it.Item.Text == c.step && it.Status == Resurrected {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("%q is %q, want %q", c.step, got, c.want)
			}
		})
	}
}

// A promise closed because work followed it, not because a call did it,
// is not known to be done: a summary that still lists it as pending
// resurrects nothing. One a call carried out and the agent claimed is.
func TestActedOnIsNotResurrected(t *testing.T) {
	cases := []struct {
		name string
		src  []model.Event
		want Status
	}{
		{"work followed", []model.Event{msg(1, model.RoleUser, "Open the PR and watch CI."),
			call(2, "w1", "Bash", `{"command":"gh pr checks 35 --watch","run_in_background":true}`), jobResult(3, "w1", "b4gbi9rjs", model.JobRunning),
			msg(4, model.RoleAssistant, "Waiting on the CI checks to resolve. I'll address any feedback once they complete."),
			jobResult(5, "w1", "b4gbi9rjs", model.JobDone),
			call(6, "r1", "Read", `{"file_path":"/tmp/tasks/b4gbi9rjs.output"}`), result(7, "r1", "docs pass; lint pass; test pass", false),
			msg(8, model.RoleAssistant, "All CI checks passed. Now let me check for review comments.")}, ""},
		{"a call did it and the agent said so", []model.Event{msg(1, model.RoleUser, "Fix the footer."),
			msg(2, model.RoleAssistant, "I'll add the changelog link to the footer once the header fix is reviewed."),
			msg(3, model.RoleUser, "Reviewed."),
			call(4, "e1", "Edit", `{"file_path":"src/footer.tsx","old_string":"</ul>","new_string":"<li>changelog link</li></ul>"}`), result(5, "e1", "updated", false),
			msg(6, model.RoleAssistant, "Added the changelog link to the footer.")}, Resurrected},
	}
	summary := "Pending Tasks:\n- Address any valid review feedback\n- Add the changelog link to the footer"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(20, 1, summary), Options{})
			var got Status
			for _, it := range r.Items {
				if it.Kind == Commitment && it.Status == Resurrected {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("got %q, want %q (items %v)", got, c.want, r.Items)
			}
		})
	}
}

// Claude Code refusing an edit of a file not read since is the runtime's
// precondition, not a failure of the work: a lost one is review.
func TestEditPreconditionIsReview(t *testing.T) {
	cases := []struct {
		name, text string
		review     bool
	}{
		{"not read yet", "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", true},
		{"modified since read by someone else", "<tool_use_error>File has been modified since read, either by the user or by a linter.</tool_use_error>", false},
		{"a real edit failure", "<tool_use_error>String to replace not found in file.</tool_use_error>", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Fix the import order."),
				call(2, "e1", "Edit", `{"file_path":"src/app/dispatch.py","old_string":"import b\nimport a","new_string":"import a\nimport b"}`),
				result(3, "e1", c.text, true)}
			r := Check(src, compaction(20, 1, "Working on the import order."), Options{})
			found := false
			for _, it := range r.Items {
				if it.Kind == Error {
					found = true
					if it.Review != c.review {
						t.Errorf("error %q review = %v, want %v", it.Item.Text, it.Review, c.review)
					}
				}
			}
			if !found {
				t.Fatalf("no error item")
			}
		})
	}
}

// A status word in quotation marks is a value the summary names, not a
// status it gives: "the valid values are "done" and "pending"" does not
// report a step done.
func TestQuotedStatusWordIsNoStatus(t *testing.T) {
	cases := []struct {
		name, summary string
		want          Status
	}{
		{"quoted values", "Current work: the step \"Rebuild the search index\" is under way; the valid states in the fixture are \"done\" and \"pending\".", Retained},
		{"a plain completion", "The search index was rebuilt and is done.", Flipped},
		// "complete" as the verb of what comes next is no status.
		{"complete as a verb", "Fix the fixture, then complete the step by rebuilding the search index with the new analyzer.", Retained},
		{"the step is complete", "Rebuilding the search index is complete.", Flipped},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Go ahead."), planOf(2, step("a", "Rebuild the search index", model.PlanInProgress))}
			r := Check(src, compaction(20, 1, c.summary), Options{})
			var got Status
			for _, it := range r.Items {
				if it.Kind == Commitment && strings.Contains(it.Item.Text, "search index") {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("step is %q, want %q", got, c.want)
			}
		})
	}
	src := []model.Event{msg(1, model.RoleUser, "Add the importer."),
		msg(2, model.RoleAssistant, "Now I need to see the FakeStore and the importer interface before I can start writing code."),
		call(2, "r1", "Read", `{"file_path":"internal/store/fake.go"}`), result(3, "r1", "package store", false),
		msg(4, model.RoleUser, "ok")}
	r := Check(src, compaction(20, 1, "The user asked for the importer."), Options{})
	for _, it := range r.Items {
		if it.Kind == Commitment && it.Counts() {
			t.Errorf("a look done before the work is owed: %q", it.Item.Text)
		}
	}
}

// A step cancelled in the plan event that merges it into a sibling ("Write
// new tests" beside "Update the fixtures and write new tests") lives on in
// that sibling: a summary listing it as remaining resurrects nothing.
func TestMergedStepIsNotResurrected(t *testing.T) {
	cases := []struct {
		name   string
		merged string // the open sibling's text in the later plan
		want   Status
	}{
		{"merged into a sibling", "Update the fixtures and document the slug format in roadmap.md", ""},
		{"cancelled outright", "Update the fixtures", Resurrected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Add slugs to the roadmap nodes."),
				planOf(2, step("a", "Update the fixtures", model.PlanPending), step("b", "Document the slug format in roadmap.md", model.PlanPending)),
				planOf(5, step("a", c.merged, model.PlanInProgress), step("b", "Document the slug format in roadmap.md", model.PlanCancelled))}
			r := Check(src, compaction(20, 1, "7. Pending Tasks:\n   - Document the slug format in roadmap.md\n   - Run CI"), Options{})
			var got Status
			for _, it := range r.Items {
				if it.Item.Text == "Document the slug format in roadmap.md" {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("step is %q, want %q", got, c.want)
			}
		})
	}
}

// "I'll note the metadata issue for later" is a promise to remember: a
// summary that says it was noted keeps it; one that says the issue was
// fixed does not.
func TestNotedIsKept(t *testing.T) {
	cases := []struct {
		summary string
		want    Status
	}{
		{"- (Noted for later: investigate the metadata issue in metadata.json)", Retained},
		{"- Nothing else is pending.", Dropped},
	}
	for _, c := range cases {
		t.Run(c.summary, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "Finish the list view; the metadata can wait."),
				msg(2, model.RoleAssistant, "I'll note the metadata issue for later.")}
			r := Check(src, compaction(20, 1, c.summary), Options{})
			if got := statusOf(t, r, Commitment, "metadata").Status; got != c.want {
				t.Errorf("status %s, want %s", got, c.want)
			}
		})
	}
}
