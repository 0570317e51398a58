package formats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// The fixtures live beside each importer (model/<runtime>/testdata).
const (
	claudeReal   = "../claudecode/testdata/real/258c7280-ae70-4798-800f-63464d01a85d.jsonl"
	claudeSynth  = "../claudecode/testdata/synthetic/11111111-2222-4333-8444-555555555555.jsonl"
	claudeResume = "../claudecode/testdata/resume"
	codexRemote  = "../codex/testdata/synthetic/rollout-2026-02-01T09-00-00-019b0000-aaaa-7bbb-8ccc-dddddddddddd.jsonl"
	codexLocal   = "../codex/testdata/synthetic/rollout-2025-10-01T08-00-00-0199aaaa-1111-7222-8333-444444444444.jsonl"
	geminiJSONL  = "../gemini/testdata/session-2026-06-01T12-00-3f0c0000.jsonl"
	geminiLegacy = "../gemini/testdata/session-2026-01-20T10-00-legacy01.json"
	ohV0         = "../openhands/testdata/v0/sid-synthetic"
	ohV1         = "../openhands/testdata/v1/synthetic"
	opencodeDir  = "../opencode/testdata/storage"
	opencodeFile = "../opencode/testdata/storage/session/prj_synthetic/ses_synthetic0001.json"
	piV1         = "../pi/testdata/v1-kept-tail.jsonl"
	piV3         = "../pi/testdata/v3-tree.jsonl"
)

