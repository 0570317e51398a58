package shapes

import (
	"fmt"
	"io"
	"strings"
)

// denseCompactions compacts every five events under one standing rule: a
// promise to move a handler, the edit that does it, the result, the claim
// that it is done, then a compaction whose summary restates the rule and
// the last few handlers moved. Every cycle closes an item that a later
// summary names again (the history), so resurrection candidates grow with
// the run unless only a summary naming what sets a closed item apart from
// its siblings makes it one; the rule is matched in every summary.
func denseCompactions(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "dense-compactions", opt.Seed, 0xde45)
	pool := names(r.rng, 50000)
	r.user("Move every handler to the v2 router, one package at a time. Never push to main.")
	var moved []string
	for i := 0; r.n < size && r.err == nil; i++ {
		pkg := pool[i%len(pool)] + fmt.Sprint(i/len(pool))
		r.say(fmt.Sprintf("Next I need to move the %s handler to the v2 router.", pkg))
		id := r.call("edit_file", fmt.Sprintf(`{"path":"orders/%s/handler.go","content":"package %s // v2 router"}`, pkg, pkg))
		r.result(id, false, "wrote orders/"+pkg+"/handler.go")
		r.say(fmt.Sprintf("Moved the %s handler to the v2 router.", pkg))
		moved = append(moved, pkg)
		last := moved[max(0, len(moved)-3):]
		r.compact(fmt.Sprintf("Summary:\n1. Primary Request and Intent:\n   Move every handler to the v2 router, one package at a time. The user said: never push to main.\n2. Completed:\n   - moved the %s handlers (%d packages so far)\n3. Pending Tasks:\n   - none\n4. Current Work:\n   Moving handlers package by package.\n",
			strings.Join(last, ", "), len(moved)))
	}
	return r.done()
}
