package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// profile starts a CPU profile into cpuPath and arranges a heap profile
// into memPath (either may be empty) and returns what stops them: users
// who report a slow run can send the profile of that run
// (LOUPE_CPUPROFILE=cpu.out loupe verify run.jsonl; go tool pprof cpu.out).
// peakPath (LOUPE_HEAPPROFILE) receives the heap profile taken when the
// live heap was largest: the allocs profile at exit says what was
// allocated, this one what was held at the peak (go tool pprof
// -sample_index=inuse_space).
func profile(cpuPath, memPath, peakPath string, stderr io.Writer) (stop func()) {
	var cpu *os.File
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "loupe: LOUPE_CPUPROFILE: %v\n", err)
		} else {
			cpu = f
		}
	}
	var stopPeak func() []byte
	if peakPath != "" {
		stopPeak = samplePeak()
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if stopPeak != nil {
			if err := os.WriteFile(peakPath, stopPeak(), 0o644); err != nil {
				fmt.Fprintf(stderr, "loupe: LOUPE_HEAPPROFILE: %v\n", err)
			}
		}
		if memPath == "" {
			return
		}
		f, err := os.Create(memPath)
		if err == nil {
			runtime.GC()
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(stderr, "loupe: LOUPE_MEMPROFILE: %v\n", err)
		}
	}
}

// samplePeak watches the live heap (as of the last collection) and keeps
// the heap profile of the largest one seen; the returned func stops it and
// hands that profile back.
func samplePeak() func() []byte {
	done := make(chan struct{})
	out := make(chan []byte)
	go func() {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		var best []byte
		take := func() {
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); live > peak {
				var b bytes.Buffer
				if pprof.Lookup("heap").WriteTo(&b, 0) == nil {
					peak, best = live, b.Bytes()
				}
			}
		}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				take()
			case <-done:
				take()
				out <- best
				return
			}
		}
	}()
	return func() []byte {
		close(done)
		return <-out
	}
}
