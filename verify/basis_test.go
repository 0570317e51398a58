package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

func planEv(turn int, id, text string, st model.PlanStatus) *model.Plan {
	return &model.Plan{Base: model.Base{Turn: turn}, Items: []model.PlanItem{{ID: id, Text: text, Status: st}}}
}

// TestBasisConformance holds the basis decisions of DESIGN.md ("How sure
// the source is that an item is owed"): each case is a source and a summary
// that keeps nothing of the item; the item's basis and cue say how sure the
// source is, and only a recorded or stated loss violates.
func TestBasisConformance(t *testing.T) {
	const lost = "Worked on the service; nothing else to report."
	cases := []struct {
		name   string
		src    []model.Event
		kind   Kind
		key    string // a word of the item's key
		basis  Basis
		cue    string // a part of the cue
		review bool   // lost, but only inferred: listed, not counted
	}{
		{
			name: "a plan step pending is recorded",
			src:  []model.Event{planEv(3, "t3", "Re-run the migration", model.PlanPending)},
			kind: Commitment, key: "migrat", basis: Recorded, cue: "plan t3 pending",
		},
		{
			name: "a restraint the agent sets itself is inferred: no call can carry it out",
			src:  []model.Event{msg(5, model.RoleAssistant, "I'll avoid the test-file API change and keep the migration edit confined to db/schema.")},
			kind: Commitment, key: "api", basis: Inferred, cue: "abstention ‘avoid’", review: true,
		},
		{
			name: "leaving a line alone is a restraint too",
			src:  []model.Event{msg(5, model.RoleAssistant, "I'll leave the current uncommitted lyric line alone.")},
			kind: Commitment, key: "lyric", basis: Inferred, cue: "abstention ‘leave … alone’", review: true,
		},
		{
			name: "a promise whose object is a pronoun names nothing a summary can be checked against",
			src:  []model.Event{msg(5, model.RoleAssistant, "Good point about session naming. I'll update that in the plan when we start implementing.")},
			kind: Commitment, key: "plan", basis: Inferred, cue: "its object is ‘that’", review: true,
		},
		{
			name: "'only report your findings' shapes the answer to this request",
			src:  []model.Event{msg(5, model.RoleUser, "Compare our app with the paid one. Only report your findings and changes that you would make.")},
			kind: Constraint, key: "find", basis: Inferred, cue: "the shape of the answer", review: true,
		},
		{
			name: "'only deploy to staging' is a rule",
			src:  []model.Event{msg(5, model.RoleUser, "Only deploy to staging until the audit is done.")},
			kind: Constraint, key: "staging", basis: Stated, cue: "rule phrasing",
		},
		{
			name: "next steps a report then puts to the user are proposed, not taken on",
			src:  []model.Event{msg(5, model.RoleAssistant, "## Security issue fixed\n\n### Next Steps:\n1. **Respond to the security notification** with:\n   - Timestamp of fix\n\nWould you like me to:\n1. Add Redis password authentication?\n2. Check the Redis logs?")},
			kind: Commitment, key: "notif", basis: Inferred, cue: "puts to the user (‘would you like me to’)", review: true,
		},
		{
			name: "next steps with no question after them are the agent's",
			src:  []model.Event{msg(5, model.RoleAssistant, "## Progress\n\n### Next Steps:\n1. Respond to the security notification with the fix time\n2. Rotate the Redis password")},
			kind: Commitment, key: "notif", basis: Stated, cue: "commitment phrasing",
		},
		{
			name: "a wait is no work: what is awaited is owed",
			src:  []model.Event{msg(5, model.RoleAssistant, "Three explore agents are running. I'll wait for the exploration to complete before starting implementation.")},
			kind: Commitment, key: "explor", basis: Inferred, cue: "a wait (‘wait’)", review: true,
		},
		{
			name: "what a change will do is no work the agent owes",
			src:  []model.Event{msg(5, model.RoleAssistant, "Fixes:\n- **Permanent**: `docker-compose.yml` now passes `SANDCASTLE_HOST` to the worker — will take effect on next deploy.")},
			kind: Commitment, key: "deploy", basis: Inferred, cue: "what a change will do (‘take effect’)", review: true,
		},
		{
			name: "a pronoun that determines a noun is no pronoun object",
			src:  []model.Event{msg(5, model.RoleAssistant, "I'll update that migration script when the review lands.")},
			kind: Commitment, key: "migrat", basis: Stated, cue: "‘i'll’",
		},
		{
			name: "narration of the next step with no wait is inferred",
			src:  []model.Event{msg(5, model.RoleAssistant, "The app is starting up. Now I need to rebuild the tray icon bundle for the release.")},
			kind: Commitment, key: "tray", basis: Inferred, cue: "narration ‘now i need to’", review: true,
		},
		{
			name: "a look put off is still narration",
			src:  []model.Event{msg(5, model.RoleAssistant, "The tray icon isn't showing. Let me check the tauri build output once it finishes compiling.")},
			kind: Commitment, key: "output", basis: Inferred, cue: "narration ‘let me’", review: true,
		},
		{
			name: "how the agent will work is no deliverable",
			src:  []model.Event{msg(5, model.RoleAssistant, "I'll work through the migration phases systematically.")},
			kind: Commitment, key: "phase", basis: Inferred, cue: "how the agent will work (‘systematically’)", review: true,
		},
		{
			name: "'I need to' with no wait narrates the next step",
			src:  []model.Event{msg(5, model.RoleAssistant, "I need to fix the import statements in resume.go - they should be at the top of the file.")},
			kind: Commitment, key: "import", basis: Inferred, cue: "narration ‘i need to’", review: true,
		},
		{
			name: "'I still need to' is work left over, stated",
			src:  []model.Event{msg(5, model.RoleAssistant, "I still need to fix the import statements in resume.go.")},
			kind: Commitment, key: "import", basis: Stated, cue: "still need to",
		},
		{
			name: "the same words waiting on something are stated",
			src:  []model.Event{msg(5, model.RoleAssistant, "Let me re-run the migration after the schema diff is reviewed.")},
			kind: Commitment, key: "migrat", basis: Stated, cue: "let me",
		},
		{
			name: "a promise in plain words waiting on a condition is stated",
			src:  []model.Event{msg(5, model.RoleAssistant, "I'll re-run the migration after review.")},
			kind: Commitment, key: "migrat", basis: Stated, cue: "i'll",
		},
		{
			name: "a hypothetical is inferred",
			src:  []model.Event{msg(5, model.RoleAssistant, "If the cache is still stale, we'll need to rebuild the CDN manifest.")},
			kind: Commitment, key: "manifest", basis: Inferred, cue: "hypothetical", review: true,
		},
		{
			name: "a possibility is inferred",
			src:  []model.Event{msg(5, model.RoleAssistant, "We'll probably need to regenerate the protobuf stubs after the bump.")},
			kind: Commitment, key: "stub", basis: Inferred, cue: "probably", review: true,
		},
		{
			name: "a condition on the expected path is stated",
			src:  []model.Event{msg(5, model.RoleAssistant, "If the tests pass, I'll merge the release branch.")},
			kind: Commitment, key: "merg", basis: Stated,
		},
		{
			name: "a fallback plan is inferred",
			src:  []model.Event{msg(5, model.RoleAssistant, "If that doesn't work, I'll try downgrading node to 18.")},
			kind: Commitment, key: "downgrad", basis: Inferred, cue: "may never come", review: true,
		},
		{
			name: "an offer is inferred",
			src:  []model.Event{msg(5, model.RoleAssistant, "I'll add integration tests for the exporter too if you'd like.")},
			kind: Commitment, key: "integr", basis: Inferred, cue: "offer", review: true,
		},
		{
			name: "a call with no result is recorded",
			src:  []model.Event{call(7, "call_77", "bash", `{"command":"make deploy"}`)},
			kind: Handle, key: "call_77", basis: Recorded, cue: "no result",
		},
		{
			name: "an error still the last word on its subject is stated",
			src: []model.Event{
				call(7, "c1", "bash", `{"command":"npm test"}`),
				result(8, "c1", "FAIL src/cart.test.ts\n  ● totals › applies the coupon\nExit code 1", true),
				call(9, "c2", "Edit", `{"file_path":"src/cart.ts","old_string":"a","new_string":"b"}`),
				result(10, "c2", "The file has been updated.", false),
			},
			kind: Error, key: "cart", basis: Stated, cue: "last word",
		},
		{
			name: "an error then a later success of another command at the same goal is inferred",
			src: []model.Event{
				call(7, "c1", "bash", `{"command":"npm test"}`),
				result(8, "c1", "sh: 1: jest: not found in cart.test.ts\nExit code 127", true),
				call(9, "c2", "bash", `{"command":"npx vitest run"}`),
				result(10, "c2", "Test Files  4 passed (4)", false),
			},
			kind: Error, key: "c1", basis: Inferred, cue: "same goal", review: true,
		},
		{
			name: "an error in a container then the tests pass through another runner",
			src: []model.Event{
				call(7, "c1", "bash", `{"command":"docker compose exec api pytest tests/test_orders.py"}`),
				result(8, "c1", "ERROR tests/test_orders.py - ModuleNotFoundError: No module named 'orders'\nExit code 1", true),
				call(9, "c2", "bash", `{"command":"kubectl exec api-7d9 -- python -m pytest tests/test_orders.py"}`),
				result(10, "c2", "5 passed in 0.42s", false),
			},
			kind: Error, key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "the agent says it takes another approach",
			src: []model.Event{
				call(7, "c1", "PowerShell", `{"command":"Install-Module PSScriptAnalyzer -Scope CurrentUser"}`),
				result(8, "c1", "Install-Module: No match was found for the specified search criterion PSScriptAnalyzer", true),
				msg(9, model.RoleAssistant, "The gallery is blocked here, so I'll take a different approach and lint with the bundled rules."),
			},
			kind: Error, key: "c1", basis: Inferred, cue: "moved on", review: true,
		},
		{
			name: "the user changes course",
			src: []model.Event{
				call(7, "c1", "bash", `{"command":"cargo test --features e2e"}`),
				result(8, "c1", "error[E0433]: failed to resolve: use of undeclared crate `wiremock`\nExit code 101", true),
				msg(9, model.RoleUser, "Never mind the e2e feature, focus on the parser."),
			},
			kind: Error, key: "wiremock", basis: Inferred, cue: "user changed course", review: true,
		},
		{
			name: "a failed edit, then the file rewritten by a shell command",
			src: []model.Event{
				call(7, "c1", "Edit", `{"file_path":"config/app.yaml","old_string":"port: 80","new_string":"port: 8080"}`),
				result(8, "c1", "String to replace not found in file.", true),
				call(9, "c2", "bash", `{"command":"sed -i 's/port: 8000/port: 8080/' config/app.yaml"}`),
				result(10, "c2", "", false),
			},
			kind: Error, key: "c1", basis: Inferred, cue: "changed another way", review: true,
		},
		{
			name: "a rule from now on is stated",
			src:  []model.Event{msg(1, model.RoleUser, "From now on, never push to main.")},
			kind: Constraint, key: "push", basis: Stated, cue: "lasting",
		},
		{
			name: "a limit is stated",
			src:  []model.Event{msg(1, model.RoleUser, "Only edit files under alerting/rules/.")},
			kind: Constraint, key: "edit", basis: Stated,
		},
		{
			name: "a one-off request is inferred",
			src:  []model.Event{msg(1, model.RoleUser, "Make sure to add a changelog entry for the header fix.")},
			kind: Constraint, key: "changelog", basis: Inferred, cue: "one-off", review: true,
		},
		{
			name: "a reminder is a one-off request",
			src:  []model.Event{msg(1, model.RoleUser, "Don't forget to update the changelog for the header fix.")},
			kind: Constraint, key: "changelog", basis: Inferred, cue: "one-off", review: true,
		},
		{
			name: "the same request for every change is stated",
			src:  []model.Event{msg(1, model.RoleUser, "Make sure to add a changelog entry for every user-facing change.")},
			kind: Constraint, key: "changelog", basis: Stated, cue: "lasting",
		},
		{
			name: "an identifier takes the strongest basis of the items naming it",
			src: []model.Event{
				msg(1, model.RoleAssistant, "If the flake returns we'll need to bisect PR #4411."),
				planEv(2, "t1", "Rebase PR #4411 onto main", model.PlanInProgress),
			},
			kind: Identifier, key: "#4411", basis: Recorded, cue: "named by a recorded commitment",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(50, 1, lost), Options{})
			it := statusOf(t, r, c.kind, c.key)
			if it.Basis != c.basis {
				t.Errorf("%s %q: basis %s (%s), want %s", c.kind, it.Key, it.Basis, it.Cue, c.basis)
			}
			if c.cue != "" && !strings.Contains(strings.ToLower(it.Cue), strings.ToLower(c.cue)) {
				t.Errorf("%s %q: cue %q, want it to say %q", c.kind, it.Key, it.Cue, c.cue)
			}
			if it.Status.Verified() {
				t.Fatalf("%s %q is %s; the summary keeps nothing", c.kind, it.Key, it.Status)
			}
			if it.Review != c.review {
				t.Errorf("%s %q: review %v, want %v", c.kind, it.Key, it.Review, c.review)
			}
			counted := false
			for _, reason := range r.Reasons {
				if strings.Contains(reason, it.Item.Label()) {
					counted = true
				}
			}
			if counted == c.review {
				t.Errorf("%s %q: among the reasons to violate: %v, want %v (%v)", c.kind, it.Key, counted, !c.review, r.Reasons)
			}
			// --strict counts every item like the others.
			strict := Check(c.src, compaction(50, 1, lost), Options{Strict: true})
			if si := statusOf(t, strict, c.kind, c.key); si.Review || strict.Verdict != Violate {
				t.Errorf("strict: %s %q review %v, verdict %s; want counted, violate", c.kind, si.Key, si.Review, strict.Verdict)
			}
		})
	}
}

