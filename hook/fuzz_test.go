package hook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
)

// One fuzz target per runtime, over every hook of it: the hook's standard
// input × the session's state file × the transcript's new lines (for
// opencode, the messages its plugin sends). Whatever the bytes, a hook
// call does not panic, returns within its deadline, answers in the
// runtime's protocol (JSON, or Claude Code's plain text where it reads
// text, or nothing), and writes nothing outside loupe's state directory:
// the transcript is unchanged and $TMPDIR is left empty.

// fuzzRuntime is what the fuzz targets need of a runtime.
type fuzzRuntime struct {
	name string
	// events are the hook events, as `loupe hook install` writes them or
	// as the runtime names them.
	events []string
	// transcript is a session of the runtime with a compaction in it.
	transcript string
	// plain are the events whose output the runtime reads as plain text.
	plain []string
	// marker is in the lines that record a compaction.
	marker string
}

func firstWith(lines []string, marker string) int {
	for i, l := range lines {
		if marker != "" && strings.Contains(l, marker) {
			return i
		}
	}
	return -1
}

var fuzzRuntimes = map[string]fuzzRuntime{
	ClaudeCode: {ClaudeCode, []string{"PreCompact", "SessionStart", "PostCompact", "PostToolUse", "UserPromptSubmit", "reinject"},
		"../model/claudecode/testdata/synthetic/pending_tool_use_at_boundary.jsonl", []string{"PreCompact", "PostCompact"}, claudeMarker},
	Codex: {Codex, []string{"PreCompact", "SessionStart", "PostCompact", "UserPromptSubmit", "reinject"},
		"../model/codex/testdata/synthetic/rollout-2026-02-01T09-00-00-019b0000-aaaa-7bbb-8ccc-dddddddddddd.jsonl", nil, codexMarker},
	Gemini: {Gemini, []string{"PreCompress", "BeforeAgent", "AfterTool"},
		"../model/gemini/testdata/session-2026-06-01T12-00-3f0c0000.jsonl", nil, geminiMarker},
	Opencode: {Opencode, []string{"compacting", "compacted", "system", "autocontinue"},
		"../model/opencode/testdata/storage", nil, ""},
}

// fuzzDeadline is the deadline each fuzzed call runs under; fuzzSlack what
// a call may take past it (a state write already under way is let finish).
const (
	fuzzDeadline = 2 * time.Second
	fuzzSlack    = saveGrace + time.Second
)

func FuzzClaudeCodeHook(f *testing.F) { fuzzHook(f, ClaudeCode) }
func FuzzCodexHook(f *testing.F)      { fuzzHook(f, Codex) }
func FuzzGeminiHook(f *testing.F)     { fuzzHook(f, Gemini) }
func FuzzOpencodeHook(f *testing.F)   { fuzzHook(f, Opencode) }

// The selector's bits: the event (low bits), then what the call is given.
const (
	selPoint   = 0x08 // point the input at the session's transcript and id
	selPre     = 0x10 // take a snapshot first, then add the tail
	selSealed  = 0x20 // wrap the state bytes in a valid envelope
	selGate    = 0x40
	selNoState = 0x80
)

func fuzzHook(f *testing.F, runtime string) {
	rt := fuzzRuntimes[runtime]
	payloads, _ := filepath.Glob(filepath.Join("testdata", "payloads", runtime, "*.json"))
	base := fuzzBase(f, rt)
	for i, p := range payloads {
		in, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, sel := range []byte{selPoint, selPoint | selPre, selPoint | selNoState, selPoint | selPre | selGate} {
			f.Add(sel+byte(i), uint8(len(base)/2), in, []byte(`{"loupe_state":1}`), []byte(nil))
			f.Add(sel+byte(i), uint8(255), in, []byte(nil), []byte("{\"type\":\"x\"}\n\x00\xff"+`{"$set":{}}`+"\n"))
		}
	}
	// The transcript up to its first compaction, snapshot, then the
	// compaction and what follows as the new lines: every event.
	if k := firstWith(base, rt.marker); k >= 0 {
		rest := []byte(strings.Join(base[k:], ""))
		in := []byte(`{"hook_event_name":"x","trigger":"auto","source":"compact"}`)
		for e := range rt.events {
			f.Add(byte(selPoint|selPre|e), uint8(k), in, []byte(nil), rest)
			f.Add(byte(selPoint|selPre|selGate|selNoState|e), uint8(k), in, []byte(nil), rest)
		}
	}
	f.Add(byte(selPoint|selSealed), uint8(3), []byte(`{"session_id":"../../x","transcript_path":"/dev/zero"}`),
		[]byte(`{"runtime":"`+runtime+`","session":"fuzz","snapshot":{"fast":true,"file":"/etc/passwd"},"compactions":[{"seq":-1}]}`), []byte("\n"))
	f.Add(byte(selPre|selSealed), uint8(1), []byte(`{"session_id":"fuzz","transcript_path":"`+"\x00"+`"}`), []byte(`null`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, sel, cut uint8, stdin, state, tail []byte) {
		runFuzzedHook(t, rt, base, sel, cut, stdin, state, tail)
	})
}

