package shapes

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// chore is a kind of deferred step (no category nouns as heads: see steps): how the agent promises it, the command
// that carries it out, and how it reports it done.
type chore struct {
	verb, head, did string
	cmd             string // %s is the name
}

var chores = []chore{
	{"re-run", "migration", "Re-ran", "make migrate SERVICE=%s"},
	{"rebuild", "index", "Rebuilt", "./scripts/rebuild-index.sh %s"},
	{"backfill", "table", "Backfilled", "./scripts/backfill-table.sh %s"},
	{"deploy", "worker", "Deployed", "kubectl -n staging rollout restart deploy/%s-worker"},
	{"regenerate", "stubs", "Regenerated", "make generate-stubs SERVICE=%s"},
	{"drain", "queue", "Drained", "./scripts/drain-queue.sh %s"},
	{"rotate", "credentials", "Rotated", "vault write -f secret/%s/credentials/rotate"},
}

// promise is an open commitment of the run.
type promise struct {
	c      chore
	name   string
	ticket string // "" or "ORD-1234" or "PR #1234"
	text   string // the sentence
}

func (p promise) object() string {
	s := "the " + p.name + " " + p.c.head
	if p.ticket != "" {
		s += " for " + p.ticket
	}
	return s
}

// commitments is a long rollout where the agent defers step after step: "I'll
// re-run the kavron migration for ORD-1234 after the schema diff for ORD-1240
// is reviewed." Each promise names its own service (and often a ticket or a
// PR), so none restates another, and most stay open: every assistant
// message is matched against every open commitment (a completion claim?),
// every tool call against every one (does it carry it out?). A third are
// carried out by their command and reported done; a few are claimed
// without a call (unsupported completions). A compaction every ~400
// events lists the newest hundred open steps under Pending Tasks.
func commitments(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "commitments", opt.Seed, 0xc0)
	pool := names(r.rng, 20000)
	next := 0
	var open, closed []promise
	lastCompact := 0
	r.user("Roll the new billing schema out to every service on staging. Keep track of what waits on reviews and approvals.")
	for r.n < size && r.err == nil {
		rng := r.rng
		p := promise{c: pick(rng, chores), name: pool[next%len(pool)], ticket: ticket(rng)}
		next++
		p.text = fmt.Sprintf("I'll %s %s %s.", p.c.verb, p.object(), condition(rng, pool[rng.IntN(len(pool))]))
		r.say(sentence(rng, 8+rng.IntN(10)) + " " + p.text)
		open = append(open, p)
		// A look at the service: compared with every open commitment.
		switch rng.IntN(3) {
		case 0:
			r.exec("kubectl -n staging get pods -l app="+p.name, false, fmt.Sprintf("NAME   READY   STATUS    RESTARTS   AGE\n%s-7d9f   1/1     Running   %d          %dd\n", p.name, rng.IntN(3), 1+rng.IntN(90)))
		case 1:
			id := r.call("grep", fmt.Sprintf(`{"pattern":%q,"path":"services/"}`, p.name))
			r.result(id, false, fmt.Sprintf("services/%s/config.yaml:%d: schema: billing/v%d\n", p.name, 1+rng.IntN(80), 1+rng.IntN(4)))
		default:
			r.say(sentence(rng, 10+rng.IntN(15)))
		}
		// Every third step, an older promise is carried out and reported.
		if len(open) > 8 && rng.IntN(3) == 0 {
			i := rng.IntN(len(open) - 4)
			q := open[i]
			open = append(open[:i], open[i+1:]...)
			if rng.IntN(10) > 0 {
				r.exec(fmt.Sprintf(q.c.cmd, q.name), false, sentence(rng, 6)+"\n")
			}
			r.say(fmt.Sprintf("%s %s; the rollout log shows it went through cleanly.", q.c.did, q.object()))
			closed = append(closed, q)
		}
		if rng.IntN(12) == 0 {
			q := open[rng.IntN(len(open))]
			r.say(fmt.Sprintf("The %s %s is still waiting; nothing to do there yet.", q.name, q.c.head))
		}
		if r.turn-lastCompact >= 400 {
			lastCompact = r.turn
			r.compact(commitmentSummary(open, closed))
		}
	}
	return r.done()
}

// condition returns what a deferred step waits for.
func condition(rng *rand.Rand, other string) string {
	switch rng.IntN(4) {
	case 0:
		return fmt.Sprintf("after the schema diff for ORD-%d is reviewed", 100+rng.IntN(9000))
	case 1:
		return "once the staging canary for " + other + " is green"
	case 2:
		return "when " + pick(rng, []string{"Priya", "Marek", "Lena", "Tomás"}) + " approves the rollout plan"
	}
	return "after the " + other + " freeze ends"
}

func commitmentSummary(open, closed []promise) string {
	s := &ccSummary{
		request:  "Roll the new billing schema out to every service on staging, keeping track of what waits on reviews and approvals.",
		concepts: []string{"billing schema v2", "staging rollout", "per-service migrations, indexes and workers"},
		files:    []string{"services/*/config.yaml: each service's schema version"},
		current:  fmt.Sprintf("Rolling out service by service; %d steps wait on reviews, canaries or approvals.", len(open)),
		next:     "Carry on with the next service on the list.",
	}
	for _, q := range closed[max(0, len(closed)-30):] {
		s.solving = append(s.solving, fmt.Sprintf("%s %s.", q.c.did, q.object()))
	}
	s.users = []string{"Roll the new billing schema out to every service on staging. Keep track of what waits on reviews and approvals."}
	for _, q := range open[max(0, len(open)-100):] {
		s.pending = append(s.pending, upper(strings.TrimPrefix(q.text, "I'll ")))
	}
	return s.String()
}
