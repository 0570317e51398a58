package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/framecheck"
	"github.com/loupe-dev/loupe/internal/replay"
	"github.com/loupe-dev/loupe/verify"
)

// fixture is a runtime's transcript with compactions, replayed line by line.
type fixture struct {
	runtime, from, path string
	// compaction tells the lines that record a compaction.
	compaction func(line string) bool
	// session is the payload's session id.
	session string
}

func (f fixture) lines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.Split(s, "\n")
}

func claudeLine(l string) bool {
	return strings.Contains(l, `"subtype":"compact_boundary"`) || strings.Contains(l, `"subtype":"microcompact_boundary"`) || strings.Contains(l, `"isCompactSummary":true`)
}

func codexLine(l string) bool {
	return strings.Contains(l, `"type":"compacted"`) || strings.Contains(l, `"type":"context_compacted"`)
}

func geminiLine(l string) bool {
	return strings.HasPrefix(l, `{"$set":`) && strings.Contains(l, `"messages"`) || strings.Contains(l, `"type":"info"`) && strings.Contains(l, "ompress")
}

// The fixtures of each runtime (real and synthetic sessions), replayed as
// the runtime writes them: the hooks put a block back after exactly the
// compactions that `loupe verify` finds violating, and it names what the
// summary lost.
func TestHookFixtures(t *testing.T) {
	cc := "model/claudecode/testdata/"
	cases := []struct {
		fixture
		mentions []string // in the blocks put back
	}{
		{fixture{ClaudeRuntime, "claude-code", cc + "synthetic/11111111-2222-4333-8444-555555555555.jsonl", claudeLine, "11111111-2222-4333-8444-555555555555"}, []string{"toolu_01ED", "File has been modified since read"}},
		{fixture{ClaudeRuntime, "claude-code", cc + "synthetic/pending_tool_use_at_boundary.jsonl", claudeLine, "pending"}, []string{"toolu_P_B"}},
		{fixture{ClaudeRuntime, "claude-code", cc + "real/258c7280-ae70-4798-800f-63464d01a85d.jsonl", claudeLine, "258c7280-ae70-4798-800f-63464d01a85d"}, nil},
		{fixture{ClaudeRuntime, "claude-code", cc + "real/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl", claudeLine, "8463c716-a2ea-4c14-9efa-87158ebd9f20"}, nil},
		{fixture{"codex", "codex", "model/codex/testdata/synthetic/rollout-2026-02-01T09-00-00-019b0000-aaaa-7bbb-8ccc-dddddddddddd.jsonl", codexLine, "019b0000-aaaa-7bbb-8ccc-dddddddddddd"}, []string{"could not read the summary", "41"}},
		{fixture{"codex", "codex", "model/codex/testdata/synthetic/rollout-2025-10-01T08-00-00-0199aaaa-1111-7222-8333-444444444444.jsonl", codexLine, "0199aaaa-1111-7222-8333-444444444444"}, nil},
		{fixture{"codex", "codex", "model/codex/testdata/kvsankar/session_with_compaction.jsonl", codexLine, "kvsankar"}, []string{"add all the user CRUD endpoints with proper validation", "presents it as done"}},
		{fixture{"gemini", "gemini-cli", "model/gemini/testdata/session-2026-06-01T12-00-3f0c0000.jsonl", geminiLine, "3f0c0000-1111-4222-8333-444444444444"}, nil},
		{fixture{"gemini", "gemini-cli", "model/gemini/testdata/session-2026-07-01T09-00-masking1.jsonl", geminiLine, "masking1"}, nil},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			want := violators(t, c.path, c.from)
			injected := replayFixture(t, c.fixture)
			t.Logf("want %v injected %v", want, injected)
			if len(injected) != len(want) {
				t.Errorf("blocks after %v, violating compactions %v", keys(injected), want)
			}
			all := strings.Join(values(injected), "\n")
			for seq := range injected {
				if !want[seq] {
					t.Errorf("a block after compaction %d, which degrades", seq)
				}
			}
			for _, m := range c.mentions {
				if !strings.Contains(all, m) {
					t.Errorf("the blocks do not mention %q:\n%s", m, all)
				}
			}
		})
	}
}

// ClaudeRuntime is the runtime name the hooks are installed under.
const ClaudeRuntime = "claude-code"

// replayFixture writes f's lines into a new transcript, calling the hooks
// around each compaction as the runtime does, and returns the blocks put
// back, by compaction.
func replayFixture(t *testing.T, f fixture) map[int]string {
	t.Helper()
	lines := f.lines(t)
	file := filepath.Join(t.TempDir(), filepath.Base(f.path))
	h := newHookRig(t, file)
	at := map[string]any{"session_id": f.session, "transcript_path": file}
	write := func(ls []string) {
		if len(ls) == 0 {
			return
		}
		recs := make([]replay.Record, len(ls))
		for i, l := range ls {
			recs[i] = replay.Record{Line: []byte(l)}
		}
		h.write(recs)
	}
	injected := map[int]string{}
	seq := 0
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && !f.compaction(lines[j]) {
			j++
		}
		write(lines[i:j])
		if j == len(lines) {
			break
		}
		k := j
		for k < len(lines) && f.compaction(lines[k]) {
			k++
		}
		seq++
		var ctx string
		switch f.runtime {
		case ClaudeRuntime:
			h.hook(payload(t, "claude-code", "PreCompact", merge(at, map[string]any{"trigger": "auto"})), "claude-code", "pre-compact")
			write(lines[j:k])
			h.hook(payload(t, "claude-code", "PostCompact", merge(at, map[string]any{"compact_summary": ""})), "claude-code", "post-compact")
			ctx = contextOf(t, h.hook(payload(t, "claude-code", "PostToolUse", at), "claude-code", "reinject"), "PostToolUse")
		case "codex":
			h.hook(payload(t, "codex", "PreCompact", at), "codex", "pre-compact")
			write(lines[j:k])
			checkUniversal(t, h.hook(payload(t, "codex", "PostCompact", at), "codex", "post-compact"))
			ctx = contextOf(t, h.hook(payload(t, "codex", "SessionStart", at), "codex", "session-start"), "SessionStart")
		case "gemini":
			h.hook(payload(t, "gemini", "PreCompress", at), "gemini", "pre-compress")
			write(lines[j:k])
			ctx = contextOf(t, h.hook(payload(t, "gemini", "BeforeAgent", at), "gemini", "before-agent"), "BeforeAgent")
		}
		if ctx != "" {
			injected[seq] = ctx
		}
		i = k
	}
	if log := h.log(); strings.Contains(log, "nothing was output") {
		t.Errorf("a hook failed:\n%s", log)
	}
	return injected
}

