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
		{"failure", "fail"}, {"retention", "retain"}, {"maintenance", "maintain"},
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
