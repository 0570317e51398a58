package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// A failed call of a tool that is neither a shell nor a file edit (a
// browser, an MCP server) is left behind when the same tool later succeeds:
// the agent drove it on. A call the runtime could not run at all (no such
// tool) is not an error of the work.
func TestToolErrorsLeftBehind(t *testing.T) {
	click := call(10, "b1", "mcp__playwright__browser_click", `{"element":"Save","ref":"e12"}`)
	timeout := result(11, "b1", "TimeoutError: locator.click: Timeout 5000ms exceeded.", true)
	cases := []struct {
		name  string
		src   []model.Event
		basis Basis // of the error; "" when it is not an error at all
	}{
		{"the browser timed out and nothing followed", []model.Event{click, timeout}, Stated},
		{"the same browser driven on", []model.Event{click, timeout,
			call(12, "b2", "mcp__playwright__browser_snapshot", `{}`), result(13, "b2", "- Page URL: http://localhost:5173/", false)}, Inferred},
		{"another server's success does not count", []model.Event{click, timeout,
			call(12, "g1", "mcp__github__get_issue", `{"issue_number":12}`), result(13, "g1", "{\"title\":\"Save button\"}", false)}, Stated},
		{"no such tool", []model.Event{call(10, "t1", "Task", `{"prompt":"review"}`), result(11, "t1", "Error: No such tool available: Task", true)}, ""},
		// Stopping what had already finished leaves it stopped: nothing to fix.
		{"a finished task stopped", []model.Event{call(10, "s1", "TaskStop", `{"task_id":"a14e17b584f801579"}`),
			result(11, "s1", "<tool_use_error>No task found with ID: a14e17b584f801579</tool_use_error>", true)}, ""},
		{"a process that was gone killed", []model.Event{call(10, "k1", "Bash", `{"command":"kill 4242"}`),
			result(11, "k1", "Exit code 1\nbash: kill: (4242) - No such process", true)}, ""},
		{"a stop that failed otherwise", []model.Event{call(10, "s1", "TaskStop", `{"task_id":"a1"}`),
			result(11, "s1", "Error: permission denied", true)}, Stated},
		{"another call that found nothing is not a stop", []model.Event{call(10, "g1", "mcp__github__create_comment", `{"issue_number":12}`),
			result(11, "g1", "Not Found", true)}, Stated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(300, 1, "Checked the page."), Options{})
			var got Basis
			for _, it := range r.Items {
				if it.Kind == Error {
					got = it.Basis
				}
			}
			if got != c.basis {
				t.Errorf("error basis %q, want %q (items %v)", got, c.basis, r.Items)
			}
		})
	}
}

// A path named only by a failure ("FAIL ./cmd/cli/session [setup
// failed]") is listed for review: the error item owes the failure, and its
// loss is reported once, as the error's. A path that open work names is
// owed as that work's.
func TestPathNamedOnlyByAnError(t *testing.T) {
	fail := []model.Event{call(3, "c1", "Bash", `{"command":"go test ./..."}`), result(4, "c1", "FAIL\t./cmd/entire/cli/session [setup failed]", true)}
	cases := []struct {
		name  string
		src   []model.Event
		basis Basis
	}{
		{"only the error names it", fail, Inferred},
		{"a plan step names it too", append(append([]model.Event{}, fail...), planEv(5, "1", "Fix the setup of ./cmd/entire/cli/session", model.PlanInProgress)), Recorded},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(300, 1, "Worked on the tests."), Options{})
			var got Basis
			for _, it := range r.Items {
				if it.Kind == Identifier && it.Key == "./cmd/entire/cli/session" || it.Kind == Identifier && it.Key == "cmd/entire/cli/session" {
					got = it.Basis
				}
			}
			if got != c.basis {
				t.Errorf("identifier basis %q, want %q (items %v)", got, c.basis, r.Items)
			}
		})
	}
}

// A task runner's named task says its goal ("mise run test", "task
// lint"): a later success of the same goal by another program leaves the
// failure behind, as for a package script.
func TestTaskRunnerGoals(t *testing.T) {
	src := []model.Event{
		call(3, "c1", "Bash", `{"command":"mise run test"}`),
		result(4, "c1", "[test] $ go test ./...\n--- FAIL: TestResume (0.01s)\nFAIL", true),
		call(5, "c2", "Bash", `{"command":"go test ./..."}`),
		result(6, "c2", "ok  \tentire.io/cli\t2.0s", false),
	}
	r := Check(src, compaction(300, 1, "Worked on resume."), Options{})
	for _, it := range r.Items {
		if it.Kind == Error && it.Basis != Inferred {
			t.Errorf("the failed 'mise run test' is %s after 'go test ./...' passed; want inferred (left behind)", it.Basis)
		}
	}
}

