package ui

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/verify"
)

func TestOpensOnFirstViolationWithFirstUnverifiedItem(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	if m.ci != 1 {
		t.Fatalf("opened on compaction index %d, want 1 (#2, the first violation)", m.ci)
	}
	it := m.curItem()
	if it == nil || it.Key != "re-run migration" || it.Status != verify.Dropped {
		t.Fatalf("selected item = %+v, want the dropped re-run commitment", it)
	}
	if m.focus != paneItems {
		t.Fatalf("focus = %d, want the preservation set", m.focus)
	}
	s := screen(m)
	for _, want := range []string{
		"1 Source of #2", "2 Summary #2", "3 Preservation set",
		"✗ dropped     re-run migration", "overclaim", "not in summary: re-run migration",
		"✗ 2 violate", "⚑ 1 false completion", "✗ VIOLATE",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

func TestFocusCycles(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	for _, tc := range []struct {
		key  string
		want int
	}{{"tab", paneSource}, {"tab", paneSummary}, {"tab", paneItems}, {"shift+tab", paneSummary}, {"1", paneSource}, {"3", paneItems}} {
		press(m, tc.key)
		if m.focus != tc.want {
			t.Fatalf("after %s focus = %d, want %d", tc.key, m.focus, tc.want)
		}
	}
	// The focused pane has the heavy border.
	press(m, "2")
	if !strings.Contains(screen(m), "┏━ 2 Summary") {
		t.Fatalf("focused summary has no heavy border:\n%s", screen(m))
	}
}

func TestSelectingAnItemMovesTheOtherPanes(t *testing.T) {
	res := fixtureResult(t)
	m := newTestModel(t, res, 160, 45, false)
	cr := res.Compactions[1]

	// The dropped commitment: source at its origin, summary says so.
	if !visible(m.panes[paneSource], cr.Items[0].Event) {
		t.Fatalf("source does not show the origin %d", cr.Items[0].Event)
	}
	if m.src.sel != cr.Items[0].Event {
		t.Fatalf("source marks event %d, want %d", m.src.sel, cr.Items[0].Event)
	}

	// j: the flipped plan step, found in the summary under Completed.
	press(m, "j")
	if m.selItem != 1 {
		t.Fatalf("after j selItem = %d, want 1", m.selItem)
	}
	if !visible(m.panes[paneSource], cr.Items[1].Event) || m.src.sel != cr.Items[1].Event {
		t.Fatalf("source does not point at event %d", cr.Items[1].Event)
	}
	if m.notInSummary() {
		t.Fatal("flipped item shows the not-in-summary banner")
	}
	if m.panes[paneSummary].hiTag != 1 || m.sum.sel != m.sum.lineAt(cr.Items[1].Evidence.Start) {
		t.Fatalf("summary highlights tag %d on line %d", m.panes[paneSummary].hiTag, m.sum.sel)
	}
	s := screen(m)
	if !strings.Contains(s, "▶ - Schema diff reviewed.") {
		t.Fatalf("summary does not point at the evidence:\n%s", s)
	}
	// The evidence is painted reverse (the selected style).
	if !strings.Contains(m.View().Content, m.th.sgr[toneNormal][stSelected]+"Schema diff reviewed.") {
		t.Fatal("selected evidence not highlighted")
	}

	// G then g: last and first item.
	press(m, "G")
	if m.selItem != len(cr.Items)-1 {
		t.Fatalf("after G selItem = %d", m.selItem)
	}
	press(m, "g")
	if m.selItem != 0 {
		t.Fatalf("after g selItem = %d", m.selItem)
	}
}

func TestCompactionKeys(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "]")
	if m.ci != 2 {
		t.Fatalf("] → %d", m.ci)
	}
	if it := m.curItem(); it == nil || it.Status != verify.Dropped {
		t.Fatalf("#3 selects %+v", it)
	}
	press(m, "[", "[")
	if m.ci != 0 {
		t.Fatalf("[ [ → %d", m.ci)
	}
	press(m, "n")
	if m.ci != 1 {
		t.Fatalf("n from #1 → %d, want the next violation", m.ci)
	}
	press(m, "n")
	if m.ci != 2 {
		t.Fatalf("n → %d", m.ci)
	}
	press(m, "n")
	if m.ci != 2 || !strings.Contains(m.status, "no later") {
		t.Fatalf("n past the last violation: ci %d status %q", m.ci, m.status)
	}
	press(m, "N")
	if m.ci != 1 {
		t.Fatalf("N → %d", m.ci)
	}
}

func TestScrollKeysInSource(t *testing.T) {
	tr := loadFixture(t, bigFixture(400))
	res := verify.Run(tr, verify.Options{})
	m := newTestModel(t, res, 160, 45, false)
	press(m, "1")
	p := m.panes[paneSource]
	top := p.top
	press(m, "j")
	if p.top == top {
		t.Fatal("j did not scroll the source")
	}
	press(m, "k")
	if p.top != top {
		t.Fatalf("k did not scroll back: %v vs %v", p.top, top)
	}
	press(m, "G")
	last := p.top
	press(m, "j")
	if p.top != last {
		t.Fatal("scrolled past the end")
	}
	press(m, "g")
	if p.top != (pos{}) {
		t.Fatalf("g → %v", p.top)
	}
	press(m, "ctrl+d")
	if p.top == (pos{}) {
		t.Fatal("ctrl+d did not scroll")
	}
	press(m, "ctrl+u")
	if p.top != (pos{}) {
		t.Fatalf("ctrl+u → %v", p.top)
	}
}

func TestMouseWheelScrollsThePaneUnderThePointer(t *testing.T) {
	tr := loadFixture(t, bigFixture(400))
	m := newTestModel(t, verify.Run(tr, verify.Options{}), 160, 45, false)
	src := m.panes[paneSource]
	src.Top()
	r := m.lay.inner[paneSource]
	m.Update(tea.MouseWheelMsg{X: r.x + 3, Y: r.y + 3, Button: tea.MouseWheelDown})
	if src.top == (pos{}) {
		t.Fatal("wheel over the source did not scroll it")
	}
	if m.focus != paneItems {
		t.Fatal("the wheel changed the focus")
	}
	// A click focuses the pane.
	m.Update(tea.MouseClickMsg{X: r.x + 3, Y: r.y + 3, Button: tea.MouseLeft})
	if m.focus != paneSource {
		t.Fatalf("click focus = %d", m.focus)
	}
}

func TestClickTimelineSelectsCompaction(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	_, _, _, _, chips := timelineLayout(m.res.Compactions, nil, m.ci, m.w)
	m.Update(tea.MouseClickMsg{X: chips[2].x0 + 1, Y: m.lay.timeline, Button: tea.MouseLeft})
	if m.ci != 2 {
		t.Fatalf("click on chip #3 → ci %d", m.ci)
	}
}

func TestNarrowTerminalUsesTabs(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 80, 24, false)
	if !m.lay.tabs {
		t.Fatal("80×24 is not in tabs")
	}
	s := screen(m)
	if !strings.Contains(s, "[ 3 Preservation set ]") {
		t.Fatalf("active tab not named:\n%s", s)
	}
	press(m, "tab")
	s = screen(m)
	if !strings.Contains(s, "[ 1 Source ]") || !strings.Contains(s, "turn 5 assistant") {
		t.Fatalf("source tab:\n%s", s)
	}
	for i, l := range strings.Split(s, "\n") {
		if w := ansi.StringWidth(l); w != 80 {
			t.Errorf("row %d is %d cells wide: %q", i, w, l)
		}
	}
	// Resize to wide: three panes.
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	if m.lay.tabs || !strings.Contains(screen(m), "2 Summary #2") {
		t.Fatal("did not relayout to three panes")
	}
}

