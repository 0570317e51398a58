package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// BenchmarkInspectorWhileVerifying: keys while the verdicts arrive, on a
// 100 MB run of which LOUPE_BENCH_ARRIVED (default 5,000) compactions
// have their verdict (the rest "verifying"), with a batch of new verdicts
// between some keys as the loader sends them.
//
//	LOUPE_BENCH_TRANSCRIPT=/tmp/big/dense.jsonl go test ./ui -run '^$' -bench WhileVerifying -benchtime 2000x
func BenchmarkInspectorWhileVerifying(b *testing.B) {
	if testing.Short() {
		b.Skip("skipping the 100 MB inspector benchmark in -short mode")
	}
	path := os.Getenv("LOUPE_BENCH_TRANSCRIPT")
	if path == "" {
		path = filepath.Join(b.TempDir(), "bench-100mb.jsonl")
		if err := writeBenchTranscript(path, 100<<20); err != nil {
			b.Fatal(err)
		}
	}
	want := 5000
	if s := os.Getenv("LOUPE_BENCH_ARRIVED"); s != "" {
		want, _ = strconv.Atoi(s)
	}
	tr, err := model.Open(path, model.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	// Verify the beginning only, up to want compactions.
	var arrived []*verify.CompactionResult
	s := verify.NewStream(tr, verify.Options{}, func(cr *verify.CompactionResult) { arrived = append(arrived, cr) })
	start := time.Now()
	for i, e := range tr.Events {
		s.Push(e)
		if c, ok := e.(*model.Compaction); ok && c.Seq >= want || i > 0 && i%4096 == 0 && len(arrived) >= want {
			break
		}
	}
	s.Finish()
	b.Logf("%s: %d events, %d compactions, %d verified in %v", path, len(tr.Events), len(tr.Compactions), len(arrived), time.Since(start).Round(time.Millisecond))

	m := New(Options{Title: "bench", Load: func(func(Progress)) (*verify.Result, error) { return nil, nil }})
	m.statusTTL = time.Millisecond
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m.startLoad(m.opt.Load)
	m.Update(progressMsg{req: m.loadReq, progress: Progress{Unverified: verify.Unverified(tr)}})
	half := len(arrived) / 2
	m.Update(progressMsg{req: m.loadReq, progress: Progress{Verified: arrived[:half]}})
	rest := arrived[half:]
	batch := func() {
		if len(rest) > 0 {
			n := min(len(rest), 50)
			m.Update(progressMsg{req: m.loadReq, progress: Progress{Verified: rest[:n]}})
			rest = rest[n:]
		}
	}
	down, up := keyMsg("j"), keyMsg("k")
	next, prev := keyMsg("]"), keyMsg("[")
	b.Run("scroll-source", func(b *testing.B) {
		press(m, "1")
		b.ReportAllocs()
		alternate(b, m, down, up, 1)
	})
	b.Run("switch-compaction", func(b *testing.B) {
		b.ReportAllocs()
		alternate(b, m, next, prev, 11)
	})
	b.Run("verdicts-arrive", func(b *testing.B) {
		// One batch of 50 verdicts and a redraw (what ~50 ms of the loader
		// sends); then the same keys.
		b.ReportAllocs()
		for b.Loop() {
			batch()
			_ = m.View()
		}
	})
}
