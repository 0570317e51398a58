package lang

import "testing"

// "to ensure" says what something is for, and "(no more X)" after a
// description says what changed: neither is the user's order. The same
// cues as orders still are.
func TestPurposeAndDescriptionAreNoRules(t *testing.T) {
	for text, want := range map[string]int{
		"Consider testing:\n\nNon-Go languages to ensure the trivial patterns don't cause false negatives\n": 0,
		"- strategy.SessionState is now a type alias for session.State (no more converter functions)":        0,
		"This helps ensure the cache stays warm.":                                                            0,
		"Ensure every migration is reversible.":                                                              1,
		"No more force pushes to the release branch.":                                                        1,
		"Run the linter, and no more skipping the hooks.":                                                    1,
	} {
		if got := len(FindRules(text)); got != want {
			t.Errorf("%q: %d rules %v, want %d", text, got, FindRules(text), want)
		}
	}
}
