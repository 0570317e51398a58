package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/replay"
)

// A Codex compaction whose process ends before SessionStart(compact) is
// drained (a manual compaction from the app-server, a --gate stop): the
// block goes back at the SessionStart of the resumed session, once; a new
// session's start gets nothing.
func TestHookCodexResumePutsBack(t *testing.T) {
	tr := migration(t)
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "11", "02")
	os.MkdirAll(dir, 0o700)
	session := "0199aaaa-1111-7222-8333-555555555555"
	file := filepath.Join(dir, "rollout-2026-11-02T09-00-00-"+session+".jsonl")
	recs := replay.Codex(tr, session, "/work/orders")
	full := filepath.Join(t.TempDir(), filepath.Base(file))
	os.WriteFile(full, replay.Bytes(recs), 0o600)
	want := violators(t, full, "codex")
	h := newHookRig(t, file)
	at := map[string]any{"session_id": session, "transcript_path": file}
	resume := map[string]any{"session_id": session, "transcript_path": file, "source": "resume"}
	for _, c := range tr.Compactions {
		before, comp, _ := replay.Split(recs, c.Seq)
		h.write(before[h.lines(before):])
		h.hook(payload(t, "codex", "PreCompact", at), "codex", "pre-compact")
		h.write(comp)
		h.hook(payload(t, "codex", "PostCompact", at), "--gate", "codex", "post-compact")
		if !want[c.Seq] {
			continue
		}
		// No SessionStart(compact): the process ended. The resume puts it back.
		if out := h.hook(payload(t, "codex", "SessionStart", map[string]any{"session_id": session, "transcript_path": file, "source": "startup"}), "codex", "session-start"); out != "" {
			t.Fatalf("#%d: a startup got %s", c.Seq, out)
		}
		ctx := contextOf(t, h.hook(payload(t, "codex", "SessionStart", resume), "codex", "session-start"), "SessionStart")
		if !strings.Contains(ctx, fmt.Sprintf("compaction %d ", c.Seq)) {
			t.Fatalf("#%d: the resume did not get the block:\n%s", c.Seq, ctx)
		}
		if again := h.hook(payload(t, "codex", "SessionStart", resume), "codex", "session-start"); again != "" {
			t.Fatalf("#%d: a second resume got it again: %s", c.Seq, again)
		}
		return
	}
	t.Fatal("the migration run has no violating compaction")
}
