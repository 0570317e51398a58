package ui

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// listText is the preservation pane's text, each block's lines joined,
// with the style each segment has.
func listText(v *listView) (string, map[string]styleID) {
	var sb strings.Builder
	styles := map[string]styleID{}
	for i := 0; i < v.Len(); i++ {
		for _, l := range v.Block(i).lines {
			for _, s := range l {
				sb.WriteString(s.text)
				styles[strings.TrimSpace(s.text)] = s.st
			}
			sb.WriteByte('\n')
		}
	}
	return sb.String(), styles
}

// TestReviewItemsInThePane: a review item (lost, only inferred) has its own
// mark and colour, the header counts review items per kind, and the
// violations-only filter hides it as it hides verified items.
func TestReviewItemsInThePane(t *testing.T) {
	src := []model.Event{
		&model.Message{Base: model.Base{Turn: 1}, Role: model.RoleUser, Text: "From now on, never push to main."},
		&model.Message{Base: model.Base{Turn: 2}, Role: model.RoleAssistant, Text: "If the cache is still stale, we'll need to rebuild the CDN manifest."},
	}
	cr := verify.Check(src, &model.Compaction{Base: model.Base{Turn: 3}, Seq: 1, Summary: "Worked on the header."}, verify.Options{})
	text, styles := listText(newPreservationView(cr, false))
	for _, want := range []string{"? review (not counted): 1 commitment", "? 1 review", "rebuild", "(dropped, not counted)", "review: only inferred (hypothetical"} {
		if !strings.Contains(text, want) {
			t.Errorf("pane lacks %q:\n%s", want, text)
		}
	}
	if styles["review"] != stReview || styles["? 1 review"] != stReview {
		t.Errorf("review marks are not in the review style: %v", styles)
	}
	only, _ := listText(newPreservationView(cr, true))
	if strings.Contains(only, "manifest") {
		t.Errorf("violations only still shows the review item:\n%s", only)
	}
	if !strings.Contains(only, "never push to main") || !strings.Contains(only, "1 review hidden") {
		t.Errorf("violations only must keep the lost rule and say the review item is hidden:\n%s", only)
	}
	for _, dark := range []bool{true, false} {
		th := newTheme(dark, false)
		if th.sgr[toneNormal][stReview] == "" || th.sgr[toneNormal][stReview] == th.sgr[toneNormal][stDropped] || th.sgr[toneNormal][stReview] == th.sgr[toneNormal][stRetained] {
			t.Errorf("dark=%v: the review style must be its own colour", dark)
		}
	}
}
