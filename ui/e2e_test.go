package ui

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/sampledata"
)

// TestEndToEndInTmux runs the real binary in a real terminal (tmux) the way
// a person would, and reads the screen: the built-in migration run at
// 160×45 then 80×24, the summary-to-summary diff, violations only, the
// footers at 80×24 and 100×30, following a file that grows, the session
// chooser's esc, and where y and e send things. LOUPE_E2E_FILE=path runs
// the first part on a file instead of the built-in run.
func TestEndToEndInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install tmux); skipping the end-to-end test")
	}
	if r, err := sampledata.Open(sampledata.Default); err != nil {
		t.Skipf("the built-in %s run is not there yet: %v", sampledata.Default, err)
	} else {
		r.Close()
	}

	dir := t.TempDir()
	bin := filepath.Join(dir, "loupe")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv := &tmuxServer{sock: "loupe-e2e-" + strconv.Itoa(os.Getpid()), bin: bin}
	t.Cleanup(func() { srv.run("kill-server") })

	t.Run("migration", func(t *testing.T) { e2eMigration(t, srv.start(t, "160x45", nil, os.Getenv("LOUPE_E2E_FILE"))) })
	t.Run("summary-diff", func(t *testing.T) { e2eSummaryDiff(t, srv.start(t, "120x36", nil)) })
	t.Run("violations-only", func(t *testing.T) { e2eViolationsOnly(t, srv.start(t, "160x45", nil)) })
	t.Run("footers", func(t *testing.T) { e2eFooters(t, srv.start(t, "100x30", nil)) })
	t.Run("follow", func(t *testing.T) { e2eFollow(t, srv) })
	t.Run("chooser", func(t *testing.T) { e2eChooser(t, srv) })
	t.Run("copy-and-editor", func(t *testing.T) { e2eCopyAndEditor(t, srv) })
}

// tmuxServer is a private tmux server (its own socket) running loupe.
type tmuxServer struct {
	sock, bin string
	n         int
}

func (s *tmuxServer) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.sock}, args...)...).CombinedOutput()
	return string(out), err
}

// tmuxSession is one loupe in one tmux session.
type tmuxSession struct {
	srv      *tmuxServer
	name     string
	exitFile string
}

// start runs loupe with args in a new session of size "WxH", with env
// (NAME=value) set; an empty arg is left out.
func (s *tmuxServer) start(t *testing.T, size string, env []string, args ...string) *tmuxSession {
	t.Helper()
	s.n++
	ts := &tmuxSession{srv: s, name: "e2e" + strconv.Itoa(s.n), exitFile: filepath.Join(t.TempDir(), "exit")}
	cmdline := shellQuote(s.bin)
	for _, a := range args {
		if a != "" {
			cmdline += " " + shellQuote(a)
		}
	}
	for _, e := range env {
		cmdline = e[:strings.IndexByte(e, '=')+1] + shellQuote(e[strings.IndexByte(e, '=')+1:]) + " " + cmdline
	}
	w, h, _ := strings.Cut(size, "x")
	script := cmdline + "; echo $? > " + shellQuote(ts.exitFile)
	if out, err := s.run("new-session", "-d", "-s", ts.name, "-x", w, "-y", h, "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { s.run("kill-session", "-t", ts.name) })
	return ts
}

func (ts *tmuxSession) capture() string {
	out, _ := ts.srv.run("capture-pane", "-p", "-t", ts.name)
	return out
}

// keys sends keys, pausing after each: a bare key right after another can
// read as alt+key.
func (ts *tmuxSession) keys(keys ...string) {
	for _, k := range keys {
		ts.srv.run("send-keys", "-t", ts.name, k)
		time.Sleep(150 * time.Millisecond)
	}
}

func (ts *tmuxSession) resize(t *testing.T, w, h int) {
	t.Helper()
	if out, err := ts.srv.run("resize-window", "-t", ts.name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h)); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
}

func (ts *tmuxSession) waitFor(t *testing.T, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := ts.capture()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared on screen; the screen is:\n%s", what, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (ts *tmuxSession) waitText(t *testing.T, texts ...string) string {
	t.Helper()
	return ts.waitFor(t, strings.Join(texts, " and "), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// quit presses q and checks that loupe exited with status 0.
func (ts *tmuxSession) quit(t *testing.T) {
	t.Helper()
	time.Sleep(200 * time.Millisecond)
	ts.keys("q")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := ts.srv.run("has-session", "-t", ts.name); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit; the screen is:\n%s", ts.capture())
		}
		time.Sleep(100 * time.Millisecond)
	}
	code, err := os.ReadFile(ts.exitFile)
	if err != nil {
		t.Fatalf("no exit status: %v", err)
	}
	if c := string(bytes.TrimSpace(code)); c != "0" {
		t.Fatalf("loupe exited with %s", c)
	}
}

