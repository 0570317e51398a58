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
