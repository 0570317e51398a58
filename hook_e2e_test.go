package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/internal/replay"
	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/verify"
)

// End-to-end tests of `loupe hook`, run as each runtime runs it: the hook's
// JSON on standard input (the documented payloads of hook/testdata/payloads,
// pointed at a transcript on disk), the transcript growing between the
// calls the way the runtime writes it, and the answer read from standard
// output in the runtime's contract.

// lostPromise is what the built-in migration run's compaction 4 drops.
const lostPromise = "re-run the migration (promised at turn %d, after the schema diff is reviewed)"

type hookRig struct {
	t     *testing.T
	state string
	file  string
	sum   [32]byte
}

func newHookRig(t *testing.T, file string) *hookRig {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	return &hookRig{t: t, state: state, file: file}
}

// payload reads a documented payload and points it at the rig's session.
func payload(t *testing.T, runtime, name string, set map[string]any) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("hook", "testdata", "payloads", runtime, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s/%s: %v", runtime, name, err)
	}
	for k, v := range set {
		m[k] = v
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// write appends records to the transcript, as the runtime does.
func (h *hookRig) write(recs []replay.Record) {
	h.t.Helper()
	f, err := os.OpenFile(h.file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := f.Write(replay.Bytes(recs)); err != nil {
		h.t.Fatal(err)
	}
	f.Close()
	h.sum = fileSum(h.t, h.file)
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// hook runs `loupe hook` and returns its standard output; it must exit 0
// and leave the transcript as it was.
func (h *hookRig) hook(in string, args ...string) string {
	h.t.Helper()
	r := runCLI(h.t, in, append([]string{"hook"}, args...)...)
	if r.code != exitOK {
		h.t.Fatalf("loupe hook %v: exit %d\n%s", args, r.code, r.stderr)
	}
	if h.sum != ([32]byte{}) && fileSum(h.t, h.file) != h.sum {
		h.t.Fatalf("loupe hook %v changed the transcript", args)
	}
	return r.stdout
}

// log is loupe's own log.
func (h *hookRig) log() string {
	b, _ := os.ReadFile(filepath.Join(h.state, "loupe", "hook.log"))
	return string(b)
}

func migration(t *testing.T) *model.Transcript {
	t.Helper()
	r, err := sampledata.Open("migration")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tr, err := model.Read(r, model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// violators verifies a whole replayed file the usual way: the seqs whose
// compaction violates, the reference the hooks must agree with.
func violators(t *testing.T, path, from string) map[int]bool {
	t.Helper()
	tr, err := formats.Open(path, formats.Options{From: from})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for _, c := range verify.Run(tr, verify.Options{}).Compactions {
		if c.Verdict == verify.Violate {
			out[c.Seq] = true
		}
	}
	return out
}

// contextOf decodes hookSpecificOutput.additionalContext ("" for no
// output), checking the event name.
func contextOf(t *testing.T, out, event string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	var v struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, out)
	}
	if v.HookSpecificOutput.HookEventName != event {
		t.Fatalf("hookEventName %q, want %q", v.HookSpecificOutput.HookEventName, event)
	}
	return v.HookSpecificOutput.AdditionalContext
}

// The done criterion: the migration run replayed as a Claude Code session.
// PreCompact snapshots and steers; SessionStart(compact) fires before the
// summary is in the file (Claude Code's order) and says nothing; the
// summary lands; PostCompact verifies it; the next tool call puts the block
// back, once, after every violating compaction and after no other.
func TestHookClaudeCodeMigration(t *testing.T) {
	tr := migration(t)
	dir := filepath.Join(t.TempDir(), "projects", "-work-orders")
	os.MkdirAll(dir, 0o700)
	session := "7f3a0000-0000-4000-8000-000000000001"
	file := filepath.Join(dir, session+".jsonl")
	recs := replay.ClaudeCode(tr, session, "/work/orders", file)
	full := filepath.Join(t.TempDir(), session+".jsonl")
	os.WriteFile(full, replay.Bytes(recs), 0o600)
	want := violators(t, full, "claude-code")

	h := newHookRig(t, file)
	at := map[string]any{"session_id": session, "transcript_path": file}
	injected := map[int]string{}
	for _, c := range tr.Compactions {
		before, comp, next := replay.Split(recs, c.Seq)
		h.write(before[h.lines(before):])
		steer := h.hook(payload(t, "claude-code", "PreCompact", at), "claude-code", "pre-compact")
		if c.Seq == 4 && !strings.Contains(steer, "re-run the migration") {
			t.Errorf("PreCompact before #4 does not ask to keep the promise:\n%s", steer)
		}
		start := payload(t, "claude-code", "SessionStart", merge(at, map[string]any{"source": "compact"}))
		if out := h.hook(start, "claude-code", "session-start"); out != "" {
			t.Fatalf("#%d: SessionStart put something back before the summary existed:\n%s", c.Seq, out)
		}
		h.write(comp)
		post := payload(t, "claude-code", "PostCompact", merge(at, map[string]any{"trigger": "auto", "compact_summary": c.Summary}))
		receipt := h.hook(post, "claude-code", "post-compact")
		if !strings.Contains(receipt, "compaction "+strconv.Itoa(c.Seq)+" ") {
			t.Errorf("#%d: PostCompact receipt %q", c.Seq, receipt)
		}
		h.write(recs[next:min(next+2, len(recs))])
		ctx := contextOf(t, h.hook(payload(t, "claude-code", "PostToolUse", at), "claude-code", "reinject"), "PostToolUse")
		again := h.hook(payload(t, "claude-code", "UserPromptSubmit", at), "claude-code", "reinject")
		if again != "" {
			t.Fatalf("#%d: a second injection for one compaction:\n%s", c.Seq, again)
		}
		if ctx != "" {
			injected[c.Seq] = ctx
		}
	}
	checkInjected(t, injected, want, fmt.Sprintf(lostPromise, 210))
	if log := h.log(); strings.Contains(log, "nothing was output") {
		t.Errorf("a hook failed:\n%s", log)
	}
}

// lines is how many records of recs the transcript already holds.
func (h *hookRig) lines(recs []replay.Record) int {
	b, err := os.ReadFile(h.file)
	if err != nil {
		return 0
	}
	return bytes.Count(b, []byte("\n"))
}

func checkInjected(t *testing.T, injected map[int]string, want map[int]bool, promise string) {
	t.Helper()
	for seq := range want {
		if injected[seq] == "" {
			t.Errorf("compaction %d violates, but nothing was put back", seq)
		}
	}
	for seq, ctx := range injected {
		if !want[seq] {
			t.Errorf("compaction %d degrades, but a block was put back:\n%s", seq, ctx)
		}
	}
	if !strings.Contains(injected[4], promise) {
		t.Errorf("the block after compaction 4 lacks %q:\n%s", promise, injected[4])
	}
	if len(want) == 0 || want[7] || want[11] {
		t.Errorf("unexpected reference verdicts %v", want)
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// The migration run as a Codex rollout: PreCompact snapshots (and prints
// nothing, as Codex's output schema wants), the compacted line lands,
// PostCompact verifies and, with --gate, stops the turn on a violation;
// SessionStart(compact) puts the block back once.
func TestHookCodexMigration(t *testing.T) {
	tr := migration(t)
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "11", "02")
	os.MkdirAll(dir, 0o700)
	session := "0199aaaa-1111-7222-8333-444444444444"
	file := filepath.Join(dir, "rollout-2026-11-02T09-00-00-"+session+".jsonl")
	recs := replay.Codex(tr, session, "/work/orders")
	full := filepath.Join(t.TempDir(), filepath.Base(file))
	os.WriteFile(full, replay.Bytes(recs), 0o600)
	want := violators(t, full, "codex")
	promiseTurn := originTurn(t, full, "codex", "re-run migration")

	h := newHookRig(t, file)
	at := map[string]any{"session_id": session, "transcript_path": file}
	injected := map[int]string{}
	for _, c := range tr.Compactions {
		before, comp, next := replay.Split(recs, c.Seq)
		h.write(before[h.lines(before):])
		if out := h.hook(payload(t, "codex", "PreCompact", at), "codex", "pre-compact"); out != "" {
			t.Fatalf("Codex PreCompact output must hold only universal fields; loupe printed %q", out)
		}
		h.write(comp)
		post := h.hook(payload(t, "codex", "PostCompact", at), "--gate", "codex", "post-compact")
		checkUniversal(t, post)
		if stopped := strings.Contains(post, `"continue":false`); stopped != want[c.Seq] {
			t.Errorf("#%d: gate stopped=%v, violates=%v: %s", c.Seq, stopped, want[c.Seq], post)
		}
		ctx := contextOf(t, h.hook(payload(t, "codex", "SessionStart", at), "codex", "session-start"), "SessionStart")
		if again := h.hook(payload(t, "codex", "SessionStart", at), "codex", "session-start"); again != "" {
			t.Fatalf("#%d: a second injection: %s", c.Seq, again)
		}
		h.write(recs[next:min(next+1, len(recs))])
		if ctx != "" {
			injected[c.Seq] = ctx
		}
	}
	checkInjected(t, injected, want, fmt.Sprintf(lostPromise, promiseTurn))
}

// originTurn is the origin turn of the item with key in the replayed file,
// as its own importer numbers turns.
func originTurn(t *testing.T, path, from, key string) int {
	t.Helper()
	tr, err := formats.Open(path, formats.Options{From: from})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range verify.Run(tr, verify.Options{}).Compactions {
		for _, it := range c.Items {
			if it.Key == key {
				return it.Turn
			}
		}
	}
	t.Fatalf("%s: no item %q", path, key)
	return 0
}

// checkUniversal checks that an answer to Codex's PostCompact holds only
// the fields its output schema allows (additionalProperties: false).
func checkUniversal(t *testing.T, out string) {
	t.Helper()
	if out == "" {
		return
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for k := range m {
		switch k {
		case "continue", "stopReason", "suppressOutput", "systemMessage":
		default:
			t.Errorf("field %q is not allowed in Codex PostCompact output", k)
		}
	}
}

// The migration run as a Gemini CLI recording: PreCompress snapshots (and
// stays silent), the $set checkpoint lands, and the next BeforeAgent finds
// it, verifies it and puts the block back once.
func TestHookGeminiMigration(t *testing.T) {
	tr := migration(t)
	dir := filepath.Join(t.TempDir(), "tmp", strings.Repeat("0", 64), "chats")
	os.MkdirAll(dir, 0o700)
	session := "mig00001-0000-4000-8000-000000000000"
	file := filepath.Join(dir, "session-2026-11-02T09-00-mig00001.jsonl")
	recs := replay.Gemini(tr, session)
	full := filepath.Join(t.TempDir(), filepath.Base(file))
	os.WriteFile(full, replay.Bytes(recs), 0o600)
	want := violators(t, full, "gemini-cli")
	promiseTurn := originTurn(t, full, "gemini-cli", "re-run migration")

	h := newHookRig(t, file)
	at := map[string]any{"session_id": session, "transcript_path": file}
	injected := map[int]string{}
	for _, c := range tr.Compactions {
		before, comp, next := replay.Split(recs, c.Seq)
		// PreCompress fires on every turn that considers compressing: the
		// snapshot the compaction is checked with is mostly an older one,
		// and the lines since are read with the summary.
		for from := h.lines(before); from < len(before); from += 60 {
			h.write(before[from:min(from+60, len(before))])
			if out := h.hook(payload(t, "gemini", "PreCompress", at), "gemini", "pre-compress"); out != "" {
				t.Fatalf("PreCompress printed %q", out)
			}
		}
		h.write(comp)
		h.write(recs[next:min(next+2, len(recs))])
		ctx := contextOf(t, h.hook(payload(t, "gemini", "AfterTool", at), "gemini", "after-tool"), "AfterTool")
		if again := h.hook(payload(t, "gemini", "BeforeAgent", at), "gemini", "before-agent"); again != "" {
			t.Fatalf("#%d: a second injection: %s", c.Seq, again)
		}
		if ctx != "" {
			injected[c.Seq] = ctx
		}
	}
	checkInjected(t, injected, want, fmt.Sprintf(lostPromise, promiseTurn))
}

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
// prompt; with --gate, the auto-continue is refused.
func TestHookOpencode(t *testing.T) {
	const id = "ses_synthetic0001"
	for _, mode := range []string{"storage", "messages"} {
		t.Run(mode, func(t *testing.T) {
			storage := filepath.Join(t.TempDir(), "storage")
			copyTree(t, "model/opencode/testdata/storage", storage)
			held := t.TempDir()
			// Before the compaction: the compaction request and its summary are not there yet.
			for _, m := range []string{"msg_003", "msg_004"} {
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
			for _, m := range []string{"msg_003", "msg_004"} {
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
			if err := json.Unmarshal([]byte(out), &sys); err != nil || !strings.Contains(sys.System, "pending tool call toolu_01PEN (read, turn 2)") {
				t.Fatalf("system: %v %q", err, out)
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