func keys(m map[int]string) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	return out
}

func values(m map[int]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// copyTree copies a directory (the opencode storage fixture).
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sdkMessages reads a session of the storage tree as opencode's SDK returns
// it: each message's info with its parts.
func sdkMessages(t *testing.T, storage, session string) []map[string]any {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(storage, "message", session, "*.json"))
	var out []map[string]any
	for _, f := range files {
		var info map[string]any
		b, _ := os.ReadFile(f)
		json.Unmarshal(b, &info)
		var parts []any
		pfiles, _ := filepath.Glob(filepath.Join(storage, "part", info["id"].(string), "*.json"))
		for _, pf := range pfiles {
			var p any
			pb, _ := os.ReadFile(pf)
			json.Unmarshal(pb, &p)
			parts = append(parts, p)
		}
		out = append(out, map[string]any{"info": info, "parts": parts})
	}
	return out
}

// opencode, as the plugin in integrations/opencode calls loupe: the session
// read from the JSON storage tree, or handed over as the SDK's messages
// (opencode keeps them in SQLite since 1.x). The compaction is written
// between the two calls; the block goes back once, through the system
// prompt; with --gate, the auto-continue is refused. opencode stores the
// compaction request (msg_003) before experimental.session.compacting
// runs: the session already holds it then, and only its summary comes
// after.
func TestHookOpencode(t *testing.T) {
	const id = "ses_synthetic0001"
	for _, mode := range []string{"storage", "messages"} {
		t.Run(mode, func(t *testing.T) {
			storage := filepath.Join(t.TempDir(), "storage")
			copyTree(t, "model/opencode/testdata/storage", storage)
			held := t.TempDir()
			// Before the compaction: its summary is not there yet.
			notYet := []string{"msg_004"}
			for _, m := range notYet {
				os.Rename(filepath.Join(storage, "message", id, m+".json"), filepath.Join(held, m+".json"))
			}
			h := newHookRig(t, filepath.Join(storage, "session", "prj_synthetic", id+".json"))
			in := func(name string) string {
				set := map[string]any{"storage": storage}
				if mode == "messages" {
					set = map[string]any{"messages": sdkMessages(t, storage, id)}
				}
				return payload(t, "opencode", name, set)
			}
			out := h.hook(in("compacting"), "opencode", "compacting")
			var steer struct{ Context []string }
			if err := json.Unmarshal([]byte(out), &steer); err != nil || len(steer.Context) != 1 || !strings.Contains(steer.Context[0], "toolu_01PEN") {
				t.Fatalf("compacting: %v %q", err, out)
			}
			for _, m := range notYet {
				os.Rename(filepath.Join(held, m+".json"), filepath.Join(storage, "message", id, m+".json"))
			}
			var done struct {
				Seq     int
				Verdict string
				Pending bool
			}
			out = h.hook(in("compacted"), "opencode", "compacted")
			if err := json.Unmarshal([]byte(out), &done); err != nil || done.Seq != 1 || done.Verdict != "violate" || !done.Pending {
				t.Fatalf("compacted: %v %q", err, out)
			}
			var sys struct{ System string }
			out = h.hook(payload(t, "opencode", "system", nil), "opencode", "system")
			if err := json.Unmarshal([]byte(out), &sys); err != nil {
				t.Fatalf("system: %v %q", err, out)
			}
			if b, err := framecheck.Parse(sys.System); err != nil || len(b.Items) == 0 || !strings.HasPrefix(b.Items[0].Line, "pending tool call (turn 2)") ||
				!slices.Contains(b.Items[0].Excerpts, verify.Excerpt{Label: "call id", Text: "toolu_01PEN"}) || !slices.Contains(b.Items[0].Excerpts, verify.Excerpt{Label: "tool", Text: "read"}) {
				t.Fatalf("system: %v %q", err, sys.System)
			}
			if again := h.hook(payload(t, "opencode", "system", nil), "opencode", "system"); again != "" {
				t.Fatalf("a second injection: %s", again)
			}
			if out := h.hook(payload(t, "opencode", "autocontinue", nil), "opencode", "autocontinue"); out != "" {
				t.Fatalf("auto-continue refused without --gate: %s", out)
			}
			out = h.hook(payload(t, "opencode", "autocontinue", nil), "--gate", "opencode", "autocontinue")
			if !strings.Contains(out, `"enabled":false`) {
				t.Fatalf("auto-continue with --gate: %q", out)
			}
		})
	}
}
