package shapes

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// flaky is a run chasing a flaky test: the checkout suite is run again and
// again with a new shuffle seed (or one failing subtest alone), and every
// other run it fails with a different message — an assertion, a panic, a
// timeout, a data race. Each failing command differs from the others, so
// each failure is an error that stays open until that very command passes
// again (a quarter of them are re-run and pass). Between the test runs the
// agent builds, vets, reads and edits; every successful shell command is
// compared with every open error. Outputs are 1–16 KiB of verbose test log,
// read whole by the error-line and token extraction. A compaction every ~250
// events lists the latest failures as the compactor would.
func flaky(w io.Writer, size int64, opt Options) error {
	r := newRun(w, "flaky", opt.Seed, 0xf1a)
	f := &flakyRun{run: r}
	r.user("The checkout suite fails on CI every few runs, each time somewhere else. Find out why; the failing seeds are in the CI log.")
	r.say("Starting with the suite under -shuffle and -race to see how often it fails here.")
	for r.n < size && r.err == nil {
		f.round()
		if r.turn-f.lastCompact >= 250 {
			f.compact()
		}
	}
	return r.done()
}

type flakyRun struct {
	*run
	open        []flakyFailure // failures not re-run successfully, newest last
	fixed       []flakyFailure
	rerun       []flakyFailure // failures the agent will re-run alone
	lastCompact int
	runs        int
}

type flakyFailure struct {
	cmd, line string
}

var checkoutTests = strings.Fields("TestCheckoutConcurrent TestCartTotals TestLedgerPost TestRefundRetry TestPaymentCapture TestPriceRounding TestInventoryHold")

func (f *flakyRun) round() {
	rng := f.rng
	f.runs++
	if f.runs%40 == 0 {
		f.user(pick(rng, []string{"Any luck with the flake? CI failed twice more overnight.", "Keep going with the checkout flake; the release is blocked on it.", "The CI log from last night has another failing seed, same package."}))
	}
	// Re-run one earlier failure alone: it passes three times in four.
	if len(f.rerun) > 0 && rng.IntN(3) == 0 {
		ff := f.rerun[0]
		f.rerun = f.rerun[1:]
		f.say("Re-running the failing seed from before on its own.")
		if rng.IntN(4) > 0 {
			f.exec(ff.cmd, false, passingTests(rng, "checkout", 1500+rng.IntN(3000))+"ok  \tgithub.com/acme/shop/checkout\t3.412s\n")
			f.drop(ff.cmd)
		} else {
			out, line := f.failure()
			f.exec(ff.cmd, true, out)
			f.drop(ff.cmd)
			f.open = append(f.open, flakyFailure{ff.cmd, line})
		}
	}
	var cmd string
	if rng.IntN(5) == 0 {
		cmd = fmt.Sprintf("go test -count=1 -race -run '%s/cart_%d' ./checkout", pick(rng, checkoutTests), rng.IntN(400))
		f.say("Running that subtest alone under the race detector.")
	} else {
		cmd = fmt.Sprintf("go test -count=1 -race -shuffle=%d ./checkout/...", 1700000000+rng.IntN(99999999))
		f.say("Another shuffled run of the checkout suite.")
	}
	if rng.IntN(2) == 0 {
		// Each failure is in a package of its own, not run again until the
		// agent re-runs that very command: a later pass of the suite would
		// resolve it (the rule that a variant's success resolves a failure).
		cmd = fmt.Sprintf("go test -count=1 -race -shuffle=%d ./checkout/shard%d/...", 1700000000+rng.IntN(99999999), f.runs)
		out, line := f.failure()
		f.exec(cmd, true, out)
		ff := flakyFailure{cmd, line}
		f.open = append(f.open, ff)
		if rng.IntN(4) == 0 {
			f.rerun = append(f.rerun, ff)
		}
		f.say("Failed again, and not where it failed last time.")
	} else {
		cmd = strings.Replace(cmd, "./checkout", "./cart", 1) // passes elsewhere; the failing shards stay open
		f.exec(cmd, false, passingTests(rng, "cart", 1000+rng.IntN(4000))+fmt.Sprintf("ok  \tgithub.com/acme/shop/cart\t%.3fs\n", 2+rng.Float64()*3))
	}
	// The work between runs: every successful command is compared with
	// every open error.
	for k := rng.IntN(3); k >= 0; k-- {
		switch rng.IntN(5) {
		case 0:
			f.exec("go build ./...", false, "")
		case 1:
			f.exec("go vet ./checkout/...", false, "")
		case 2:
			f.exec("git diff --stat", false, fmt.Sprintf(" checkout/cart.go | %d ++--\n 1 file changed, %d insertions(+), %d deletions(-)\n", 2+rng.IntN(30), 1+rng.IntN(20), rng.IntN(10)))
		case 3:
			id := f.call("read_file", `{"path":"checkout/cart.go"}`)
			f.result(id, false, goSource(rng, 1000+rng.IntN(3000)))
		default:
			id := f.call("edit_file", fmt.Sprintf(`{"path":"checkout/cart.go","old":"c.mu.Lock()","new":"c.mu.Lock() // %s"}`, sentence(rng, 4)))
			f.result(id, false, "Edited checkout/cart.go.")
		}
	}
}

