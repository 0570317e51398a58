package lang

import "testing"

// Actions joined by "then" that name only another object take the first
// action's verb: "create the v2.1 issues, then v2.2 (4 issues)" promises
// to create the v2.2 issues, not to "v2" something.
func TestSplitActionsKeepTheVerb(t *testing.T) {
	cases := []struct {
		said  string
		verbs []string
	}{
		{"I'll create the v2.1 issues first (6 issues), then v2.2 (4 issues), then v3.0 (5 issues).", []string{"create", "create", "create"}},
		{"I'll update the README, then the changelog.", []string{"update", "update"}},
		{"I'll fix the parser, then run the tests.", []string{"fix", "run"}},
	}
	for _, c := range cases {
		ps := FindPromises(c.said)
		if len(ps) != len(c.verbs) {
			t.Errorf("%q: %d promises, want %d", c.said, len(ps), len(c.verbs))
			continue
		}
		for i, p := range ps {
			if p.Action.Verb != TermOf(c.verbs[i]) && EnglishVerb(p.Action.Verb) != TermOf(c.verbs[i]) {
				t.Errorf("%q: action %d %q has verb %q, want %s", c.said, i, p.Action.Text, p.Action.Verb, c.verbs[i])
			}
		}
	}
}
