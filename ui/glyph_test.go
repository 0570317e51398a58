package ui

import (
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

// TestStatusGlyphsMatchReports: the inspector's lineage map and the
// reports' (text, Markdown, HTML) draw a status with the same glyph.
func TestStatusGlyphsMatchReports(t *testing.T) {
	for _, s := range verify.Statuses {
		if got, want := statusGlyph(s), s.Glyph(); got != want {
			t.Errorf("%s: the inspector draws %q, the reports %q", s, got, want)
		}
	}
}
