package shapes

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/sampledata/internal/gen"
)

// sampleLarge is the sample generator's large run (go run ./sampledata/gen
// -size): the migration run continued with routine work, honest
// compactions every ~1,800 turns and 15 service logs of 1–5 MB. Its
// errors are all resolved soon after they happen. It has its own fixed
// seed, so Options.Seed does not change it; below ~20 MB it is ~20 MB
// anyway (the 15 logs are at least 1 MB each).
func sampleLarge(w io.Writer, size int64, _ Options) error { return gen.Large(w, size) }

// mixed is the mix of research/perf.md's synthetic transcripts, as loupe
// JSONL with compactions: by step ~80% messages of 200 B–2 KB (a
// fifth of the assistant's with a promise, most of them kept), ~16%
// tool calls with outputs of 5–50 KB (test runs, listings, coloured logs)
// and ~4% with small ones, plus 15 outputs of 1–5 MB per 100 MB; about
// 35,000 events per 100 MB (a call is an event of its own here). One shell result in eight fails, each on its own
// command, and only a quarter of those are re-run until they pass: the open
// errors pile up, and every successful command is compared with each. A
// compaction every ~1,000 events lists the latest open errors and promises.
func mixed(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "mixed", opt.Seed, 0x313)
	m := &mixedRun{run: r, f: kittest.NewFiller(opt.Seed), pool: names(r.rng, 5000)}
	bigs := max(1, int(15*size/(100<<20)))
	nextBig := int64(1)
	r.user("Get the orders platform green again after the billing merge: tests, builds and the staging services.")
	for r.n < size && r.err == nil {
		if r.n >= nextBig*size/int64(bigs+1) && nextBig <= int64(bigs) {
			nextBig++
			m.bigOutput(1<<20 + r.rng.IntN(4<<20))
		}
		switch x := r.rng.IntN(100); {
		case x < 80:
			m.message()
		case x < 96:
			m.tool(outputSize(r.rng))
		default:
			m.tool(200 + r.rng.IntN(5<<10))
		}
		if m.events >= 1000 {
			m.events = 0
			m.compact()
		}
	}
	return r.done()
}

type mixedRun struct {
	*run
	f        *kittest.Filler
	pool     []string
	events   int
	failing  []flakyFailure // open errors, newest last
	retry    []string       // failed commands the agent re-runs later
	promises []promise      // deferred promises left open, newest last
	keep     []promise      // deferred promises the agent will carry out
	done     []string       // history lines for the summaries
}

// outputSize is skewed small: the median near 6 KB, the mean near 11 KB.
func outputSize(rng *rand.Rand) int {
	n := 5 << 10
	for n < 50<<10 && rng.IntN(3) > 0 {
		n += rng.IntN(8 << 10)
	}
	return min(n, 50<<10)
}

func (m *mixedRun) message() {
	rng := m.rng
	m.events++
	if rng.IntN(10) == 0 {
		m.user("Please look at the " + pick(rng, m.pool) + " service next. " + sentence(rng, 8+rng.IntN(20)))
		return
	}
	n := 200 + rng.IntN(400)
	if rng.IntN(4) == 0 {
		n += rng.IntN(1600)
	}
	text := prose(rng, n)
	if rng.IntN(5) > 0 {
		m.say(text)
		return
	}
	// A promise: five in six are kept at once (a read of the file named),
	// the others wait for a condition, and two in three of those are
	// carried out and reported later.
	nm := pick(rng, m.pool)
	if rng.IntN(6) > 0 {
		path := fmt.Sprintf("services/%s/config.yaml", nm)
		m.say(text + " I'll check `" + path + "` for the same setting.")
		id := m.call("read_file", fmt.Sprintf(`{"path":%q}`, path))
		m.result(id, false, fmt.Sprintf("billing:\n  schema: v%d\n  retries: %d\n", 1+rng.IntN(3), rng.IntN(6)))
		m.events += 2
		return
	}
	p := promise{c: pick(rng, chores), name: nm, ticket: ticket(rng)}
	p.text = fmt.Sprintf("I'll %s %s %s.", p.c.verb, p.object(), condition(rng, pick(rng, m.pool)))
	m.say(text + " " + p.text)
	if rng.IntN(3) > 0 {
		m.keep = append(m.keep, p)
	} else {
		m.promises = append(m.promises, p)
	}
	if len(m.keep) > 5 {
		q := m.keep[0]
		m.keep = m.keep[1:]
		m.exec(fmt.Sprintf(q.c.cmd, q.name), false, sentence(rng, 6)+"\n")
		m.say(fmt.Sprintf("%s %s; it went through cleanly.", q.c.did, q.object()))
		m.done = append(m.done, fmt.Sprintf("%s %s.", q.c.did, q.object()))
		m.events += 3
	}
}

