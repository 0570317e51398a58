package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/loupe-dev/loupe/sampledata/shapes"
)

// denseBytesPerCompaction is about how much of the dense-compactions shape
// one compaction takes (five events and the compaction): 10.5 MiB holds
// about 10,000 of them.
const denseBytesPerCompaction = 1099

// BenchmarkVerifyDenseCompactions times what `loupe verify --format json
// FILE` does to a run that compacts every five events under one standing
// rule (issue 20's targets: 10,000 compactions within 0.5 s, 100,000 within
// 5 s): open, verify as a stream, write the JSON report (to io.Discard).
// LOUPE_BENCH_COMPACTIONS sets how many compactions (10,000 unless set).
//
//	go test -run '^$' -bench VerifyDenseCompactions -benchtime 3x
//	go test -run '^$' -bench VerifyDenseCompactions -benchtime 1x -cpuprofile cpu.out
//	LOUPE_BENCH_COMPACTIONS=100000 go test -run '^$' -bench VerifyDenseCompactions -benchtime 1x
func BenchmarkVerifyDenseCompactions(b *testing.B) {
	n := 10000
	if v := os.Getenv("LOUPE_BENCH_COMPACTIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("LOUPE_BENCH_COMPACTIONS=%q: a number of compactions", v)
		}
	}
	s, ok := shapes.Lookup("dense-compactions")
	if !ok {
		b.Fatal("no dense-compactions shape")
	}
	path := filepath.Join(b.TempDir(), s.File)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	err = s.Write(w, int64(n)*denseBytesPerCompaction, shapes.Options{Seed: 1})
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	compactions := bytes.Count(raw, []byte(`"type":"compaction"`))
	raw = nil
	var stderr bytes.Buffer
	b.ResetTimer()
	for b.Loop() {
		stderr.Reset()
		if code := run([]string{"verify", "--format", "json", path}, nil, io.Discard, &stderr); code == exitBadInput {
			b.Fatalf("loupe verify: exit %d: %s", code, stderr.String())
		}
	}
	b.ReportMetric(float64(compactions), "compactions") // after the loop: ResetTimer drops metrics
}
