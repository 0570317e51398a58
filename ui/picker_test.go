package ui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/verify"
)

// chooserModel is the chooser on three sessions: the fixture (2 of 3
// violate), a clean run and one that cannot be read; loads counts the
// loads of each.
func chooserModel(t *testing.T) (*Model, []int) {
	t.Helper()
	fixture := fixtureResult(t)
	clean := verify.Run(loadFixture(t, bigFixture(250)), verify.Options{})
	loads := make([]int, 3)
	var mu sync.Mutex // the chooser's checks and an opened session load at once
	load := func(i int, res *verify.Result, err error) LoadFunc {
		return func(func(Progress)) (*verify.Result, error) {
			mu.Lock()
			loads[i]++
			mu.Unlock()
			return res, err
		}
	}
	m := New(Options{Title: "runs/", ClipDir: t.TempDir(), Sessions: []Session{
		{Name: "fixture.jsonl", Detail: "loupe", Turns: 99, Compactions: 3, Load: load(0, fixture, nil)},
		{Name: "clean.jsonl", Detail: "loupe", Turns: 250, Compactions: 2, Load: load(1, clean, nil)},
		{Name: "broken.jsonl", Detail: "loupe", Turns: 1, Compactions: 0, Load: load(2, nil, errors.New("broken.jsonl:1: not valid JSON"))},
	}})
	m.statusTTL = 1
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	return m, loads
}

// TestChooserFillsInVerdictsInTheBackground: the rows start with the
// listing's counts (≈, with "verifying"/"queued") and get each session's
// verdicts and its verified turn count as the background reaches it.
func TestChooserFillsInVerdictsInTheBackground(t *testing.T) {
	m, loads := chooserModel(t)
	cmd := m.Init()
	s := screen(m)
	for _, want := range []string{"holds 3 sessions · verified 0 of 3", "≈99 turns · 3 compactions · verifying …", "≈250 turns · 2 compactions · queued"} {
		if !strings.Contains(s, want) {
			t.Errorf("the chooser before verifying lacks %q:\n%s", want, s)
		}
	}
	// One at a time: each result starts the next.
	for msg := findMsg[sessionCheckedMsg](cmd); msg != nil; {
		_, next := m.Update(*msg)
		msg = findMsg[sessionCheckedMsg](next)
	}
	s = screen(m)
	for _, want := range []string{
		"14 turns · 3 compactions · ✗ 2 of 3 violate · ⚑ 1 false completion", // the run's own count, not the listing's 99
		"250 turns · 2 compactions · ✓ all degrade",
		"✗ could not open: broken.jsonl:1: not valid JSON",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the chooser after verifying lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "verified 0 of 3") || strings.Contains(s, "≈") {
		t.Errorf("the chooser still says it is verifying:\n%s", s)
	}
	if loads[0] != 1 || loads[1] != 1 || loads[2] != 1 {
		t.Fatalf("loads: %v", loads)
	}

	// Opening a verified session is instant (no second load), and its
	// header agrees with the row.
	press(m, "enter")
	if m.st != stateReady || loads[0] != 1 {
		t.Fatalf("enter: state %d, loads %v", m.st, loads)
	}
	if s := screen(m); !strings.Contains(s, "14 turns") || !strings.Contains(s, "esc sessions") {
		t.Errorf("the opened session:\n%s", s)
	}
}

// TestEscGoesBackToTheChooser: esc closes what is open first, then goes
// back to the chooser with the selection where it was; esc while a session
// loads drops the load.
func TestEscGoesBackToTheChooser(t *testing.T) {
	m, loads := chooserModel(t)
	press(m, "j", "enter") // clean.jsonl, not verified yet: it loads
	if m.st != stateLoading {
		t.Fatalf("enter on an unverified session: state %d", m.st)
	}
	press(m, "esc")
	if m.st != statePicker || m.inSession() {
		t.Fatalf("esc while loading: state %d", m.st)
	}
	if msg := (loadedMsg{req: m.loadReq - 1, res: fixtureResult(t)}); true {
		m.Update(msg) // the dropped load finishing late changes nothing
	}
	if m.st != statePicker {
		t.Fatal("a dropped load opened its session")
	}

	// Open it for real, open an overlay, then esc twice.
	_, cmd := m.Update(keyMsg("enter"))
	drainLoad(t, m, cmd)
	if m.st != stateReady || m.opt.Title != "clean.jsonl" {
		t.Fatalf("the session did not open: state %d title %q", m.st, m.opt.Title)
	}
	press(m, "f")
	press(m, "esc")
	if m.st != stateReady || m.ov != ovNone {
		t.Fatal("the first esc did not just close the findings")
	}
	press(m, "esc")
	if m.st != statePicker || m.opt.Title != "runs/" {
		t.Fatalf("the second esc: state %d title %q", m.st, m.opt.Title)
	}
	if m.picker.ref[m.picker.sel] != 1 {
		t.Errorf("the chooser's selection moved to %d", m.picker.ref[m.picker.sel])
	}
	if s := screen(m); !strings.Contains(s, "holds 3 sessions") || !strings.Contains(s, "250 turns · 2 compactions · ✓ all degrade") {
		t.Errorf("back in the chooser, the opened session's row is not filled in:\n%s", s)
	}
	_ = loads
}

