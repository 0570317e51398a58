package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// profile starts a CPU profile into cpuPath and arranges a heap profile
// into memPath (either may be empty) and returns what stops them: users
// who report a slow run can send the profile of that run
// (LOUPE_CPUPROFILE=cpu.out loupe verify run.jsonl; go tool pprof cpu.out).
func profile(cpuPath, memPath string, stderr io.Writer) (stop func()) {
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
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
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
