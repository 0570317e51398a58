package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The hook holds against a broken environment: a lock that cannot be
// taken, a transcript_path that is an endless stream, damaged state. Each
// case fails open with a log line, leaves nothing in $TMPDIR, and never
// gives a verdict it did not get from an intact source.

// within runs f and fails the test when it does not return in limit: the
// cases below used to hang.
func within(t *testing.T, limit time.Duration, f func() []byte) []byte {
	t.Helper()
	done := make(chan []byte, 1)
	go func() { done <- f() }()
	select {
	case out := <-done:
		return out
	case <-time.After(limit):
		t.Fatalf("the hook did not return in %s", limit)
	}
	return nil
}

// A lock that cannot be taken (held by a hook that died and left a lock
// that cannot be removed, or held by a live one) makes the hook give up at
// its deadline with a log line, instead of spinning.
func TestLockGivesUpAtDeadline(t *testing.T) {
	for _, stale := range []bool{true, false} {
		t.Run(fmt.Sprintf("stale=%v", stale), func(t *testing.T) {
			s := newSession(t, "locked")
			s.grow("compact_boundary")
			lock := s.store.path(ClaudeCode, s.id) + ".lock"
			// A directory with something in it: os.Remove fails on it even
			// for root, as it does on a lock in a read-only directory.
			if err := os.MkdirAll(filepath.Join(lock, "x"), 0o700); err != nil {
				t.Fatal(err)
			}
			if stale {
				old := time.Now().Add(-time.Hour)
				os.Chtimes(lock, old, old)
			}
			in := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"trigger":"auto"}`, s.id, s.path)
			out := within(t, 20*time.Second, func() []byte {
				return Run(Request{Runtime: ClaudeCode, Event: "PreCompact", Input: []byte(in), Store: s.store, Deadline: 500 * time.Millisecond})
			})
			if out != nil {
				t.Fatalf("output without the lock: %s", out)
			}
			if log := s.log(); !strings.Contains(log, "lock") || !strings.Contains(log, "nothing was output") {
				t.Fatalf("log:\n%s", log)
			}
		})
	}
}

// A transcript_path that is a device or a named pipe is not read: /dev/zero
// used to be copied to $TMPDIR until the disk filled, and the copy stayed.
func TestTranscriptNotARegularFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		for _, rt := range []string{ClaudeCode, Codex, Gemini} {
			for _, ev := range []string{"PreCompact", "PostCompact", "SessionStart"} {
				t.Run(filepath.Base(path)+"/"+rt+"/"+ev, func(t *testing.T) {
					tmp := t.TempDir()
					t.Setenv("TMPDIR", tmp)
					store := &Store{Dir: filepath.Join(t.TempDir(), "loupe")}
					in := fmt.Sprintf(`{"session_id":"dev","transcript_path":%q,"source":"compact"}`, path)
					out := within(t, 20*time.Second, func() []byte {
						return Run(Request{Runtime: rt, Event: ev, Input: []byte(in), Store: store, Deadline: time.Second})
					})
					if out != nil {
						t.Fatalf("output: %s", out)
					}
					if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
						t.Fatalf("left in $TMPDIR: %v", ents)
					}
					b, _ := os.ReadFile(filepath.Join(store.Dir, "hook.log"))
					if !strings.Contains(string(b), "not a regular file") {
						t.Fatalf("log:\n%s", b)
					}
				})
			}
		}
	}
}

// The tail copy a hook writes to $TMPDIR goes when the hook gives up at
// its deadline, even though the work is still running.
func TestSpoolRemovedAtDeadline(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	release := make(chan struct{})
	spooled := make(chan struct{}, 1)
	stall := func() { spooled <- struct{}{}; <-release }
	testSpooled.Store(&stall)
	defer func() { testSpooled.Store(nil); close(release) }()
	s := newSession(t, "spool")
	s.grow("compact_boundary")
	s.run("PreCompact", "")
	s.grow("")
	in := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q}`, s.id, s.path)
	out := within(t, 20*time.Second, func() []byte {
		return Run(Request{Runtime: ClaudeCode, Event: "PostCompact", Input: []byte(in), Store: s.store, Deadline: 300 * time.Millisecond})
	})
	select {
	case <-spooled:
	default:
		t.Fatal("the tail was never copied: the test does not test the spool")
	}
	if out != nil {
		t.Fatalf("output: %s", out)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Fatalf("left in $TMPDIR after the deadline: %v", ents)
	}
	if !strings.Contains(s.log(), "gave up after 300ms (deadline)") {
		t.Fatalf("log:\n%s", s.log())
	}
}

// A panic once the tail is copied: the copy goes too.
func TestSpoolRemovedOnPanic(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	boom := func() { panic("boom after the spool") }
	testSpooled.Store(&boom)
	defer testSpooled.Store(nil)
	s := newSession(t, "spoolpanic")
	s.grow("compact_boundary")
	s.run("PreCompact", "")
	s.grow("")
	if out := s.run("PostCompact", ""); out != nil {
		t.Fatalf("output after a panic: %s", out)
	}
	if !strings.Contains(s.log(), "panic: boom after the spool") {
		t.Fatalf("log:\n%s", s.log())
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Fatalf("left in $TMPDIR after a panic: %v", ents)
	}
}

// New lines over the tail cap are not copied to $TMPDIR: the transcript is
// read whole, in place, and the compaction still verified.
func TestTailOverCap(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defer func(n int64) { maxTail = n }(maxTail)
	maxTail = 64
	spooled := false
	mark := func() { spooled = true }
	testSpooled.Store(&mark)
	defer testSpooled.Store(nil)
	s := newSession(t, "cap")
	s.grow("compact_boundary")
	s.run("PreCompact", "")
	s.grow("")
	if out := s.run("PostCompact", ""); !strings.Contains(string(out), "compaction 1 violates") {
		t.Fatalf("receipt %q\n%s", out, s.log())
	}
	st, _ := s.store.Load(ClaudeCode, s.id)
	if r := st.record(1); r == nil || r.Via != "transcript" || spooled {
		t.Fatalf("record %+v, spooled %v", r, spooled)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Fatalf("left in $TMPDIR: %v", ents)
	}
}

// recent moves the session's timestamps to now, so that a compaction in it
// is one the runtime just made.
func (s *session) recent() {
	ts := regexp.MustCompile(`"timestamp":"[^"]+"`)
	now := `"timestamp":"` + time.Now().UTC().Format(time.RFC3339) + `"`
	for i := range s.lines {
		s.lines[i] = ts.ReplaceAllString(s.lines[i], now)
	}
}

func truncateHalf(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
}

// A snapshot cut short is not the snapshot: the compaction is verified
// from the transcript, and the violating one is found violating (it used
// to be found to degrade, the open item having been cut off).
func TestDamagedSnapshot(t *testing.T) {
	for _, file := range []string{".source.jsonl", ".source.jsonl.calls"} {
		for _, post := range []string{"PostCompact", "SessionStart"} {
			t.Run(file+"/"+post, func(t *testing.T) {
				s := newSession(t, "snap")
				s.recent()
				s.grow("compact_boundary")
				s.run("PreCompact", "")
				path := filepath.Join(s.store.sessionsDir(), fileKey(ClaudeCode, s.id)+file)
				truncateHalf(t, path)
				s.grow("")
				out := string(s.run(post, ""))
				if strings.Contains(out, "degrades") {
					t.Fatalf("a verdict from the damaged snapshot: %s", out)
				}
				st, err := s.store.Load(ClaudeCode, s.id)
				if err != nil {
					t.Fatal(err)
				}
				r := st.record(1)
				if r == nil || r.Verdict != "violate" || r.Via != "transcript" {
					t.Fatalf("record %+v\n%s", r, s.log())
				}
				if !strings.Contains(s.log(), "does not match its checksum") {
					t.Fatalf("log:\n%s", s.log())
				}
				// SessionStart puts the block back itself; after PostCompact,
				// the next tool call does.
				next := string(s.run("PostToolUse", ""))
				put := func(o string) bool {
					return strings.Contains(o, "additionalContext") && strings.Contains(o, "toolu_P_B")
				}
				if put(out) == put(next) {
					t.Fatalf("the block is not put back once: %q then %q", out, next)
				}
			})
		}
	}
}

// A state file cut short, or not loupe's, does not silence the hook for
// the session: the next call moves it aside, rebuilds from the transcript,
// and the compaction is verified and put back.
func TestDamagedStateFile(t *testing.T) {
	damage := map[string]func(t *testing.T, path string){
		"truncated": truncateHalf,
		"garbage": func(t *testing.T, path string) {
			os.WriteFile(path, []byte("\x00\x01not json"), 0o600)
		},
		"not loupe's": func(t *testing.T, path string) {
			os.WriteFile(path, []byte(`{"runtime":"claude-code","session":"state","compactions":[]}`), 0o600)
		},
		"checksum": func(t *testing.T, path string) {
			b, _ := os.ReadFile(path)
			os.WriteFile(path, []byte(strings.Replace(string(b), `"compactions":null`, `"compactions":[]`, 1)), 0o600)
		},
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			s := newSession(t, "state")
			s.recent()
			s.grow("compact_boundary")
			s.run("PreCompact", "")
			path := s.store.path(ClaudeCode, s.id)
			f(t, path)
			s.grow("")
			out := string(s.run("PostCompact", ""))
			if !strings.Contains(out, "compaction 1 violates") {
				t.Fatalf("receipt %q\n%s", out, s.log())
			}
			if out := s.run("PostToolUse", ""); !strings.Contains(string(out), "toolu_P_B") {
				t.Fatalf("block %q\n%s", out, s.log())
			}
			if _, err := os.Stat(path + ".damaged"); err != nil {
				t.Errorf("the damaged file was not kept aside: %v", err)
			}
			if !strings.Contains(s.log(), "rebuilt from its transcript") {
				t.Fatalf("log:\n%s", s.log())
			}
		})
	}
}
