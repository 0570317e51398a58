package shapes

import (
	"fmt"
	"io"
)

// compactions is a long refactoring run compacted every ~50 events, each
// summary restating everything still open (rules, deferred steps, failing
// tests, a call in flight) and the history so far (what each stretch did,
// the files touched, the errors fixed, every user message), as Claude
// Code's compactor does. Open items, resurrection candidates (completed
// steps the history names) and summary lines all grow with the number of
// compactions, so evaluating a compaction costs more the later it comes.
func compactions(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "compactions", opt.Seed, 0xc0c0)
	c := &compactRun{run: r, pool: names(r.rng, 20000)}
	c.userMsg("Move every handler of the orders service to the v2 router, one package at a time. Never push to main. Always run go vet before committing.")
	for r.n < size && r.err == nil {
		c.segment()
		c.compact(c.summary())
	}
	return r.done()
}

type compactRun struct {
	*run
	pool      []string
	next      int
	users     []string
	open      []promise
	closed    []promise
	history   []string
	files     []string
	fixed     []string
	failing   []flakyFailure // open errors: command and line
	inFlight  string         // a call whose result comes after the compaction
	segments  int
	lastRules int
}

func (c *compactRun) userMsg(text string) {
	c.user(text)
	c.users = append(c.users, text)
}

func (c *compactRun) fresh() string {
	c.next++
	return c.pool[c.next%len(c.pool)]
}

// segment is a stretch of work of ~50 events: a package moved, a test run,
// a deferred step promised, sometimes an older one carried out, sometimes a
// long test run left in flight.
func (c *compactRun) segment() {
	rng := c.rng
	c.segments++
	pkg := c.fresh()
	file := "orders/" + pkg + "/handler.go"
	c.files = append(c.files, file+": moved to the v2 router")
	if c.inFlight != "" {
		c.result(c.inFlight, false, passingTests(rng, pkg, 600)+"ok  \tgithub.com/acme/orders/...\t41.2s\n")
		c.inFlight = ""
	}
	if c.segments%3 == 0 {
		c.userMsg(fmt.Sprintf("Next do the %s package. %s", pkg, sentence(rng, 8)))
	}
	if c.segments-c.lastRules >= 20 {
		c.lastRules = c.segments
		rule := fmt.Sprintf("Don't change the %s API while the %s migration is running.", c.fresh(), c.fresh())
		c.userMsg(rule)
	}
	c.say(fmt.Sprintf("Moving the %s handlers to the v2 router. %s", pkg, sentence(rng, 10)))
	events := 3
	for events < 44 {
		switch rng.IntN(4) {
		case 0:
			id := c.call("read_file", fmt.Sprintf(`{"path":%q}`, file))
			c.result(id, false, goSource(rng, 600+rng.IntN(1400)))
		case 1:
			id := c.call("edit_file", fmt.Sprintf(`{"path":%q,"old":"r.HandleFunc","new":"v2.Route"}`, file))
			c.result(id, false, "Edited "+file+".")
		case 2:
			c.exec("go build ./orders/...", false, "")
		default:
			c.say(sentence(rng, 12+rng.IntN(20)))
			events--
		}
		events += 2
	}
	// A test run: fixed within the stretch two times in three, otherwise
	// left failing.
	cmd := fmt.Sprintf("go test ./orders/%s/...", pkg)
	test := "Test" + upper(pkg) + "Routes"
	detail := fmt.Sprintf("handler_test.go:%d: status = 404, want 200", 20+rng.IntN(200))
	line := fmt.Sprintf("--- FAIL: %s (0.%02ds)", test, rng.IntN(100))
	c.exec(cmd, true, "=== RUN   "+test+"\n    "+detail+"\n"+line+"\nFAIL\tgithub.com/acme/orders/"+pkg+"\t0.31s\nFAIL\n")
	line += " " + detail
	if rng.IntN(3) > 0 {
		c.exec(cmd, false, "ok  \tgithub.com/acme/orders/"+pkg+"\t0.29s\n")
		c.fixed = append(c.fixed, fmt.Sprintf("Test%sRoutes returned 404 until the route was registered on the v2 router; fixed.", upper(pkg)))
	} else {
		c.failing = append(c.failing, flakyFailure{cmd, line})
	}
	// A deferred step, and sometimes an older one carried out.
	p := promise{c: pick(rng, chores), name: pkg, ticket: ticket(rng)}
	p.text = fmt.Sprintf("I'll %s %s %s.", p.c.verb, p.object(), condition(rng, c.fresh()))
	c.say(p.text)
	c.open = append(c.open, p)
	if len(c.open) > 3 && rng.IntN(2) == 0 {
		i := rng.IntN(len(c.open) - 2)
		q := c.open[i]
		c.open = append(c.open[:i], c.open[i+1:]...)
		c.exec(fmt.Sprintf(q.c.cmd, q.name), false, "ok\n")
		c.say(fmt.Sprintf("%s %s.", q.c.did, q.object()))
		c.closed = append(c.closed, q)
		c.history = append(c.history, fmt.Sprintf("%s %s.", q.c.did, q.object()))
	}
	c.history = append(c.history, fmt.Sprintf("Moved the %s handlers to the v2 router. %s", pkg, sentence(rng, 8)))
	if rng.IntN(4) == 0 {
		c.inFlight = c.bash("go test ./orders/... -run Integration")
	}
}

func (c *compactRun) summary() string {
	s := &ccSummary{
		request:  c.users[0],
		concepts: []string{"the v2 router", "handler registration", "orders packages"},
		files:    c.files,
		solving:  c.history,
		users:    c.users,
		current:  "Moving the next package's handlers to the v2 router.",
		next:     "Run the package's tests after the move.",
	}
	for _, f := range c.failing {
		s.errors = append(s.errors, fmt.Sprintf("`%s` still fails: %s", f.cmd, f.line))
	}
	s.errors = append(s.errors, c.fixed[max(0, len(c.fixed)-30):]...)
	for _, q := range c.open {
		s.pending = append(s.pending, upper(q.text[len("I'll "):]))
	}
	for _, f := range c.failing {
		s.pending = append(s.pending, "Fix `"+f.cmd+"`.")
	}
	if c.inFlight != "" {
		s.current = fmt.Sprintf("The integration tests are running (%s); their result is not in yet.", c.inFlight)
	}
	return s.String()
}
