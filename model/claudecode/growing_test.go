package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// A session the runtime is still writing (a hook reads it mid-turn): lines
// appended between the importer's two passes are left for the next read,
// not an error. Claude Code 2.1.332 appended while PreCompact read it, and
// the hook printed nothing ("line 82 changed while it was read").
func TestSessionGrowingWhileRead(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "synthetic", "pending_tool_use_at_boundary.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimRight(string(src), "\n")+"\n", "\n")
	last := lines[len(lines)-2] // a complete record to append again
	path := filepath.Join(t.TempDir(), "11111111-2222-4333-8444-555555555555.jsonl")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := Open(path, model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	appended := false
	got, err := Open(path, model.ReadOptions{Progress: func(read, total int64) {
		if appended || read < total {
			return
		}
		// The first pass has read the whole file: the runtime writes more.
		appended = true
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(last)
		f.Close()
	}})
	if !appended {
		t.Fatal("the test never appended: progress did not reach the end of the first pass")
	}
	if err != nil {
		t.Fatalf("a session that grew while read: %v", err)
	}
	if len(got.Events) != len(want.Events) {
		t.Errorf("%d events, want the %d of what the first pass read", len(got.Events), len(want.Events))
	}
}