// tool writes a call and its result of about n bytes: a test run, a build,
// a log tail or a file read; one shell result in eight fails.
func (m *mixedRun) tool(n int) {
	rng := m.rng
	m.events += 2
	if len(m.retry) > 0 && rng.IntN(8) == 0 {
		cmd := m.retry[0]
		m.retry = m.retry[1:]
		m.exec(cmd, false, passingTests(rng, "orders", n))
		for i, f := range m.failing {
			if f.cmd == cmd {
				m.failing = append(m.failing[:i], m.failing[i+1:]...)
				m.done = append(m.done, "`"+cmd+"` passes again.")
				break
			}
		}
		return
	}
	nm := pick(rng, m.pool)
	var cmd, out string
	switch rng.IntN(5) {
	case 0, 1:
		cmd = fmt.Sprintf("go test ./services/%s/...", nm)
		out = passingTests(rng, nm, n)
	case 2:
		cmd = fmt.Sprintf("make -C services/%s build", nm)
		out = m.f.Output(n)
	case 3:
		cmd = fmt.Sprintf("kubectl -n staging logs deploy/%s --tail=%d", nm, 100+rng.IntN(900))
		out = m.f.Logs(n)
	default:
		id := m.call("read_file", fmt.Sprintf(`{"path":"services/%s/%s.go"}`, nm, pick(rng, proseWords)))
		m.result(id, false, goSource(rng, n))
		return
	}
	if rng.IntN(8) == 0 {
		line := fmt.Sprintf("services/%s/%s.go:%d:%d: undefined: billing.%s%s", nm, pick(rng, proseWords), 10+rng.IntN(400), 2+rng.IntN(40), upper(pick(rng, proseWords)), upper(pick(rng, proseWords)))
		m.exec(cmd, true, out[:len(out)/2]+line+"\nFAIL\nexit status 1\n")
		m.failing = append(m.failing, flakyFailure{cmd, line})
		if rng.IntN(4) == 0 {
			m.retry = append(m.retry, cmd)
		}
		return
	}
	m.exec(cmd, false, out)
}

func (m *mixedRun) bigOutput(n int) {
	m.events += 3
	nm := pick(m.rng, m.pool)
	m.say("Reading a day of " + nm + " logs on staging to look for slow requests.")
	m.exec("kubectl -n staging logs deploy/"+nm+" --since=24h", false, m.f.Logs(n))
	m.done = append(m.done, "Read a day of "+nm+" logs: nothing slower than 400 ms.")
}

func (m *mixedRun) compact() {
	s := &ccSummary{
		request:  "Get the orders platform green again after the billing merge: tests, builds and the staging services.",
		concepts: []string{"the billing merge", "per-service builds and tests", "staging logs"},
		files:    []string{"services/*: one directory per service"},
		solving:  m.done[max(0, len(m.done)-40):],
		users:    []string{"Get the orders platform green again after the billing merge: tests, builds and the staging services."},
		current:  fmt.Sprintf("Working through the services; %d commands still fail.", len(m.failing)),
		next:     "Re-run the failing commands after the fixes.",
	}
	for _, f := range m.failing[max(0, len(m.failing)-20):] {
		s.errors = append(s.errors, fmt.Sprintf("`%s` still fails: %s", f.cmd, f.line))
	}
	for _, p := range append(m.promises[max(0, len(m.promises)-20):len(m.promises):len(m.promises)], m.keep...) {
		s.pending = append(s.pending, upper(p.text[len("I'll "):]))
	}
	m.run.compact(s.String())
}
