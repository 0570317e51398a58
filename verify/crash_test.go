package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// Real and fuzzed inputs that once panicked the verifier: each must give a
// result, and a compaction that cannot be checked must fail closed.
func TestOddInputsDoNotPanic(t *testing.T) {
	footer := "If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /x.jsonl"
	cases := []struct {
		name string
		src  []model.Event
		sum  string
	}{
		{"whitespace call id in flight", []model.Event{call(1, "  ", "bash", `{"command":"make"}`)}, "Running make."},
		{"empty call id in flight", []model.Event{call(1, "", "bash", `{"command":"make"}`)}, "Running make."},
		{"punctuation call id in flight", []model.Event{call(1, ".", "bash", `{"command":"make"}`)}, "Done. Next: ship."},
		{"an error named only in the runtime's framing", []model.Event{
			call(1, "c1", "bash", `{"command":"go test ./x"}`),
			result(2, "c1", "Error: bad 'snippets' value", true),
			call(3, "c2", "bash", `{"command":"go test ./x"}`),
			result(4, "c2", "ok", false),
		}, "Pending Tasks:\n- none\n" + footer},
		{"a summary that is only framing", []model.Event{msg(1, model.RoleUser, "Never push to main.")}, footer},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(10, 1, c.sum), Options{})
			if r == nil || r.Verdict == "" {
				t.Fatalf("no verdict: %+v", r)
			}
		})
	}
}

// A panic while checking one compaction is loupe's bug: it must not take
// the run down, and that compaction must violate as "could not be
// verified" while the others are checked as usual.
func TestInternalErrorFailsClosed(t *testing.T) {
	evaluateHook = func(c *model.Compaction) {
		if c.Seq == 1 {
			panic("boom")
		}
	}
	defer func() { evaluateHook = nil }()
	tr := &model.Transcript{Path: "t.jsonl"}
	for i, e := range []model.Event{
		msg(1, model.RoleUser, "Never push to main."),
		compaction(2, 1, "Never push to main."),
		compaction(3, 2, "Rule: never push to main."),
	} {
		e.Header().Index, e.Header().Line = i, i+1
		tr.Events = append(tr.Events, e)
		if c, ok := e.(*model.Compaction); ok {
			tr.Compactions = append(tr.Compactions, c)
		}
	}
	res := Run(tr, Options{})
	if len(res.Compactions) != 2 {
		t.Fatalf("%d compactions, want 2", len(res.Compactions))
	}
	bad, good := res.Compactions[0], res.Compactions[1]
	if bad.Verdict != Violate || !bad.Unverifiable || !strings.Contains(strings.Join(bad.Reasons, " "), "could not be verified") {
		t.Errorf("the compaction that panicked: %+v", bad)
	}
	for _, c := range bad.Consumers {
		if c.Allowed {
			t.Errorf("consumer %s allowed a summary that could not be verified", c.Name)
		}
	}
	if good.Verdict != Degrade {
		t.Errorf("the next compaction: %s %v", good.Verdict, good.Reasons)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Msg, "internal error") || res.Warnings[0].Line != 2 {
		t.Errorf("warnings %+v", res.Warnings)
	}
}
