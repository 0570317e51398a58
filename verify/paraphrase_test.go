package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// The words real compactors use for what the source said: each case is a
// paraphrase a careful reader accepts (or a near miss one does not), and
// the status loupe must give the item.
func TestParaphrases(t *testing.T) {
	cases := []struct {
		name    string
		src     []model.Event
		summary string
		kind    Kind
		key     string // a substring of the item's key
		want    []Status
	}{
		{"a British promise kept in American spelling", []model.Event{
			msg(1, model.RoleAssistant, "I'll optimise the dataloader before the full run."),
		}, "### Active\n- Optimize the dataloader before the full run.", Commitment, "dataloader", []Status{Retained}},
		{"a catalogue is a catalog", []model.Event{
			msg(1, model.RoleAssistant, "I'll regenerate the message catalogue once the translators deliver."),
		}, "Pending: regenerate the message catalog when translations arrive.", Commitment, "catalogue", []Status{Retained}},
		{"a noun form carries the verb", []model.Event{
			msg(1, model.RoleAssistant, "I'll verify the release signatures after the upload."),
		}, "Still owed: verification of the release signatures after the upload.", Commitment, "signatures", []Status{Retained}},
		{"a participle after the head does not replace it", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{{ID: "s2", Text: "Launch the LR sweep defined in configs/sweep_lr.toml after the full run", Status: model.PlanPending}}},
		}, "### Pending\n- Launch the LR sweep (lr x warmup grid) after the full run.", Commitment, "sweep", []Status{Retained}},
		{"a re- word made of the head names the redoing", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{{ID: "a2", Text: "Rebuild the autocomplete index for fr-FR into suggest_fr_v8", Status: model.PlanPending}}},
		}, "## Next Move\nfr-FR reindexing into suggest_fr_v8 remains once de-DE is loaded.", Commitment, "fr-fr", []Status{Retained}},
		{"the last part of a compound name names it", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
				{ID: "d1", Text: "Backfill sessions_daily for 2024-03", Status: model.PlanPending},
				{ID: "d2", Text: "Backfill sessions_hourly for 2024-03", Status: model.PlanPending}}},
		}, "Still to do: the hourly backfill for 2024-03.", Commitment, "sessions_hourly", []Status{Retained}},
		{"and not its sibling", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
				{ID: "d1", Text: "Backfill sessions_daily for 2024-03", Status: model.PlanPending},
				{ID: "d2", Text: "Backfill sessions_hourly for 2024-03", Status: model.PlanPending}}},
		}, "Still to do: the hourly backfill for 2024-03.", Commitment, "sessions_daily", []Status{Dropped, Weak}},
		{"'done' in another clause is not the item's", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{{ID: "d3", Text: "Refresh the Looker extracts", Status: model.PlanPending}}},
		}, "The backfill is done, so the extracts come next.", Commitment, "extracts", []Status{Dropped, Weak}},
		{"a noun form with a hyphenated object", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{{ID: "p4", Text: "Revoke the old cert after 48 hours", Status: model.PlanPending}}},
		}, "Pending: the old-cert revocation, after 48 hours.", Commitment, "revoke", []Status{Retained}},
		{"a line copying one step is not its sibling's", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
				{ID: "p2", Text: "Write allow rules for /admin/billing in auth.rego", Status: model.PlanPending},
				{ID: "p3", Text: "Write allow rules for /admin/audit in auth.rego", Status: model.PlanPending}}},
		}, "1. [TODO] Write allow rules for /admin/audit in auth.rego", Commitment, "billing", []Status{Dropped, Weak}},
		{"and is the step's own", []model.Event{
			&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
				{ID: "p2", Text: "Write allow rules for /admin/billing in auth.rego", Status: model.PlanPending},
				{ID: "p3", Text: "Write allow rules for /admin/audit in auth.rego", Status: model.PlanPending}}},
		}, "1. [TODO] Write allow rules for /admin/audit in auth.rego", Commitment, "audit", []Status{Retained}},
		{"a rolled-back deploy is a reverted one", []model.Event{
			msg(1, model.RoleAssistant, "I'll roll back the payments deploy after the incident review."),
		}, "Next: revert the payments deploy once the incident review is done.", Commitment, "payments", []Status{Retained}},

		{"a prohibition said with 'nothing ... may'", []model.Event{
			msg(1, model.RoleUser, "Move the cache. Don't modify anything under third_party/; do not disable any tests."),
		}, "Nothing under third_party/ may be modified.", Constraint, "third_party", []Status{Retained}},
		{"one shared word is no partial restatement", []model.Event{
			msg(1, model.RoleUser, "Move the cache. Don't modify anything under third_party/; do not disable any tests."),
		}, "Flaky test: it fails 3 out of 20 runs.", Constraint, "disable", []Status{Dropped}},

		// Intent of an in-flight call.
		{"a program and its target say what the call is doing", []model.Event{
			call(1, "c1", "bash", `{"command":"kubectl wait --for=condition=Ready certificate/api-tls -n edge --timeout=600s"}`),
		}, "A kubectl wait is blocking until the certificate is Ready.", Handle, "c1", []Status{IntentOnly}},
		{"the program alone does not", []model.Event{
			call(1, "c1", "bash", `{"command":"kubectl wait --for=condition=Ready certificate/api-tls -n edge --timeout=600s"}`),
		}, "Used kubectl to look around.", Handle, "c1", []Status{Dropped}},
		{"a tool's name and its channel say what the call is doing", []model.Event{
			call(1, "c1", "mcp_slack_post_message", `{"channel":"#fin-close","text":"Please approve the reversal."}`),
		}, "A Slack message to #fin-close is waiting for approval.", Handle, "c1", []Status{IntentOnly}},
		{"an MCP bridge call is its server and tool, with its record's id", []model.Event{
			call(1, "c1", "use_mcp_tool", `{"server_name":"servicenow","tool_name":"update_change_request","arguments":{"number":"CHG0041877","work_notes":"diff attached"}}`),
		}, "Recording the diff in change CHG0041877 through the ServiceNow MCP server; not returned yet.", Handle, "c1", []Status{IntentOnly}},
		{"the call's own description says what it is doing", []model.Event{
			call(1, "c1", "bash", `{"command":"torchrun --nproc_per_node=4 train.py","description":"Full March fine-tune"}`),
		}, "The full March fine-tune is still running.", Handle, "c1", []Status{IntentOnly}},

		// Identifiers.
		{"an id in a message's text is the call's", []model.Event{
			call(1, "c1", "mcp_slack_post_message", `{"channel":"#fin-close","text":"Tracking in FIN-2207."}`),
		}, "Posting to #fin-close.", Identifier, "FIN-2207", []Status{Dropped}},
		{"a file with an extension no list knows is a file", []model.Event{
			call(1, "c1", "bash", `{"command":"terraform apply envs/staging/peering.tfplan"}`),
		}, "Applying the staging plan.", Identifier, "peering.tfplan", []Status{Dropped}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(20, 1, c.summary), Options{})
			found := itemOf(r, c.kind, c.key)
			if found == nil {
				t.Fatalf("no %s %q in the set: %v", c.kind, c.key, keysOf(r))
			}
			for _, s := range c.want {
				if found.Status == s {
					return
				}
			}
			t.Errorf("%s %q is %s (%s), want %v", c.kind, c.key, found.Status, found.Why, c.want)
		})
	}
}