// TestReviewIsNoReason: a compaction whose only losses are inferred
// degrades, refuses no consumer, raises no overclaim, and puts nothing back
// into the agent's context; a consumer marked strict is refused.
func TestReviewIsNoReason(t *testing.T) {
	src := []model.Event{
		msg(1, model.RoleUser, "Make sure to add a changelog entry for the header fix."),
		msg(2, model.RoleAssistant, "If the cache is still stale, we'll need to rebuild the CDN manifest."),
	}
	comp := compaction(9, 1, "Fixed the header.", "changelog entry")
	r := Check(src, comp, Options{})
	if r.Verdict != Degrade {
		t.Fatalf("verdict %s, want degrade: %v", r.Verdict, r.Reasons)
	}
	n, by := r.ReviewCount()
	if n != 2 || by[Constraint] != 1 || by[Commitment] != 1 {
		t.Errorf("review count %d %v, want 2 (one constraint, one commitment)", n, by)
	}
	for _, c := range r.Consumers {
		if !c.Allowed {
			t.Errorf("consumer %s refused for review items: %v", c.Name, c.Why)
		}
	}
	if rh := Rehydrate(r, nil, RehydrateOptions{}); rh.Text != "" || len(rh.Items) != 0 {
		t.Errorf("review items re-injected:\n%s", rh.Text)
	}
	strictPlanner := Options{Consumers: []model.Consumer{{Name: "planner", Requires: []string{"commitment", "constraint"}, Strict: true}}}
	r = Check(src, comp, strictPlanner)
	if r.Verdict != Violate {
		t.Errorf("a strict planner: verdict %s, want violate", r.Verdict)
	}
	for _, c := range r.Consumers {
		if c.Allowed == (c.Name == "planner") {
			t.Errorf("a strict planner: consumer %s allowed %v", c.Name, c.Allowed)
		}
	}
}

