package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// DESIGN.md, "Rulings on wording", claims: a past participle predicated of
// the object claims the work done; a call doing the opposite of the promise
// does not carry it out; a round of questions asked and answered is not an
// unsupported completion.
func TestRulingClaims(t *testing.T) {
	cases := []struct {
		name    string
		src     []model.Event
		finding bool // an unsupported or false completion is reported
	}{
		{
			name: "a past participle of the object, with no call",
			src: []model.Event{
				msg(1, model.RoleAssistant, "I'll migrate the staging database once the backup finishes."),
				msg(2, model.RoleUser, "The backup finished."),
				msg(3, model.RoleAssistant, "The staging database is migrated."),
			},
			finding: true,
		},
		{
			name: "a call that does the opposite",
			src: []model.Event{
				msg(1, model.RoleAssistant, "I'll turn the cache back on after the load test."),
				call(2, "c1", "bash", `{"command":"./server --disable-cache"}`),
				result(3, "c1", "server started", false),
				msg(4, model.RoleAssistant, "The cache is turned back on."),
			},
			finding: true,
		},
		{
			name: "the call that does it",
			src: []model.Event{
				msg(1, model.RoleAssistant, "I'll turn the cache back on after the load test."),
				call(2, "c1", "bash", `{"command":"./server --enable-cache"}`),
				result(3, "c1", "server started", false),
				msg(4, model.RoleAssistant, "The cache is turned back on."),
			},
			finding: false,
		},
		{
			name: "requirements clarified with the user in conversation",
			src: []model.Event{
				msg(1, model.RoleAssistant, "Next I need to clarify the schema requirements with you."),
				msg(1, model.RoleAssistant, "Should the new column be nullable? Which default should it have?"),
				msg(2, model.RoleUser, "Nullable, no default."),
				msg(3, model.RoleAssistant, "The schema requirements are clarified."),
			},
			finding: false,
		},
		{
			name: "a target confirmed with the user",
			src: []model.Event{
				msg(1, model.RoleAssistant, "I'll confirm the target region with you first. Which region should I deploy to?"),
				msg(2, model.RoleUser, "eu-west-1."),
				msg(3, model.RoleAssistant, "Target region confirmed: eu-west-1."),
			},
			finding: false,
		},
		{
			name: "a confirmation never asked",
			src: []model.Event{
				msg(1, model.RoleAssistant, "I'll confirm the target region with you before deploying."),
				msg(2, model.RoleUser, "Also bump the version."),
				msg(3, model.RoleAssistant, "Target region confirmed: eu-west-1."),
			},
			finding: true,
		},
		{
			name: "questions asked and answered",
			src: []model.Event{
				msg(1, model.RoleAssistant, "Before I start, I'll ask a few questions about the deployment target."),
				msg(1, model.RoleAssistant, "Which region should it run in? And should it use the shared VPC?"),
				msg(2, model.RoleUser, "eu-west-1, and yes, the shared VPC."),
				msg(3, model.RoleAssistant, "Thanks, I asked my questions about the deployment target and have what I need."),
			},
			finding: false,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Run(transcriptOf(c.src...), Options{})
			got := false
			for _, f := range res.Findings {
				if f.Kind == UnsupportedCompletion || f.Kind == FalseCompletion {
					got = true
				}
			}
			if got != c.finding {
				t.Errorf("completion finding = %v, want %v (%+v)", got, c.finding, res.Findings)
			}
		})
	}
}

// A done word inside a quotation names a phrase; it is not a claim. A plan
// step a call may have carried out stays open when the only "claim" is the
// agent quoting words ("so I don't conflate “planned rename” with
// “completed work”"), and closes when the agent says it outright.
func TestQuotedDoneIsNoClaim(t *testing.T) {
	cases := []struct {
		said     string
		wantOpen bool
	}{
		{"Before I touch the package split, I’m going to check the Beads state so I don’t conflate “planned rename” with “completed work.”", true},
		{"I’ll check the tracker so its \"verified and completed\" label means what it says.", true},
		{"The verification and final review is completed.", false},
	}
	for _, c := range cases {
		t.Run(c.said, func(t *testing.T) {
			src := []model.Event{
				planOf(1, step("a", "Audit the existing surfaces", model.PlanCompleted), step("b", "Run relevant verification and final review", model.PlanInProgress)),
				call(2, "c1", "exec_command", `{"cmd":"bunx biome check --write apps/cli/src/index.ts"}`),
				result(3, "c1", "Checked 1 file in 5ms. No fixes applied.", false),
				msg(4, model.RoleUser, "also what is happening with the sdk?"),
				msg(5, model.RoleAssistant, c.said),
			}
			r := Check(src, compaction(50, 1, "Working on the trace docs branch."), Options{})
			open := false
			for _, it := range r.Items {
				if it.Kind == Commitment && it.Action == "Run relevant verification and final review" {
					open = true
				}
			}
			if open != c.wantOpen {
				t.Errorf("plan step open at the compaction: %v, want %v", open, c.wantOpen)
			}
		})
	}
}

// A pending task line opening with "Complete" gives the verb, to do: a plan
// step the summary lists so is carried, not presented as done. "Complete"
// as a label ("Checkpoint verification: Complete ✓") says it is done.
func TestCompleteAsATaskVerb(t *testing.T) {
	cases := []struct {
		summary string
		want    Status
	}{
		{"## Pending Tasks\n- Complete checkpoint verification of the visual appearance (user needs to test the updated opacity scale)", Retained},
		{"## Progress\n- Checkpoint: human verification of the visual appearance — Complete ✓", Flipped},
	}
	for _, c := range cases {
		t.Run(c.summary, func(t *testing.T) {
			src := []model.Event{planOf(1, step("a", "Checkpoint: Human verification of visual appearance", model.PlanInProgress))}
			r := Check(src, compaction(50, 1, c.summary), Options{})
			got := Status("")
			for _, it := range r.Items {
				if it.Kind == Commitment {
					got = it.Status
				}
			}
			if got != c.want {
				t.Errorf("plan step %q, want %q", got, c.want)
			}
		})
	}
}

// "I'll spawn 5 parallel explore agents" is carried out by the runtime's
// sub-agent calls (Claude Code's Task with a subagent_type), whatever the
// tool is called: a summary saying they were spawned reports what ran.
func TestSpawnedAgentsCarryThePromise(t *testing.T) {
	src := []model.Event{
		msg(1, model.RoleAssistant, "I'll read the manifest first, then spawn 5 parallel explore agents to compare different aspects."),
		call(2, "c1", "Task", `{"subagent_type":"Explore","description":"Compare scoring systems","prompt":"Compare the scoring"}`),
		result(3, "c1", "Async agent launched successfully. agentId: a18116b", false),
		call(4, "c2", "Task", `{"subagent_type":"Explore","description":"Compare ratios","prompt":"Compare the ratios"}`),
		result(5, "c2", "Async agent launched successfully. agentId: aae8ee0", false),
		msg(6, model.RoleAssistant, "Spawned the explore agents; waiting for their results."),
	}
	r := Check(src, compaction(50, 1, "Spawned 5 parallel explore agents to compare the implementations."), Options{})
	for _, it := range r.Items {
		if it.Kind == Commitment && strings.Contains(it.Key, "spawn") && it.Status == Flipped {
			t.Errorf("the spawn promise is reported flipped: %s", it.Why)
		}
	}
}
