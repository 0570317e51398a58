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

// A step's nested bullets say what it holds, not further steps.
func TestNestedBulletsAreNoSteps(t *testing.T) {
	text := "### Next Steps:\n1. **Respond to the security notification** with:\n   - Timestamp of fix: **2026-02-25 14:16 UTC**\n   - Confirmation that Redis is now secured\n\n2. **Rotate the Redis password** on the map server\n"
	var got []string
	for _, p := range PlannedSteps(text) {
		got = append(got, p.Action.Text)
	}
	if len(got) != 2 || got[0] != "Respond to the security notification with:" && got[0] != "Respond to the security notification with" {
		t.Errorf("steps %q, want the two numbered ones", got)
	}
}

// "Let me know" asks the user; a list item that states how things are is
// no step.
func TestNotPromises(t *testing.T) {
	for _, said := range []string{"Let me know once you try it!", "Let me know if the numbers look right."} {
		if ps := FindPromises(said); len(ps) > 0 {
			t.Errorf("%q: promise %q", said, ps[0].Action.Text)
		}
	}
	text := "Next steps:\n- The server-side nginx config is already deployed and running\n- Restart the map service on the new host\n"
	ps := PlannedSteps(text)
	if len(ps) != 1 || ps[0].Action.Verb != TermOf("restart") {
		t.Errorf("steps %v, want only the restart", ps)
	}
}
