package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// manyFiles is how many files make a run of many small ones (a project of
// sub-agents) rather than of a few large ones.
const manyFiles = 64

// gcHeadroom bounds the garbage manyFilesGC lets pile up beyond the live
// heap.
const gcHeadroom = 128 << 20

// manyFilesGC lets the heap grow up to five times its live size between
// collections, not twice, when there are many files and GOGC is not set:
// each small file allocates and drops a little, the live heap stays small,
// and collecting at every doubling of it was a fifth of the time of a
// project of 5,000 sub-agents. After each collection the growth allowed is
// cut back so that the garbage stays under gcHeadroom (GOGC 100 at the
// least): RSS grows with the files kept for the report, not four times
// over. A run of a few large files keeps the default, and its memory
// targets.
func manyFilesGC(files int) {
	if _, set := os.LookupEnv("GOGC"); set || files < manyFiles {
		return
	}
	debug.SetGCPercent(400)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	afterEachGC(func() {
		metrics.Read(sample)
		live := max(sample[0].Value.Uint64(), 1)
		debug.SetGCPercent(int(min(400, max(100, gcHeadroom*100/live))))
	})
}

// afterEachGC calls f after every collection, for the rest of the run (a
// finalizer on an object nothing holds runs after the collection that
// finds it, and sets up the next).
func afterEachGC(f func()) {
	type sentinel struct{ _ [16]byte } // not a tiny allocation: finalized on its own
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		f()
		afterEachGC(f)
	})
}
