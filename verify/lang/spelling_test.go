package lang

import "testing"

// TestWordFormsMeet: the spellings and word forms a summary uses for the
// source's word reach the same term, and words that only look alike do not.
func TestWordFormsMeet(t *testing.T) {
	same := [][2]string{
		{"optimise", "optimize"}, {"optimisation", "optimized"}, {"optimiser", "optimizer"},
		{"finalise", "finalized"}, {"pre-tokenising", "pretokenize"}, {"analyse", "analyzed"},
		{"catalogue", "catalog"}, {"catalogued", "cataloged"}, {"colour", "color"},
		{"favourite", "favorite"}, {"centre", "center"}, {"centred", "centered"},
		{"licence", "license"}, {"defence", "defense"}, {"cancelled", "canceled"},
		{"modelling", "model"}, {"labelled", "label"}, {"programme", "program"},
		{"re-index", "reindexing"}, {"re-indexed", "reindex"}, {"clean-up", "cleanup"},
		{"verification", "verify"}, {"notifications", "notify"}, {"decision", "decide"},
		{"submission", "submit"}, {"exclusion", "exclude"}, {"extension", "extend"},
		{"conversion", "convert"}, {"subscription", "subscribe"}, {"reduction", "reduce"},
		{"resolution", "resolve"}, {"analysis", "analyze"}, {"delivery", "deliver"},
		{"failure", "fail"}, {"reconciliation", "reconcile"}, {"deployment", "deploy"}, {"revocation", "revoke"}, {"invocation", "invoke"}, {"employment", "employ"}, {"retention", "retain"}, {"maintenance", "maintain"},
	}
	for _, p := range same {
		if a, b := TermOf(p[0]), TermOf(p[1]); a != b {
			t.Errorf("%q → %q and %q → %q: want one term", p[0], a, p[1], b)
		}
	}
	apart := [][2]string{
		{"promise", "prize"}, {"raise", "raze"}, {"every", "ever"}, {"version", "vert"},
		{"mission", "mit"}, {"rise", "rize"}, {"exercise", "exercize"}, {"otherwise", "otherwize"},
		{"metric", "meter"}, {"precise", "precize"},
	}
	for _, p := range apart {
		if a, b := TermOf(p[0]), TermOf(p[1]); a == b {
			t.Errorf("%q and %q both → %q: want them apart", p[0], p[1], a)
		}
	}
}

// TestPhrasalVerbs: a phrasal verb means its one-word synonym, also with a
// short object between its words; a particle that starts a phrase of its
// own is left alone.
func TestPhrasalVerbs(t *testing.T) {
	cases := []struct {
		text, verb string
		folded     bool
	}{
		{"tear down the temporary bastion", "destroy", true},
		{"tear the temporary bastion down", "destroy", true},
		{"roll it back after the review", "revert", true},
		{"spin up a fresh runner", "provision", true},
		{"cut over the DNS", "migrate", true},
		{"set the table up front", "configure", false},
		{"roll the dice back home", "revert", false},
	}
	for _, c := range cases {
		got := false
		for _, term := range Terms(Tokenize(c.text)) {
			if term == TermOf(c.verb) {
				got = true
			}
		}
		if got != c.folded {
			t.Errorf("%q: %s found %v, want %v (terms %v)", c.text, c.verb, got, c.folded, Terms(Tokenize(c.text)))
		}
	}
}