// drop removes the open failure of cmd.
func (f *flakyRun) drop(cmd string) {
	for i, ff := range f.open {
		if ff.cmd == cmd {
			f.fixed = append(f.fixed, ff)
			f.open = append(f.open[:i], f.open[i+1:]...)
			return
		}
	}
}

// failure returns a failing test log and its distinctive line.
func (f *flakyRun) failure() (string, string) {
	rng := f.rng
	var b strings.Builder
	b.WriteString(passingTests(rng, "checkout", 2000+rng.IntN(8000)))
	test := pick(rng, checkoutTests)
	sub := rng.IntN(400)
	var line string
	switch rng.IntN(5) {
	case 0:
		line = fmt.Sprintf("cart_test.go:%d: total = %d, want %d (cart %d)", 40+rng.IntN(300), 1000+rng.IntN(9000), 1000+rng.IntN(9000), sub)
		fmt.Fprintf(&b, "=== RUN   %s/cart_%d\n    %s\n--- FAIL: %s/cart_%d (0.%02ds)\n", test, sub, line, test, sub, rng.IntN(100))
	case 1:
		line = fmt.Sprintf("panic: runtime error: index out of range [%d] with length %d", 3+rng.IntN(60), 1+rng.IntN(3))
		fmt.Fprintf(&b, "=== RUN   %s/cart_%d\n--- FAIL: %s/cart_%d (0.%02ds)\n%s [recovered]\n\tpanic: %s\n\ngoroutine %d [running]:\n", test, sub, test, sub, rng.IntN(100), line, line[7:], 20+rng.IntN(200))
		for k := 0; k < 12; k++ {
			fmt.Fprintf(&b, "github.com/acme/shop/checkout.(*%s).%s(...)\n\t/home/dev/src/shop/checkout/%s.go:%d +0x%x\n", upper(pick(rng, proseWords)), upper(pick(rng, proseWords)), pick(rng, proseWords), 10+rng.IntN(500), rng.IntN(4096))
		}
	case 2:
		line = fmt.Sprintf("panic: test timed out after %ds", 30+rng.IntN(90))
		fmt.Fprintf(&b, "%s\nrunning tests:\n\t%s/cart_%d (%ds)\n\ngoroutine %d [semacquire, %d minutes]:\n\tsync.runtime_Semacquire(0xc000%06x)\n", line, test, sub, 30+rng.IntN(90), 1+rng.IntN(90), rng.IntN(5), rng.IntN(1<<24))
	case 3:
		line = fmt.Sprintf("ledger.go:%d: race detected during execution of test %s", 10+rng.IntN(400), test)
		fmt.Fprintf(&b, "==================\nWARNING: DATA RACE\nWrite at 0x00c000%06x by goroutine %d:\n  github.com/acme/shop/checkout.(*Ledger).Post()\n      /home/dev/src/shop/checkout/ledger.go:%d +0x%x\n\nPrevious read at 0x00c000%06x by goroutine %d:\n  github.com/acme/shop/checkout.(*Cart).Total()\n      /home/dev/src/shop/checkout/cart.go:%d +0x%x\n==================\n--- FAIL: %s (0.%02ds)\n    %s\n",
			rng.IntN(1<<24), 5+rng.IntN(90), 10+rng.IntN(400), rng.IntN(4096), rng.IntN(1<<24), 5+rng.IntN(90), 10+rng.IntN(400), rng.IntN(4096), test, rng.IntN(100), line)
	default:
		line = fmt.Sprintf("payment_test.go:%d: context deadline exceeded after %dms waiting for refund rf_%s", 30+rng.IntN(200), 100+rng.IntN(5000), hexN(rng, 8))
		fmt.Fprintf(&b, "=== RUN   %s\n    %s\n--- FAIL: %s (%d.%02ds)\n", test, line, test, rng.IntN(6), rng.IntN(100))
	}
	b.WriteString(passingTests(rng, "checkout", rng.IntN(4000)))
	fmt.Fprintf(&b, "FAIL\nFAIL\tgithub.com/acme/shop/checkout\t%.3fs\nFAIL\n", 2+rng.Float64()*30)
	return b.String(), line
}