func TestDetect(t *testing.T) {
	native := filepath.Join(t.TempDir(), "run.jsonl")
	os.WriteFile(native, []byte(`{"type":"meta","format":"loupe/v1"}`+"\n"+`{"type":"message","turn":1,"role":"user","text":"hi"}`+"\n"), 0o644)
	tests := map[string]string{
		claudeReal: "claude-code", claudeSynth: "claude-code", claudeResume: "claude-code",
		codexRemote: "codex", codexLocal: "codex",
		geminiJSONL: "gemini-cli", geminiLegacy: "gemini-cli",
		ohV0: "openhands", ohV1: "openhands",
		opencodeDir: "opencode", opencodeFile: "opencode",
		piV1: "pi", piV3: "pi",
		native: "loupe",
	}
	for path, want := range tests {
		f, err := Detect(path, "")
		if err != nil || f.Name != want {
			t.Errorf("%s: detected %q (%v), want %q", path, f.Name, err, want)
		}
	}
	unknown := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(unknown, []byte("just some notes\n"), 0o644)
	_, err := Detect(unknown, "")
	if err == nil || !strings.Contains(err.Error(), "claude-code, codex, gemini-cli, opencode, openhands, pi") {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := Detect(unknown, "cursor"); err == nil || !strings.Contains(err.Error(), "loupe reads: loupe, claude-code") {
		t.Errorf("unknown --from: %v", err)
	}
	if f, err := Detect(claudeReal, "codex"); err != nil || f.Name != "codex" {
		t.Errorf("--from codex: %v %v", f.Name, err)
	}
}

func TestOpenEveryFormat(t *testing.T) {
	for _, path := range []string{claudeReal, claudeSynth, codexRemote, geminiJSONL, geminiLegacy, ohV0, ohV1, opencodeDir, piV1, piV3} {
		tr, err := Open(path, Options{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if len(tr.Compactions) == 0 || tr.Meta.Source == "" {
			t.Errorf("%s: %d compactions, source %q", path, len(tr.Compactions), tr.Meta.Source)
		}
	}
	tr, err := Open(claudeSynth, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := RawCount(tr); n != 1 {
		t.Errorf("raw count %d, want 1 (the truncated last line)", n)
	}
	if r := RawReasons(tr); r["truncated last line"] != 1 {
		t.Errorf("raw reasons %v", r)
	}
	// Forcing a format that does not match reads nothing: that is an
	// error, not an empty transcript that verifies clean.
	_, err = Open(claudeSynth, Options{From: "codex"})
	var nr *NothingReadError
	if !errors.As(err, &nr) || nr.Format != "codex" || !strings.Contains(err.Error(), claudeSynth+": nothing in it reads as codex") {
		t.Errorf("forcing codex on a Claude Code file: %v", err)
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(dst), 0o755)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestSessions(t *testing.T) {
	root := t.TempDir()
	copyTree(t, claudeResume, filepath.Join(root, "claude", "-w"))
	copyFile(t, codexRemote, filepath.Join(root, "codex", "2026", "02", "01", filepath.Base(codexRemote)))
	copyFile(t, geminiJSONL, filepath.Join(root, "gemini", "abc", "chats", filepath.Base(geminiJSONL)))
	copyTree(t, ohV0, filepath.Join(root, "openhands", "sessions", "sid-synthetic"))
	copyTree(t, opencodeDir, filepath.Join(root, "opencode", "storage"))
	copyFile(t, piV3, filepath.Join(root, "pi", "sessions", "--home-user-shop--", "2025-12-02T09-00-00-000Z_5e551011.jsonl"))
	os.WriteFile(filepath.Join(root, "empty.jsonl"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "run.jsonl"), []byte(`{"type":"meta","format":"loupe/v1","run":"r1"}`+"\n"+`{"type":"message","turn":1,"ts":"2026-09-01T00:00:00Z","role":"user","text":"hi"}`+"\n"), 0o644)

	infos, err := Sessions(root)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, si := range infos {
		count[si.Format]++
	}
	// Claude Code: 3, not 4: bbbbbbbb continues aaaaaaaa and stands for both.
	want := map[string]int{"claude-code": 3, "codex": 1, "gemini-cli": 1, "openhands": 1, "opencode": 2, "pi": 1, "loupe": 1}
	for k, v := range want {
		if count[k] != v {
			t.Errorf("%s: %d sessions, want %d (all: %v)", k, count[k], v, count)
		}
	}
	for i := 1; i < len(infos); i++ {
		a, b := infos[i-1], infos[i]
		if !b.Start.IsZero() && (a.Start.IsZero() || a.Start.Before(b.Start)) {
			t.Errorf("not newest first: %s (%v) before %s (%v)", a.Path, a.Start, b.Path, b.Start)
		}
	}
	if infos[0].Format != "gemini-cli" && infos[0].Format != "loupe" {
		t.Errorf("newest is %s %v", infos[0].Path, infos[0].Start)
	}
	for _, si := range infos {
		if _, err := Open(si.Path, Options{}); err != nil {
			t.Errorf("a listed session does not open: %s: %v", si.Path, err)
		}
	}
}

func TestLatest(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude-config"))
	t.Setenv("CODEX_HOME", filepath.Join(home, "codex-home"))
	projects := filepath.Join(home, "claude-config", "projects", "-w")
	withCompaction := copyFile(t, claudeSynth, filepath.Join(projects, filepath.Base(claudeSynth)))
	noCompaction := copyFile(t, "../claudecode/testdata/resume/cccccccc-0000-4000-8000-000000000003.jsonl", filepath.Join(projects, "cccccccc-0000-4000-8000-000000000003.jsonl"))
	codex := copyFile(t, codexLocal, filepath.Join(home, "codex-home", "sessions", "2025", "10", "01", filepath.Base(codexLocal)))
	// Ignored: ~/.claude is not used when CLAUDE_CONFIG_DIR is set.
	ignored := copyFile(t, claudeReal, filepath.Join(home, ".claude", "projects", "-x", filepath.Base(claudeReal)))
	now := time.Now()
	os.Chtimes(ignored, now, now)
	os.Chtimes(noCompaction, now.Add(-time.Minute), now.Add(-time.Minute))
	os.Chtimes(codex, now.Add(-2*time.Minute), now.Add(-2*time.Minute))
	os.Chtimes(withCompaction, now.Add(-3*time.Minute), now.Add(-3*time.Minute))

	got, err := Latest()
	if err != nil || got != codex {
		t.Fatalf("latest %q (%v), want the Codex rollout %q", got, err, codex)
	}
	os.Chtimes(withCompaction, now.Add(-30*time.Second), now.Add(-30*time.Second))
	if got, err := Latest(); err != nil || got != withCompaction {
		t.Fatalf("latest %q (%v), want %q", got, err, withCompaction)
	}
	tr, err := Open(got, Options{})
	if err != nil || len(tr.Compactions) == 0 {
		t.Fatalf("latest does not open with a compaction: %v", err)
	}
	// A pi session, newest, under $PI_CODING_AGENT_DIR.
	t.Setenv("PI_CODING_AGENT_DIR", filepath.Join(home, "pi-agent"))
	pi := copyFile(t, piV1, filepath.Join(home, "pi-agent", "sessions", "--home-user-shop--", "2025-12-01T10-00-00-000Z_0b1c2d3e.jsonl"))
	os.Chtimes(pi, now.Add(-10*time.Second), now.Add(-10*time.Second))
	if got, err := Latest(); err != nil || got != pi {
		t.Fatalf("latest %q (%v), want the pi session %q", got, err, pi)
	}

	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "nowhere"))
	t.Setenv("CODEX_HOME", filepath.Join(home, "nowhere"))
	t.Setenv("PI_CODING_AGENT_DIR", filepath.Join(home, "nowhere"))
	t.Setenv("HOME", filepath.Join(home, "nowhere"))
	if _, err := Latest(); err == nil {
		t.Error("no sessions anywhere: want an error")
	}
}

func TestRawReasonsNative(t *testing.T) {
	tr, err := model.Read(strings.NewReader(`{"type":"meta","format":"loupe/v1"}`+"\n"+`{"type":"weird","turn":1}`+"\n"), model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if RawCount(tr) != 1 || RawReasons(tr)[`unknown type "weird"`] != 1 {
		t.Errorf("raw: %d %v", RawCount(tr), RawReasons(tr))
	}
}