// drainLoad runs a load to its end the way the runtime would.
func drainLoad(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	for range 1000 {
		var next tea.Cmd
		for _, msg := range collect(cmd) {
			switch msg.(type) {
			case loadStartedMsg, progressMsg:
				_, next = m.Update(msg)
			case loadedMsg:
				m.Update(msg)
				return
			}
		}
		if next == nil {
			t.Fatal("the load ended without a result")
		}
		cmd = next
	}
}

// findMsg runs cmd (and the batches it returns) and returns the first
// message of type T, skipping ticks.
func findMsg[T any](cmd tea.Cmd) *T {
	if cmd == nil {
		return nil
	}
	for _, msg := range collect(cmd) {
		if v, ok := msg.(T); ok {
			return &v
		}
	}
	return nil
}

// TestChooserFilterSortHelp: `/` filters as it is typed (q is a letter of
// the filter, not quit), enter keeps the filter and opens from it, esc
// clears it; `s` orders by violations once verified; `?` shows the keys.
func TestChooserFilterSortHelp(t *testing.T) {
	m, _ := chooserModel(t)
	for msg := findMsg[sessionCheckedMsg](m.Init()); msg != nil; {
		_, next := m.Update(*msg)
		msg = findMsg[sessionCheckedMsg](next)
	}
	press(m, "/")
	typeText(m, "clq")
	if m.st != statePicker {
		t.Fatal("typing q in the filter quit or left the chooser")
	}
	s := screen(m)
	if !strings.Contains(s, "no session matches “clq”") || !strings.Contains(s, "filter: clq") {
		t.Errorf("a filter nothing matches:\n%s", s)
	}
	press(m, "backspace")
	s = screen(m)
	if !strings.Contains(s, "clean.jsonl") || strings.Contains(s, "fixture.jsonl") || strings.Contains(s, "broken.jsonl") {
		t.Errorf("filter “cl” should keep clean.jsonl only:\n%s", s)
	}
	if !strings.Contains(s, "filter “cl”: 1 shown") {
		t.Errorf("the header does not say what the filter keeps:\n%s", s)
	}
	press(m, "enter") // keeps the filter, leaves the input
	if m.ch.filtering || m.ch.filter.value != "cl" {
		t.Fatalf("enter: filtering %v, filter %q", m.ch.filtering, m.ch.filter.value)
	}
	press(m, "enter") // opens the one session shown
	if m.st != stateReady || m.opt.Title != "clean.jsonl" {
		t.Fatalf("enter on the filtered row: state %d title %q", m.st, m.opt.Title)
	}
	press(m, "esc", "esc") // back, then clear the filter
	if m.st != statePicker || m.ch.filter.value != "" {
		t.Fatalf("esc, esc: state %d filter %q", m.st, m.ch.filter.value)
	}
	if s := screen(m); !strings.Contains(s, "fixture.jsonl") || !strings.Contains(s, "broken.jsonl") {
		t.Errorf("the cleared filter hides sessions:\n%s", s)
	}

	// Most violations first: the fixture (2 of 3 violate) before the clean
	// run; the unreadable one last.
	press(m, "s")
	if m.ch.sort != sortViolations {
		t.Fatalf("s: sort %v", m.ch.sort)
	}
	s = screen(m)
	fi, ci, bi := strings.Index(s, "fixture.jsonl"), strings.Index(s, "clean.jsonl"), strings.Index(s, "broken.jsonl")
	if !(fi < ci && ci < bi) || !strings.Contains(s, "sorted by most violations") {
		t.Errorf("sorted by violations: fixture %d, clean %d, broken %d:\n%s", fi, ci, bi, s)
	}
	press(m, "s")
	s = screen(m)
	if bi, ci, fi := strings.Index(s, "broken.jsonl"), strings.Index(s, "clean.jsonl"), strings.Index(s, "fixture.jsonl"); !(bi < ci && ci < fi) {
		t.Errorf("sorted by name:\n%s", s)
	}

	press(m, "?")
	s = screen(m)
	for _, want := range []string{"The session chooser", "filter as you type", "sort: newest, most violations, name"} {
		if !strings.Contains(s, want) {
			t.Errorf("the chooser's help lacks %q:\n%s", want, s)
		}
	}
	press(m, "?")
	if strings.Contains(screen(m), "The session chooser") {
		t.Error("? did not close the help")
	}
}
