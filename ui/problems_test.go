package ui

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

// TestBrokenLineIsAnnouncedAndListed opens a run whose middle line does not
// parse: the header says so at any width, ! lists the problem with its line
// and column, and enter shows that line in the source.
func TestBrokenLineIsAnnouncedAndListed(t *testing.T) {
	lines := strings.Split(fixtureJSONL, "\n")
	broken := `{"type":"message","turn":7,"role":"user","text":"cut off`
	jsonl := strings.Join(append(append(append([]string{}, lines[:9]...), broken), lines[9:]...), "\n")
	tr := loadFixture(t, jsonl)
	if len(tr.Problems.Errors()) != 1 {
		t.Fatalf("the fixture should have one broken line, has %v", tr.Problems)
	}
	res := verify.Run(tr, verify.Options{})
	for _, w := range []int{160, 100, 80} {
		m := newTestModel(t, res, w, 30, false)
		head := strings.Split(screen(m), "\n")[0]
		if !strings.Contains(head, "⚠ 1 line did not parse (!)") && !(w < 100 && strings.Contains(head, "⚠ 1 bad line (!)")) {
			t.Errorf("%d columns: the header does not announce the broken line: %q", w, head)
		}
	}
	m := newTestModel(t, res, 160, 45, false)
	press(m, "!")
	if m.ov != ovProblems {
		t.Fatal("! did not open the problems")
	}
	s := screen(m)
	for _, want := range []string{"! error fixture.jsonl:10:", "not valid JSON"} { // the line with its file
		if !strings.Contains(s, want) {
			t.Errorf("the problems lack %q:\n%s", want, s)
		}
	}
	press(m, "enter")
	if m.ov != ovNone || m.focus != paneSource {
		t.Fatalf("enter: overlay %d focus %d", m.ov, m.focus)
	}
	ev := eventAtLine(tr, 10)
	if ev < 0 || !visible(m.panes[paneSource], ev) {
		t.Fatalf("the source is at block %d, does not show the raw event %d of line 10", m.panes[paneSource].top.b, ev)
	}
	if s := screen(m); !strings.Contains(s, "line 10 raw") {
		t.Errorf("the source does not show the raw line:\n%s", s)
	}

	// A clean file: no chip, and ! says there is nothing.
	clean := newTestModel(t, fixtureResult(t), 160, 45, false)
	if strings.Contains(screen(clean), "did not parse") {
		t.Error("a clean file announces a parse problem")
	}
	press(clean, "!")
	if !strings.Contains(screen(clean), "every line of the file parsed") {
		t.Errorf("! on a clean file:\n%s", screen(clean))
	}
}
