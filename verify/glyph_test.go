package verify

import "testing"

// TestStatusGlyphs: every status has its own glyph, and an unknown one
// reads as a question, never as a verified mark.
func TestStatusGlyphs(t *testing.T) {
	seen := map[string]Status{}
	for _, s := range Statuses {
		g := s.Glyph()
		if g == "?" {
			t.Errorf("%s has no glyph", s)
		}
		if o, dup := seen[g]; dup {
			t.Errorf("%s and %s share %q", s, o, g)
		}
		seen[g] = s
	}
	if Status("bogus").Glyph() != "?" {
		t.Error("an unknown status has a glyph")
	}
}
