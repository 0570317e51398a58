package shapes

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// hugeOutput is a short run with one tool output of almost the whole size:
// a day of a service's JSON logs (every line full of quotes to escape),
// then a compaction. The line is written in pieces, so the generator never
// holds it; the reader has to take it whole.
func hugeOutput(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "huge-output", opt.Seed, 0x4a9e)
	r.user("Why were checkout requests slow yesterday afternoon? The logs are on staging.")
	r.say("Reading a day of ordersd logs on staging to look for slow requests.")
	id := r.bash("kubectl logs deploy/ordersd -n staging --since=24h")
	if r.err != nil {
		return r.err
	}
	// The result line by hand, in the codec's field order, so that its
	// text streams out in pieces.
	head := fmt.Sprintf(`{"type":"tool_result","turn":%d,"ts":%q,"id":%q,"is_error":false,"text":"`, r.turn, r.clock.Format(time.RFC3339), id)
	r.write(head)
	f := kittest.NewFiller(opt.Seed)
	want := size - 2048
	for r.n < want && r.err == nil {
		q := kittest.Quote(f.Logs(int(min(want-r.n, 256<<10))))
		r.write(q[1 : len(q)-1])
	}
	r.write("\"}\n")
	r.say("Nothing slower than 400 ms in the last day; the p99 is well under the 200 ms budget.")
	r.compact(strings.Join([]string{
		"The user asked why checkout requests were slow yesterday afternoon.",
		"I read a day of ordersd logs on staging (" + id + "): no request took longer than 400 ms.",
		"Next step: look at the client side of checkout.",
	}, "\n"))
	return r.done()
}

// write writes raw bytes of the file, outside the codec.
func (r *run) write(s string) {
	if r.err != nil {
		return
	}
	_, r.err = r.out.WriteString(s)
	r.n += int64(len(s))
}
