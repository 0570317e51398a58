package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/framecheck"
	"github.com/loupe-dev/loupe/internal/replay"
)

// pi's extension, as it calls loupe, on a session pi 0.73.1 wrote (an RPC
// compact whose summary dropped the promise to re-run the migration): the
// snapshot before, the verdict after (a warning for the user, and with
// --gate a stop), the block at the next agent start, once.
func TestHookPiLiveSession(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("hook", "testdata", "pi", "rpc-compact-0.73.1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	at := 0
	for i, l := range lines {
		if strings.Contains(l, `"type":"compaction"`) {
			at = i
		}
	}
	if at == 0 {
		t.Fatal("the session has no compaction line")
	}
	file := filepath.Join(t.TempDir(), "sessions", "--proj--", "2026-12-01T23-16-27-038Z_01a233e5.jsonl")
	os.MkdirAll(filepath.Dir(file), 0o700)
	h := newHookRig(t, file)
	grow := func(ls []string) {
		var recs []replay.Record
		for _, l := range ls {
			if l = strings.TrimSpace(l); l != "" {
				recs = append(recs, replay.Record{Line: []byte(l)})
			}
		}
		h.write(recs)
	}
	in := func(event string) string {
		b, _ := json.Marshal(map[string]string{"session_id": "01a233e5", "transcript_path": file, "cwd": "/proj", "hook_event_name": event})
		return string(b)
	}
	// The first prompt comes before pi writes the file: silent, no log line.
	if out := h.hook(in("before_agent_start"), "pi", "agent-start"); out != "" {
		t.Fatalf("first prompt: %q", out)
	}
	grow(lines[:at])
	if out := h.hook(in("session_before_compact"), "pi", "pre-compact"); out != "" {
		t.Fatalf("pre-compact printed %q (pi has no channel for it)", out)
	}
	grow(lines[at : at+1])
	post := h.hook(in("session_compact"), "--gate", "pi", "post-compact")
	var v struct {
		Continue      *bool  `json:"continue"`
		StopReason    string `json:"stopReason"`
		SystemMessage string `json:"systemMessage"`
	}
	if err := json.Unmarshal([]byte(post), &v); err != nil || v.Continue == nil || *v.Continue || !strings.Contains(v.StopReason, "open commitment") || !strings.Contains(v.StopReason, "compaction 1") {
		// The stop names what was lost in loupe's words only: transcript
		// text goes back framed, at the next agent start (issue 18).
		t.Fatalf("post-compact with --gate: %v\n%s", err, post)
	}
	grow(lines[at+1:])
	ctx := contextOf(t, h.hook(in("before_agent_start"), "pi", "agent-start"), "before_agent_start")
	if !strings.Contains(ctx, "re-run the migration") || !strings.Contains(ctx, "compaction 1") {
		t.Fatalf("the block put back at the next agent start:\n%s", ctx)
	}
	// pi gets loupe's frame like every runtime: transcript text only in
	// quoted excerpts, and a stop that quotes none.
	if b, err := framecheck.Parse(ctx); err != nil || b.Purpose != "re-injection" || len(b.Items) != 1 {
		t.Errorf("the block is not loupe's frame with one item: %v\n%s", err, ctx)
	}
	checkReceipt(t, "stopReason", v.StopReason)
	if again := h.hook(in("before_agent_start"), "pi", "agent-start"); again != "" {
		t.Fatalf("a second injection: %s", again)
	}
	if log := h.log(); strings.Count(log, "\n") != 2 || !strings.Contains(log, "stopped the turn") || !strings.Contains(log, "put back 1 item for compaction 1") {
		t.Errorf("hook.log, want the stop and the one put-back:\n%s", log)
	}
}