// atCompaction presses n until the detail row names compaction seq.
func (ts *tmuxSession) atCompaction(t *testing.T, seq int) string {
	t.Helper()
	want := "#" + strconv.Itoa(seq) + " of "
	s := ts.waitText(t, "3 Preservation set")
	for i := 0; i < 12 && !strings.Contains(s, want); i++ {
		ts.keys("n")
		s = ts.capture()
	}
	return ts.waitText(t, want)
}

func e2eMigration(t *testing.T, ts *tmuxSession) {
	// 160×45: the three panes, and the dropped migration commitment.
	dropped := regexp.MustCompile(`✗ dropped\s+re-?run[^\n]*migration`)
	s := ts.waitText(t, "1 Source", "2 Summary", "3 Preservation set")
	// The inspector opens on the first violation, which is the compaction
	// that dropped the commitment when every earlier one degrades; when the
	// verifier finds earlier violations too, n walks to it as a person would.
	presses := 0
	for ; !dropped.MatchString(s) && presses < 12; presses++ {
		ts.keys("n")
		time.Sleep(150 * time.Millisecond)
		s = ts.capture()
	}
	s = ts.waitFor(t, "the dropped migration commitment", func(s string) bool { return dropped.MatchString(s) })
	t.Logf("the dropped migration commitment is on screen after %d presses of n:\n%s", presses, s)
	for _, want := range []string{"✗ VIOLATE", "not in summary", "overclaim"} {
		if !strings.Contains(s, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, s)
		}
	}
	if lines := strings.Split(strings.TrimRight(s, "\n"), "\n"); len(lines) > 45 {
		t.Errorf("the screen has %d lines", len(lines))
	}

	// f, enter: the false completion, flagged in the source.
	ts.keys("f")
	s = ts.waitText(t, "false completion", "Findings")
	for i := 0; i < 10 && !strings.Contains(s, "▌ ⚑ false completion"); i++ {
		ts.keys("j")
		s = ts.capture()
	}
	ts.keys("Enter")
	ts.waitText(t, "⚑ false completion at turn ")

	// 80×24: tabs, the active one named.
	ts.resize(t, 80, 24)
	s = ts.waitText(t, "[ 1 Source ]")
	for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("row %d is %d runes wide at 80 columns: %q", i, w, l)
		}
	}
	ts.quit(t)
}

// e2eSummaryDiff: d at compaction 4 of the built-in run opens on summary 3
// against summary 4, the lost promise marked; s switches to the span diff,
// whose header names turns.
func e2eSummaryDiff(t *testing.T, ts *tmuxSession) {
	ts.atCompaction(t, 4)
	ts.keys("d")
	s := ts.waitText(t, "Word diff: summary #3 → summary #4", "not verified in #4", "re-run migration")
	ts.keys("Enter")
	s = ts.waitText(t, "⟦✗ dropped in #4: re-run migration⟧", "lost item 1 of")
	t.Logf("the summary-to-summary diff at compaction 4 (120×36):\n%s", s)
	ts.keys("s")
	s = ts.waitText(t, "Word diff: replaced span → summary #4", "The span is turn ")
	if regexp.MustCompile(`Events \d`).MatchString(s) {
		t.Errorf("the span diff still counts events by index:\n%s", s)
	}
	ts.keys("Escape", "d") // closed, the default comes back
	ts.waitText(t, "Word diff: summary #3 → summary #4")
	ts.quit(t)
}

// e2eViolationsOnly: v hides the degrading compactions and the verified
// items; v again shows them.
func e2eViolationsOnly(t *testing.T, ts *tmuxSession) {
	s := ts.waitText(t, "3 Preservation set", "compactions #1 ")
	ts.keys("v")
	s = ts.waitText(t, "violations only: ", "degrading hidden")
	timeline := strings.Split(s, "\n")[1]
	for _, degrade := range []string{"#1 ", "#3 ", "#7 "} {
		if strings.Contains(timeline, degrade) {
			t.Errorf("violations only still shows %s: %q", degrade, timeline)
		}
	}
	if !strings.Contains(timeline, "#4 ") || !strings.Contains(s, "· violations only") {
		t.Errorf("violations only:\n%s", s)
	}
	t.Logf("violations only:\n%s", s)
	ts.keys("]")
	ts.waitText(t, "#4 of 11")
	ts.keys("v")
	s = ts.waitText(t, "showing every compaction and item")
	if !strings.Contains(strings.Split(s, "\n")[1], "#1 ") {
		t.Errorf("v again did not show #1:\n%s", s)
	}
	ts.quit(t)
}

