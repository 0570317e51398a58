package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// followed is the inspector following path, opened the way loupe FILE
// opens it: the file read and verified by Load, following from the file
// as it was read.
func followed(t *testing.T, path string) (*Model, tea.Cmd) {
	t.Helper()
	load := func(func(Progress)) (*verify.Result, error) {
		tr, err := model.Open(path, model.ReadOptions{})
		if err != nil {
			return nil, err
		}
		return verify.Run(tr, verify.Options{}), nil
	}
	m := New(Options{Title: path, File: path, Follow: true, Load: load, FollowEvery: time.Millisecond, ClipDir: t.TempDir()})
	m.statusTTL = time.Hour // the status is what the test reads
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	cmd := m.Init()
	var next tea.Cmd
	for range 100 {
		next = nil
		for _, msg := range collect(cmd) {
			switch msg.(type) {
			case loadStartedMsg, progressMsg:
				_, next = m.Update(msg)
			case loadedMsg:
				_, next = m.Update(msg)
				return m, next
			}
		}
		cmd = next
	}
	t.Fatal("the file never loaded")
	return nil, nil
}

// pump feeds the follow loop's messages back (ticks, polls, reloads) until
// done says so or a second has passed.
func pump(t *testing.T, m *Model, cmd tea.Cmd, done func() bool) tea.Cmd {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("the inspector never got there; the screen is:\n%s", screen(m))
		}
		var next []tea.Cmd
		for _, msg := range collect(cmd) {
			switch msg.(type) {
			case followTickMsg, followStatMsg, followLoadedMsg:
				_, c := m.Update(msg)
				next = append(next, c)
			}
		}
		cmd = tea.Batch(next...)
		if cmd == nil {
			t.Fatalf("following stopped; the screen is:\n%s", screen(m))
		}
	}
	return cmd
}

func fixtureLines(n int) string {
	ls := strings.SplitAfter(fixtureJSONL, "\n")
	return strings.Join(ls[:n], "")
}

// TestFollowPicksUpANewCompactionAndKeepsThePlace appends compaction #3 to
// a file the inspector has open on #2, scrolled and focused on the source:
// the new compaction shows with its verdict and the place is the same.
func TestFollowPicksUpANewCompactionAndKeepsThePlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	if err := os.WriteFile(path, []byte(fixtureLines(13)), 0o644); err != nil {
		t.Fatal(err)
	}
	m, cmd := followed(t, path)
	if n := len(m.res.Compactions); n != 2 {
		t.Fatalf("%d compactions before the append", n)
	}
	if !strings.Contains(strings.Split(screen(m), "\n")[0], "● live") {
		t.Fatalf("no live marker:\n%s", screen(m))
	}
	press(m, "1", "j", "j")
	seq, item, top, focus := m.res.Compactions[m.ci].Seq, m.curItem(), m.panes[paneSource].top, m.focus
	cmd = pump(t, m, cmd, func() bool { return m.follow.last.ok }) // the baseline

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(strings.TrimPrefix(fixtureJSONL, fixtureLines(13)))
	f.Close()

	pump(t, m, cmd, func() bool { return len(m.res.Compactions) == 3 })
	s := screen(m)
	for _, want := range []string{"#3 turn 12", "compaction #3 landed at turn 12: ✗ violate", "● live"} {
		if !strings.Contains(s, want) {
			t.Errorf("after the append the screen lacks %q:\n%s", want, s)
		}
	}
	if got := m.res.Compactions[m.ci].Seq; got != seq {
		t.Errorf("the selection moved from #%d to #%d", seq, got)
	}
	if it := m.curItem(); item != nil && (it == nil || it.ID != item.ID) {
		t.Errorf("the selected item moved from %v to %v", item.ID, it)
	}
	if m.focus != focus || m.panes[paneSource].top != top {
		t.Errorf("focus %d top %v, was %d %v", m.focus, m.panes[paneSource].top, focus, top)
	}
}

// TestFollowWaitsForAWholeLineAndSeesTruncation: a half-written last line
// is not read until it ends; a truncated file is read again and says so.
func TestFollowWaitsForAWholeLineAndSeesTruncation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	os.WriteFile(path, []byte(fixtureLines(13)), 0o644)
	m, cmd := followed(t, path)
	cmd = pump(t, m, cmd, func() bool { return m.follow.last.ok })
	events := len(m.t.Events)

	rest := strings.TrimPrefix(fixtureJSONL, fixtureLines(13))
	half := rest[:20]
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(half)
	cmd = pump(t, m, cmd, func() bool { return m.follow.halfLine > 0 })
	if len(m.t.Events) != events || len(m.t.Problems) != 0 {
		t.Fatalf("a half-written line was read: %d events, problems %v", len(m.t.Events), m.t.Problems)
	}
	f.WriteString(rest[20:])
	f.Close()
	cmd = pump(t, m, cmd, func() bool { return len(m.res.Compactions) == 3 })
	if len(m.t.Problems) != 0 {
		t.Fatalf("the completed line reads as broken: %v", m.t.Problems)
	}

	os.WriteFile(path, []byte(fixtureLines(6)), 0o644) // truncated in place
	pump(t, m, cmd, func() bool { return len(m.res.Compactions) == 1 })
	if !strings.Contains(m.status, "the file was truncated; reloaded") {
		t.Errorf("truncation status: %q", m.status)
	}
	if m.ci != 0 {
		t.Errorf("after truncation the selection is %d", m.ci)
	}
}

// TestFollowStopsWithTheSession: a reload that answers a following that
// stopped (the user went back to the chooser) changes nothing.
func TestFollowStopsWithTheSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	os.WriteFile(path, []byte(fixtureLines(13)), 0o644)
	m, _ := followed(t, path)
	gen := m.follow.gen
	res := m.res
	m.stopFollow()
	m.Update(followLoadedMsg{gen: gen, res: verify.Run(loadFixture(t, fixtureJSONL), verify.Options{})})
	if m.res != res {
		t.Fatal("a stale reload replaced the result")
	}
	if strings.Contains(screen(m), "● live") {
		t.Fatal("the live marker stayed after following stopped")
	}
	// Without Follow, or without a file, nothing is polled.
	for _, opt := range []Options{{Title: "x", Result: res, File: path}, {Title: "x", Result: res, Follow: true}} {
		n := New(opt)
		n.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		for _, msg := range collect(n.Init()) {
			if _, ok := msg.(followStatMsg); ok {
				t.Errorf("%+v polls the file", opt)
			}
		}
	}
}
