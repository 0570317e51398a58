package shapes

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// run writes one loupe JSONL run event by event through the codec's own
// writer (so every shape is a file loupe reads), counting the bytes written
// so a generator can stop at the size it was asked for. Nothing is kept in
// memory but the line being written.
type run struct {
	out   *bufio.Writer
	lw    *model.Writer
	n     int64 // bytes written so far
	rng   *rand.Rand
	turn  int
	clock time.Time
	ids   int
	seq   int
	noTS  bool // events carry no timestamp (a runtime that records none)
	err   error
}

// counter counts what the codec's writer flushes into it.
type counter struct {
	w *bufio.Writer
	n *int64
}

func (c counter) Write(p []byte) (int, error) {
	*c.n += int64(len(p))
	return c.w.Write(p)
}

// newRun starts a run named name with the shape's seed. salt keeps the
// random streams of two shapes with the same seed apart.
func newRun(w io.Writer, name string, seed, salt uint64) *run {
	r := &run{
		out:   bufio.NewWriterSize(w, 1<<20),
		rng:   rand.New(rand.NewPCG(seed, salt^0x5ca1ab1e)),
		clock: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC),
	}
	r.lw = model.NewWriter(counter{r.out, &r.n})
	r.err = r.lw.WriteMeta(model.Meta{Run: fmt.Sprintf("%s-%d", name, seed), Agent: "shape-generator",
		Extra: map[string]string{"generator": "loupe sampledata/shapes " + name}})
	r.flush()
	return r
}

// put writes an event.
func (r *run) put(ev model.Event) {
	if r.err == nil {
		r.err = r.lw.WriteEvent(ev)
	}
	r.flush()
}

// flush empties the codec's buffer into the counter, so that r.n is exact.
func (r *run) flush() {
	if r.err == nil {
		r.err = r.lw.Flush()
	}
}

// done flushes the run and returns the first error.
func (r *run) done() error {
	if r.err != nil {
		return r.err
	}
	return r.out.Flush()
}

// base returns the header of a new event: a new turn unless same is set.
func (r *run) base(same bool) model.Base {
	if !same || r.turn == 0 {
		r.turn++
	}
	if r.noTS {
		return model.Base{Turn: r.turn}
	}
	r.clock = r.clock.Add(time.Duration(2+r.rng.IntN(40)) * time.Second)
	return model.Base{Turn: r.turn, TS: r.clock.Format(time.RFC3339)}
}

func (r *run) user(text string) {
	r.put(&model.Message{Base: r.base(false), Role: model.RoleUser, Text: text})
}

func (r *run) say(text string) {
	r.put(&model.Message{Base: r.base(false), Role: model.RoleAssistant, Text: text})
}

// newID returns a fresh call id: call_ and a counter, so that no id is a
// prefix of another within a run of fewer than 10^7 calls.
func (r *run) newID() string {
	r.ids++
	return fmt.Sprintf("call_%07d", r.ids)
}

// call writes a tool call with a JSON input and returns its id.
func (r *run) call(name, input string) string {
	id := r.newID()
	r.put(&model.ToolCall{Base: r.base(false), ID: id, Name: name, Input: model.NewText(input)})
	return id
}

// bash writes a shell call.
func (r *run) bash(cmd string) string {
	return r.call("bash", `{"command":`+kittest.Quote(cmd)+`}`)
}

func (r *run) result(id string, isErr bool, text string) {
	r.put(&model.ToolResult{Base: r.base(true), ID: id, IsError: isErr, Text: model.NewText(text)})
}

// exec writes a shell call and its result.
func (r *run) exec(cmd string, isErr bool, out string) {
	r.result(r.bash(cmd), isErr, out)
}

func (r *run) plan(items []model.PlanItem) {
	r.put(&model.Plan{Base: r.base(false), Items: items})
}

// compact writes the next compaction with summary.
func (r *run) compact(summary string) {
	r.seq++
	r.put(&model.Compaction{Base: r.base(false), Seq: r.seq, Trigger: "token_budget", Summary: summary,
		TokensBefore: 150000 + r.rng.IntN(30000), TokensAfter: (len(summary) + 3) / 4})
}

// pick returns a random element of xs.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// ccSummary lays a summary out the way Claude Code's compactor does:
// numbered sections after "Summary:"; the verifier reads status from the
// headings ("Pending Tasks" is pending, "Errors and fixes" is neutral).
type ccSummary struct {
	request  string
	concepts []string
	files    []string
	errors   []string
	solving  []string
	users    []string
	pending  []string
	current  string
	next     string
}

func (s *ccSummary) String() string {
	var b strings.Builder
	b.WriteString("This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n")
	b.WriteString("Analysis:\nThe conversation so far, in order, with what is still open at the end.\n\nSummary:\n")
	section := func(n int, title string, lines []string, bullet bool) {
		fmt.Fprintf(&b, "%d. %s:\n", n, title)
		for _, l := range lines {
			if bullet {
				b.WriteString("   - " + l + "\n")
			} else {
				b.WriteString("   " + l + "\n")
			}
		}
		b.WriteString("\n")
	}
	section(1, "Primary Request and Intent", []string{s.request}, false)
	section(2, "Key Technical Concepts", s.concepts, true)
	section(3, "Files and Code Sections", s.files, true)
	section(4, "Errors and fixes", s.errors, true)
	section(5, "Problem Solving", s.solving, false)
	section(6, "All user messages", s.users, true)
	section(7, "Pending Tasks", s.pending, true)
	section(8, "Current Work", []string{s.current}, false)
	section(9, "Optional Next Step", []string{s.next}, false)
	return strings.TrimRight(b.String(), "\n")
}
