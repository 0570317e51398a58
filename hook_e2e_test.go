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

	"github.com/loupe-dev/loupe/internal/framecheck"
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

// hasLostPromise reports whether a block holds what the built-in migration
// run's compaction 4 drops: the promise made at turn, with its action and
// condition quoted as excerpts of the framed block.
func hasLostPromise(t *testing.T, block string, turn int) bool {
	t.Helper()
	b, err := framecheck.Parse(block)
	if err != nil {
		t.Fatalf("%v\n%s", err, block)
	}
	for _, it := range b.Items {
		what, _ := it.Excerpt("what")
		cond, _ := it.Excerpt("on the condition")
		if it.Line == fmt.Sprintf("open commitment (promised at turn %d)", turn) && what == "re-run the migration" && cond == "after the schema diff is reviewed" {
			return true
		}
	}
	return false
}

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
	checkInjected(t, injected, want, 210)
	if log := h.log(); strings.Contains(log, "nothing was output") {
		t.Errorf("a hook failed:\n%s", log)
	}
}

// A promise the agent stated in prose and a summary dropped is put back by
// default; with the gate set to `--decide recorded` it is review, and the
// hook puts nothing back (only what the runtime recorded counts there).
func TestHookClaudeCodeDecideRecorded(t *testing.T) {
	const src = `{"type":"meta","format":"loupe/v1"}
{"type":"message","turn":1,"role":"user","text":"Fix the header, then look at the schema."}
{"type":"message","turn":2,"role":"assistant","text":"I will re-run the migration after the schema diff is reviewed."}
{"type":"tool_call","turn":3,"id":"c1","name":"Edit","input":{"file_path":"src/header.tsx","old_string":"a","new_string":"b"}}
{"type":"tool_result","turn":4,"id":"c1","is_error":false,"text":"The file src/header.tsx has been updated successfully."}
{"type":"message","turn":5,"role":"assistant","text":"The header is fixed."}
{"type":"compaction","turn":6,"seq":1,"trigger":"auto","summary":"Fixed the header in src/header.tsx."}
{"type":"message","turn":7,"role":"user","text":"Thanks."}
{"type":"tool_call","turn":8,"id":"c2","name":"Read","input":{"file_path":"src/header.tsx"}}
{"type":"tool_result","turn":9,"id":"c2","is_error":false,"text":"b"}
`
	tr, err := model.Read(strings.NewReader(src), model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		back bool
	}{{nil, true}, {[]string{"--decide", "recorded"}, false}} {
		dir := filepath.Join(t.TempDir(), "projects", "-work-orders")
		os.MkdirAll(dir, 0o700)
		session := "7f3a0000-0000-4000-8000-000000000002"
		file := filepath.Join(dir, session+".jsonl")
		recs := replay.ClaudeCode(tr, session, "/work/orders", file)
		h := newHookRig(t, file)
		at := map[string]any{"session_id": session, "transcript_path": file}
		run := func(in string, args ...string) string { return h.hook(in, append(args, c.args...)...) }
		before, comp, next := replay.Split(recs, 1)
		h.write(before)
		run(payload(t, "claude-code", "PreCompact", at), "claude-code", "pre-compact")
		h.write(comp)
		run(payload(t, "claude-code", "PostCompact", merge(at, map[string]any{"trigger": "auto", "compact_summary": tr.Compactions[0].Summary})), "claude-code", "post-compact")
		h.write(recs[next:])
		ctx := contextOf(t, run(payload(t, "claude-code", "PostToolUse", at), "claude-code", "reinject"), "PostToolUse")
		if got := strings.Contains(ctx, "re-run the migration"); got != c.back {
			t.Errorf("hook %v: the stated promise put back = %v, want %v\n%s\nlog:\n%s", c.args, got, c.back, ctx, h.log())
		}
	}
	if r := runCLI(t, "", "hook", "--decide", "sure", "claude-code", "pre-compact"); r.code != exitBadInput {
		t.Errorf("hook --decide sure: exit %d", r.code)
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

func checkInjected(t *testing.T, injected map[int]string, want map[int]bool, promiseTurn int) {
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
	if !hasLostPromise(t, injected[4], promiseTurn) {
		t.Errorf("the block after compaction 4 lacks the promise of turn %d:\n%s", promiseTurn, injected[4])
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
	checkInjected(t, injected, want, promiseTurn)
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
	checkInjected(t, injected, want, promiseTurn)
}
