package shapes

import (
	"fmt"
	"io"
	"strings"
)

// giantSummaries is the refactoring run of compactions with a compaction
// only every ~0.5 MB of work, and each summary 1–5 MB: besides the open
// items and the history it pastes whole source files under "Files and Code
// Sections" and whole test logs under "Errors and fixes", as compactors do
// when told to keep "full code snippets". Every open item and every
// resurrection candidate is scored against every unit of the summary that
// shares a word with it, and code shares many.
func giantSummaries(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "giant-summaries", opt.Seed, 0x61a)
	c := &compactRun{run: r, pool: names(r.rng, 20000)}
	c.userMsg("Move every handler of the orders service to the v2 router, one package at a time. Never push to main. Always run go vet before committing.")
	for r.n < size && r.err == nil {
		start := r.n
		for r.n-start < 512<<10 && r.err == nil {
			c.segment()
		}
		// 1–5 MB, less at the end so as not to overshoot the size by much.
		n := min(1<<20+c.rng.IntN(4<<20), max(1<<20, int(size-r.n)))
		c.compact(c.giant(n))
	}
	return r.done()
}

// giant returns the summary with about n bytes of pasted code and logs.
func (c *compactRun) giant(n int) string {
	var b strings.Builder
	b.WriteString(c.summary())
	b.WriteString("\n\nFull code of the files changed since the last summary, as they stand:\n")
	for b.Len() < n {
		pkg := c.pool[c.rng.IntN(c.next+1)%len(c.pool)]
		fmt.Fprintf(&b, "\n### orders/%s/handler.go\n```go\n%s```\n", pkg, goSource(c.rng, 20<<10+c.rng.IntN(60<<10)))
		if c.rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "\nLast test log of orders/%s:\n```\n%s```\n", pkg, passingTests(c.rng, pkg, 10<<10+c.rng.IntN(30<<10)))
		}
	}
	return b.String()
}
