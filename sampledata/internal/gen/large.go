package gen

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// Large writes a run of about size bytes to w as uncompressed loupe JSONL,
// for performance work: the migration run, continued with routine work and
// an honest compaction every ~1,800 turns until it has about 20,000 events
// per 100 MB, with 15 tool outputs of 1–5 MB (service logs) spread through
// it. It is deterministic like the samples, and never committed.
func Large(w io.Writer, size int64) error {
	e, err := buildLarge(size)
	if err != nil {
		return err
	}
	r := &Run{
		Name:   "large",
		Meta:   model.Meta{Run: "large", Agent: "demo-agent", Extra: map[string]string{"generator": "loupe sampledata/gen -size " + strconv.FormatInt(size, 10)}},
		Events: e.events,
	}
	return Encode(w, r)
}

func buildLarge(size int64) (e *emitter, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("generate large: %v", r)
		}
	}()
	const perEvent = 1000 // average bytes of a routine event, JSON included
	events := max(5000, int(20000*size/(100<<20)))
	big := size - int64(events)*perEvent
	each := min(max(big/15, 1<<20), 5<<20)

	e = migrationRun()
	e.name = "large"
	written := int64(0)
	for _, ev := range e.events {
		written += eventSize(ev)
	}
	seq, bigDone, lastCompact, step := len(e.comps()), 0, e.turn, 0
	layouts := []layout{claudeCode, geminiCLI, prose}
	for written < size || bigDone < 15 {
		n := len(e.events)
		step++
		switch {
		case bigDone < 15 && (len(e.events) >= 4200+bigDone*(events-4200)/15 || written >= size):
			e.bigOutput(int(each))
			bigDone++
		case e.turn-lastCompact >= 1800:
			seq++
			e.compact(seq, layouts[seq%3], plant{})
			lastCompact = e.turn
		case len(e.events) > events && step%8 == 0:
			// Past the event budget and still short of the size: verbose
			// test logs fill the rest without adding many events.
			e.verboseSuite(300<<10 + e.rng.IntN(600<<10))
		default:
			e.filler()
		}
		for _, ev := range e.events[n:] {
			written += eventSize(ev)
		}
	}
	return e, nil
}

// comps returns the compaction events so far.
func (e *emitter) comps() []*model.Compaction {
	var out []*model.Compaction
	for _, ev := range e.events {
		if c, ok := ev.(*model.Compaction); ok {
			out = append(out, c)
		}
	}
	return out
}

// eventSize estimates the bytes an event takes in the file: its text with
// JSON escapes, and the fixed fields.
func eventSize(ev model.Event) int64 {
	n := int64(110)
	switch v := ev.(type) {
	case *model.Message:
		n += escaped(v.Text)
	case *model.ToolCall:
		n += int64(v.Input.Len())
	case *model.ToolResult:
		s, _ := v.Text.Load()
		n += escaped(s)
	case *model.Compaction:
		n += escaped(v.Summary)
	case *model.Plan:
		n += int64(len(v.Items)) * 80
	}
	return n
}

func escaped(s string) int64 {
	return int64(len(s) + strings.Count(s, `"`) + strings.Count(s, "\n") + strings.Count(s, "\t") + strings.Count(s, `\`))
}

// bigOutput reads a day of the service's logs on staging: one tool output of
// about n bytes.
func (e *emitter) bigOutput(n int) {
	cmd := "kubectl logs deploy/ordersd -n staging --since=24h"
	e.say("Reading a day of ordersd logs on staging to look for slow requests.")
	var b strings.Builder
	b.Grow(n + 512)
	t := e.clock.Add(-24 * time.Hour)
	paths := []string{"/v1/orders", "/v1/orders/%d", "/v1/customers/%d/orders", "/v1/orders/%d/cancel", "/healthz"}
	for b.Len() < n {
		t = t.Add(time.Duration(20+e.rng.IntN(400)) * time.Millisecond)
		p := paths[e.rng.IntN(len(paths))]
		if strings.Contains(p, "%d") {
			p = fmt.Sprintf(p, 1+e.rng.IntN(90000))
		}
		fmt.Fprintf(&b, `{"time":"%s","level":"INFO","msg":"request","method":"%s","path":"%s","status":%d,"duration_ms":%.1f,"request_id":"%s"}`+"\n",
			t.UTC().Format("2006-01-02T15:04:05.000Z"), []string{"GET", "POST"}[e.rng.IntN(2)], p,
			[]int{200, 200, 200, 201, 404, 409}[e.rng.IntN(6)], float64(e.rng.IntN(4000))/10, e.hex(16))
	}
	e.bash(cmd, b.String(), false, 40*time.Second)
	e.say("Nothing slower than 400 ms in the last day; the p99 is well under the 200 ms budget.")
}

// verboseSuite runs the whole suite with -v: about n bytes of output.
func (e *emitter) verboseSuite(n int) {
	var names []string
	for _, f := range e.w.sorted() {
		if strings.HasSuffix(f.path, "_test.go") {
			for _, l := range strings.Split(f.content(), "\n") {
				if name, ok := strings.CutPrefix(l, "func Test"); ok {
					name, _, _ = strings.Cut(name, "(")
					names = append(names, "Test"+name)
				}
			}
		}
	}
	var b strings.Builder
	for run := 0; b.Len() < n; run++ {
		name := names[run%len(names)]
		fmt.Fprintf(&b, "=== RUN   %s\n    pgtest.go:41: postgres:16-alpine ready in %dms\n--- PASS: %s (%.2fs)\n", name, 400+e.rng.IntN(900), name, float64(e.rng.IntN(300))/100)
	}
	b.WriteString(e.suite())
	e.bash("go test -count=1 -v ./...", b.String(), false, 3*time.Minute)
}
