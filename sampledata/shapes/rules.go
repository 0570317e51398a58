package shapes

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// ruleTemplates are standing instructions a user gives; %s are names, so
// each rule is its own (no two share their action's words).
var ruleTemplates = []string{
	"Never edit anything under %s/.",
	"Always run the %s linter before committing.",
	"Don't touch the %s config.",
	"Do not push to the %s branch.",
	"Make sure the %s tests pass before you open a PR.",
	"From now on, use %s instead of %s for the build.",
	"You must keep the %s API backwards compatible.",
	"Never log the %s tokens.",
	"Don't rename the %s tables.",
	"Always ask before restarting the %s service.",
}

// rules is N rounds of a user rule then a compaction whose summary restates
// every rule so far (under "All user messages", as Claude Code's
// compactor does), so the file grows with N² and each compaction matches
// every rule against a summary with as many lines: N³ work for N² bytes.
func rules(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "rules", opt.Seed, 0x701e)
	pool := names(r.rng, 20000)
	var said []string
	for i := 0; r.n < size && r.err == nil; i++ {
		rule := makeRule(r.rng, pool, i)
		r.user(rule)
		said = append(said, rule)
		r.say("Understood. " + sentence(r.rng, 8))
		s := &ccSummary{
			request:  said[0],
			concepts: []string{"the user's standing rules"},
			files:    []string{"none yet"},
			errors:   []string{"none"},
			solving:  []string{fmt.Sprintf("The user has given %d rules so far; each is restated below.", len(said))},
			users:    said,
			pending:  []string{"Wait for the user's next instruction."},
			current:  "Acknowledged the latest rule.",
			next:     "Wait for the user's next instruction.",
		}
		r.compact(s.String())
	}
	return r.done()
}

func makeRule(rng *rand.Rand, pool []string, i int) string {
	t := ruleTemplates[i%len(ruleTemplates)]
	args := []any{pool[(2*i)%len(pool)], pool[(2*i+1)%len(pool)]}
	return fmt.Sprintf(t, args[:strings.Count(t, "%s")]...) + maybe(rng, " "+sentence(rng, 6))
}

// maybe returns s half the time.
func maybe(rng *rand.Rand, s string) string {
	if rng.IntN(2) == 0 {
		return s
	}
	return ""
}
