package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// `loupe hook install` shows the change, --write makes it with a backup,
// and uninstall --write gives the settings back byte for byte.
func TestHookInstallCommand(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	project := t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	orig := "{\n  \"model\": \"opus\"\n}\n"
	os.WriteFile(settings, []byte(orig), 0o644)

	r := runCLI(t, "", "hook", "install", "claude-code", "--project", project, "--command", "loupe")
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, `+            "command": "loupe hook claude-code pre-compact # loupe-managed",`) || !strings.Contains(r.stdout, "--write") {
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
	// The backup is in loupe's state directory, never beside the settings
	// (where Gemini CLI showed it to the model in a folder listing).
	backups, _ := filepath.Glob(filepath.Join(state, "loupe", "backups", "claude-settings.json.*"))
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	if backup, _ := os.ReadFile(backups[0]); string(backup) != orig {
		t.Fatalf("backup %q", backup)
	}
	if left, _ := filepath.Glob(filepath.Join(project, ".claude", "*")); len(left) != 1 {
		t.Fatalf("files beside the settings: %v", left)
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

// `hook install --decide recorded` writes the flag into every hook command
// of a settings runtime and into opencode's plugin; uninstall gives the
// settings back; an unknown basis is refused.
func TestHookInstallDecide(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	project := t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	orig := "{\n  \"model\": \"opus\"\n}\n"
	os.WriteFile(settings, []byte(orig), 0o644)
	runCLI(t, "", "hook", "install", "--write", "--decide", "recorded", "--project", project, "--command", "loupe", "claude-code").expect(t, exitOK)
	b, _ := os.ReadFile(settings)
	if n := strings.Count(string(b), "loupe hook claude-code --decide recorded "); n != 5 {
		t.Fatalf("%d hook commands carry --decide recorded, want 5:\n%s", n, b)
	}
	runCLI(t, "", "hook", "uninstall", "--write", "--project", project, "claude-code").expect(t, exitOK)
	if b, _ := os.ReadFile(settings); string(b) != orig {
		t.Fatalf("round trip:\n%q\nwant\n%q", b, orig)
	}
	r := runCLI(t, "", "hook", "install", "--decide", "recorded", "--project", project, "--command", "loupe", "opencode")
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, `const DECIDE: string[] = ["--decide","recorded"]`) {
		t.Errorf("the opencode plugin does not pass --decide recorded:\n%s", r.stdout)
	}
	if r := runCLI(t, "", "hook", "install", "--decide", "sure", "--project", project, "claude-code"); r.code != exitBadInput {
		t.Errorf("--decide sure: exit %d", r.code)
	}
}

// `hook install` from `go run .` warns that the path it writes is in Go's
// build cache, which deletes it (issue 22).
func TestHookInstallWarnsOfBuildCache(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cache := t.TempDir()
	t.Setenv("GOCACHE", cache)
	for _, c := range []struct {
		command string
		warn    bool
	}{
		{filepath.Join(os.TempDir(), "go-build2952742369", "b001", "exe", "loupe"), true},
		{filepath.Join(cache, "3f", "3f2a-d", "loupe"), true},
		{"/usr/local/bin/loupe", false},
		{"loupe", false},
		{"/home/u/go-builds/loupe", false},
	} {
		r := runCLI(t, "", "hook", "install", "--project", t.TempDir(), "--command", c.command, "gemini")
		r.expect(t, exitOK)
		if got := strings.Contains(r.stderr, "inside Go's build cache"); got != c.warn {
			t.Errorf("%s: warned %v, want %v\n%s", c.command, got, c.warn, r.stderr)
		}
	}
	if r := runCLI(t, "", "hook", "install", "--project", t.TempDir(), "--command", "/tmp/go-build1/b001/exe/loupe", "gemini"); !strings.Contains(r.stderr, "--command") {
		t.Errorf("the warning does not say what to do: %s", r.stderr)
	}
}

// A read-only settings file needs --force, which keeps it read-only.
func TestHookInstallForce(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	project := t.TempDir()
	settings := filepath.Join(project, ".codex", "hooks.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte("{}\n"), 0o444)
	runCLI(t, "", "hook", "install", "--write", "--project", project, "codex").expect(t, exitBadInput, "read-only", "--force")
	runCLI(t, "", "hook", "install", "--write", "--force", "--project", project, "codex").expect(t, exitOK)
	if fi, _ := os.Stat(settings); fi.Mode().Perm() != 0o444 {
		t.Fatalf("mode %v after --force", fi.Mode().Perm())
	}
}

// A cloned repository that ships the old backup name as a link to a file of
// the user's: install and uninstall --write leave that file alone.
func TestHookInstallHostileBackupLink(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	project := t.TempDir()
	settings := filepath.Join(project, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte("{}\n"), 0o644)
	keys := filepath.Join(t.TempDir(), "authorized_keys")
	os.WriteFile(keys, []byte("ssh-ed25519 AAAA user@host\n"), 0o600)
	if err := os.Symlink(keys, settings+".loupe-backup"); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "", "hook", "install", "--write", "--project", project, "--command", "loupe", "gemini").expect(t, exitOK)
	runCLI(t, "", "hook", "uninstall", "--write", "--project", project, "gemini").expect(t, exitOK)
	if b, _ := os.ReadFile(keys); string(b) != "ssh-ed25519 AAAA user@host\n" {
		t.Fatalf("written through the repository's link: %q", b)
	}
	if b, _ := os.ReadFile(settings); string(b) != "{}\n" {
		t.Fatalf("round trip: %q", b)
	}
}

// stuckStdin is a runtime that never closes the hook's standard input.
type stuckStdin struct{ release chan struct{} }

func (r stuckStdin) Read([]byte) (int, error) { <-r.release; return 0, io.EOF }

// endlessStdin never ends, and counts what was read of it.
type endlessStdin struct{ n atomic.Int64 }

func (r *endlessStdin) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	r.n.Add(int64(len(p)))
	return len(p), nil
}

