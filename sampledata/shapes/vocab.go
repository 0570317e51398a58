package shapes

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Names of things in a long run: services, packages, tables. They are made
// of syllables so that a run can have thousands of distinct ones, each a
// plain lower-case word the verifier's tokenizer keeps whole (no digits: a
// word with a digit is generic to it, and generic words are never the head
// or a modifier of an action).
var syllables = strings.Fields("ka ro ven dal mir tus bel nor qua zel fen lo bar tim sor pek ulm gra dov hes")

// name returns the i-th distinct name: two syllables and a closing
// consonant, then three, and so on.
func name(i int) string {
	var b strings.Builder
	n, last := len(syllables), "nrsktlm"[i%7]
	b.WriteString(syllables[i%n])
	i /= n
	b.WriteString(syllables[i%n])
	i /= n
	for i > 0 {
		b.WriteString(syllables[i%n])
		i /= n
	}
	b.WriteByte(last)
	return b.String()
}

// names is a pool of distinct names, shuffled by rng.
func names(rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = name(i)
	}
	rng.Shuffle(n, func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// ticket returns a ticket key ("ORD-1234"), a PR reference or nothing.
func ticket(rng *rand.Rand) string {
	switch rng.IntN(3) {
	case 0:
		return fmt.Sprintf("ORD-%d", 100+rng.IntN(9000))
	case 1:
		return fmt.Sprintf("PR #%d", 1000+rng.IntN(9000))
	}
	return ""
}

// Words of routine prose: no cue the verifier reads as a commitment ("will",
// "need to", "next"), a standing rule ("always", "never", "must") or a
// status ("done", "pending").
var proseWords = strings.Fields("the order store schema request handler retry budget cancel refund ledger key replay worker queue index column default backfill config timeout deadline context trace span cart checkout payment price total")

// sentence returns a plain sentence of about n words.
func sentence(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(pick(rng, proseWords))
	}
	return upper(b.String()) + "."
}

// upper capitalises an ASCII word.
func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// prose returns about n bytes of plain sentences.
func prose(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentence(rng, 6+rng.IntN(12)))
	}
	return b.String()
}

// passingTests returns about n bytes of a verbose passing go test run.
func passingTests(rng *rand.Rand, pkg string, n int) string {
	var b strings.Builder
	for b.Len() < n {
		t := "Test" + upper(pick(rng, proseWords)) + upper(pick(rng, proseWords))
		fmt.Fprintf(&b, "=== RUN   %s\n    %s_test.go:%d: seeded %d rows\n--- PASS: %s (%.2fs)\n", t, pkg, 20+rng.IntN(400), 1+rng.IntN(500), t, float64(rng.IntN(300))/100)
	}
	return b.String()
}