func TestTooSmall(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 50, 10, false)
	s := screen(m)
	if !strings.Contains(s, "at least 60×16; this one is 50×10") {
		t.Fatalf("too-small screen:\n%s", s)
	}
	if _, cmd := m.Update(keyMsg("q")); cmd == nil {
		t.Fatal("q does not quit on the too-small screen")
	}
}

func TestEveryRowFitsTheWidth(t *testing.T) {
	for _, size := range [][2]int{{160, 45}, {120, 30}, {100, 30}, {80, 24}, {60, 16}} {
		m := newTestModel(t, fixtureResult(t), size[0], size[1], false)
		for _, keys := range [][]string{nil, {"tab"}, {"tab", "tab"}, {"f"}, {"l"}, {"?"}, {"d"}} {
			press(m, keys...)
			lines := strings.Split(screen(m), "\n")
			if len(lines) != size[1] {
				t.Errorf("%v after %v: %d rows", size, keys, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != size[0] {
					t.Errorf("%v after %v: row %d is %d cells: %q", size, keys, i, w, l)
				}
			}
			press(m, "esc")
		}
	}
}

func TestFindingJumpShowsClaimOriginAndLoss(t *testing.T) {
	res := fixtureResult(t)
	m := newTestModel(t, res, 160, 45, false)
	press(m, "]") // away from #2, so the jump has to come back
	press(m, "f")
	if m.ov != ovFindings {
		t.Fatal("f did not open the findings")
	}
	s := screen(m)
	for _, want := range []string{"⚑ false completion  turn 14  re-run migration", "claim: “The migration ran fine; all done.”", "made at turn 5 · lost at compaction #2 (turn 9)"} {
		if !strings.Contains(s, want) {
			t.Errorf("findings lack %q:\n%s", want, s)
		}
	}
	press(m, "enter")
	if m.ov != ovNone || m.ci != 1 {
		t.Fatalf("after enter: overlay %d, compaction %d; want none, #2", m.ov, m.ci)
	}
	if it := m.curItem(); it == nil || it.Key != "re-run migration" {
		t.Fatalf("item selected: %+v", it)
	}
	claim := res.Findings[0].Event
	if !visible(m.panes[paneSource], claim) || m.src.flag != claim || m.focus != paneSource {
		t.Fatalf("source at %d (flag %d, focus %d), want the claim %d", m.panes[paneSource].top.b, m.src.flag, m.focus, claim)
	}
	s = screen(m)
	for _, want := range []string{"⚑ turn 14 assistant", "The migration ran fine", "⚑ false completion at turn 14", "made at turn 5 · lost at #2", "not in summary: re-run migration", "overclaim"} {
		if !strings.Contains(s, want) {
			t.Errorf("after the jump the screen lacks %q:\n%s", want, s)
		}
	}
	press(m, "esc")
	if m.flag != nil || m.lay.banner >= 0 {
		t.Fatal("esc did not clear the banner")
	}
}

func TestLineage(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "l")
	if m.ov != ovLineage {
		t.Fatal("l did not open the lineage")
	}
	s := screen(m)
	for _, want := range []string{"COMMITMENT re-run migration", "first lost at compaction #2", "#2   turn 9", "✗ dropped", "← first loss", "overclaim"} {
		if !strings.Contains(s, want) {
			t.Errorf("lineage lacks %q:\n%s", want, s)
		}
	}
	press(m, "j", "enter")
	if m.ov != ovNone || m.ci != 2 || m.curItem().Key != "re-run migration" {
		t.Fatalf("enter on #3: overlay %d ci %d item %v", m.ov, m.ci, m.curItem().Key)
	}
	// A lineage derived from the compactions when the verifier has none.
	press(m, "]")
	press(m, "[", "G", "l")
	if s := screen(m); !strings.Contains(s, "never push to main") || !strings.Contains(s, "✓ retained") {
		t.Fatalf("derived lineage:\n%s", s)
	}
}

