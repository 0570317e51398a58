package ui

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/verify"
)

// TestSummaryDiffIsTheDefaultWhenThePreviousSummaryHadTheLostItem: in the
// fixture, summary #2 keeps "never push to main" and summary #3 drops it,
// so d at #3 diffs #2 against #3 with the rule marked; at #2 nothing #1 had
// was lost, so d shows the span, and s switches.
func TestSummaryDiffIsTheDefaultWhenThePreviousSummaryHadTheLostItem(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "]", "d") // #3
	if m.diff == nil || m.diff.mode != diffSummary {
		t.Fatalf("d at #3 opened %+v, want the summary diff", m.diff)
	}
	s := screen(m)
	for _, want := range []string{
		"Word diff: summary #2 → summary #3",
		"1 item summary #2 carried is not verified in #3",
		"✗ dropped     constraint never push to main  turn 1",
		"in #2: “Never push to main.”",
		"⟦✗ dropped in #3: never push to main⟧",
		"enter next lost item", "s span diff",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the summary diff lacks %q:\n%s", want, s)
		}
	}
	// The lost words are painted as lost, not as plain deletions.
	if !strings.Contains(m.View().Content, m.th.sgr[toneNormal][stLost]+"Never") {
		t.Error("the lost rule's words are not painted as lost")
	}
	press(m, "enter")
	if mark := m.diffHead + m.diff.marks[0]; !visible(m.ovPane, mark) {
		t.Errorf("enter did not scroll to the mark (block %d)", mark)
	}

	press(m, "s")
	if m.diff == nil || m.diff.mode != diffSpan || !strings.Contains(screen(m), "Word diff: replaced span → summary #3") {
		t.Fatalf("s did not switch to the span diff:\n%s", screen(m))
	}
	press(m, "esc", "[", "d") // #2, the choice forgotten once closed
	if m.diff == nil || m.diff.mode != diffSpan {
		t.Fatalf("d at #2 opened mode %v, want the span diff", m.diff.mode)
	}
	if s := screen(m); !strings.Contains(s, "The span is turn 5–8 (4 events).") {
		t.Errorf("the span diff does not say its turns:\n%s", s)
	}
	press(m, "s")
	if s := screen(m); !strings.Contains(s, "Every item summary #1 carried is still verified in #2.") {
		t.Errorf("summary diff at #2:\n%s", s)
	}
	press(m, "[") // #1 has no previous summary: the span, whatever was chosen
	if m.diff == nil || m.diff.mode != diffSpan {
		t.Fatalf("the diff at #1 is in mode %v", m.diff.mode)
	}
	press(m, "s")
	if !strings.Contains(m.status, "there is no previous summary") {
		t.Errorf("s at #1: %q", m.status)
	}
}

func TestLostSince(t *testing.T) {
	res := fixtureResult(t)
	tr := res.Transcript
	lost := lostSince(res.Compactions[1], res.Compactions[2], tr.Compaction(2).Summary)
	if len(lost) != 1 || lost[0].key != "never push to main" || lost[0].now != verify.Dropped {
		t.Fatalf("lost from #2 to #3: %+v", lost)
	}
	if got := tr.Compaction(2).Summary[lost[0].a:lost[0].b]; got != "Never push to main." {
		t.Fatalf("the lost rule's span in #2 is %q", got)
	}
	// Dropped in both: not lost between them.
	for _, li := range lost {
		if li.key == "re-run migration" {
			t.Fatal("an item #2 had already lost counts as lost at #3")
		}
	}
	if l := lostSince(res.Compactions[0], res.Compactions[1], tr.Compaction(1).Summary); len(l) != 0 {
		t.Fatalf("lost from #1 to #2: %+v", l)
	}
}

// TestSummaryDiffOnTheMigrationRun is the seed's incident as the real
// verifier sees it: the promise lived in summary 3 and died in summary 4.
func TestSummaryDiffOnTheMigrationRun(t *testing.T) {
	if testing.Short() {
		t.Skip("reads and verifies the built-in migration run")
	}
	r, err := sampledata.Open(sampledata.Default)
	if err != nil {
		t.Skip(err)
	}
	tr, err := model.Read(r, model.ReadOptions{Name: "migration"})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, verify.Run(tr, verify.Options{}), 160, 45, false)
	for m.res.Compactions[m.ci].Seq != 4 {
		press(m, "]")
	}
	press(m, "d")
	if m.diff == nil || m.diff.mode != diffSummary || m.diff.prevSeq != 3 {
		t.Fatalf("d at #4: %+v", m.diff)
	}
	found := false
	for i, li := range m.diff.lost {
		if li.kind == verify.Commitment && strings.Contains(li.key, "migration") && m.diff.marks[i] >= 0 {
			found = true
		}
	}
	if !found {
		t.Fatalf("the re-run commitment is not marked as lost between #3 and #4: %+v", m.diff.lost)
	}
	press(m, "enter")
	if s := screen(m); !strings.Contains(s, "⟦✗ dropped in #4: re-run migration⟧") {
		t.Errorf("enter does not show the mark:\n%s", s)
	}
}
