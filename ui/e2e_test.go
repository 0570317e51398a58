package ui

import (
	"bytes"
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
// a person would: `loupe` on the built-in migration run at 160×45, reads the
// screen, resizes to 80×24, presses q. LOUPE_E2E_FILE=path runs it on a
// file instead of the built-in run.
func TestEndToEndInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install tmux); skipping the end-to-end test")
	}
	file := os.Getenv("LOUPE_E2E_FILE")
	if file == "" {
		if r, err := sampledata.Open(sampledata.Default); err != nil {
			t.Skipf("the built-in %s run is not there yet: %v", sampledata.Default, err)
		} else {
			r.Close()
		}
	}

	dir := t.TempDir()
	bin := filepath.Join(dir, "loupe")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	sock := "loupe-e2e-" + strconv.Itoa(os.Getpid())
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-L", sock}, args...)...).CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { tmux("kill-server") })

	exitFile := filepath.Join(dir, "exit")
	cmdline := shellQuote(bin)
	if file != "" {
		cmdline += " " + shellQuote(file)
	}
	script := cmdline + "; echo $? > " + shellQuote(exitFile)
	if out, err := tmux("new-session", "-d", "-s", "e2e", "-x", "160", "-y", "45", "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	capture := func() string {
		out, _ := tmux("capture-pane", "-p", "-t", "e2e")
		return out
	}
	waitFor := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			s := capture()
			if ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never appeared on screen; the screen is:\n%s", what, s)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	// 160×45: the three panes, and the dropped migration commitment.
	dropped := regexp.MustCompile(`✗ dropped\s+re-?run[^\n]*migration`)
	s := waitFor("the three panes", func(s string) bool {
		return strings.Contains(s, "1 Source") && strings.Contains(s, "2 Summary") && strings.Contains(s, "3 Preservation set")
	})
	// The inspector opens on the first violation, which is the compaction
	// that dropped the commitment when every earlier one degrades; when the
	// verifier finds earlier violations too, n walks to it as a person would.
	presses := 0
	for ; !dropped.MatchString(s) && presses < 12; presses++ {
		tmux("send-keys", "-t", "e2e", "n")
		time.Sleep(300 * time.Millisecond)
		s = capture()
	}
	s = waitFor("the dropped migration commitment", func(s string) bool { return dropped.MatchString(s) })
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
	tmux("send-keys", "-t", "e2e", "f")
	s = waitFor("the findings", func(s string) bool { return strings.Contains(s, "false completion") && strings.Contains(s, "Findings") })
	for i := 0; i < 10 && !strings.Contains(s, "▌ ⚑ false completion"); i++ {
		tmux("send-keys", "-t", "e2e", "j")
		time.Sleep(200 * time.Millisecond)
		s = capture()
	}
	tmux("send-keys", "-t", "e2e", "Enter")
	waitFor("the finding banner", func(s string) bool { return strings.Contains(s, "⚑ false completion at t") })

	// 80×24: tabs, the active one named.
	if out, err := tmux("resize-window", "-t", "e2e", "-x", "80", "-y", "24"); err != nil {
		t.Fatalf("resize: %v\n%s", err, out)
	}
	s = waitFor("the tab layout", func(s string) bool { return strings.Contains(s, "[ 1 Source ]") })
	for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("row %d is %d runes wide at 80 columns: %q", i, w, l)
		}
	}

	// q quits, with status 0.
	time.Sleep(200 * time.Millisecond) // a bare key right after another can read as alt+key
	tmux("send-keys", "-t", "e2e", "q")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := tmux("has-session", "-t", "e2e"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("q did not quit; the screen is:\n%s", capture())
		}
		time.Sleep(100 * time.Millisecond)
	}
	code, err := os.ReadFile(exitFile)
	if err != nil {
		t.Fatalf("no exit status: %v", err)
	}
	if c := string(bytes.TrimSpace(code)); c != "0" {
		t.Fatalf("loupe exited with %s", c)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