// e2eFooters: at 100×30 and 80×24 the footer keeps help, quit and the
// findings whole, and the verdict reason wraps instead of being cut.
func e2eFooters(t *testing.T, ts *tmuxSession) {
	for _, size := range [][2]int{{100, 30}, {80, 24}} {
		ts.resize(t, size[0], size[1])
		s := ts.waitFor(t, "the footer", func(s string) bool {
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			// The first screen shows while verification runs: wait for it.
			return len(lines) == size[1] && strings.Contains(lines[len(lines)-1], "q quit") && !strings.Contains(s, "verifying ")
		})
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		foot := lines[len(lines)-1]
		for _, want := range []string{"? help", "q quit", "f findings"} {
			if !strings.Contains(foot, want) {
				t.Errorf("%dx%d: the footer lacks %q: %q", size[0], size[1], want, foot)
			}
		}
		if strings.Contains(foot, "…") {
			t.Errorf("%dx%d: the footer is cut: %q", size[0], size[1], foot)
		}
		// The first reason is read whole below the facts.
		if !strings.Contains(lines[2], "✗ VIOLATE") || !strings.Contains(lines[3], "(turn 613)") {
			t.Errorf("%dx%d: the reason is cut:\n%s", size[0], size[1], strings.Join(lines[:5], "\n"))
		}
		t.Logf("%dx%d:\n%s", size[0], size[1], s)
	}
	ts.quit(t)
}

// migrationLines writes the first n lines of the built-in run to path.
func migrationLines(t *testing.T, path string, from, to int, appendTo bool) {
	t.Helper()
	r, err := sampledata.Open(sampledata.Default)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(all), "\n")
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flag = os.O_APPEND | os.O_WRONLY
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Join(lines[from:to], "")); err != nil {
		t.Fatal(err)
	}
}

// lineOfCompaction returns the line (1-based) of compaction seq in the
// built-in run.
func lineOfCompaction(t *testing.T, seq int) int {
	t.Helper()
	r, err := sampledata.Open(sampledata.Default)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	all, _ := io.ReadAll(r)
	want := `"type":"compaction"`
	n := 0
	for i, l := range strings.Split(string(all), "\n") {
		if strings.Contains(l, want) {
			n++
			if n == seq {
				return i + 1
			}
		}
	}
	t.Fatalf("no compaction #%d", seq)
	return 0
}

// e2eFollow opens a file holding the built-in run up to compaction 3,
// moves to #2 and scrolls, then appends up to compaction 4: its verdict
// appears, and the place is kept.
func e2eFollow(t *testing.T, srv *tmuxServer) {
	path := filepath.Join(t.TempDir(), "live.jsonl")
	third, fourth := lineOfCompaction(t, 3), lineOfCompaction(t, 4)
	migrationLines(t, path, 0, third+2, false)
	ts := srv.start(t, "120x36", nil, path)
	s := ts.waitText(t, "● live", "3 compactions")
	ts.keys("3", "j", "j")
	before := ts.capture()
	detail := strings.Replace(strings.Split(before, "\n")[2], "#2 of 3", "#2 of 4", 1)

	migrationLines(t, path, third+2, fourth+3, true)
	s = ts.waitText(t, "4 compactions", "compaction #4 landed at turn 900: ✗ violate")
	t.Logf("follow mode picked up compaction 4 (120×36):\n%s", s)
	if got := strings.Split(s, "\n")[2]; got != detail {
		t.Errorf("the selected compaction changed:\nbefore %q\nafter  %q", detail, got)
	}
	if !strings.Contains(strings.Split(s, "\n")[1], "#4 turn 900") {
		t.Errorf("the timeline lacks #4:\n%s", s)
	}
	// The pane below is where it was (the header and the footer changed).
	bl, al := strings.Split(before, "\n"), strings.Split(s, "\n")
	for i := 5; i < 30; i++ {
		if bl[i] != al[i] {
			t.Errorf("row %d moved:\nbefore %q\nafter  %q", i, bl[i], al[i])
			break
		}
	}
	ts.keys("]", "]")
	ts.waitText(t, "#4 of 4")
	ts.quit(t)
}

