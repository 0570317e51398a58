package ui

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

// TestFooterKeepsTheKeysThatMatter narrows the terminal under every view:
// whatever else goes, help, quit and the findings (esc in an overlay) stay
// on the footer, whole.
func TestFooterKeepsTheKeysThatMatter(t *testing.T) {
	for _, w := range []int{60, 80, 100, 120, 160} {
		for _, keys := range [][]string{nil, {"1"}, {"2"}, {"3"}, {"f"}, {"l"}, {"d"}, {"?"}} {
			m := newTestModel(t, fixtureResult(t), w, 30, false)
			press(m, keys...)
			lines := strings.Split(screen(m), "\n")
			foot := lines[len(lines)-1]
			want := []string{"? help", "q quit"}
			if m.ov == ovNone {
				want = append(want, "f findings")
			} else {
				want = append(want, "esc close")
			}
			for _, s := range want {
				if !strings.Contains(foot, s) {
					t.Errorf("%d columns after %v: the footer lacks %q: %q", w, keys, s, foot)
				}
			}
			if strings.Contains(foot, "…") {
				t.Errorf("%d columns after %v: the footer is cut: %q", w, keys, foot)
			}
		}
	}
}

// TestVerdictReasonWrapsInsteadOfBeingCut gives compaction #2 a reason too
// long for one row: at 80 and 100 columns it is read whole below the facts.
func TestVerdictReasonWrapsInsteadOfBeingCut(t *testing.T) {
	reason := "commitment dropped: re-run the migration after the schema diff is reviewed (turn 210, promised in the review thread)"
	for _, w := range []int{80, 100} {
		res := fixtureResult(t)
		res.Compactions[1].Reasons[0] = reason
		m := newTestModel(t, res, w, 30, false)
		lines := strings.Split(screen(m), "\n")
		if m.lay.detailRows < 2 {
			t.Fatalf("%d columns: the detail takes %d rows", w, m.lay.detailRows)
		}
		var got []string
		for _, l := range lines[m.lay.detail+1 : m.lay.detail+m.lay.detailRows] {
			got = append(got, strings.TrimSpace(l))
		}
		if joined := strings.Join(got, " "); !strings.Contains(joined, reason) {
			t.Errorf("%d columns: the reason is not whole below the facts:\n%s", w, strings.Join(lines[:6], "\n"))
		}
		if !strings.Contains(lines[m.lay.detail], "✗ VIOLATE") {
			t.Errorf("%d columns: the first detail row lacks the verdict: %q", w, lines[m.lay.detail])
		}
	}
	// Wide enough: one row, as before.
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	if m.lay.detailRows != 1 {
		t.Fatalf("160 columns: %d detail rows", m.lay.detailRows)
	}
}

// TestDetailOmitsAnEmptyTrigger: an importer that does not know the
// trigger leaves no empty part ("turn 10 ·  · loss").
func TestDetailOmitsAnEmptyTrigger(t *testing.T) {
	c := &verify.CompactionResult{Seq: 1, Turn: 10, Verdict: verify.Degrade, LossRatio: 0.5, SourceBytes: 100, SummaryBytes: 50}
	row := strings.Join(detailRows(newTheme(true, true), c, 1, 160), "\n")
	if strings.Contains(row, "·  ·") || !strings.Contains(row, "turn 10 · loss 50%") {
		t.Fatalf("detail row: %q", row)
	}
	if chip := chipText(c, 0); strings.Contains(chip, "  ") {
		t.Fatalf("chip with an empty trigger: %q", chip)
	}
}

func TestViolationsOnly(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "v")
	if !m.vonly {
		t.Fatal("v did not turn on violations only")
	}
	s := screen(m)
	lines := strings.Split(s, "\n")
	if tl := lines[m.lay.timeline]; strings.Contains(tl, "#1 ") || !strings.Contains(tl, "#2 ") || !strings.Contains(tl, "1 degrading hidden") {
		t.Errorf("the timeline still shows the degrading #1: %q", tl)
	}
	// The preservation set lists the dropped, flipped and weak items, not
	// the retained ones, and says how many it hides.
	items := paneText(m, paneItems)
	for _, want := range []string{"✗ dropped     re-run migration", "⇄ flipped", "~ weak", "violations only: 2 verified items hidden"} {
		if !strings.Contains(items, want) {
			t.Errorf("violations-only preservation set lacks %q:\n%s", want, items)
		}
	}
	if strings.Contains(items, "✓ retained") {
		t.Errorf("violations-only preservation set shows a retained item:\n%s", items)
	}
	if it := m.curItem(); it == nil || it.Key != "re-run migration" {
		t.Fatalf("selection moved to %+v", it)
	}
	// [ ] walk the violations only: #2 → #3, and no further back than #2.
	press(m, "]")
	if m.ci != 2 {
		t.Fatalf("] → %d", m.ci)
	}
	press(m, "[", "[")
	if m.ci != 1 || !strings.Contains(m.status, "no more violating compactions") {
		t.Fatalf("[ [ → %d, status %q", m.ci, m.status)
	}
	// A jump to a verified item shows every item again.
	press(m, "G")
	if it := m.curItem(); it == nil || it.Status.Verified() {
		t.Fatalf("G in violations only selected %+v", it)
	}
	press(m, "v")
	if m.vonly || !strings.Contains(paneText(m, paneItems), "✓ retained") {
		t.Fatal("v again did not show every item")
	}
	if !strings.Contains(screen(m), "#1 turn 4") {
		t.Fatal("v again did not show every compaction")
	}
}

// paneText is pane i's whole content as plain text (not only what is on
// screen).
func paneText(m *Model, i int) string {
	p := m.panes[i]
	var sb strings.Builder
	for b := 0; b < p.p.Len(); b++ {
		for _, l := range p.p.Block(b).lines {
			sb.WriteString(plainOf(l) + "\n")
		}
	}
	return sb.String()
}
