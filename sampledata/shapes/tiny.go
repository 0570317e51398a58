package shapes

import (
	"fmt"
	"io"

	"github.com/loupe-dev/loupe/model"
)

// tinyEvents is millions of events of ~65 bytes: an agent stepping through
// a directory one file at a time, each step a call, its one-word result
// and a one-word message, with no timestamps; one in 500 steps fails and
// is retried. A compaction every 50,000 events. Whatever verify keeps per
// event or per handle is multiplied by millions here (RSS is the figure to
// watch).
func tinyEvents(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "tiny-events", opt.Seed, 0x71)
	r.noTS = true
	r.user("Check every file under data/ one by one.")
	events := 0
	for r.n < size && r.err == nil {
		r.ids++
		id := fmt.Sprintf("c%d", r.ids)
		f := r.rng.IntN(100000)
		switch r.rng.IntN(500) {
		case 0:
			r.put(&model.ToolCall{Base: r.base(false), ID: id, Name: "sh", Input: model.NewText(fmt.Sprintf(`{"command":"touch f%d"}`, f))})
			r.result(id, true, "exit 1")
			r.ids++
			id = fmt.Sprintf("c%d", r.ids)
			r.put(&model.ToolCall{Base: r.base(false), ID: id, Name: "sh", Input: model.NewText(fmt.Sprintf(`{"command":"touch f%d"}`, f))})
			r.result(id, false, "ok")
			events += 4
		default:
			r.put(&model.ToolCall{Base: r.base(false), ID: id, Name: "ls", Input: model.NewText(fmt.Sprintf(`{"p":"f%d"}`, f))})
			r.result(id, false, "ok")
			events += 2
		}
		if r.rng.IntN(2) == 0 {
			r.say(pick(r.rng, []string{"ok", "next", "fine", "good"}))
			events++
		}
		if events >= 50000 {
			events = 0
			r.compact("Checking the files under data/ one by one; every check so far came back clean.")
		}
	}
	return r.done()
}