// The same token on both sides of a clause check (a verb that is also the
// status word) is one clause, not a slice from its end back to its start:
// a real Claude Code summary made the check panic, and the compaction
// could not be verified.
func TestSameClauseOfOneToken(t *testing.T) {
	d := parseSummary("Pending: the hourly backfill is done, so the extracts come next.")
	for k := range d.units {
		u := &d.units[k]
		for i := range u.toks {
			if !d.sameClause(u, i, i) {
				t.Errorf("token %d is not in its own clause", i)
			}
		}
	}
}

// A shell line that failed at its cd never ran its work: the agent's next
// line from the right directory corrects it, and nothing is owed.
func TestNavigationSlip(t *testing.T) {
	for _, out := range []string{
		"Exit code 1\n(eval):cd:1: no such file or directory: session",
		"Exit code 1\nbash: cd: web: No such file or directory",
		"Exit code 2\n/bin/sh: 1: cd: can't cd to web",
	} {
		src := []model.Event{call(3, "c1", "Bash", `{"command":"cd session && sed -i 's/a/b/' x_test.go"}`), result(4, "c1", out, true)}
		r := Check(src, compaction(300, 1, "Worked on the tests."), Options{})
		for _, it := range r.Items {
			if it.Kind == Error {
				t.Errorf("%q: an error is owed: %v", out, it)
			}
		}
	}
}

// A failed command whose output says nothing of what went wrong (a runner's
// banner) is the command's failure: its line names the command, and a
// summary that says the command failed carries it.
func TestFailureWithoutAnErrorLine(t *testing.T) {
	src := []model.Event{call(10, "v1", "Bash", `{"command":"bun run verify 2>&1"}`),
		result(11, "v1", "Exit code 1\n$ doppler run -- turbo run typecheck lint test\n• turbo 2.8.9\n• Packages in scope: @acme/core, @acme/cli\n• Running typecheck, lint, test in 2 packages", true)}
	cases := []struct {
		summary string
		want    Status
	}{
		{"Pending: `bun run verify` failed with lint errors and 14 plugin test failures; fix them next.", Retained},
		{"Pending: fix the plugin tests next.", Dropped},
	}
	for _, c := range cases {
		t.Run(c.summary, func(t *testing.T) {
			r := Check(src, compaction(300, 1, c.summary), Options{})
			it := statusOf(t, r, Error, "bun run verify")
			if it.Item.Text != "`bun run verify` failed" || it.Status != c.want {
				t.Errorf("error %q %s, want %q %s", it.Item.Text, it.Status, "`bun run verify` failed", c.want)
			}
		})
	}
}

// A summary that reports a failing test fixed and, among its next steps,
// the run that would show it: the fix is reported, not the failure's end,
// so the error is kept, not flipped. The same "fixed" with no run to come
// is a flip: nothing since succeeded; so is a fix listed under a heading of
// finished work ("Completed"), whatever runs come next (heldout4's k04).
func TestFixReportedRerunPending(t *testing.T) {
	src := []model.Event{
		call(1, "c1", "Bash", `{"command":"cargo test 2>&1 | tail -30"}`),
		result(2, "c1", "test config::tests::generate_rc_extra_commands_no_duplicates ... FAILED\nfailures:\n    config::tests::generate_rc_extra_commands_no_duplicates\nerror: test failed, to rerun pass `--lib`", true),
		call(3, "e1", "Edit", `{"file_path":"src/config.rs","old_string":"matches(\"npm()\")","new_string":"matches(\"npm() {\")"}`),
		result(4, "e1", "The file src/config.rs has been updated.", false),
	}
	fixed := "Notes:\n- Fixed the generate_rc_extra_commands_no_duplicates test by searching for \"npm() {\" instead.\n"
	cases := []struct {
		name, summary string
		want          Status
	}{
		{"the re-run still to do", fixed + "\nPending Tasks:\n- Run `cargo test` to verify all tests pass after the last fix\n", Retained},
		{"no re-run to come", fixed, Flipped},
		{"listed as completed", strings.Replace(fixed, "Notes:", "### Completed", 1) + "\nPending Tasks:\n- Run `cargo test` to verify all tests pass after the last fix\n", Flipped},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(src, compaction(20, 1, c.summary), Options{})
			if got := statusOf(t, r, Error, "c1").Status; got != c.want {
				t.Errorf("error is %s, want %s", got, c.want)
			}
		})
	}
}
