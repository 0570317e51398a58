package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The live gate's safety rules, one test each: it fails open, it puts a
// block back at most once per compaction, its state lives under the XDG
// state directory keyed by session, it never writes to the transcript, and
// it never puts back what happened before it first saw a session.

// session is a Claude Code transcript on disk, grown line by line.
type session struct {
	t     *testing.T
	store *Store
	path  string
	id    string
	lines []string
	at    int
}

const fixture = "../model/claudecode/testdata/synthetic/pending_tool_use_at_boundary.jsonl"

func newSession(t *testing.T, id string) *session {
	t.Helper()
	return newSessionFrom(t, id, fixture)
}

// newSessionFrom is the Claude Code transcript at path, to be grown line by
// line into a file of the test's own.
func newSessionFrom(t *testing.T, id, path string) *session {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return &session{t: t, store: &Store{Dir: filepath.Join(t.TempDir(), "loupe")}, id: id,
		path: filepath.Join(t.TempDir(), id+".jsonl"), lines: strings.SplitAfter(string(b), "\n")}
}

// grow appends the fixture's lines up to (not including) the first one
// that holds marker, or all of them.
func (s *session) grow(marker string) {
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	for ; s.at < len(s.lines); s.at++ {
		if marker != "" && strings.Contains(s.lines[s.at], marker) {
			return
		}
		f.WriteString(s.lines[s.at])
	}
}

func (s *session) run(event string, extra string) []byte {
	in := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/w","hook_event_name":%q,"trigger":"auto","source":"compact"%s}`,
		s.id, s.path, event, extra)
	return Run(Request{Runtime: ClaudeCode, Event: event, Input: []byte(in), Store: s.store})
}

// compact takes the session through a violating compaction up to a pending
// block: PreCompact, the boundary and summary, PostCompact.
func (s *session) compact() {
	s.grow("compact_boundary")
	s.run("PreCompact", "")
	s.grow("toolu_P_B\",\"type\":\"tool_result")
	s.run("PostCompact", "")
}

func (s *session) log() string {
	b, _ := os.ReadFile(filepath.Join(s.store.Dir, "hook.log"))
	return string(b)
}

func TestFailOpen(t *testing.T) {
	s := newSession(t, "fail")
	s.grow("")
	cases := []struct {
		name, runtime, event, input, log string
	}{
		{"input not JSON", ClaudeCode, "PostToolUse", `{"session_id":`, "not JSON"},
		{"no transcript path", ClaudeCode, "PreCompact", `{"session_id":"x"}`, "no transcript_path"},
		{"transcript missing", ClaudeCode, "PreCompact", `{"session_id":"x","transcript_path":"/nonexistent/x.jsonl"}`, "no such file"},
		{"transcript a directory", Codex, "PreCompact", fmt.Sprintf(`{"session_id":"x","transcript_path":%q}`, t.TempDir()), "is a directory"},
		{"unknown event", ClaudeCode, "Notification", `{}`, "unknown event"},
		{"unknown runtime", "cursor", "PreCompact", `{}`, "unknown runtime"},
		{"opencode id is a path", Opencode, "compacting", `{"sessionID":"../../etc"}`, "not an opencode id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := &Store{Dir: t.TempDir()}
			out := Run(Request{Runtime: c.runtime, Event: c.event, Input: []byte(c.input), Store: store})
			if out != nil {
				t.Fatalf("output on failure: %s", out)
			}
			b, _ := os.ReadFile(filepath.Join(store.Dir, "hook.log"))
			if !strings.Contains(string(b), c.log) || !strings.Contains(string(b), "nothing was output") {
				t.Fatalf("log does not say %q:\n%s", c.log, b)
			}
		})
	}
}