// TestClaimsInOtherWords: a completion claim in a noun form closes a
// promise whose means a call carried out, and a check that names the
// promise's file does not carry out an edit of it.
func TestClaimsInOtherWords(t *testing.T) {
	kept := []model.Event{
		msg(1, model.RoleAssistant, "I'll optimise the dataloader by pre-tokenising the March logs into Arrow shards before the full run."),
		call(2, "c1", "bash", `{"command":"python tools/pretokenize.py --in data/march --out data/march_tok"}`), result(3, "c1", "31 shards", false),
		msg(4, model.RoleAssistant, "The dataloader optimisation is done: step time is down to 259 ms."),
	}
	r := Check(kept, compaction(20, 1, "Working on the fine-tune."), Options{})
	owed := false
	for _, it := range r.Items {
		if it.Kind == Commitment && strings.Contains(it.Key, "dataloader") {
			t.Errorf("the claimed, carried-out promise is still owed: %s (%s)", it.Status, it.Why)
		}
	}
	siblings := []model.Event{
		msg(1, model.RoleAssistant, "I'll add a regression test for the inliner crash once the fix is in."),
		msg(2, model.RoleAssistant, "I'll add a regression test for the unroll crash too, after this fix."),
	}
	r = Check(siblings, compaction(20, 1, "Still to do: add a regression test for the inliner crash."), Options{})
	var unroll *ItemResult
	for i, it := range r.Items {
		if it.Kind == Commitment && strings.Contains(it.Key, "unroll") {
			unroll = &r.Items[i]
		}
	}
	if unroll == nil || unroll.Status.Verified() {
		t.Errorf("the test for the unroll crash was taken for the one for the inliner crash: %v", keysOf(r))
	}
	generated := []model.Event{
		msg(1, model.RoleAssistant, "I'll regenerate the TypeScript message catalogue (src/i18n/catalog.gen.ts) after the ICU check passes."),
		call(2, "c1", "bash", `{"command":"pnpm i18n:codegen"}`), result(3, "c1", "wrote src/i18n/catalog.gen.ts (7 locales, 2,914 keys)", false),
		msg(4, model.RoleAssistant, "Regenerated src/i18n/catalog.gen.ts; it now has ja and ko entries."),
	}
	r = Check(generated, compaction(20, 1, "Shipping the locales."), Options{})
	for _, it := range r.Items {
		if it.Kind == Commitment && strings.Contains(it.Key, "catalogue") {
			t.Errorf("a call whose result wrote the promised file did not carry it out: %s (%s)", it.Status, it.Why)
		}
	}
	means := []model.Event{
		msg(1, model.RoleAssistant, "I'll deflake //services/search:integration_test by replacing the fixed sleep with a readiness probe on /healthz."),
		call(2, "c1", "bash", `{"command":"bazel build //services/search/... --config=ci"}`), result(3, "c1", "Build completed successfully", false),
		msg(4, model.RoleAssistant, "The cache migration is done."),
	}
	r = Check(means, compaction(20, 1, "Cache moved."), Options{})
	owed = false
	for _, it := range r.Items {
		if it.Kind == Commitment && strings.Contains(it.Key, "deflake") && it.Open {
			owed = true
		}
	}
	if !owed {
		t.Errorf("a build of the package closed the promise to deflake its test by a probe: %v", keysOf(r))
	}
	checked := []model.Event{
		msg(1, model.RoleAssistant, "I'll update the rollout gate in deploy/gates/ledger.cue to require the reversal field after the PR merges."),
		call(2, "c1", "bash", `{"command":"cue vet ./deploy/gates/... && cue eval ./deploy/gates -e ledger.require"}`), result(3, "c1", "fields: [id]", false),
		msg(4, model.RoleAssistant, "The gate requires id today; the reversal field gets added once the PR merges."),
	}
	r = Check(checked, compaction(20, 1, "Waiting for CI."), Options{})
	owed = false
	for _, it := range r.Items {
		if it.Kind == Commitment && strings.Contains(it.Key, "gate") && it.Open {
			owed = true
		}
	}
	if !owed {
		t.Errorf("a cue vet of the gate closed the promise to update it: %v", keysOf(r))
	}
}

