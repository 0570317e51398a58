package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `loupe hook install` shows the change, --write makes it with a backup,
// and uninstall --write gives the settings back byte for byte.
func TestHookInstallCommand(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	project := t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	orig := "{\n  \"model\": \"opus\"\n}\n"
	os.WriteFile(settings, []byte(orig), 0o644)

	r := runCLI(t, "", "hook", "install", "claude-code", "--project", project, "--command", "loupe")
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, `+            "command": "loupe hook claude-code pre-compact",`) || !strings.Contains(r.stdout, "--write") {
		t.Fatalf("the change is not shown:\n%s", r.stdout)
	}
	if b, _ := os.ReadFile(settings); string(b) != orig {
		t.Fatal("install without --write changed the file")
	}
	runCLI(t, "", "hook", "install", "--write", "--project", project, "--command", "loupe", "claude-code").expect(t, exitOK)
	b, _ := os.ReadFile(settings)
	if !strings.Contains(string(b), "loupe hook claude-code reinject") {
		t.Fatalf("not installed:\n%s", b)
	}
	if backup, _ := os.ReadFile(settings + ".loupe-backup"); string(backup) != orig {
		t.Fatalf("backup %q", backup)
	}
	r = runCLI(t, "", "hook", "install", "--write", "--project", project, "--command", "loupe", "claude-code")
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, "already in") {
		t.Errorf("a second install: %s", r.stdout)
	}
	runCLI(t, "", "hook", "uninstall", "--write", "--project", project, "claude-code").expect(t, exitOK)
	if b, _ := os.ReadFile(settings); string(b) != orig {
		t.Fatalf("round trip:\n%q\nwant\n%q", b, orig)
	}
}

func TestHookCommandErrors(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	runCLI(t, "", "hook").expect(t, exitBadInput, "hook takes RUNTIME and EVENT")
	runCLI(t, "", "hook", "install").expect(t, exitBadInput, "takes one RUNTIME")
	runCLI(t, "", "hook", "install", "cursor").expect(t, exitBadInput, "unknown runtime")
	runCLI(t, "", "hook", "install", "--user", "--project", ".", "codex").expect(t, exitBadInput, "exclude each other")
	// Inside a runtime, a mistyped settings entry must not break the agent.
	r := runCLI(t, `{"session_id":"x"}`, "hook", "cursor", "pre-compact")
	r.expect(t, exitOK)
	if r.stdout != "" {
		t.Fatalf("output: %s", r.stdout)
	}
	r = runCLI(t, "not json", "hook", "claude-code", "post-compact")
	r.expect(t, exitOK)
	if r.stdout != "" {
		t.Fatalf("output on bad input: %s", r.stdout)
	}
}

// When the summary is in the transcript by the time SessionStart(compact)
// runs, the block goes back through SessionStart, and not again at the next
// tool call.
func TestHookClaudeSessionStartInjects(t *testing.T) {
	f := fixture{ClaudeRuntime, "claude-code", "model/claudecode/testdata/synthetic/pending_tool_use_at_boundary.jsonl", claudeLine, "early"}
	lines := f.lines(t)
	file := filepath.Join(t.TempDir(), "early.jsonl")
	h := newHookRig(t, file)
	at := map[string]any{"session_id": "early", "transcript_path": file}
	var i int
	for i = 0; !claudeLine(lines[i]); i++ {
	}
	os.WriteFile(file, []byte(strings.Join(lines[:i], "\n")+"\n"), 0o600)
	h.hook(payload(t, "claude-code", "PreCompact", at), "claude-code", "pre-compact")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	ctx := contextOf(t, h.hook(payload(t, "claude-code", "SessionStart", merge(at, map[string]any{"source": "compact"})), "claude-code", "session-start"), "SessionStart")
	if !strings.Contains(ctx, "toolu_P_B") {
		t.Fatalf("SessionStart: %q", ctx)
	}
	receipt := h.hook(payload(t, "claude-code", "PostCompact", at), "claude-code", "post-compact")
	if !strings.Contains(receipt, "They were put back") {
		t.Errorf("PostCompact receipt: %q", receipt)
	}
	if out := h.hook(payload(t, "claude-code", "PostToolUse", at), "claude-code", "reinject"); out != "" {
		t.Fatalf("put back twice: %s", out)
	}
	// SessionStart for a new session is not a compaction.
	if out := h.hook(payload(t, "claude-code", "SessionStart", at), "claude-code", "session-start"); out != "" {
		t.Fatalf("startup: %s", out)
	}
}
