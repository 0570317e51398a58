package ui

import (
	"strings"
	"testing"
	"time"
)

func TestSplitSections(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"claude code numbered", "Summary:\n1. Primary Request and Intent:\n   the user wants X\n2. Pending Tasks:\n   - re-run it\n", []string{"Summary", "Primary Request and Intent", "Pending Tasks"}},
		{"markdown", "## Completed\n- a\n\n## Next Move\n- b\n", []string{"Completed", "Next Move"}},
		{"gemini tags", "<state_snapshot>\n<overall_goal>\nship\n</overall_goal>\n<current_plan>\n1. [DONE] a\n</current_plan>\n", []string{"state_snapshot", "overall_goal", "current_plan"}},
		{"bold and label", "**Context**\ntext\nNext Steps:\n- c\n", []string{"Context", "Next Steps"}},
		{"prose", "The agent added the table and ran the tests.", []string{""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			secs := splitSections(c.text)
			var got []string
			end := 0
			for _, s := range secs {
				got = append(got, s.heading)
				if s.start != end {
					t.Errorf("section %q starts at %d, the previous ended at %d", s.heading, s.start, end)
				}
				end = s.end
			}
			if end != len(c.text) {
				t.Errorf("the sections end at %d of %d bytes", end, len(c.text))
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("headings %q, want %q", got, c.want)
			}
		})
	}
}

// TestPairSections: one layout pairs by heading whatever the numbering;
// two layouts pair by the words the sections share; what is left is new
// or gone.
func TestPairSections(t *testing.T) {
	prev := "1. Primary Request and Intent:\n   add the orders table\n2. Pending Tasks:\n   - re-run the migration after review\n3. Current Work:\n   editing orders.sql\n"
	cur := "## Pending tasks\n- re-run the migration after review\n- update docs\n## What was being done\nediting orders.sql and the store\n## Decisions\nuse pnpm\n"
	ps, cs := splitSections(prev), splitSections(cur)
	pairs := pairSections(prev, ps, cur, cs)
	got := map[string]string{}
	for _, p := range pairs {
		a, b := "-", "-"
		if p.prev >= 0 {
			a = ps[p.prev].heading
		}
		if p.cur >= 0 {
			b = cs[p.cur].heading
		}
		if p.byContent {
			b += " (content)"
		}
		got[a] = b
		if p.prev < 0 {
			got["new: "+b] = "new"
		}
	}
	for from, to := range map[string]string{
		"Pending Tasks":              "Pending tasks",
		"Current Work":               "What was being done (content)",
		"Primary Request and Intent": "-",
		"new: Decisions":             "new",
	} {
		if got[from] != to {
			t.Errorf("%q paired with %q, want %q (all: %v)", from, got[from], to, got)
		}
	}
}

// TestSummaryDiffBySection: the diff of two summaries shows each section
// under its heading, the list that grew in one section does not eat the
// next one, and a section that is gone is said so.
func TestSummaryDiffBySection(t *testing.T) {
	prev := "## Pending Tasks\n- re-run the migration\n## Current Work\nediting orders.sql\n## Notes\nold note\n"
	cur := "## Pending Tasks\n- re-run the migration\n- write the docs\n- open the PR\n## Current Work\nediting orders.sql\n"
	r := computeSummaryDiff(1, 2, prev, cur, nil, time.Second, noFocus)
	var sb strings.Builder
	for _, b := range r.blocks {
		for _, l := range b.lines {
			sb.WriteString(plainOf(l) + "\n")
		}
	}
	s := sb.String()
	for _, want := range []string{"§ Pending Tasks", "§ Current Work", "§ Notes  gone from #2", "{+- write the docs"} {
		if !strings.Contains(s, want) {
			t.Errorf("the section diff lacks %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "§ Current Work") < strings.Index(s, "open the PR") {
		t.Errorf("Pending Tasks' new lines are not under its heading:\n%s", s)
	}
	if r.kept < 8 {
		t.Errorf("kept %d words; every word of the two shared sections should be kept:\n%s", r.kept, s)
	}
}

func TestHeadingStemPairs(t *testing.T) {
	prev := "## Completed Work Packages (WP1-WP13)\n- a\n## Next Steps (WP14-WP20)\n- b\n## Key Decisions\n- c\n"
	cur := "## Completed Work (WP1-WP16)\n- a\n## Next Steps\n- b\n## Key Files\n- d\n"
	ps, cs := splitSections(prev), splitSections(cur)
	pairs := pairSections(prev, ps, cur, cs)
	want := map[int]int{0: 0, 1: 1}
	for _, p := range pairs {
		if p.cur < 0 {
			continue
		}
		if w, ok := want[p.cur]; ok && p.prev != w {
			t.Errorf("%q paired with section %d, want %d", cs[p.cur].heading, p.prev, w)
		}
		if p.cur == 2 && p.prev >= 0 {
			t.Errorf("“Key Files” paired with %q: only two words of different meaning in common", ps[p.prev].heading)
		}
	}
}