// TestSiblingClaim: a run for one sample does not carry out its sibling's
// step, so claiming both is an unsupported completion for the other.
func TestSiblingClaim(t *testing.T) {
	src := []model.Event{
		&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
			{ID: "g3", Text: "Re-run variant calling (Mutect2) for COLO829", Status: model.PlanPending},
			{ID: "g4", Text: "Re-run variant calling (Mutect2) for HCC1395", Status: model.PlanPending}}},
		call(2, "c1", "bash", `{"command":"nextflow run main.nf --input assets/samplesheet_COLO829.csv --tools mutect2 -resume"}`), result(3, "c1", "Succeeded: 27", false),
		msg(4, model.RoleAssistant, "Variant calling is finished for COLO829 and HCC1395."),
	}
	res := Run(transcriptOf(append(src, compaction(20, 1, "Working."))...), Options{})
	var claimed []string
	for _, f := range res.Findings {
		if f.Kind == UnsupportedCompletion || f.Kind == FalseCompletion {
			claimed = append(claimed, f.Item)
		}
	}
	if len(claimed) != 1 || !strings.Contains(claimed[0], "hcc1395") {
		t.Errorf("want one unsupported claim, of the HCC1395 step; got %q", claimed)
	}
	// The COLO829 step was carried out and claimed outright: nothing is
	// owed for it, though the plan was never updated.
	for _, it := range res.Compactions[0].Items {
		if strings.Contains(it.Key, "colo829") {
			t.Errorf("the carried-out, claimed COLO829 step is still owed: %s", it.Status)
		}
	}
}

