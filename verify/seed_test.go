package verify

import (
	"errors"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// The seed's illustration has five known defects (DESIGN.md); each test
// shows loupe does not share one.

func msg(turn int, role model.Role, text string) *model.Message {
	return &model.Message{Base: model.Base{Turn: turn}, Role: role, Text: text}
}

func call(turn int, id, name, input string) *model.ToolCall {
	return &model.ToolCall{Base: model.Base{Turn: turn}, ID: id, Name: name, Input: model.NewText(input)}
}

func result(turn int, id, text string, isErr bool) *model.ToolResult {
	return &model.ToolResult{Base: model.Base{Turn: turn}, ID: id, Text: model.NewText(text), IsError: isErr}
}

func compaction(turn, seq int, summary string, retained ...string) *model.Compaction {
	c := &model.Compaction{Base: model.Base{Turn: turn}, Seq: seq, Summary: summary}
	if retained != nil {
		c.SelfReport = &model.SelfReport{Retained: retained}
	}
	return c
}

func statusOf(t *testing.T, r *CompactionResult, kind Kind, key string) ItemResult {
	t.Helper()
	for _, it := range r.Items {
		if it.Kind == kind && strings.Contains(it.Key, key) {
			return it
		}
	}
	t.Fatalf("no %s item %q in %v", kind, key, r.Items)
	return ItemResult{}
}

// Defect 1: `item not in summary` is a substring test. loupe matches ids at
// token boundaries and actions by meaning.
func TestSeedDefect1SubstringMatching(t *testing.T) {
	src := []model.Event{
		msg(1, model.RoleUser, "Run the unit and integration tests."),
		call(2, "call_1", "bash", `{"command":"go test ./integration/..."}`),
		call(3, "call_12", "bash", `{"command":"go test ./unit/..."}`),
		result(4, "call_12", "ok", false),
	}
	r := Check(src, compaction(5, 1, "Unit tests passed (call_12)."), Options{})
	if got := statusOf(t, r, Handle, "call_1").Status; got == Retained {
		t.Errorf("call_1 is retained by a summary that only says call_12")
	}
	// A paraphrase is not a drop.
	src = []model.Event{msg(1, model.RoleAssistant, "I'll regenerate the mocks once the client bump compiles.")}
	r = Check(src, compaction(2, 1, "Mock regeneration is still to do."), Options{})
	if got := statusOf(t, r, Commitment, "regenerate").Status; got != Retained {
		t.Errorf("paraphrase: status %s, want retained", got)
	}
}

// Defect 2: the preservation set is handed in by the caller. loupe derives it
// from the source; the caller has no way to pass one.
func TestSeedDefect2SetDerivedFromSource(t *testing.T) {
	src := []model.Event{
		msg(1, model.RoleUser, "Never run migrations against production."),
		msg(2, model.RoleAssistant, "I will re-run the migration after the schema diff is reviewed."),
		call(3, "call_9", "bash", `{"command":"make build"}`),
		result(4, "call_9", "store.go:88:9: undefined: orders.NewStore", true),
	}
	r := Check(src, compaction(5, 1, "The schema diff was reviewed."), Options{})
	kinds := map[Kind]bool{}
	for _, it := range r.Items {
		kinds[it.Kind] = true
	}
	for _, k := range []Kind{Commitment, Constraint, Error} {
		if !kinds[k] {
			t.Errorf("no %s item extracted from the source: %v", k, r.Items)
		}
	}
	if r.Verdict != Violate {
		t.Errorf("verdict %s, want violate", r.Verdict)
	}
}

// Defect 3: the seed flags claims about items outside the required set and
// never compares a claim with what survived. loupe resolves each claim
// against the source and judges it by the item's status.
func TestSeedDefect3SelfReportComparedWithSource(t *testing.T) {
	src := []model.Event{
		msg(1, model.RoleAssistant, "I'll update the changelog after the release PR merges."),
		&model.Plan{Base: model.Base{Turn: 2}, Items: []model.PlanItem{{ID: "p1", Text: "Open the release PR", Status: model.PlanCompleted}}},
	}
	r := Check(src, compaction(3, 1, "Release PR opened.", "update the changelog", "p1", "deploy to staging"), Options{})
	if got := statusOf(t, r, Commitment, "changelog").SelfReport; got != Overclaim {
		t.Errorf("claim of a dropped item: %s, want overclaim", got)
	}
	if len(r.UnsourcedClaims) != 1 || r.UnsourcedClaims[0] != "deploy to staging" {
		t.Errorf("unsourced claims %v, want [deploy to staging]", r.UnsourcedClaims)
	}
	// p1 is outside the required set (closed): a stale claim is information,
	// not a reason to violate.
	for _, reason := range r.Reasons {
		if strings.Contains(reason, "p1") {
			t.Errorf("the claim about the closed p1 became a reason: %s", reason)
		}
	}
	stale := false
	for _, w := range r.Warnings {
		stale = stale || strings.Contains(w.Msg, "stale claim")
	}
	if !stale {
		t.Errorf("no stale-claim warning for p1: %v", r.Warnings)
	}
}

// Defect 4: the consumer gate compares item strings. loupe gates by the
// kinds a consumer depends on.
func TestSeedDefect4ConsumersGateOnKinds(t *testing.T) {
	src := []model.Event{msg(1, model.RoleAssistant, "I will drain the old queue after the consumers switch over.")}
	r := Check(src, compaction(2, 1, "Consumers are moving to the new queue."), Options{})
	allowed := map[string]bool{}
	for _, c := range r.Consumers {
		allowed[c.Name] = c.Allowed
	}
	if allowed["planner"] || !allowed["router"] || !allowed["verifier"] {
		t.Errorf("planner must be refused (commitment lost), router and verifier allowed: %v", allowed)
	}
	custom := Check(src, compaction(2, 1, "Consumers are moving to the new queue."),
		Options{Consumers: []model.Consumer{{Name: "router", Requires: []string{"commitment"}}}})
	for _, c := range custom.Consumers {
		if c.Name == "router" && c.Allowed {
			t.Errorf("a router declared to require commitments is allowed")
		}
	}
}

// Defect 5: the seed raises on the first problem, returns no degrade verdict
// and no loss ratio. loupe lists every reason, and degrades with a loss ratio
// when the loss is inside the preservation set.
func TestSeedDefect5AllReasonsAndDegrade(t *testing.T) {
	src := []model.Event{
		msg(1, model.RoleUser, "Never push to main."),
		msg(2, model.RoleAssistant, "I'll open the PR for ORD-1881 once CI passes."),
		call(3, "call_7", "bash", `{"command":"make integration"}`),
	}
	r := Check(src, compaction(4, 1, "Working on ORD work.", "open the PR", "call_7"), Options{})
	if len(r.Reasons) < 5 {
		t.Errorf("want every reason (constraint, commitment, identifier, handle, overclaims, consumers), got %d: %v", len(r.Reasons), r.Reasons)
	}
	err := r.Admit("router")
	var v *InvariantViolation
	if !errors.As(err, &v) || len(v.Reasons) < len(r.Reasons) {
		t.Errorf("Admit: %v, want an *InvariantViolation with every reason", err)
	}

	long := strings.Repeat("Reading handler code and tests for the orders service. ", 400)
	src = []model.Event{
		msg(1, model.RoleUser, "Never push to main."),
		msg(2, model.RoleAssistant, "I'll open the PR once CI passes."),
		msg(3, model.RoleAssistant, long),
	}
	r = Check(src, compaction(4, 1, "Never push to main. Pending: open the PR once CI passes."), Options{})
	if r.Verdict != Degrade || r.LossRatio < 0.95 {
		t.Errorf("verdict %s loss %.3f, want degrade with a loss above 95%%: %v", r.Verdict, r.LossRatio, r.Reasons)
	}
	if err := r.Admit("planner"); err != nil {
		t.Errorf("Admit(planner) on a degrade: %v", err)
	}
	if err := r.Admit("scheduler"); err == nil {
		t.Errorf("an undeclared consumer is admitted")
	}
}
