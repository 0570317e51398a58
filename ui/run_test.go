package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/verify"
)

// TestRunReportsWhatCouldNotOpen: when the inspector could only show that it
// could not open its transcript, quitting it is a failure the caller sees
// (the command exits 2), not a clean exit.
func TestRunReportsWhatCouldNotOpen(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	opt := Options{Title: "broken.jsonl", Load: func(func(Progress)) (*verify.Result, error) {
		return nil, errors.New("broken.jsonl: line 3: boom")
	}}
	var out safeBuffer
	done := make(chan error, 1)
	go func() {
		done <- runProgram(opt, tea.WithContext(context.Background()), tea.WithInput(pr), tea.WithOutput(&out),
			tea.WithWindowSize(80, 24), tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithoutSignals())
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "could not open") {
		if time.Now().After(deadline) {
			t.Fatalf("the error screen never showed:\n%q", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	pw.Write([]byte("q"))
	select {
	case err := <-done:
		var oe *OpenError
		if !errors.As(err, &oe) || oe.Title != "broken.jsonl" || err.Error() != "could not open broken.jsonl: broken.jsonl: line 3: boom" {
			t.Fatalf("Run returned %v, want the OpenError", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not quit on q")
	}
}