// A state directory that cannot be written is one more failure: no output.
func TestFailOpenUnwritableState(t *testing.T) {
	s := newSession(t, "ro")
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o600)
	s.store = &Store{Dir: filepath.Join(blocker, "loupe")}
	s.grow("compact_boundary")
	if out := s.run("PreCompact", ""); out != nil {
		t.Fatalf("output with no state: %s", out)
	}
}

func TestFailOpenPanic(t *testing.T) {
	boom := func() { panic("boom") }
	testHook.Store(&boom)
	defer testHook.Store(nil)
	s := newSession(t, "panic")
	s.compact()
	if out := s.run("PostToolUse", ""); out != nil {
		t.Fatalf("output after a panic: %s", out)
	}
	if !strings.Contains(s.log(), "panic: boom") {
		t.Fatalf("log:\n%s", s.log())
	}
}

func TestFailOpenDeadline(t *testing.T) {
	release := make(chan struct{})
	stall := func() { <-release; runtime.Goexit() }
	testHook.Store(&stall)
	defer func() { testHook.Store(nil); close(release) }()
	s := newSession(t, "slow")
	s.grow("")
	start := time.Now()
	out := Run(Request{Runtime: ClaudeCode, Event: "PreCompact", Deadline: 50 * time.Millisecond, Store: s.store,
		Input: []byte(fmt.Sprintf(`{"session_id":"slow","transcript_path":%q}`, s.path))})
	if out != nil || time.Since(start) > 2*time.Second {
		t.Fatalf("output %q after %v", out, time.Since(start))
	}
	if !strings.Contains(s.log(), "gave up after 50ms") {
		t.Fatalf("log:\n%s", s.log())
	}
}

// Parallel hooks of one session (Claude Code runs matching hooks in
// parallel): one of them puts the block back, the others say nothing.
func TestOneInjectionPerCompaction(t *testing.T) {
	s := newSession(t, "race")
	s.compact()
	var wg sync.WaitGroup
	outs := make([][]byte, 8)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = s.run("PostToolUse", "")
		}()
	}
	wg.Wait()
	n := 0
	for _, o := range outs {
		if o != nil {
			n++
			if !strings.Contains(string(o), "toolu_P_B") {
				t.Errorf("block: %s", o)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d injections for one compaction", n)
	}
	if out := s.run("UserPromptSubmit", ""); out != nil {
		t.Fatalf("a later hook put it back again: %s", out)
	}
}

func TestStateDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	cases := []struct{ xdg, want string }{
		{"/srv/state", "/srv/state/loupe"},
		{"", filepath.Join(home, ".local", "state", "loupe")},
		{"relative/dir", filepath.Join(home, ".local", "state", "loupe")}, // the spec ignores relative paths
	}
	for _, c := range cases {
		t.Setenv("XDG_STATE_HOME", c.xdg)
		if got, err := StateDir(); err != nil || got != c.want {
			t.Errorf("XDG_STATE_HOME=%q: %q %v, want %q", c.xdg, got, err, c.want)
		}
	}
}

// Two sessions keep apart: each has its own state file, and one's block is
// not the other's.
func TestSessionsApart(t *testing.T) {
	a := newSession(t, "aaaa")
	b := newSession(t, "bbbb")
	b.store = a.store
	a.compact()
	b.compact()
	if out := a.run("PostToolUse", ""); out == nil {
		t.Fatal("a: nothing put back")
	}
	if out := b.run("PostToolUse", ""); out == nil {
		t.Fatal("b lost its block to a")
	}
	for _, id := range []string{"aaaa", "bbbb"} {
		if _, err := os.Stat(filepath.Join(a.store.Dir, "sessions", "claude-code-"+id+".json")); err != nil {
			t.Errorf("no state file for %s: %v", id, err)
		}
	}
	// An id that is not a plain name never becomes a path.
	if k := fileKey(ClaudeCode, "../../x"); strings.ContainsAny(k, "/\\") || strings.Contains(k, "..") {
		t.Errorf("file key %q", k)
	}
}

