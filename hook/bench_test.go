package hook

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/internal/replay"
	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata/shapes"
)

// The latency of each hook on a 20 MB session, the budget being
// 300 ms for the calls on the agent's path (after the compaction) and 50 ms
// for every other tool call. Run with
//
//	go test ./hook -run '^$' -bench Hook -benchtime 5x
//
// and LOUPE_HOOK_BENCH_MB=200 for 200 MB sessions.
//
// pre-compact reads the transcript whole (the runtime is waiting on the
// summarizer then); post-compact and the first tool call after it verify and
// put back from the snapshot; idle is every later tool call; the
// no-snapshot case is a compaction loupe's PreCompact did not see.

var benchSize = func() int64 {
	if mb, err := strconv.Atoi(os.Getenv("LOUPE_HOOK_BENCH_MB")); err == nil && mb > 0 {
		return int64(mb) << 20
	}
	return 20 << 20
}()

// benchSession is a 20 MB session cut before its last compaction.
type benchSession struct {
	runtime       string
	name          string // the transcript's file name
	prefix, comp  []byte // the lines before the last compaction, and its lines
	pre, post     string // event names
	next          string
	compactionTS  time.Time
	compactionHas func(line []byte) bool
}

func cut(b testing.TB, data []byte, isComp func([]byte) bool) (prefix, comp []byte, ts time.Time) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	last := -1
	for i, l := range lines {
		if isComp(l) && (i == 0 || !isComp(lines[i-1])) {
			last = i
		}
	}
	if last < 0 {
		b.Fatal("no compaction in the session")
	}
	end := last
	for end < len(lines) && isComp(lines[end]) {
		end++
	}
	if m := regexp.MustCompile(`"timestamp":"([^"]+)"`).FindSubmatch(lines[last]); m != nil {
		ts, _ = time.Parse(time.RFC3339, string(m[1]))
	}
	return bytes.Join(lines[:last], nil), bytes.Join(lines[last:end], nil), ts
}

func claudeBench(b testing.TB) benchSession {
	sh, _ := shapes.Lookup("claude-code")
	var buf bytes.Buffer
	if err := sh.Write(&buf, benchSize, shapes.Options{Seed: 1, Sessions: "../" + shapes.DefaultSessions}); err != nil {
		b.Fatal(err)
	}
	isComp := func(l []byte) bool {
		return bytes.Contains(l, []byte(`"subtype":"compact_boundary"`)) || bytes.Contains(l, []byte(`"isCompactSummary":true`))
	}
	s := benchSession{runtime: ClaudeCode, name: sh.File, pre: "PreCompact", post: "PostCompact", next: "PostToolUse", compactionHas: isComp}
	s.prefix, s.comp, s.compactionTS = cut(b, buf.Bytes(), isComp)
	return s
}