// fuzzBase is the runtime's transcript as lines (for opencode, nothing: its
// session is a storage tree).
func fuzzBase(f *testing.F, rt fuzzRuntime) []string {
	if rt.name == Opencode {
		return nil
	}
	b, err := os.ReadFile(rt.transcript)
	if err != nil {
		f.Fatal(err)
	}
	return strings.SplitAfter(string(b), "\n")
}

func runFuzzedHook(t *testing.T, rt fuzzRuntime, base []string, sel, cut uint8, stdin, state, tail []byte) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	store := &Store{Dir: filepath.Join(t.TempDir(), "loupe")}
	home := t.TempDir()
	const id = "fuzz"
	event := rt.events[int(sel&7)%len(rt.events)]
	transcriptPath := filepath.Join(home, "session.jsonl")
	extra := map[string]any{}
	if rt.name == Opencode {
		storage, err := filepath.Abs(rt.transcript)
		if err != nil {
			t.Fatal(err)
		}
		extra["sessionID"] = "ses_synthetic0001"
		extra["storage"] = storage
		if json.Valid(tail) {
			extra["messages"] = json.RawMessage(tail)
		}
	} else {
		extra["session_id"] = id
		extra["transcript_path"] = transcriptPath
		n := min(int(cut), len(base))
		if err := os.WriteFile(transcriptPath, []byte(strings.Join(base[:n], "")), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	in := stdin
	if sel&selPoint != 0 {
		in = pointed(stdin, extra)
	}
	session := id
	if rt.name == Opencode {
		session = "ses_synthetic0001"
	}
	if sel&selNoState == 0 {
		writeFuzzedState(t, store, rt.name, session, state, sel&selSealed != 0)
	}
	call := func(event string, input []byte) []byte {
		t.Helper()
		start := time.Now()
		out := Run(Request{Runtime: rt.name, Event: event, Input: input, Store: store, Gate: sel&selGate != 0, Deadline: fuzzDeadline})
		if d := time.Since(start); d > fuzzDeadline+fuzzSlack {
			t.Fatalf("%s %s returned after %s, past its deadline of %s", rt.name, event, d, fuzzDeadline)
		}
		checkAnswer(t, rt, event, out)
		return out
	}
	if sel&selPre != 0 {
		call(rt.events[0], in)
	}
	if rt.name != Opencode {
		f, err := os.OpenFile(transcriptPath, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(tail)
		f.Close()
	}
	var before []byte
	if rt.name != Opencode {
		before, _ = os.ReadFile(transcriptPath)
	}
	call(event, in)
	if log, _ := os.ReadFile(filepath.Join(store.Dir, "hook.log")); bytes.Contains(log, []byte("panic:")) {
		t.Fatalf("a hook panicked:\n%s", log)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Fatalf("left in $TMPDIR: %v", ents)
	}
	if rt.name != Opencode {
		after, _ := os.ReadFile(transcriptPath)
		if !bytes.Equal(before, after) {
			t.Fatal("the transcript changed")
		}
		if ents, _ := os.ReadDir(home); len(ents) != 1 {
			t.Fatalf("files beside the transcript: %v", ents)
		}
	}
}

// pointed sets the fields of a JSON object input that name the session,
// so that fuzzed inputs reach the transcript; anything else stays as it is.
func pointed(stdin []byte, extra map[string]any) []byte {
	var m map[string]any
	if json.Unmarshal(stdin, &m) != nil || m == nil {
		return stdin
	}
	for k, v := range extra {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		return stdin
	}
	return b
}

func writeFuzzedState(t *testing.T, store *Store, runtime, session string, state []byte, sealed bool) {
	if len(state) == 0 {
		return
	}
	if sealed && json.Valid(state) {
		var c bytes.Buffer
		json.Compact(&c, state)
		sum := sha256.Sum256(c.Bytes())
		env, err := json.Marshal(envelope{Version: stateVersion, Sum: hex.EncodeToString(sum[:]), State: c.Bytes()})
		if err != nil {
			t.Fatal(err)
		}
		state = env
	}
	path := store.path(runtime, session)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, state, 0o600); err != nil {
		t.Fatal(err)
	}
}

// checkAnswer holds the answer to the runtime's protocol: nothing, or one
// JSON object on one line, or plain text where the runtime reads text
// (valid UTF-8, no control character but newlines).
func checkAnswer(t *testing.T, rt fuzzRuntime, event string, out []byte) {
	t.Helper()
	if len(out) == 0 {
		return
	}
	for _, p := range rt.plain {
		if p == event {
			if !utf8.Valid(out) || !model.IsSafe(strings.ReplaceAll(string(out), "\n", " ")) {
				t.Fatalf("%s %s: plain text that is not safe text: %q", rt.name, event, out)
			}
			return
		}
	}
	line := bytes.TrimSuffix(out, []byte("\n"))
	var obj map[string]any
	if bytes.Contains(line, []byte("\n")) || json.Unmarshal(line, &obj) != nil || obj == nil {
		t.Fatalf("%s %s: not one JSON object on one line: %q", rt.name, event, out)
	}
}
