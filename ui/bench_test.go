package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The inspector's speed target: a keypress does work bounded by the screen,
// not the transcript — at most 2 ms of Update+View per key on a 100 MB run.
//
//	go test ./ui -run '^$' -bench Inspector -benchtime 2000x
//
// LOUPE_BENCH_TRANSCRIPT=path reuses a transcript instead of generating one
// (about 100 MB, 20,000 events, 15 tool outputs of 1–5 MB, 12 compactions).

// writeBenchTranscript writes a ~size-byte loupe JSONL run to path.
func writeBenchTranscript(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the migration schema orders table review diff staging deploy test failing " +
		"fix handler api store query index column rename backfill rollback commit branch push merge " +
		"config env service request response latency retry timeout queue worker job build lint")
	text := func(n int) string {
		var sb strings.Builder
		for sb.Len() < n {
			sb.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(12) == 0 {
				sb.WriteString(".\n")
			} else {
				sb.WriteByte(' ')
			}
		}
		return sb.String()
	}
	emit := func(v map[string]any) {
		b, _ := json.Marshal(v)
		w.Write(b)
		w.WriteByte('\n')
	}
	emit(map[string]any{"type": "meta", "format": "loupe/v1", "run": "bench"})
	const events, compactions, bigOutputs = 20000, 12, 15
	big := map[int]int{}
	for i := range bigOutputs {
		big[(i*events/bigOutputs+97)/4*4+2] = (1 + i%5) << 20 // 1–5 MB on a result
	}
	rest := size
	for _, n := range big {
		rest -= int64(n)
	}
	per := int(rest * 8 / 5 / events) // an event averages 5/8 of per bytes
	turn, seq := 1, 0
	emit(map[string]any{"type": "message", "turn": turn, "role": "user", "text": "Add the orders table and never push to main."})
	for i := range events {
		turn++
		switch i % 4 {
		case 0:
			emit(map[string]any{"type": "message", "turn": turn, "role": "assistant", "text": "I will re-run the migration after the review. " + text(per/2)})
		case 1:
			emit(map[string]any{"type": "tool_call", "turn": turn, "id": fmt.Sprintf("call_%d", i), "name": "bash", "input": map[string]any{"command": "make test " + text(40)}})
		case 2:
			n := per * 2
			if b, ok := big[i]; ok {
				n = b
			}
			emit(map[string]any{"type": "tool_result", "turn": turn, "id": fmt.Sprintf("call_%d", i-1), "is_error": i%40 == 2, "text": text(n)})
		case 3:
			emit(map[string]any{"type": "plan", "turn": turn, "items": []map[string]any{{"id": fmt.Sprintf("t%d", i), "text": "Re-run the migration", "status": "pending"}}})
		}
		if (i+1)%(events/compactions) == 0 && seq < compactions {
			seq++
			turn++
			emit(map[string]any{"type": "compaction", "turn": turn, "seq": seq, "trigger": "token_budget",
				"summary":     "## Completed\n- " + text(1200) + "\n## Pending Tasks\n- " + text(1500),
				"self_report": map[string]any{"retained": []string{"t3"}, "claim": "decisions and open items preserved"}})
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// benchModel loads the large run once for every sub-benchmark.
func benchModel(b *testing.B) (*Model, string) {
	b.Helper()
	if testing.Short() {
		b.Skip("skipping the 100 MB inspector benchmark in -short mode")
	}
	path := os.Getenv("LOUPE_BENCH_TRANSCRIPT")
	if path == "" {
		path = filepath.Join(b.TempDir(), "bench-100mb.jsonl")
		start := time.Now()
		if err := writeBenchTranscript(path, 100<<20); err != nil {
			b.Fatal(err)
		}
		b.Logf("generated %s in %v", path, time.Since(start).Round(time.Millisecond))
	}
	start := time.Now()
	tr, err := model.Open(path, model.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	loaded := time.Since(start)
	res := verify.Run(tr, verify.Options{})
	b.Logf("%s: %s, %d events, %d compactions; read %v, verified %v", path, bytesHuman(tr.Bytes), len(tr.Events),
		len(tr.Compactions), loaded.Round(time.Millisecond), (time.Since(start) - loaded).Round(time.Millisecond))
	items := 0
	for _, c := range res.Compactions {
		items = max(items, len(c.Items))
	}
	b.Logf("largest preservation set: %d items", items)
	m := New(Options{Title: "bench", Result: res})
	m.statusTTL = time.Millisecond
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	return m, path
}

// step is one key as the runtime handles it: Update, then View.
// alternate presses first half times, then second half times, over and
// over, for as long as the benchmark loops: a scroll down and back up.
func alternate(b *testing.B, m *Model, first, second tea.KeyPressMsg, half int) {
	i := 0
	for b.Loop() {
		if i%(2*half) < half {
			step(m, first)
		} else {
			step(m, second)
		}
		i++
	}
}

func step(m *Model, k tea.KeyPressMsg) {
	m.Update(k)
	_ = m.View()
}

func BenchmarkInspector(b *testing.B) {
	m, _ := benchModel(b)
	down, up := keyMsg("j"), keyMsg("k")
	next, prev := keyMsg("]"), keyMsg("[")

	b.Run("scroll-source", func(b *testing.B) {
		press(m, "1")
		press(m, "ctrl+d")
		b.ReportAllocs()
		alternate(b, m, down, up, 1)
	})
	b.Run("page-source", func(b *testing.B) {
		press(m, "1")
		pd, pu := keyMsg("ctrl+d"), keyMsg("ctrl+u")
		b.ReportAllocs()
		alternate(b, m, pd, pu, 20)
	})
	b.Run("next-item", func(b *testing.B) {
		press(m, "3")
		b.ReportAllocs()
		alternate(b, m, down, up, 1)
	})
	b.Run("switch-compaction", func(b *testing.B) {
		b.ReportAllocs()
		alternate(b, m, next, prev, 11)
	})
	b.Run("jump-source-end", func(b *testing.B) {
		press(m, "1")
		g, G := keyMsg("g"), keyMsg("G")
		b.ReportAllocs()
		alternate(b, m, G, g, 1)
	})
	b.Run("scroll-5MB-output", func(b *testing.B) {
		// Load the largest tool output whole, as `o` does, then scroll in it.
		bigEv, bigLen := -1, 0
		for i, e := range m.t.Events {
			if r, ok := e.(*model.ToolResult); ok && r.Text.Len() > bigLen {
				bigEv, bigLen = i, r.Text.Len()
			}
		}
		start := time.Now()
		msg := loadEventCmd(m.t, bigEv)().(eventLoadedMsg)
		b.Logf("loading the %s output whole took %v off the UI goroutine (%d lines)", bytesHuman(int64(bigLen)),
			time.Since(start).Round(time.Millisecond), len(msg.lines))
		press(m, "1")
		m.panes[paneSource].ScrollTo(bigEv, 0)
		m.Update(msg)
		pd, pu := keyMsg("ctrl+d"), keyMsg("ctrl+u")
		b.ReportAllocs()
		alternate(b, m, pd, pu, 100)
	})
}

// TestWriteBenchTranscript writes the benchmark's run to
// $LOUPE_WRITE_BENCH, to try the inspector on it by hand:
//
//	LOUPE_WRITE_BENCH=/tmp/bench.jsonl go test ./ui -run WriteBench && loupe /tmp/bench.jsonl
func TestWriteBenchTranscript(t *testing.T) {
	path := os.Getenv("LOUPE_WRITE_BENCH")
	if path == "" {
		t.Skip("set LOUPE_WRITE_BENCH=path to write the benchmark's 100 MB run")
	}
	if err := writeBenchTranscript(path, 100<<20); err != nil {
		t.Fatal(err)
	}
}