// largeRun is the sample generator's large run at 20 MB, as loupe events,
// ending in a compaction (the run's own compactions are in its first 2 MB)
// whose summary is the last one's: it misses what the run opened since.
func largeRun(b testing.TB) *model.Transcript {
	sh, _ := shapes.Lookup("sample-large")
	var buf bytes.Buffer
	if err := sh.Write(&buf, benchSize, shapes.Options{Seed: 1}); err != nil {
		b.Fatal(err)
	}
	t, err := model.Read(&buf, model.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	last := t.Compactions[len(t.Compactions)-1]
	end := t.Events[len(t.Events)-1].Header()
	c := &model.Compaction{Seq: last.Seq + 1, Trigger: "token_budget", Summary: last.Summary}
	c.Turn, c.TS, c.Index = end.Turn+1, end.TS, len(t.Events)
	t.Events = append(t.Events, c)
	t.Compactions = append(t.Compactions, c)
	return t
}

func codexBench(b testing.TB, t *model.Transcript) benchSession {
	data := replay.Bytes(replay.Codex(t, "0199bbbb-1111-7222-8333-444444444444", "/work"))
	isComp := func(l []byte) bool {
		return bytes.Contains(l, []byte(`"type":"compacted"`)) || bytes.Contains(l, []byte(`"type":"context_compacted"`))
	}
	s := benchSession{runtime: Codex, name: "rollout-2026-11-02T09-00-00-0199bbbb-1111-7222-8333-444444444444.jsonl",
		pre: "PreCompact", post: "SessionStart", compactionHas: isComp}
	s.prefix, s.comp, s.compactionTS = cut(b, data, isComp)
	return s
}

func geminiBench(b testing.TB, t *model.Transcript) benchSession {
	data := replay.Bytes(replay.Gemini(t, "bench000-0000-4000-8000-000000000000"))
	isComp := func(l []byte) bool {
		return bytes.HasPrefix(l, []byte(`{"$set":`)) && bytes.Contains(l, []byte(`"messages"`)) || bytes.Contains(l, []byte("Context compressed"))
	}
	s := benchSession{runtime: Gemini, name: "session-2026-11-02T09-00-bench000.jsonl", pre: "PreCompress", post: "BeforeAgent", compactionHas: isComp}
	s.prefix, s.comp, s.compactionTS = cut(b, data, isComp)
	return s
}

func BenchmarkHook(b *testing.B) {
	large := largeRun(b)
	for _, s := range []benchSession{claudeBench(b), codexBench(b, large), geminiBench(b, large)} {
		b.Run(fmt.Sprintf("%s/%dMB", s.runtime, (len(s.prefix)+len(s.comp))>>20), func(b *testing.B) { benchSessionHooks(b, s) })
	}
}

func benchSessionHooks(b *testing.B, s benchSession) {
	dir := b.TempDir()
	path := filepath.Join(dir, s.name)
	store := &Store{Dir: filepath.Join(dir, "state")}
	now := func() time.Time { return s.compactionTS.Add(time.Minute) }
	call := func(event string) []byte {
		in := fmt.Sprintf(`{"session_id":"bench","transcript_path":%q,"cwd":"/work","hook_event_name":%q,"trigger":"auto","source":"compact"}`, path, event)
		return Run(Request{Runtime: s.runtime, Event: event, Input: []byte(in), Store: store, Now: now, Deadline: time.Minute})
	}
	state := store.path(s.runtime, "bench")
	save := func() []byte { b, _ := os.ReadFile(state); return b }
	restore := func(data []byte) {
		if data == nil {
			os.Remove(state)
			return
		}
		os.WriteFile(state, data, 0o600)
	}
	// A snapshot taken ~2 MB of lines ago, which the pre-compaction hook
	// rolls forward (roll.go) instead of reading the session whole. (Gemini
	// CLI's PreCompress, on every turn, keeps a snapshot the session has
	// not outgrown by reuseGrowth: it rolls past that.)
	back := 2 << 20
	if s.runtime == Gemini {
		back = int(reuseGrowth(int64(len(s.prefix)))) + 1<<20
	}
	cutAt := bytes.LastIndexByte(s.prefix[:max(0, len(s.prefix)-back)], '\n') + 1
	os.WriteFile(path, s.prefix[:cutAt], 0o600)
	call(s.pre)
	earlier := save()
	minimal := store.snapshotPath(s.runtime, "bench")
	earlierMin, _ := os.ReadFile(minimal)
	earlierCalls, _ := os.ReadFile(minimal + ".calls")
	os.WriteFile(path, s.prefix, 0o600)
	b.Run("pre-compact-rolled", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			restore(earlier)
			os.WriteFile(minimal, earlierMin, 0o600)
			os.WriteFile(minimal+".calls", earlierCalls, 0o600)
			b.StartTimer()
			call(s.pre)
			b.StopTimer()
			if !bytes.Contains(save(), []byte(`"rolled":1`)) {
				b.Fatalf("the snapshot was not rolled:\n%s", save())
			}
			b.StartTimer()
		}
	})
	b.Run("pre-compact", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			restore(nil)
			b.StartTimer()
			call(s.pre)
		}
	})
	snapped := save()
	os.WriteFile(path, append(append([]byte(nil), s.prefix...), s.comp...), 0o600)
	b.Run("after-compaction", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			restore(snapped)
			b.StartTimer()
			call(s.post)
			if s.next != "" {
				call(s.next)
			}
			b.StopTimer()
			if !bytes.Contains(save(), []byte(`"verified_by"`)) {
				b.Fatalf("the compaction was not verified:\n%s", save())
			}
			b.StartTimer()
		}
	})
	b.Run("idle-tool-call", func(b *testing.B) {
		for b.Loop() {
			if out := call(firstNonEmpty(s.next, "PostToolUse")); out != nil {
				b.Fatalf("an idle call put something back: %s", out)
			}
		}
	})
	b.Run("after-compaction-no-snapshot", func(b *testing.B) {
		if s.runtime == Gemini {
			b.Skip("Gemini CLI has no compaction hook: without PreCompress's snapshot loupe reads nothing new")
		}
		for b.Loop() {
			b.StopTimer()
			restore(nil)
			b.StartTimer()
			call(s.post)
		}
	})
	if log, _ := os.ReadFile(filepath.Join(store.Dir, "hook.log")); bytes.Contains(log, []byte("nothing was output")) {
		b.Fatalf("a hook failed:\n%s", log)
	}
}
