package formats

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestOpenReaderDetectsTheStream: a stream is detected from its own start
// and read by the format's reader, once.
func TestOpenReaderDetectsTheStream(t *testing.T) {
	for path, want := range map[string]string{claudeSynth: "claude-code", codexLocal: "codex", geminiJSONL: "gemini-cli", geminiLegacy: "gemini-cli", "../pi/testdata/v3-tree.jsonl": "pi", "../pi/testdata/v1-kept-tail.jsonl": "pi", "../testdata/tiny.jsonl.zst": "loupe"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fromFile, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := OpenReader(bytes.NewReader(data), "stream", Options{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if tr.Path != "stream" || len(tr.Events) != len(fromFile.Events) || len(tr.Compactions) != len(fromFile.Compactions) {
			t.Errorf("%s as a stream: %d events, %d compactions; from the file %d, %d", path, len(tr.Events), len(tr.Compactions), len(fromFile.Events), len(fromFile.Compactions))
		}
		if got := tr.Meta.Source; want != "loupe" && !strings.HasPrefix(got, want) {
			t.Errorf("%s: source %q, want %s", path, got, want)
		}
	}
	// opencode's database and export are files and can come through a pipe;
	// a session file of its storage tree cannot (its messages are beside it).
	_, err := OpenReader(strings.NewReader("{}\n"), "x", Options{From: "opencode"})
	if err == nil || !strings.HasPrefix(err.Error(), "x: ") || !strings.Contains(err.Error(), "nor an opencode database or export") || strings.Contains(err.Error(), "loupe-stream") {
		t.Errorf("a storage session from a stream: %v", err)
	}
	if _, err := OpenReader(strings.NewReader(" \n\n"), "x", Options{}); !errors.Is(err, ErrEmpty) || err.Error() != "x: empty file" {
		t.Errorf("an empty stream: %v", err)
	}
}

// TestOpenNamedPipe: a FIFO is opened once and read as a stream; Detect
// refuses it rather than consume its start.
func TestOpenNamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "p")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	data, _ := os.ReadFile(codexLocal)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.Write(data)
			f.Close()
		}
	}()
	tr, err := Open(fifo, Options{})
	if err != nil || len(tr.Compactions) != 1 || tr.Path != fifo {
		t.Fatalf("Open of a FIFO: %v", err)
	}
	if _, err := Detect(fifo, ""); err == nil || !strings.Contains(err.Error(), "a named pipe, not a regular file") {
		t.Errorf("Detect of a FIFO: %v", err)
	}
}

// TestList: every session under a directory, whatever the mix; the rest
// named as skipped.
func TestList(t *testing.T) {
	root := t.TempDir()
	// A Claude Code project that also holds a loupe run and a Codex rollout.
	copyTree(t, claudeResume, filepath.Join(root, "proj"))
	copyFile(t, "../testdata/tiny.jsonl", filepath.Join(root, "proj", "loupe-run.jsonl"))
	copyFile(t, codexLocal, filepath.Join(root, "proj", "rollout.jsonl"))
	// OpenHands conversations deep down.
	copyTree(t, ohV0, filepath.Join(root, "a", "b", "c", "sid-1"))
	copyTree(t, ohV1, filepath.Join(root, "a", "sid-2"))
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("hello\n"), 0o644)
	os.WriteFile(filepath.Join(root, "empty.jsonl"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "bad.jsonl.gz"), []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1, 2, 3}, 0o644)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := List(root, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range l.Sessions {
		rel, _ := filepath.Rel(root, s.Path)
		got = append(got, s.Format+" "+rel)
	}
	want := []string{
		"openhands a/b/c/sid-1",
		"openhands a/sid-2",
		"claude-code proj/aaaaaaaa-0000-4000-8000-000000000001.jsonl",
		"claude-code proj/bbbbbbbb-0000-4000-8000-000000000002.jsonl",
		"claude-code proj/cccccccc-0000-4000-8000-000000000003.jsonl",
		"claude-code proj/cccccccc-0000-4000-8000-000000000003/subagents/agent-a1b2c3.jsonl",
		"loupe proj/loupe-run.jsonl",
		"codex proj/rollout.jsonl",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sessions:\n got %q\nwant %q", got, want)
	}
	skipped := map[string]string{}
	for _, s := range l.Skipped {
		rel, _ := filepath.Rel(root, s.Path)
		mark := ""
		if s.Unreadable {
			mark = "unreadable: "
		}
		skipped[rel] = mark + s.Reason
	}
	for rel, want := range map[string]string{
		"notes.txt":    "not a transcript format loupe reads",
		"empty.jsonl":  "empty file",
		"bad.jsonl.gz": "unreadable: ",
		"pipe.jsonl":   "a named pipe, not a regular file",
	} {
		if !strings.HasPrefix(skipped[rel], want) {
			t.Errorf("skipped %s: %q, want %q…", rel, skipped[rel], want)
		}
	}
	if len(l.Skipped) != 4 || len(l.Unreadable()) != 1 {
		t.Errorf("skipped %q", skipped)
	}
	// Every session listed opens as the format listed.
	for _, s := range l.Sessions {
		if _, err := Open(s.Path, Options{From: s.Format}); err != nil {
			t.Errorf("%s: %v", s.Path, err)
		}
	}
}