// compact summarises the hunt so far: the latest open failures, the ones a
// re-run cleared, and what is left.
func (f *flakyRun) compact() {
	f.lastCompact = f.turn
	s := &ccSummary{
		request:  "Find out why the checkout suite fails on CI every few runs; each failure is somewhere else.",
		concepts: []string{"go test -shuffle and -race", "checkout cart and ledger locking", "CI seeds"},
		files:    []string{"checkout/cart.go: the cart's mutex and totals", "checkout/ledger.go: Post and its readers"},
		current:  fmt.Sprintf("Running the suite with new seeds; %d failures so far have not been reproduced on their own.", len(f.open)),
		next:     "Re-run the latest failing seeds alone under -race.",
	}
	latest := f.open[max(0, len(f.open)-15):]
	for _, ff := range latest {
		s.errors = append(s.errors, fmt.Sprintf("`%s` still fails: %s", ff.cmd, ff.line))
	}
	for _, ff := range f.fixed[max(0, len(f.fixed)-5):] {
		s.errors = append(s.errors, fmt.Sprintf("`%s` passed when re-run alone (it had failed with %s)", ff.cmd, ff.line))
	}
	s.solving = []string{fmt.Sprintf("%d shuffled runs so far; the failures move between the cart, the ledger and payments.", f.runs)}
	s.users = []string{"The checkout suite fails on CI every few runs, each time somewhere else. Find out why."}
	s.pending = []string{"Re-run each failing seed alone until one reproduces."}
	f.run.compact(s.String())
}

// goSource returns about n bytes of Go source.
func goSource(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		w1, w2 := pick(rng, proseWords), pick(rng, proseWords)
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "%6d\tfunc (c *Cart) %s%s(ctx context.Context) error {\n", i, upper(w1), upper(w2))
		case 1:
			fmt.Fprintf(&b, "%6d\t\tif err := c.%s.%s(ctx); err != nil {\n", i, w1, upper(w2))
		case 2:
			fmt.Fprintf(&b, "%6d\t\t\treturn fmt.Errorf(\"%s %s: %%w\", err)\n", i, w1, w2)
		default:
			fmt.Fprintf(&b, "%6d\t\t// %s\n", i, sentence(rng, 6))
		}
	}
	return b.String()
}

func hexN(rng *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[rng.IntN(16)]
	}
	return string(b)
}