func TestHelpAndEscBacksOutFirst(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "?")
	s := screen(m)
	for _, want := range []string{"next compaction", "next violation", "word diff", "copy (OSC 52, tmux buffer, a file)", "open the event in $PAGER", "open the file in $EDITOR at the event's line"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	press(m, "G")
	if s := screen(m); !strings.Contains(s, "MARKS") || !strings.Contains(s, "⇄ flipped") {
		t.Errorf("help's end lacks the marks:\n%s", s)
	}
	press(m, "esc")
	if m.ov != ovNone {
		t.Fatal("esc did not close help")
	}
	if _, cmd := m.Update(keyMsg("q")); cmd == nil {
		t.Fatal("q did not quit")
	} else if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("q did not quit")
	}
	if _, cmd := m.Update(keyMsg("ctrl+c")); cmd == nil {
		t.Fatal("ctrl+c did not quit")
	}
}

func TestSearchSummaryAndSource(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "2", "/")
	if !m.searching {
		t.Fatal("/ did not open the input")
	}
	typeText(m, "never")
	if !strings.Contains(screen(m), "/never") {
		t.Fatal("input not shown")
	}
	press(m, "enter")
	s := m.search[paneSummary]
	if s.query != "never" || len(s.matches) != 1 {
		t.Fatalf("summary search: %+v", s)
	}
	if !strings.Contains(m.View().Content, m.th.sgr[toneNormal][stMatch]) {
		t.Fatal("match not highlighted")
	}
	ci := m.ci
	press(m, "n") // with a query, n steps matches, not violations
	if m.ci != ci {
		t.Fatal("n switched compaction while a search was active")
	}
	press(m, "esc")
	if m.search[paneSummary].query != "" {
		t.Fatal("esc did not clear the search")
	}

	press(m, "1", "/")
	typeText(m, "MIGRATION")
	press(m, "enter") // runs the source search command
	ss := m.search[paneSource]
	if ss.pending || len(ss.matches) != 3 {
		t.Fatalf("source search: %+v", ss)
	}

	big := newTestModel(t, verify.Run(loadFixture(t, bigFixture(400)), verify.Options{}), 160, 45, false)
	press(big, "1", "g", "/")
	typeText(big, "step 250 ")
	press(big, "enter")
	if s := big.search[paneSource]; len(s.matches) != 1 || big.panes[paneSource].top.b < 240 {
		t.Fatalf("big search: %+v at %v", s, big.panes[paneSource].top)
	}
	press(big, "esc", "/")
	typeText(big, "step 1")
	press(big, "enter")
	first := big.panes[paneSource].top.b
	press(big, "n")
	if big.panes[paneSource].top.b == first {
		t.Fatal("n did not move to the next source match")
	}
}

// visible reports whether block b is on screen in p.
func visible(p *pane, b int) bool {
	for y := 0; y < p.h; y++ {
		if p.BlockAt(y) == b {
			return true
		}
	}
	return false
}

func TestDiffOverlay(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "d")
	if m.ov != ovDiff || m.diff == nil || m.diffPending {
		t.Fatalf("diff: overlay %d diff %v pending %v", m.ov, m.diff, m.diffPending)
	}
	s := screen(m)
	// The conversation as a reader sees it: the call as its command, not
	// its JSON input.
	for _, want := range []string{"Compaction #2 kept", "[-Schema diff is up for review", "{+## Completed", "── turn 5 message assistant ──", "bash: make", "error: FAIL orders_test.go:41"} {
		if !strings.Contains(s, want) {
			t.Errorf("diff lacks %q:\n%s", want, s)
		}
	}
	press(m, "]") // the diff follows the compaction
	if m.diff == nil || m.diff.seq != 3 {
		t.Fatalf("diff did not follow to #3: %+v", m.diff)
	}
	press(m, "d")
	if m.ov != ovNone {
		t.Fatal("d did not close the diff")
	}
}

func TestDiffThatHitsItsDeadlineIsNotShown(t *testing.T) {
	tr := loadFixture(t, bigFixture(3000))
	c := tr.Compactions[len(tr.Compactions)-1]
	lo, hi := tr.ReplacedSpan(c)
	r := computeDiff(tr, c.Seq, lo, hi, strings.Repeat("some other words entirely ", 400), time.Nanosecond, noFocus)
	if !r.timedOut || r.blocks != nil {
		t.Fatalf("a 1ns diff was not reported as timed out: %+v", r)
	}
	v, _ := newDiffView(&r, false)
	text := ""
	for _, b := range v.blocks {
		for _, l := range b.lines {
			text += plainOf(l) + "\n"
		}
	}
	if !strings.Contains(text, "did not finish") || strings.Contains(text, "[-") {
		t.Fatalf("timed-out diff view:\n%s", text)
	}
	full := computeDiff(tr, c.Seq, lo, hi, "the migration", 0, noFocus)
	if full.timedOut || full.kept == 0 {
		t.Fatalf("diff without a limit: %+v", full)
	}
}

func TestWordDiffKeepsAndDeletes(t *testing.T) {
	tr := loadFixture(t, fixtureJSONL)
	c := tr.Compaction(2)
	lo, hi := tr.ReplacedSpan(c)
	r := computeDiff(tr, 2, lo, hi, "Schema diff is up for review. Fix the failing orders test.", time.Second, noFocus)
	var sb strings.Builder
	for _, b := range r.blocks {
		for _, l := range b.lines {
			for _, s := range l {
				if s.st == stPlain {
					sb.WriteString(s.text)
				}
			}
		}
	}
	kept := sb.String()
	for _, w := range []string{"Schema", "diff", "review"} {
		if !strings.Contains(kept, w) {
			t.Errorf("word %q not kept: %q", w, kept)
		}
	}
	if strings.Contains(kept, "re-run") {
		t.Errorf("re-run shown as kept: %q", kept)
	}
	if r.kept == 0 || r.added == 0 || r.srcWords <= r.kept {
		t.Fatalf("counts: %+v", r)
	}
}

func TestEventLoadReplacesPreview(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	i := 1 // any event
	m.src.SetFull(i, []line{lineOf("whole text", stPlain)})
	if m.src.Partial(i) || plainOf(m.src.Block(i).lines[1]) != "whole text" {
		t.Fatal("SetFull did not replace the block")
	}
}

func TestLoadProgressThenResult(t *testing.T) {
	res := fixtureResult(t)
	m := New(Options{Title: "fixture.jsonl", Load: func(report func(Progress)) (*verify.Result, error) {
		report(Progress{Phase: "reading", Read: 50, Total: 100})
		return res, nil
	}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	start := m.startLoad(m.opt.Load)
	msg := start()
	_, wait := m.Update(msg)
	if m.st != stateLoading {
		t.Fatal("not loading")
	}
	for i := 0; i < 3 && m.st == stateLoading; i++ {
		next := wait()
		if p, ok := next.(progressMsg); ok {
			_, wait = m.Update(p)
			if s := screen(m); !strings.Contains(s, "reading 50 B of 100 B") {
				t.Fatalf("progress screen:\n%s", s)
			}
			continue
		}
		m.Update(next)
	}
	if m.st != stateReady || m.res != res {
		t.Fatalf("state %d after load", m.st)
	}
}

// TestFirstScreenWhileVerifying: a loader that has read the transcript
// hands it over before verifying it; the inspector shows the transcript and
// says that verification runs, then shows the verdicts without losing the
// reader's place in the source.
func TestFirstScreenWhileVerifying(t *testing.T) {
	res := fixtureResult(t)
	release := make(chan struct{})
	m := New(Options{Title: "fixture.jsonl", Load: func(report func(Progress)) (*verify.Result, error) {
		report(Progress{Phase: "verifying 3 compactions", Unverified: verify.Unverified(res.Transcript)})
		<-release
		return res, nil
	}})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	_, wait := m.Update(m.startLoad(m.opt.Load)())
	_, wait = m.Update(wait())
	if m.st != stateReady || m.res == nil || !m.res.Pending {
		t.Fatalf("state %d: the transcript is not shown while it is verified", m.st)
	}
	s := screen(m)
	for _, want := range []string{"verifying " + plural(len(res.Transcript.Compactions), "compaction"), "the verdicts appear here"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "VIOLATE") || strings.Contains(s, "DEGRADE") {
		t.Errorf("a verdict before verification:\n%s", s)
	}
	src := m.src
	close(release)
	m.Update(wait())
	if m.res != res || m.res.Pending {
		t.Fatal("the verified result did not replace the first screen")
	}
	if m.src != src {
		t.Error("the source view was rebuilt: the reader lost their place")
	}
	if s := screen(m); strings.Contains(s, "verifying ") || !strings.Contains(s, "VIOLATE") {
		t.Errorf("after verification:\n%s", s)
	}
}

// TestFirstScreenOfTheBeginning: on a large file the loader first hands
// over a transcript of the file's beginning; the inspector shows it and
// says the rest is being read, then takes the whole transcript (keeping the
// reader's place in the source) and finally the verdicts.
func TestFirstScreenOfTheBeginning(t *testing.T) {
	res := fixtureResult(t)
	lines := strings.SplitAfter(fixtureJSONL, "\n")
	head := loadFixture(t, strings.Join(lines[:len(lines)/2], ""))
	if len(head.Events) >= len(res.Transcript.Events) {
		t.Fatal("the beginning is the whole fixture")
	}
	step := make(chan struct{})
	m := New(Options{Title: "fixture.jsonl", Load: func(report func(Progress)) (*verify.Result, error) {
		report(Progress{Phase: "reading", Unverified: verify.Unverified(head), Partial: true})
		<-step
		report(Progress{Phase: "reading", Read: 40, Total: 100})
		<-step
		report(Progress{Phase: "verifying", Unverified: verify.Unverified(res.Transcript)})
		<-step
		return res, nil
	}})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 18})
	_, wait := m.Update(m.startLoad(m.opt.Load)())
	_, wait = m.Update(wait())
	if m.st != stateReady || m.t != head {
		t.Fatalf("state %d: the beginning is not shown", m.st)
	}
	press(m, "1", "G")
	top := m.panes[paneSource].top
	if top == (pos{}) {
		t.Fatal("the source did not scroll")
	}
	step <- struct{}{}
	_, wait = m.Update(wait())
	if s := screen(m); !strings.Contains(s, "reading the file 40%") || !strings.Contains(s, "its beginning is shown") {
		t.Fatalf("the screen does not say the rest is being read:\n%s", s)
	}
	step <- struct{}{}
	_, wait = m.Update(wait())
	if m.t != res.Transcript || !m.res.Pending {
		t.Fatal("the whole transcript did not replace its beginning")
	}
	if got := m.panes[paneSource].top; got != top {
		t.Errorf("the source moved from %v to %v when the whole file arrived", top, got)
	}
	s := screen(m)
	if strings.Contains(s, "reading the file") || !strings.Contains(s, "verifying "+plural(len(res.Transcript.Compactions), "compaction")) {
		t.Errorf("after the whole file was read:\n%s", s)
	}
	close(step)
	m.Update(wait())
	if m.res != res || !strings.Contains(screen(m), "VIOLATE") {
		t.Errorf("no verdicts at the end:\n%s", screen(m))
	}
}

func TestPicker(t *testing.T) {
	res := fixtureResult(t)
	load := func(func(Progress)) (*verify.Result, error) { return res, nil }
	m := New(Options{Title: "runs/", Sessions: []Session{{Name: "a.jsonl", Detail: "1 KB", Load: load}, {Name: "b.jsonl", Detail: "2 KB", Load: load}}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if s := screen(m); !strings.Contains(s, "holds 2 sessions") || !strings.Contains(s, "b.jsonl") {
		t.Fatalf("picker:\n%s", s)
	}
	press(m, "j")
	_, cmd := m.Update(keyMsg("enter"))
	if m.opt.Title != "b.jsonl" || cmd == nil {
		t.Fatalf("enter picked %q", m.opt.Title)
	}
}

func TestNoCompactions(t *testing.T) {
	tr := loadFixture(t, `{"type":"message","turn":1,"role":"user","text":"hi"}`+"\n")
	m := newTestModel(t, verify.Run(tr, verify.Options{}), 100, 30, false)
	s := screen(m)
	if !strings.Contains(s, "none in this run") || !strings.Contains(s, "hi") {
		t.Fatalf("no-compaction run:\n%s", s)
	}
	press(m, "]", "n", "d", "f", "l", "j", "esc", "esc")
}

func TestLightAndNoColor(t *testing.T) {
	res := fixtureResult(t)
	dark := newTestModel(t, res, 120, 30, false).View().Content
	m := newTestModel(t, res, 120, 30, false)
	m.Update(tea.BackgroundColorMsg{Color: lightBG{}})
	if m.isDark {
		t.Fatal("a light background left the dark theme")
	}
	if m.View().Content == dark {
		t.Fatal("light and dark render the same")
	}
	nc := New(Options{Title: "x", Result: res, NoColor: true})
	nc.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if strings.Contains(nc.View().Content, "38;2;") || strings.Contains(nc.View().Content, "48;2;") {
		t.Fatal("NO_COLOR output carries colours")
	}
}

type lightBG struct{}

func (lightBG) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

// bigFixture is a run with n filler turns around the fixture's story.
func bigFixture(n int) string {
	var sb strings.Builder
	sb.WriteString(`{"type":"meta","format":"loupe/v1","run":"big"}` + "\n")
	turn := 1
	for i := range n {
		sb.WriteString(`{"type":"message","turn":` + itoa(turn) + `,"role":"assistant","text":"step ` + itoa(i) + ` of the migration work: checking the schema and the orders table again"}` + "\n")
		turn++
		if i%100 == 99 {
			sb.WriteString(`{"type":"compaction","turn":` + itoa(turn) + `,"seq":` + itoa(i/100+1) + `,"trigger":"token_budget","summary":"Working on the migration."}` + "\n")
		}
	}
	return sb.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestDiffRetryWithoutLimit(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	m.opt.DiffLimit = time.Nanosecond
	press(m, "d")
	if m.diff == nil || !m.diff.timedOut || !strings.Contains(screen(m), "did not finish") || !strings.Contains(screen(m), "r retry without a limit") {
		t.Fatalf("timed-out diff:\n%s", screen(m))
	}
	press(m, "r")
	if m.diff == nil || m.diff.timedOut || !strings.Contains(screen(m), "Compaction #2 kept") {
		t.Fatalf("retried diff:\n%s", screen(m))
	}
}

func TestEvictedWholeEventDoesNotBreakTheTop(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	p := m.panes[paneSource]
	many := make([]line, 500)
	for i := range many {
		many[i] = lineOf("line "+strconv.Itoa(i), stPlain)
	}
	m.src.SetFull(1, many)
	p.top = pos{1, 400, 0}
	for i := 2; i < 2+maxFullBlocks; i++ { // evicts event 1's whole text
		m.src.SetFull(i, many[:3])
	}
	if _, ok := m.src.full[1]; ok {
		t.Fatal("the oldest whole event was not evicted")
	}
	_ = m.View()
	press(m, "1", "j", "k", "G", "g")
}

// TestRandomKeysKeepTheScreenWhole presses random keys at random sizes on
// the hand-built fixture and the built-in migration run: no panic, and
// every frame is exactly the terminal's size.
func TestRandomKeysKeepTheScreenWhole(t *testing.T) {
	runs := []*verify.Result{fixtureResult(t)}
	if !testing.Short() {
		r, err := sampledata.Open(sampledata.Default)
		if err == nil {
			tr, err := model.Read(r, model.ReadOptions{Name: "migration"})
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, verify.Run(tr, verify.Options{}))
		}
	}
	keys := []string{"j", "k", "g", "G", "ctrl+d", "ctrl+u", "tab", "shift+tab", "1", "2", "3", "[", "]", "n", "N",
		"enter", "o", "d", "f", "l", "?", "esc", "esc", "/", "m", "i", "backspace", "enter", "y", "down", "up", "r",
		"s", "v", "!", "e"}
	rng := rand.New(rand.NewPCG(7, 8))
	for ri, res := range runs {
		m := newTestModel(t, res, 160, 45, ri%2 == 1)
		w, h := 160, 45
		for i := range 1500 {
			if i%150 == 0 {
				w, h = 50+rng.IntN(140), 12+rng.IntN(40)
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			}
			if i%97 == 0 {
				r := m.lay.body
				m.Update(tea.MouseWheelMsg{X: rng.IntN(w), Y: r.y + rng.IntN(max(1, r.h)), Button: tea.MouseWheelDown})
				m.Update(tea.MouseClickMsg{X: rng.IntN(w), Y: rng.IntN(h), Button: tea.MouseLeft})
			}
			k := keys[rng.IntN(len(keys))]
			_, cmd := m.Update(keyMsg(k))
			if k == "d" || k == "enter" || k == "r" || k == "o" || k == "s" {
				runCmd(m, cmd)
			}
			lines := strings.Split(m.View().Content, "\n")
			if len(lines) != h {
				t.Fatalf("run %d key %d (%s) at %dx%d: %d rows", ri, i, k, w, h, len(lines))
			}
			for y, l := range lines {
				if lw := ansi.StringWidth(l); lw != w {
					t.Fatalf("run %d key %d (%s) at %dx%d: row %d is %d wide: %q", ri, i, k, w, h, y, lw, ansi.Strip(l))
				}
			}
		}
	}
}

// TestSearchAfterNoMatch: a search that finds something no longer shows
// what the failed one before it said.
func TestSearchAfterNoMatch(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	m.statusTTL = time.Hour // the failed search's word would stay on screen
	press(m, "2", "/")
	typeText(m, "zzzqqq")
	press(m, "enter")
	if !strings.Contains(screen(m), "no match") {
		t.Fatalf("a failed search says nothing:\n%s", screen(m))
	}
	press(m, "esc", "/")
	typeText(m, "never")
	press(m, "enter")
	if s := screen(m); strings.Contains(s, "no match") {
		t.Errorf("a search that found its match still says “no match”:\n%s", s)
	}
}

// TestHelpColumnsAndScrollSign: at 80×24 the help puts the two short key
// groups side by side and its title says that more lies below.
func TestHelpColumnsAndScrollSign(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 80, 24, false)
	press(m, "?")
	s := screen(m)
	if !strings.Contains(s, "↓ more") {
		t.Errorf("the help does not say it scrolls:\n%s", s)
	}
	sideBySide := false
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "MOVE") && strings.Contains(l, "PANES AND COMPACTIONS") {
			sideBySide = true
		}
	}
	if !sideBySide {
		t.Errorf("MOVE and PANES AND COMPACTIONS are not side by side at 80 columns:\n%s", s)
	}
	press(m, "G")
	if s := screen(m); strings.Contains(s, "↓ more") {
		t.Errorf("at the bottom the help still says more lies below:\n%s", s)
	}
}

// TestFirstCompactionOffersNoSummaryDiff: the first compaction has no
// summary before it, so the diff's footer does not offer to switch to one.
func TestFirstCompactionOffersNoSummaryDiff(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	for m.ci > 0 {
		press(m, "[")
	}
	press(m, "d")
	if m.ov != ovDiff {
		t.Fatal("d did not open the diff")
	}
	if s := screen(m); strings.Contains(s, "summary diff") {
		t.Errorf("the first compaction's diff offers a summary diff:\n%s", s)
	}
	press(m, "esc", "]", "d")
	if s := screen(m); m.ci == 1 && !strings.Contains(s, "summary diff") && !strings.Contains(s, "span diff") {
		t.Errorf("the second compaction's diff does not offer to switch:\n%s", s)
	}
}

// TestItemsOpenUnderTheirKind: the preservation pane opens with the
// selected item under its kind's heading (or at the top when both do not
// fit), never scrolled into the middle of an item.
func TestItemsOpenUnderTheirKind(t *testing.T) {
	r, err := sampledata.Open(sampledata.Default)
	if err != nil {
		t.Skip(err)
	}
	tr, err := model.Read(r, model.ReadOptions{Name: "migration"})
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	migration := verify.Run(tr, verify.Options{})
	for _, size := range [][2]int{{80, 24}, {100, 30}, {140, 40}, {220, 50}} {
		m := newTestModel(t, migration, size[0], size[1], false)
		p := m.panes[paneItems]
		if m.items.sel < 0 {
			t.Fatalf("%v: nothing selected", size)
		}
		if p.top.l != 0 || p.top.s != 0 {
			t.Errorf("%v: the pane opens inside a block (%+v)", size, p.top)
		}
		if p.top.b != m.items.sel && m.items.ref[p.top.b] >= 0 {
			t.Errorf("%v: the pane opens on item block %d, not on the heading above the selected item %d", size, p.top.b, m.items.sel)
		}
		if !visible(p, m.items.sel) {
			t.Errorf("%v: the selected item is not on screen", size)
		}
	}
}

// TestLineageMap: m draws every item × every compaction; the migration
// promise's row shows it kept by #1–#3 and lost from #4, and enter goes to
// compaction #4 with the promise selected.
func TestLineageMap(t *testing.T) {
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
	press(m, "m")
	if m.ov != ovMap {
		t.Fatal("m did not open the lineage map")
	}
	s := screen(m)
	for _, want := range []string{"Lineage map", "#1", "#11", "COMMITMENT · LOST", "lost by some summary"} {
		if !strings.Contains(s, want) {
			t.Errorf("the map lacks %q:\n%s", want, s)
		}
	}
	row := ""
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "re-run migration") || strings.Contains(l, "re-run the migration") {
			row = l
			break
		}
	}
	if row == "" {
		t.Fatalf("no row for the migration promise:\n%s", s)
	}
	if !strings.Contains(row, "✓") || !strings.Contains(row, "✗") || strings.Index(row, "✓") > strings.Index(row, "✗") {
		t.Errorf("the promise's row should show kept, then lost: %q", row)
	}
	// Select that row and go to its first loss.
	for i := 0; i < 200 && m.ovView.sel >= 0; i++ {
		if r := m.mapRows[m.ovView.ref[m.ovView.sel]]; strings.Contains(r.Key, "re-run") && strings.Contains(r.Key, "migration") {
			break
		}
		press(m, "j")
	}
	press(m, "enter")
	if m.ov != ovNone || m.res.Compactions[m.ci].Seq != 4 {
		t.Fatalf("enter: overlay %d, compaction #%d (want #4)", m.ov, m.res.Compactions[m.ci].Seq)
	}
	if it := m.curItem(); it == nil || !strings.Contains(it.Key, "migration") {
		t.Errorf("enter did not select the promise: %+v", it)
	}
}

// TestDiffHighlightsTheSelectedItem: the item under the cursor is selected
// on both sides of the span diff: the words of the event it came from, and
// its evidence in the summary.
func TestDiffHighlightsTheSelectedItem(t *testing.T) {
	res := fixtureResult(t)
	tr := res.Transcript
	for ci, cr := range res.Compactions {
		c := tr.Compactions[ci]
		lo, hi := tr.ReplacedSpan(c)
		for _, it := range cr.Items {
			if it.Item == nil || it.Evidence == nil || it.Event < lo || it.Event >= hi {
				continue
			}
			a, b := alignSpan(c.Summary, it.Evidence.Start, it.Evidence.End)
			r := computeDiff(tr, cr.Seq, lo, hi, c.Summary, 0, diffFocus{event: it.Event, a: a, b: b})
			var sel strings.Builder
			pointer := false
			for _, bl := range r.blocks {
				for _, l := range bl.lines {
					for _, s := range l {
						if s.st == stSelected {
							sel.WriteString(s.text)
						}
						if strings.Contains(s.text, "the selected item comes from here") {
							pointer = true
						}
					}
				}
			}
			if !pointer {
				t.Errorf("#%d %s: the origin event is not marked", cr.Seq, it.Key)
			}
			got := strings.Join(strings.Fields(sel.String()), " ")
			ev := strings.Join(strings.Fields(c.Summary[a:b]), " ")
			if !strings.Contains(strings.ToLower(got), strings.ToLower(strings.Fields(ev)[0])) {
				t.Errorf("#%d %s: the evidence %q is not selected in the diff (selected: %q)", cr.Seq, it.Key, ev, got)
			}
			none := computeDiff(tr, cr.Seq, lo, hi, c.Summary, 0, noFocus)
			for _, bl := range none.blocks {
				for _, l := range bl.lines {
					for _, s := range l {
						if s.st == stSelected {
							t.Fatalf("a diff with no focus selects %q", s.text)
						}
					}
				}
			}
			return
		}
	}
	t.Fatal("the fixture has no item with evidence whose origin is in its span")
}
