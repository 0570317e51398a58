package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// The rules real runs needed (testdata/real), each on a small run shaped
// like the real case: what a careful reader does not count as owed, and
// the nearby case that stays owed.
func TestRealRunRules(t *testing.T) {
	const open, gone = true, false
	cases := []struct {
		name    string
		src     []model.Event
		summary string
		kind    Kind
		key     string // a substring of the item's key
		owed    bool   // the item must be in the set, not verified
	}{
		// Errors.
		{"a rerun from another directory under a wrapper resolves the failure", []model.Event{
			call(1, "c1", "bash", `{"command":"go test ./orders"}`), result(2, "c1", "--- FAIL: TestCreate (0.01s)", true),
			call(3, "c2", "bash", `{"command":"cd /repo && GOFLAGS=-mod=mod go test -v ./orders"}`), result(4, "c2", "ok", false),
		}, "Working on orders.", Error, "TestCreate", gone},
		{"another subcommand does not resolve it", []model.Event{
			call(1, "c1", "bash", `{"command":"go test ./orders"}`), result(2, "c1", "--- FAIL: TestCreate (0.01s)", true),
			call(3, "c2", "bash", `{"command":"go vet ./orders"}`), result(4, "c2", "", false),
		}, "Working on orders.", Error, "TestCreate", open},
		{"a conflicted merge ends with a commit", []model.Event{
			call(1, "c1", "bash", `{"command":"git merge origin/main"}`), result(2, "c1", "CONFLICT (content): Merge conflict in a.go\nAutomatic merge failed; fix conflicts and then commit the result.", true),
			call(3, "c2", "bash", `{"command":"git add a.go && git commit --no-edit"}`), result(4, "c2", "[b 1a2b3c4] Merge", false),
		}, "Merged main.", Error, "merge failed", gone},
		{"a rejected push is over when a push succeeds", []model.Event{
			call(1, "c1", "bash", `{"command":"git add x && git commit -m x && git push"}`), result(2, "c1", "error: failed to push some refs to 'origin'", true),
			call(3, "c2", "bash", `{"command":"git pull --rebase && git push"}`), result(4, "c2", "done", false),
		}, "Pushed.", Error, "failed to push", gone},
		{"a usage error is resolved by the corrected call", []model.Event{
			call(1, "c1", "bash", `{"command":"claude --print --tools x"}`), result(2, "c1", "Error: Input must be provided either through stdin or as a prompt argument", true),
			call(3, "c2", "bash", `{"command":"echo hi | claude --print"}`), result(4, "c2", "hello", false),
		}, "Tried the CLI.", Error, "Input must be provided", gone},
		{"a parallel call's 'sibling errored' is no error", []model.Event{
			call(1, "c1", "bash", `{"command":"make lint"}`), result(2, "c1", "<tool_use_error>Sibling tool call errored</tool_use_error>", true),
		}, "Linting.", Error, "Sibling", gone},
		{"'already exists' only states what is", []model.Event{
			call(1, "c1", "bash", `{"command":"gh pr create --fill"}`), result(2, "c1", "a pull request for branch \"x\" into branch \"main\" already exists", true),
		}, "PR open.", Error, "already exists", gone},
		{"find -exec cat only looks", []model.Event{
			call(1, "c1", "bash", `{"command":"find skills -name SKILL.md -exec cat {} \\;"}`), result(2, "c1", "find: skills: No such file or directory", true),
		}, "Looked for skills.", Error, "No such file", gone},
		{"a run that names what failed resolves it", []model.Event{
			call(1, "c1", "bash", `{"command":"mix credo --strict"}`), result(2, "c1", "Exit code 2\n[D] lib/app/registry.ex:12 Nested modules could be aliased", true),
			call(3, "c2", "bash", `{"command":"mix credo --strict lib/app/registry.ex"}`), result(4, "c2", "found no issues", false),
		}, "Credo is clean.", Error, "Nested modules", gone},

		{"the same command in a container resolves it", []model.Event{
			call(1, "c1", "bash", `{"command":"ffmpeg -i samples/a.mp4 -c:v libsvtav1 -crf 32 /tmp/out.mp4"}`), result(2, "c1", "Unknown encoder 'libsvtav1'\nError selecting an encoder", true),
			call(3, "c2", "bash", `{"command":"docker run --rm -v $PWD:/w ghcr.io/acme/ffmpeg-svtav1:7.0 -i /w/samples/a.mp4 -c:v libsvtav1 -crf 32 /w/tmp/out.mp4"}`), result(4, "c2", "speed=1.29x", false),
		}, "Encoding works.", Error, "encoder", gone},
		{"another encode in a container does not", []model.Event{
			call(1, "c1", "bash", `{"command":"ffmpeg -i samples/a.mp4 -c:v libsvtav1 -crf 32 /tmp/out.mp4"}`), result(2, "c1", "Unknown encoder 'libsvtav1'\nError selecting an encoder", true),
			call(3, "c2", "bash", `{"command":"docker run --rm ghcr.io/acme/ffmpeg-svtav1:7.0 -i /w/samples/b.mp4 -c:v libx264 /w/tmp/b.mp4"}`), result(4, "c2", "speed=3x", false),
		}, "Encoding works.", Error, "encoder", open},

		// Commitments.
		{"a call that names the thing the promise names does it", []model.Event{
			msg(1, model.RoleAssistant, "I'll spin up the av1-workers pool from ami-0b7e4d2c9a1f3e5d6 after you confirm the budget."),
			msg(2, model.RoleUser, "Budget confirmed."),
			call(3, "c1", "bash", `{"command":"terraform -chdir=infra/workers apply -target=module.av1_workers -auto-approve"}`), result(4, "c1", "Apply complete!", false),
			msg(5, model.RoleAssistant, "Provisioning of the av1-workers pool is done."),
		}, "Pool is up.", Commitment, "av1-workers", gone},
		{"a look at it does not", []model.Event{
			msg(1, model.RoleAssistant, "I'll spin up the av1-workers pool from ami-0b7e4d2c9a1f3e5d6 after you confirm the budget."),
			call(3, "c1", "bash", `{"command":"aws autoscaling describe-auto-scaling-groups --auto-scaling-group-names av1-workers"}`), result(4, "c1", "[]", false),
			msg(5, model.RoleAssistant, "Provisioning of the av1-workers pool is done."),
		}, "Pool is up.", Commitment, "av1-workers", open},
		{"a message ending in a colon narrates its promises", []model.Event{
			msg(1, model.RoleAssistant, "Now I need to update the references from cwd to repoRoot. Let me find them:"),
			call(1, "c1", "Grep", `{"pattern":"cwd"}`), result(2, "c1", "a.go:3: cwd", false),
			msg(2, model.RoleAssistant, "Found three."),
		}, "Refactoring paths.", Commitment, "references", gone},
		{"the same promise without the announcing colon and with no call stays owed", []model.Event{
			msg(1, model.RoleAssistant, "I'll update the references from cwd to repoRoot later."),
		}, "Refactoring paths.", Commitment, "references", open},
		{"a promise in a fenced example is nobody's", []model.Event{
			msg(1, model.RoleAssistant, "The transcript would read:\n```\n[Assistant] I'll update the button styling later.\n```\nThat is the format."),
		}, "Designing the format.", Commitment, "button", gone},
		{"another subject's future is not the speaker's", []model.Event{
			msg(1, model.RoleAssistant, "- The agent is still running, will try to SaveChanges later."),
		}, "Designing.", Commitment, "savechanges", gone},
		{"a promise in a relative clause is none", []model.Event{
			msg(1, model.RoleAssistant, "Let me explore the code paths I'll need to modify later."),
		}, "Exploring.", Commitment, "modify", gone},
		{"waiting on running agents is kept when they have all reported", []model.Event{
			call(1, "c1", "Task", `{"description":"review a"}`), jobResult(2, "c1", "j1", model.JobRunning),
			msg(2, model.RoleAssistant, "I'll collect the results as they complete."),
			jobResult(3, "c1", "j1", model.JobDone),
			msg(4, model.RoleAssistant, "Review A is in: no problems."),
		}, "Reviews done.", Commitment, "collect", gone},
		{"a next-steps list is the agent's plan", []model.Event{
			msg(1, model.RoleAssistant, "**Next steps:**\n- WP19: Extract setup logic from main.ts\n- (Optional) Move components"),
		}, "Refactor under way.", Commitment, "extract setup logic", open},
		{"a file the promise names is not carried by a script that merely mentions it", []model.Event{
			msg(1, model.RoleAssistant, "I'll extract the setup logic from main.ts after the review."),
			call(2, "c1", "bash", `{"command":"sed -i 's|./a.js|./b.js|' main.ts cli.ts"}`), result(3, "c1", "", false),
			msg(4, model.RoleAssistant, "Fixed the imports; the core business logic lives in core/."),
		}, "Imports fixed.", Commitment, "extract setup logic", open},

		// Rules.
		{"a prohibition is lifted when the user asks for it", []model.Event{
			msg(1, model.RoleUser, "Write the plan to a file, don't commit."),
			msg(2, model.RoleUser, "Commit the changes"),
		}, "Plan written.", Constraint, "commit", gone},
		{"asking for something else keeps it", []model.Event{
			msg(1, model.RoleUser, "Never push to main."),
			msg(2, model.RoleUser, "Push the branch."),
		}, "Working.", Constraint, "push", open},
		{"a rule restated with another rule after 'but' keeps its sense", []model.Event{
			msg(1, model.RoleUser, "A is fine, ensure we log"),
		}, "- Non-blocking: log errors but don't prevent commits", Constraint, "log", gone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(20, 1, c.summary), Options{})
			found := itemOf(r, c.kind, c.key)
			switch {
			case c.owed && (found == nil || found.Status.Verified()):
				t.Errorf("want %s %q owed and not verified, got %+v (items %v)", c.kind, c.key, found, keysOf(r))
			case !c.owed && found != nil && !found.Status.Verified():
				t.Errorf("want no unverified %s %q, got %s: %s", c.kind, c.key, found.Status, found.Why)
			}
		})
	}
}

func jobResult(turn int, id, job string, state model.JobState) *model.ToolResult {
	r := result(turn, id, "job "+job+" "+string(state), false)
	r.Job = &model.Job{ID: job, State: state}
	return r
}

// itemOf returns the last item of kind whose key holds key (any case), or nil.
func itemOf(r *CompactionResult, kind Kind, key string) *ItemResult {
	var found *ItemResult
	for i := range r.Items {
		if r.Items[i].Kind == kind && strings.Contains(strings.ToLower(r.Items[i].Key), strings.ToLower(key)) {
			found = &r.Items[i]
		}
	}
	return found
}

func keysOf(r *CompactionResult) []string {
	var out []string
	for _, it := range r.Items {
		out = append(out, string(it.Kind)+":"+it.Key+":"+string(it.Status))
	}
	return out
}