// TestErrorsLeftBehind works the "left behind" rule over shells and tool
// families: the run moved on from a failure without resolving it under
// the rules of errors.go, so the error stays open but only inferred; a
// failure nothing moved on from stays stated.
func TestErrorsLeftBehind(t *testing.T) {
	patch := func(file string) string {
		return `"*** Begin Patch\n*** Update File: ` + file + `\n@@\n-a\n+b\n*** End Patch\n"`
	}
	cases := []struct {
		name  string
		src   []model.Event
		key   string
		basis Basis // "" when the error must be closed, not listed
		cue   string
	}{
		{
			name: "pip install of a pinned version, then uv adds the package",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"pip install numpy==1.19.5"}`),
				result(2, "c1", "ERROR: Could not find a version that satisfies the requirement numpy==1.19.5\nExit code 1", true),
				call(3, "c2", "bash", `{"command":"uv add numpy"}`),
				result(4, "c2", "Resolved 12 packages", false),
			},
			key: "c1", basis: Inferred, cue: "same goal",
		},
		{
			name: "a cleanup the agent could not do, handed to the user",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"rm -rf ~/dev/app/build-old"}`),
				result(2, "c1", "rm: /Users/user/dev/app/build-old/App.app/Contents/CodeResources: Permission denied\nExit code 1", true),
				msg(3, model.RoleAssistant, "ファイルが root 所有なので削除できません。手動で削除してください：\n\n```bash\nsudo rm -rf ~/dev/app/build-old\n```"),
			},
			key: "c1", basis: Inferred, cue: "handed to the user",
		},
		{
			name: "a failure nothing ran again, the user has spoken three times since",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"codex exec --model gpt-5 'review the provider'"}`),
				result(2, "c1", "ERROR: unexpected status 401 Unauthorized: Missing bearer or basic authentication in header\nExit code 1", true),
				msg(3, model.RoleUser, "Thanks. Now fix the npm provider."),
				msg(4, model.RoleUser, "Now the README."),
				msg(5, model.RoleUser, "And tag a release."),
			},
			key: "c1", basis: Inferred, cue: "the user has spoken 3 times since",
		},
		{
			name: "the same failure, the user has spoken twice",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"codex exec --model gpt-5 'review the provider'"}`),
				result(2, "c1", "ERROR: unexpected status 401 Unauthorized: Missing bearer or basic authentication in header\nExit code 1", true),
				msg(4, model.RoleUser, "Now the README."),
				msg(5, model.RoleUser, "And tag a release."),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "the agent ends its turn with a report that says nothing of the failure, and the user goes on",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"psql -U readonly -d app -c 'SELECT 1'"}`),
				result(2, "c1", "psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: FATAL:  Peer authentication failed\nExit code 2", true),
				call(3, "c2", "Read", `{"file_path":"/srv/app/sensor.go"}`),
				result(4, "c2", "package main", false),
				msg(5, model.RoleAssistant, "Found it: the database has today's readings, the tool returned last week's. Summary:\n- fresh data is there\n- the hint in sensor.go points at the wrong table"),
				msg(6, model.RoleUser, "can you add a hint in the Go file for the model?"),
			},
			key: "c1", basis: Inferred, cue: "ended its turn",
		},
		{
			name: "a report whose words only contain a failure word of another language ('protocol' holds 'roto')",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"psql -U readonly -d app -c 'SELECT 1'"}`),
				result(2, "c1", "psql: error: connection to server failed: FATAL:  Peer authentication failed\nExit code 2", true),
				msg(3, model.RoleAssistant, "Switched the protocol handler; the sensor tool now returns today's data."),
				msg(4, model.RoleUser, "great, now the CSS"),
			},
			key: "c1", basis: Inferred, cue: "ended its turn",
		},
		{
			name: "the same turn ends with a report that says the connection still fails",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"psql -U readonly -d app -c 'SELECT 1'"}`),
				result(2, "c1", "psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: FATAL:  Peer authentication failed\nExit code 2", true),
				msg(3, model.RoleAssistant, "I could not query the database: peer authentication fails for the read-only user."),
				msg(4, model.RoleUser, "ok, then look at the sensor tool instead"),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "the same turn ends with a report in Chinese that says it fails",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"psql -U readonly -d app -c 'SELECT 1'"}`),
				result(2, "c1", "psql: error: connection to server failed: FATAL:  Peer authentication failed\nExit code 2", true),
				msg(3, model.RoleAssistant, "数据库连接失败，只读用户无法认证。"),
				msg(4, model.RoleUser, "好的，继续"),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "the agent's message is followed by more calls: it did not end the turn",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"psql -U readonly -d app -c 'SELECT 1'"}`),
				result(2, "c1", "psql: error: connection to server failed: FATAL:  Peer authentication failed\nExit code 2", true),
				msg(3, model.RoleAssistant, "Let me look at the sensor tool."),
				call(4, "c2", "Read", `{"file_path":"/srv/app/sensor.go"}`),
				result(5, "c2", "package main", false),
				msg(6, model.RoleUser, "[Request interrupted by user]"),
				msg(7, model.RoleUser, "wait, what about the database?"),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "a call the user's permission prompt denied ran nothing: no failure",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"rm -rf node_modules/.cache; ls -la dist || echo none"}`),
				result(2, "c1", "Permission to use Bash with command rm -rf node_modules/.cache; ls -la dist || echo none has been denied.", true),
			},
			key: "c1", basis: "",
		},
		{
			name: "a line the shell could not parse",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"ssh root@host 'redis-cli CONFIG GET bind' && echo $(("}`),
				result(2, "c1", "Exit code 2\nbash: -c: line 6: syntax error near unexpected token `('", true),
			},
			key: "c1", basis: Inferred, cue: "could not parse",
		},
		{
			name: "a line Claude Code's harness could not parse",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"node -e \"console.log(${TREATMENTS.length})\""}`),
				result(2, "c1", "Failed to parse command: Bad substitution: TREATMENTS.length", true),
			},
			key: "c1", basis: Inferred, cue: "could not parse",
		},
		{
			name: "a one-line awk program with a quoting slip",
			src: []model.Event{
				call(1, "c1", "exec_command", `{"cmd":"ssh host 'incus start dev; ip=$(incus list dev -c 4 --format csv | awk \"{print \\\\$1}\"); exit 1'"}`),
				result(2, "c1", "Process exited with code 1\nOutput:\nawk: cmd. line:1: {print \\}\nawk: cmd. line:1:        ^ backslash not last character on line", true),
			},
			key: "c1", basis: Inferred, cue: "could not parse",
		},
		{
			name: "a line dash could not parse",
			src: []model.Event{
				call(1, "c1", "exec_command", `{"cmd":"ssh host 'sh -lc \"for i in \\$(seq 1 60); do docker inspect x; done\"'"}`),
				result(2, "c1", "Process exited with code 2\nOutput:\nsh: 2: Syntax error: word unexpected (expecting \"do\")", true),
			},
			key: "c1", basis: Inferred, cue: "could not parse",
		},
		{
			name: "the same failure, the agent still on it",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"rm -rf ~/dev/app/build-old"}`),
				result(2, "c1", "rm: /Users/user/dev/app/build-old/App.app/Contents/CodeResources: Permission denied\nExit code 1", true),
				msg(3, model.RoleAssistant, "The files are owned by root. Let me check who owns the directory."),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "a rebase refused for unstaged changes, then stash, rebase, pop",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"git fetch origin main && git rebase origin/main 2>&1"}`),
				result(2, "c1", "Exit code 1\nerror: cannot rebase: You have unstaged changes.\nerror: Please commit or stash them.", true),
				call(3, "c2", "Bash", `{"command":"git stash && git rebase origin/main && git stash pop"}`),
				result(4, "c2", "Successfully rebased and updated refs/heads/feature.", false),
			},
			key: "c1", basis: "",
		},
		{
			name: "a command run over ssh fails, then runs again on the host with its env file set",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"ssh 10.0.0.5 \"sudo /opt/dockyard/bin/dockyard.sh verify\" 2>&1"}`),
				result(2, "c1", "Exit code 127\n  FAIL: systemd service — dy1_docker is inactive", true),
				call(3, "c2", "Bash", `{"command":"ssh 10.0.0.5 \"sudo DOCKYARD_ENV=/opt/dockyard/etc/dockyard.env /opt/dockyard/bin/dockyard.sh verify\" 2>&1"}`),
				result(4, "c2", "All 6 checks passed", false),
			},
			key: "c1", basis: "",
		},
		{
			name: "a package script's fixing mode fails, then the check itself passes",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"bun run lint:fix 2>&1"}`),
				result(2, "c1", "Exit code 1\n$ biome check --write\n  × Several of these imports are unused.", true),
				call(3, "c2", "Bash", `{"command":"bun run lint 2>&1"}`),
				result(4, "c2", "Checked 278 files in 106ms. No fixes applied.", false),
			},
			key: "c1", basis: "",
		},
		{
			name: "npx runs the same linter pinned to another version",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"npx @biomejs/biome check src/a.tsx src/b.tsx 2>&1"}`),
				result(2, "c1", "Exit code 1\nbiome.json:5:9 deserialize\n  × Found an unknown key `ignore`.\n  > 5 │         \"ignore\": [", true),
				call(3, "c2", "Bash", `{"command":"npx --package @biomejs/biome@1 biome check src/a.tsx src/b.tsx 2>&1"}`),
				result(4, "c2", "Checked 2 files in 5ms. No fixes applied.", false),
			},
			key: "c1", basis: "",
		},
		{
			name: "a search that matched nothing exits 1: no work failed",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"grep -n \"def stop\" $(bundle show docker-api)/lib/docker/container.rb"}`),
				result(2, "c1", "Exit code 1", true),
			},
			key: "c1", basis: Inferred, cue: "grep matched nothing",
		},
		{
			name: "a search that could not read its file says what failed",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"curl -s localhost:3000 | grep title"}`),
				result(2, "c1", "Exit code 2\ngrep: title: No such file or directory", true),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "another command on the same host does not re-run it",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"ssh 10.0.0.5 \"sudo /opt/dockyard/bin/dockyard.sh verify\" 2>&1"}`),
				result(2, "c1", "Exit code 127\n  FAIL: systemd service — dy1_docker is inactive", true),
				call(3, "c2", "Bash", `{"command":"ssh 10.0.0.5 \"sudo systemctl restart nginx\" 2>&1"}`),
				result(4, "c2", "", false),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "a wrapper refuses the command, which then runs without it",
			src: []model.Event{
				call(1, "c1", "Bash", `{"command":"cd /w && rtk bun run test 2>&1"}`),
				result(2, "c1", "Exit code 2\nerror: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>", true),
				call(3, "c2", "Bash", `{"command":"cd /w && bun run test 2>&1"}`),
				result(4, "c2", "1274 pass\n0 fail", false),
			},
			key: "c1", basis: "",
		},
		{
			name: "pip install fails, and another package is installed",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"pip install psycopg2"}`),
				result(2, "c1", "Error: pg_config executable not found.\nExit code 1", true),
				call(3, "c2", "bash", `{"command":"uv add httpx"}`),
				result(4, "c2", "Resolved 3 packages", false),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "compose exec in one service, then the same command succeeds in another",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"docker compose exec worker php artisan migrate"}`),
				result(2, "c1", "SQLSTATE[HY000] [2002] Connection refused\nExit code 1", true),
				call(3, "c2", "bash", `{"command":"docker compose exec app php artisan migrate"}`),
				result(4, "c2", "Migrated: 2024_01_01_create_orders_table", false),
			},
			key: "c1", basis: Inferred, cue: "elsewhere",
		},
		{
			name: "a script fails, and its second version succeeds",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"python scripts/export_invoices.py --month 2024-05"}`),
				result(2, "c1", "KeyError: 'customer_id'\nExit code 1", true),
				call(3, "c2", "bash", `{"command":"python scripts/export_invoices_v2.py --month 2024-05"}`),
				result(4, "c2", "wrote 412 invoices", false),
			},
			key: "c1", basis: Inferred, cue: "another script",
		},
		{
			name: "the agent finds the failing call did its work after all",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"gh pr create --fill"}`),
				result(2, "c1", "warning: 1 uncommitted change\nExit code 1", true),
				msg(3, model.RoleAssistant, "The exit code is 1, but the JSON output shows it was actually successful: the PR is open."),
			},
			key: "c1", basis: Inferred, cue: "moved on",
		},
		{
			name: "a script fails, and an unrelated one succeeds",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"python scripts/export_invoices.py"}`),
				result(2, "c1", "KeyError: 'customer_id'\nExit code 1", true),
				call(3, "c2", "bash", `{"command":"python scripts/seed_users.py"}`),
				result(4, "c2", "seeded 20 users", false),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "an inline snippet fails, and another snippet succeeds",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"python3 -c \"import yaml; print(yaml.__version__)\""}`),
				result(2, "c1", "ModuleNotFoundError: No module named 'yaml'\nExit code 1", true),
				call(3, "c2", "bash", `{"command":"python3 -c \"import ruamel.yaml as y; print(y.__version__)\""}`),
				result(4, "c2", "0.18.6", false),
			},
			key: "c1", basis: Inferred, cue: "python3 snippet",
		},
		{
			name: "a request fails, and a later one to the same host succeeds",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"curl -sf https://api.internal.example/v2/health"}`),
				result(2, "c1", "curl: (22) The requested URL returned error: 404\nExit code 22", true),
				call(3, "c2", "bash", `{"command":"curl -sf https://api.internal.example/healthz"}`),
				result(4, "c2", "ok", false),
			},
			key: "c1", basis: Inferred, cue: "request to api.internal.example",
		},
		{
			name: "a POST fails, and a GET to the same host succeeds: still the last word",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"curl -X POST https://deploy.example/api/releases -d @release.json"}`),
				result(2, "c1", "curl: (22) The requested URL returned error: 500\nExit code 22", true),
				call(3, "c2", "bash", `{"command":"curl -sf https://deploy.example/api/releases"}`),
				result(4, "c2", "[]", false),
			},
			key: "c1", basis: Stated, cue: "last word",
		},
		{
			name: "go test fails in one package and passes in another: still the last word",
			src: []model.Event{
				call(1, "c1", "bash", `{"command":"go test ./billing/..."}`),
				result(2, "c1", "--- FAIL: TestInvoiceTotals (0.00s)\nFAIL\nExit code 1", true),
				call(3, "c2", "bash", `{"command":"go test ./auth/..."}`),
				result(4, "c2", "ok  \tacme/auth\t0.2s", false),
			},
			key: "TestInvoiceTotals", basis: Stated, cue: "last word",
		},
		{
			name: "a failed apply_patch redone by writing the same file",
			src: []model.Event{
				call(1, "c1", "apply_patch", patch("src/cart.ts")),
				result(2, "c1", "apply_patch verification failed: Failed to find expected lines in src/cart.ts", true),
				call(3, "c2", "Write", `{"file_path":"/repo/src/cart.ts","content":"export const b = 1"}`),
				result(4, "c2", "File created successfully at: /repo/src/cart.ts", false),
			},
			key: "c1", basis: "",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(50, 1, "Worked on the service."), Options{})
			var found *ItemResult
			for i := range r.Items {
				if it := &r.Items[i]; it.Kind == Error && strings.Contains(it.Key, c.key) {
					found = it
				}
			}
			switch {
			case c.basis == "" && found != nil:
				t.Fatalf("error %q is still open (%s, %s); want it closed", found.Key, found.Basis, found.Cue)
			case c.basis == "":
				return
			case found == nil:
				t.Fatalf("no open error %q in %v", c.key, r.Items)
			}
			if found.Basis != c.basis || !strings.Contains(found.Cue, c.cue) {
				t.Errorf("error %q: basis %s (%s), want %s (%s)", found.Key, found.Basis, found.Cue, c.basis, c.cue)
			}
		})
	}
}

// A word to the user on how a run the agent awaits turned out ("Will report
// back when it finishes", "I'll update you when the full run completes") is
// inferred: the run itself is what is owed. Work that waits on a run is
// still stated.
func TestReportOnARunIsInferred(t *testing.T) {
	cases := []struct {
		said  string
		basis Basis
	}{
		{"The suite is running in the background. Will report back when it finishes.", Inferred},
		{"I'll notify you on Discord as soon as the pending run completes.", Inferred},
		{"I'll update you when the full run completes.", Inferred},
		{"I'll update the changelog when the release lands.", Stated},
		{"I'll report the flaky test upstream once the bisect finishes.", Stated},
		{"I'll report the results once the benchmark completes.", Inferred},
		{"I'll re-run the migration after the review.", Stated},
	}
	for _, c := range cases {
		t.Run(c.said, func(t *testing.T) {
			ps := lang.FindPromises(c.said)
			if len(ps) != 1 {
				t.Fatalf("%d promises", len(ps))
			}
			if b, cue := promiseBasis(ps[0]); b != c.basis {
				t.Errorf("basis %s (%s), want %s", b, cue, c.basis)
			}
		})
	}
}

// Conversational words that only look like promises, met in real runs: a
// thing's prediction ("the check is running and will catch the result"),
// narration after an interjection or with a precondition that is the next
// step itself, and how the agent means to work. None is owed; the same
// shapes with a real wait or a real deliverable stay stated.
func TestConversationalPromises(t *testing.T) {
	cases := []struct {
		said  string
		basis Basis // "" when no promise is extracted at all
	}{
		{"The 30-min background check (`bedtkdq7d`) is running and will catch the result.", ""},
		{"I've pushed the fix and will re-run the migration after the review.", Stated},
		{"Wait, I need to be careful.", ""},
		{"Wait, I need to rebuild the tray icon bundle.", Inferred},
		{"Let me re-read the full block flow after my edit.", Inferred},
		{"Let me re-run the migration after the schema diff is reviewed.", Stated},
		{"Before writing the polygon generators, I need to know whether the mesh render path culls back-faces — let me check the mesh state setup.", Inferred},
		{"I'll batch them to move fast.", Inferred},
		{"I'll batch the release notes into the changelog.", Stated},
		{"I'll be careful with the production config.", ""},
		{"I'll be sure to re-run the migration after the review.", Stated},
		{"`onBrokenLinks` never inspects `static/`, so it was never going to catch the llms.txt rot.", ""},
		{"I'm going to catch the llms.txt rot with a link check in CI.", Stated},
		{"I need to update the `populate_folder` code for file pointers to decrypt `ipns_private_key_encrypted` when available.", Inferred},
		{"I need to re-run the `populate_folder` migration when the backup is done.", Stated},
		{"Let me update `cmd_launch()` to use `clone_from_local` when a main workspace path exists.", Inferred},
		{"Now I need to update the RDS handlers to pass the endpoint through when creating instances/clusters.", Inferred},
		{"Let me re-run the migration when the review is approved.", Stated},
		{"**Next step:** `/spec` to decompose this into implementable features and tasks.", Inferred},
		{"**Next step:** decompose the spec into implementable features and tasks.", Stated},
		{"But I need to test the core issue: that after merging main into feature, commits *before* the merge are still condensable.", Inferred},
		{"If all good, type **\"approved\"** and I'll commit the fix, create SUMMARY.md, and update project state.", Inferred},
		{"Once you approve the plan, I'll migrate the staging database.", Inferred},
		{"I'll commit the fix and create SUMMARY.md after the tests pass.", Stated},
	}
	for _, c := range cases {
		t.Run(c.said, func(t *testing.T) {
			ps := lang.FindPromises(c.said)
			var got Basis
			var cue string
			for _, p := range ps {
				if b, cu := promiseBasis(p); got == "" || b.Stronger(got) {
					got, cue = b, cu
				}
			}
			if c.basis == "" && len(ps) > 0 && got != Inferred {
				t.Errorf("promise %q extracted as %s (%s), want none or inferred", ps[0].Action.Text, got, cue)
			}
			if c.basis != "" && got != c.basis {
				t.Errorf("basis %q (%s), want %s (%d promises)", got, cue, c.basis, len(ps))
			}
		})
	}
}

// A plain promise of a turn that went on with work and ended, the user
// speaking next, was most likely done in that turn: inferred. The same
// promise with no work after it, or with a wait, stays stated.
func TestPromiseOfAnEndedTurn(t *testing.T) {
	edit := call(3, "e1", "Edit", `{"file_path":"internal/lanes/render.go","old_string":"a","new_string":"b"}`)
	cases := []struct {
		name  string
		src   []model.Event
		basis Basis
	}{
		{"work after it, then the user", []model.Event{msg(2, model.RoleAssistant, "I'll add the logic to compute and render session lanes."),
			edit, result(4, "e1", "The file has been updated.", false), msg(5, model.RoleAssistant, "Done."), msg(6, model.RoleUser, "Looks good, now the colours.")}, Inferred},
		{"no work after it", []model.Event{msg(2, model.RoleAssistant, "I'll add the logic to compute and render session lanes."),
			msg(6, model.RoleUser, "Looks good, now the colours.")}, Stated},
		{"the turn still running", []model.Event{msg(2, model.RoleAssistant, "I'll add the logic to compute and render session lanes."),
			edit, result(4, "e1", "The file has been updated.", false)}, Stated},
		{"a wait", []model.Event{msg(2, model.RoleAssistant, "I'll add the logic to compute and render session lanes after the review."),
			edit, result(4, "e1", "The file has been updated.", false), msg(6, model.RoleUser, "Looks good, now the colours.")}, Stated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := append([]model.Event{msg(1, model.RoleUser, "Show the sessions as lanes.")}, c.src...)
			r := Check(src, compaction(20, 1, "Worked on the viewer."), Options{})
			it := statusOf(t, r, Commitment, "lane")
			if it.Basis != c.basis {
				t.Errorf("basis %s (%s), want %s", it.Basis, it.Cue, c.basis)
			}
		})
	}
}
