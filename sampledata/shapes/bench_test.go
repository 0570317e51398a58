package shapes

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/verify"
)

// sessions is where the claude-code shape finds its sessions from this
// package's directory.
var sessions = filepath.Join("..", "..", DefaultSessions)

// generate writes shape s at size into a temporary file named as the shape
// asks, and returns its path.
func generate(tb testing.TB, s Shape, size string) string {
	tb.Helper()
	n, err := kittest.ParseSize(size)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.Write(&buf, n, Options{Seed: 1, Sessions: sessions}); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), s.File)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func fileSize(tb testing.TB, path string) int64 {
	tb.Helper()
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

// open loads a generated file the way `loupe verify` does (format
// detection, then the importer or the loupe reader).
func open(tb testing.TB, path string) *model.Transcript {
	tb.Helper()
	t, err := formats.Open(path, formats.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if errs := t.Problems.Errors(); len(errs) > 0 {
		tb.Fatalf("%s: %d lines do not parse, first: %v", path, len(errs), errs[0])
	}
	return t
}

// benchSize is the size a benchmark generates: the shape's small size, or
// LOUPE_BENCH_SIZE (to profile one shape at a size where it hurts).
func benchSize(b *testing.B, s Shape) string {
	if v := os.Getenv("LOUPE_BENCH_SIZE"); v != "" {
		return v
	}
	return s.Small
}

// BenchmarkVerify runs verify.Run over each shape at its small size (the
// transcript is loaded once, outside the timing). Compare runs of it with
// benchstat; the growth with size is what scripts/bench.sh measures.
//
//	go test ./sampledata/shapes -run '^$' -bench . -benchtime 1x
//	go test ./sampledata/shapes -run '^$' -bench 'Verify/flaky' -count 6 -cpuprofile cpu.out
//	LOUPE_BENCH_SIZE=20MB go test ./sampledata/shapes -run '^$' -bench '^BenchmarkVerify/flaky$' -benchtime 1x -cpuprofile cpu.out
func BenchmarkVerify(b *testing.B) {
	for _, s := range All() {
		if s.IsDir() {
			continue // a directory of files: scripts/bench.sh times loupe on it
		}
		b.Run(s.Name, func(b *testing.B) {
			path := generate(b, s, benchSize(b, s))
			t := open(b, path)
			b.SetBytes(fileSize(b, path))
			b.ReportMetric(float64(len(t.Events)), "events")
			b.ReportMetric(float64(len(t.Compactions)), "compactions")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				verify.Run(t, verify.Options{})
			}
		})
	}
}

// BenchmarkOpenVerify is what `loupe verify` does to each shape at its small
// size besides writing the report: open (detect, read or import) and
// verify.
func BenchmarkOpenVerify(b *testing.B) {
	for _, s := range All() {
		if s.IsDir() {
			continue // a directory of files: scripts/bench.sh times loupe on it
		}
		b.Run(s.Name, func(b *testing.B) {
			path := generate(b, s, benchSize(b, s))
			b.SetBytes(fileSize(b, path))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				verify.Run(open(b, path), verify.Options{})
			}
		})
	}
}

// BenchmarkPeakHeap reports what `loupe verify` holds at once on each shape
// (open and verify, as BenchmarkOpenVerify): peak-heap-MB is the largest
// heap in use seen during a run, garbage not yet collected included (what
// the process's RSS follows), and live-MB the largest heap a collection
// found live. The memory targets (peak RSS per input size) follow these.
//
//	go test ./sampledata/shapes -run '^$' -bench PeakHeap -benchtime 1x
//	LOUPE_BENCH_SIZE=25MB go test ./sampledata/shapes -run '^$' -bench 'PeakHeap/tiny-events' -benchtime 1x
func BenchmarkPeakHeap(b *testing.B) {
	for _, s := range All() {
		if s.IsDir() {
			continue // a directory of files: scripts/bench.sh times loupe on it
		}
		b.Run(s.Name, func(b *testing.B) {
			path := generate(b, s, benchSize(b, s))
			b.SetBytes(fileSize(b, path))
			b.ReportAllocs()
			var peak, live uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				runtime.GC()
				stop := sampleHeap()
				b.StartTimer()
				verify.Run(open(b, path), verify.Options{})
				b.StopTimer()
				p, l := stop()
				peak, live = max(peak, p), max(live, l)
				b.StartTimer()
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(live)/(1<<20), "live-MB")
		})
	}
}

// sampleHeap polls the heap until the returned func is called, which
// returns the largest heap in use (objects, live or not yet collected) and
// the largest live heap a collection found.
func sampleHeap() func() (peak, live uint64) {
	done := make(chan struct{})
	res := make(chan [2]uint64)
	go func() {
		samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
		var peak, live uint64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(samples)
			peak, live = max(peak, samples[0].Value.Uint64()), max(live, samples[1].Value.Uint64())
			select {
			case <-tick.C:
			case <-done:
				res <- [2]uint64{peak, live}
				return
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		r := <-res
		return r[0], r[1]
	}
}