// The hooks read the transcript and never write to it or beside it.
func TestNeverWritesTranscript(t *testing.T) {
	s := newSession(t, "ro-transcript")
	s.compact()
	before, _ := os.ReadFile(s.path)
	st0, _ := os.Stat(s.path)
	for _, ev := range []string{"PreCompact", "SessionStart", "PostCompact", "PostToolUse", "UserPromptSubmit"} {
		s.run(ev, "")
	}
	after, _ := os.ReadFile(s.path)
	st1, _ := os.Stat(s.path)
	if string(after) != string(before) || !st0.ModTime().Equal(st1.ModTime()) || st0.Mode() != st1.Mode() {
		t.Fatal("the transcript changed")
	}
	ents, _ := os.ReadDir(filepath.Dir(s.path))
	if len(ents) != 1 {
		t.Fatalf("files beside the transcript: %v", ents)
	}
}

// loupe installed in the middle of a session puts back nothing of the
// compactions before it; a compaction after that is caught even without
// PreCompact's snapshot.
func TestFirstSight(t *testing.T) {
	s := newSession(t, "late")
	s.grow("toolu_P_B\",\"type\":\"tool_result") // compaction 1 violates, before loupe
	if out := s.run("PostToolUse", ""); out != nil {
		t.Fatalf("put back a compaction from before loupe: %s", out)
	}
	// A new call that fails, and a second compaction whose summary does not
	// say so.
	call, result, boundary, summary := "", "", "", ""
	again := regexp.MustCompile(`"(uuid|parentUuid|logicalParentUuid)":"([^"]+)"`)
	renamed := func(l string) string { return again.ReplaceAllString(l, `"$1":"$2-again"`) }
	for i, l := range s.lines {
		if strings.Contains(l, "compact_boundary") {
			boundary, summary = renamed(l), renamed(s.lines[i+1])
		}
		if strings.Contains(l, `"id":"toolu_P_B"`) {
			call = strings.NewReplacer("toolu_P_B", "toolu_P_C", "msg_P1", "msg_P9",
				`"name":"Read","input":{"file_path":"/workspace/demo/b.go"}`, `"name":"Bash","input":{"command":"make build"}`).Replace(renamed(l))
		}
		if strings.Contains(l, `"tool_use_id":"toolu_P_B"`) && i > 4 {
			result = strings.NewReplacer("toolu_P_B", "toolu_P_C",
				"[Request interrupted by user for tool use]", "make: *** [Makefile:3: build] Error 2").Replace(renamed(l))
		}
	}
	f, _ := os.OpenFile(s.path, os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString(call + result + boundary + summary)
	f.Close()
	out := s.run("PostToolUse", "")
	if out == nil || !strings.Contains(string(out), "compaction 2") || !strings.Contains(string(out), "toolu_P_C") {
		t.Fatalf("a new compaction without a snapshot: %s\n%s", out, s.log())
	}
}

// Claude Code writes the boundary before the summary line: a PostCompact
// that finds only the boundary verifies the summary it is handed, from the
// snapshot (quickly), and the block still goes back once.
func TestPostCompactBeforeTheSummaryLine(t *testing.T) {
	s := newSession(t, "half")
	s.grow("compact_boundary")
	s.run("PreCompact", "")
	s.grow("isCompactSummary") // the boundary only
	out := s.run("PostCompact", `,"compact_summary":"The user asked to check both files; a.go was read."`)
	if !strings.Contains(string(out), "compaction 1 violates") {
		t.Fatalf("receipt %q\n%s", out, s.log())
	}
	st, _ := s.store.Load(ClaudeCode, "half")
	if r := st.record(1); r == nil || r.Via != "payload" {
		t.Fatalf("record %+v", r)
	}
	s.grow("")
	if out := s.run("PostToolUse", ""); !strings.Contains(string(out), "toolu_P_B") {
		t.Fatalf("block %q", out)
	}
}