// e2eChooser opens a directory of two runs: their verdicts fill in, enter
// opens one, esc comes back.
func e2eChooser(t *testing.T, srv *tmuxServer) {
	dir := t.TempDir()
	for _, name := range []string{"tiny", sampledata.Default} {
		r, err := sampledata.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		os.WriteFile(filepath.Join(dir, name+".jsonl"), b, 0o644)
	}
	ts := srv.start(t, "120x36", nil, dir)
	s := ts.waitText(t, "holds 2 sessions", "4,101 turns · 11 compactions · ✗ 4 of 11 violate", "29 turns · 1 compaction · ✗ 1 of 1 violate")
	t.Logf("the chooser:\n%s", s)
	// Rows name their folder and file, then the session's first request.
	if !strings.Contains(s, "/ migration.jsonl  We are adding") || !strings.Contains(s, "/ tiny.jsonl  Add an orders table") {
		t.Errorf("the chooser's rows do not name folder and file:\n%s", s)
	}
	for i := 0; i < 3 && !selectedRowHas(s, "migration.jsonl"); i++ {
		ts.keys("j")
		s = ts.capture()
	}
	ts.keys("Enter")
	s = ts.waitText(t, "3 Preservation set", "esc sessions")
	if !strings.Contains(s, "4,101 turns") {
		t.Errorf("the opened run's turns differ from the chooser's:\n%s", s)
	}
	ts.keys("Escape")
	s = ts.waitText(t, "holds 2 sessions", "Choose a session")
	if !selectedRowHas(s, "migration.jsonl") {
		t.Errorf("back in the chooser, the selection moved:\n%s", s)
	}
	ts.quit(t)
}

// e2eCopyAndEditor: under tmux's default set-clipboard, y says it put the
// text in tmux's buffer and a file, and both hold it; e runs $EDITOR with
// +LINE FILE.
func e2eCopyAndEditor(t *testing.T, srv *tmuxServer) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.jsonl")
	migrationLines(t, path, 0, lineOfCompaction(t, 2)+1, false)
	args := filepath.Join(dir, "editor-args")
	editor := filepath.Join(dir, "editor.sh")
	os.WriteFile(editor, []byte("#!/bin/sh\necho \"$@\" > "+shellQuote(args)+"\n"), 0o755)
	home := filepath.Join(dir, "home")
	ts := srv.start(t, "160x45", []string{"EDITOR=" + editor, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "HOME=" + home}, path)
	// The verdicts, not only the transcript: y copies the selected item,
	// and under load the transcript shows well before they arrive.
	ts.waitText(t, "3 Preservation set", "1 violate")
	mode, _ := srv.run("show-options", "-gv", "set-clipboard")
	ts.keys("y")
	s := ts.waitText(t, "copied ")
	foot := strings.Split(strings.TrimRight(s, "\n"), "\n")[44]
	if strings.TrimSpace(mode) != "on" {
		if !strings.Contains(foot, "to tmux's paste buffer") {
			t.Errorf("y under set-clipboard %s: %q", strings.TrimSpace(mode), foot)
		}
		buf, _ := srv.run("show-buffer")
		if !strings.Contains(buf, "origin: turn ") {
			t.Errorf("tmux's buffer does not hold the item: %q", buf)
		}
	}
	if !strings.Contains(foot, "saved in ~/.cache/loupe/clipboard.txt") {
		t.Errorf("y does not say where it saved the copy: %q", foot)
	}
	if b, err := os.ReadFile(filepath.Join(home, ".cache", "loupe", "clipboard.txt")); err != nil || !strings.Contains(string(b), "origin: turn ") {
		t.Errorf("the saved copy: %v %q", err, b)
	}
	ts.keys("e")
	deadline := time.Now().Add(10 * time.Second)
	var got []byte
	for time.Now().Before(deadline) {
		if got, _ = os.ReadFile(args); len(got) > 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !regexp.MustCompile(`^\+\d+ ` + regexp.QuoteMeta(path) + "\n$").Match(got) {
		t.Errorf("$EDITOR got %q, want +LINE %s", got, path)
	}
	ts.waitText(t, "3 Preservation set") // back from the editor
	ts.quit(t)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// selectedRowHas reports whether the screen's selected row (the one the
// selection bar ▌ starts) holds text.
func selectedRowHas(screen, text string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if i := strings.Index(l, "▌ "); i >= 0 && strings.Contains(l[i:], text) {
			return true
		}
	}
	return false
}
