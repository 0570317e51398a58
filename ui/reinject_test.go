package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func reinjectModel(t *testing.T, f ReinjectionsFunc, w int) *Model {
	t.Helper()
	m := New(Options{Title: "fixture.jsonl", Result: fixtureResult(t), ClipDir: t.TempDir(), Reinjections: f})
	m.Update(tea.WindowSizeMsg{Width: w, Height: 45})
	runCmd(m, m.Init())
	return m
}

// The live gate's state is read by a command, never in Update or View, and
// shown on the timeline and beside the selected compaction.
func TestTimelineShowsReinjection(t *testing.T) {
	calls := 0
	f := func() ([]Reinjection, error) {
		calls++
		return []Reinjection{{Seq: 2, Items: 3, State: "injected", Via: "claude-code PostToolUse", At: time.Date(2026, 11, 2, 9, 15, 0, 0, time.Local)}}, nil
	}
	m := reinjectModel(t, f, 160)
	if calls != 1 {
		t.Fatalf("state read %d times at start, want 1", calls)
	}
	s := screen(m)
	for _, want := range []string{"↺ re-injected 3 items at #2 (claude-code PostToolUse 09:15)", "↺ #2"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	m.View()
	if calls != 1 {
		t.Fatalf("View read the state")
	}
	// Another compaction: nothing was put back after it.
	press(m, "]")
	if strings.Contains(strings.Split(screen(m), "\n")[2], "re-injected") {
		t.Errorf("the note follows the selection:\n%s", screen(m))
	}
}

// On a narrow terminal the note takes a row of its own, and every row still
// fits the width; an error reading the state shows nothing.
func TestReinjectionNarrowAndFailing(t *testing.T) {
	f := func() ([]Reinjection, error) {
		return []Reinjection{{Seq: 2, Items: 1, State: "injected", Via: "codex SessionStart"}}, nil
	}
	m := reinjectModel(t, f, 80)
	for i, row := range strings.Split(m.View().Content, "\n") {
		if ansi.StringWidth(row) > 80 {
			t.Fatalf("row %d is %d wide", i, ansi.StringWidth(row))
		}
	}
	if !strings.Contains(screen(m), "re-injected 1 item at #2") {
		t.Errorf("narrow screen lacks the note:\n%s", screen(m))
	}
	bad := reinjectModel(t, func() ([]Reinjection, error) { return nil, errors.New("unreadable") }, 160)
	if strings.Contains(screen(bad), "↺") {
		t.Errorf("a failing read shows a note:\n%s", screen(bad))
	}
}