// runHook runs `loupe hook` on stdin, failing the test when it does not
// return in 20 s (these cases used to hang).
func runHook(t *testing.T, stdin io.Reader, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := run(append([]string{"hook"}, args...), stdin, &out, &errOut)
		done <- result{code, out.String(), errOut.String()}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("loupe hook did not return in 20s")
	}
	return result{}
}

// Standard input is read inside the hook's deadline and up to a cap: a
// runtime that never closes it, or sends without end, gets no answer, exit
// 0, and a log line saying why; no more than the cap is read.
func TestHookStdinBounded(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	log := func() string {
		b, _ := os.ReadFile(filepath.Join(state, "loupe", "hook.log"))
		return string(b)
	}
	stuck := stuckStdin{make(chan struct{})}
	defer close(stuck.release)
	r := runHook(t, stuck, "--deadline", "300ms", "claude-code", "post-compact")
	r.expect(t, exitOK)
	if r.stdout != "" || !strings.Contains(log(), "reading standard input (the runtime did not close it)") {
		t.Fatalf("stdout %q, log:\n%s", r.stdout, log())
	}
	for _, rt := range []struct {
		name string
		cap  int64
	}{{"claude-code", 8 << 20}, {"codex", 8 << 20}, {"opencode", 64 << 20}} {
		endless := &endlessStdin{}
		// The deadline only has to outlast reading the cap: 64 MiB under
		// -race on a loaded 2-core machine took over 15 s once.
		r = runHook(t, endless, "--deadline", "90s", rt.name, "pre-compact")
		r.expect(t, exitOK)
		if r.stdout != "" || !strings.Contains(log(), fmt.Sprintf("standard input is over %d MiB", rt.cap>>20)) {
			t.Fatalf("%s: stdout %q, log:\n%s", rt.name, r.stdout, log())
		}
		if n := endless.n.Load(); n > rt.cap+1<<20 {
			t.Fatalf("%s: read %d bytes of standard input, over its cap of %d", rt.name, n, rt.cap)
		}
	}
}