// TestCallsThatDoNotCarry: calls that name a plan step's words but do not
// do it leave a claim of it unsupported.
func TestCallsThatDoNotCarry(t *testing.T) {
	step := func(text string) *model.Plan {
		return &model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{{ID: "p1", Text: text, Status: model.PlanPending}}}
	}
	cases := []struct {
		name  string
		src   []model.Event
		claim bool // want an unsupported completion
	}{
		{"a PR body describes the change, it does not make it", []model.Event{
			step("Move Badge to the semantic colour tokens"),
			call(2, "c1", "bash", `{"command":"gh pr create --title 'ui: tokens' --body 'Moves Button, Badge and Toast onto the semantic tokens.'"}`), result(3, "c1", "https://github.com/acme/ds/pull/7", false),
			msg(4, model.RoleAssistant, "The Badge move to the semantic tokens is done as well."),
		}, true},
		{"the edit that makes it does", []model.Event{
			step("Move Badge to the semantic colour tokens"),
			call(2, "c1", "edit", `{"path":"packages/ui/src/Badge/Badge.module.css","old_string":"--red-600","new_string":"--colour-status-danger"}`), result(3, "c1", "ok", false),
			msg(4, model.RoleAssistant, "The Badge move to the semantic tokens is done as well."),
		}, false},
		{"an editor's 'command' field is no shell line, and updated_at is no update", []model.Event{
			step("Update the StatusListener consumer in tracking-service to read carrier_eta"),
			call(2, "c1", "str_replace_editor", `{"command":"str_replace","path":"/w/schemas/shipment_status.avsc","old_str":"updated_at","new_str":"updated_at, carrier_eta"}`), result(3, "c1", "ok", false),
			msg(4, model.RoleAssistant, "The tracking-service consumer update is done: StatusListener now reads carrier_eta."),
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := false
			for _, f := range Run(transcriptOf(append(c.src, compaction(20, 1, "Working."))...), Options{}).Findings {
				got = got || f.Kind == UnsupportedCompletion
			}
			if got != c.claim {
				t.Errorf("unsupported completion: got %v, want %v", got, c.claim)
			}
		})
	}
}

// transcriptOf numbers events into a transcript.
func transcriptOf(events ...model.Event) *model.Transcript {
	tr := &model.Transcript{Path: "t"}
	for i, e := range events {
		e.Header().Index = i
		tr.Events = append(tr.Events, e)
		if c, ok := e.(*model.Compaction); ok {
			tr.Compactions = append(tr.Compactions, c)
		}
	}
	return tr
}
