package gen

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// plant lists what a compaction gets wrong on purpose. Everything else is
// honest: each open item is restated, nothing closed is listed as pending.
type plant struct {
	drop      []string // keys of open items left out
	flip      []string // keys of open items presented as done
	resurrect []string // keys of closed items presented as pending
	intent    []string // ids of in-flight calls kept as intent only
	self      *model.SelfReport
	// lossAt is the seq of the compaction that first lost a dropped item
	// (0: this one). Later compactions repeat the loss as a consequence.
	lossAt int
}

// compact writes compaction seq at the current point of the run.
func (e *emitter) compact(seq int, l layout, p plant) {
	in := e.sumInput(seq, p)
	src := len(e.prev) + e.span.bytes
	target := 0.88 + float64(e.rng.IntN(70))/1000 // 0.880 – 0.949
	var sum string
	for in.detail = 0; ; in.detail++ {
		in.snippets = e.snippets(in.detail)
		sum = build(l, in)
		if 1-float64(len(sum))/float64(src) <= target || in.detail > 24 {
			break
		}
	}
	loss := 1 - float64(len(sum))/float64(src)
	e.checkHonest(seq, sum, in, p)
	c := &model.Compaction{
		Base: e.base(false, 40*time.Second), Seq: seq, Trigger: "token_budget", Summary: sum,
		SelfReport: p.self, TokensBefore: src / 4, TokensAfter: len(sum) / 4,
	}
	e.add(c)
	e.record(c, l, src, loss, in, p)
	for _, f := range e.span.facts {
		if f.major {
			e.history = append(e.history, f)
		}
	}
	e.prev = sum
	e.span = span{}
}

// sumInput gathers what summary seq is made from.
func (e *emitter) sumInput(seq int, p plant) *sumInput {
	in := &sumInput{seq: seq, turn: e.turn, goal: e.goal, concepts: e.concepts, plan: e.agentPlan, users: e.span.users, files: e.span.files, fixed: e.span.fixed, actions: e.span.actions}
	for _, it := range e.led.openItems() {
		switch {
		case it.kind == kConstraint:
			in.rules = append(in.rules, it)
		case slices.Contains(p.drop, it.key):
		case slices.Contains(p.intent, it.key):
			in.intent = append(in.intent, it)
		case slices.Contains(p.flip, it.key):
			in.flipped = append(in.flipped, it)
		default:
			in.open = append(in.open, it)
		}
	}
	for _, key := range p.resurrect {
		it := e.led.find(kPlan, key)
		if it == nil || it.open() {
			panic(fmt.Sprintf("compaction %d: cannot resurrect %q: not a closed plan item", seq, key))
		}
		in.resurrect = append(in.resurrect, it)
	}
	in.mentions = func(line string) bool {
		if e.led.mentionsOpen(line) {
			return true
		}
		low := strings.ToLower(line)
		for _, it := range in.resurrect {
			for _, w := range it.words {
				if strings.Contains(low, strings.ToLower(w)) {
					return true
				}
			}
		}
		return false
	}
	for _, f := range e.span.facts {
		in.facts = append(in.facts, f.text)
	}
	for _, f := range e.history {
		in.history = append(in.history, f.text)
	}
	in.changed = map[string][]string{}
	seen := map[string]bool{}
	for _, ref := range e.span.changed {
		p, name, _ := strings.Cut(ref, "#")
		if seen[ref] || e.w.file(p) == nil || e.w.file(p).block(name) == nil {
			continue
		}
		seen[ref] = true
		in.changed[p] = append(in.changed[p], e.w.file(p).block(name).text)
	}
	return in
}

// snippets returns up to n code excerpts of blocks changed in the span,
// newest first.
func (e *emitter) snippets(n int) []snippet {
	var out []snippet
	seen := map[string]bool{}
	for i := len(e.span.changed) - 1; i >= 0 && len(out) < n; i-- {
		ref := e.span.changed[i]
		if seen[ref] {
			continue
		}
		seen[ref] = true
		p, name, _ := strings.Cut(ref, "#")
		f := e.w.file(p)
		if f == nil || f.block(name) == nil || strings.HasSuffix(p, "_test.go") {
			continue
		}
		lang := "go"
		if strings.HasSuffix(p, ".sql") {
			lang = "sql"
		} else if strings.HasSuffix(p, ".md") {
			lang = "markdown"
		}
		out = append(out, snippet{p, lang, f.block(name).text})
	}
	return out
}

// checkHonest verifies what the ledger promises: every open item not planted
// away has its needle in the summary; a planted drop leaves no trace.
func (e *emitter) checkHonest(seq int, sum string, in *sumInput, p plant) {
	for _, it := range append(slices.Clone(in.rules), in.open...) {
		needles := []string{it.needle}
		if it.kind == kError {
			needles = it.lines
		}
		for _, n := range needles {
			if !strings.Contains(sum, n) {
				panic(fmt.Sprintf("%s compaction %d: open %s %q missing from the summary", e.name, seq, it.kind, n))
			}
		}
	}
	low := strings.ToLower(sum)
	for _, key := range p.drop {
		for _, it := range e.led.items {
			if it.key != key || !it.open() {
				continue
			}
			for _, w := range it.words {
				if strings.Contains(low, strings.ToLower(w)) {
					panic(fmt.Sprintf("%s compaction %d: dropped %q still mentioned (%q)", e.name, seq, key, w))
				}
			}
		}
	}
	for _, it := range in.intent {
		if strings.Contains(sum, it.key) {
			panic(fmt.Sprintf("compaction %d: intent-only handle %s has its id", seq, it.key))
		}
	}
}

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }
