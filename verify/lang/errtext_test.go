package lang

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFirstErrorLine: the line that says why a call failed, not the line
// of the driver that ran the failing step.
func TestFirstErrorLine(t *testing.T) {
	cases := []struct{ out, want string }{
		{"/opt/sdk/bin/ld.bfd: zephyr.elf section `text' will not fit in region `FLASH'\n" +
			"/opt/sdk/bin/ld.bfd: region `FLASH' overflowed by 2104 bytes\ncollect2: error: ld returned 1 exit status\n" +
			"ninja: build stopped: subcommand failed.", "will not fit in region `FLASH'"},
		{"src/a.c:3:5: error: unknown type name 'foo'\nmake[1]: *** [Makefile:12: a.o] Error 1\nmake: *** [all] Error 2", "unknown type name"},
		{"--- FAIL: TestCreate (0.01s)\nFAIL\nexit status 1", "TestCreate"},
		// Test runners that print the assertion before the test's name:
		// the name says what failed.
		{"186 |       expect(first.exitCode).toBe(0)\nerror: expect(received).toBe(expected)\n\nExpected: 0\nReceived: 1\n" +
			"      at <anonymous> (packages/cli/src/plugin.test.ts:186:30)\n(fail) plugin runtime > codegen returns exit code 2 [13.1ms]",
			"(fail) plugin runtime > codegen returns exit code 2"},
		{"  ● orders › rejects an empty cart\n\n    expect(received).toEqual(expected)", "orders › rejects an empty cart"},
		{"FAIL src/cart.test.ts\n  ● totals › applies the coupon\n    expect(received).toBe(expected)", "FAIL src/cart.test.ts"},
		{" 18 pass\n 0 fail\n error: script \"verify\" exited with code 1", "exited with code 1"},
		// A passing test whose name holds an error word is no error line,
		// behind a monorepo runner's task prefix too.
		{"$ turbo run test\n@acme/core:test: (pass) planner > throws typed validation error [0.07ms]\n" +
			"@acme/cli:test: (fail) plugin runtime > check --json fails on pending backfill [1.2ms]\n 14 fail", "check --json fails on pending backfill"},
		{"✓ parses an invalid header error [2ms]\n✗ writes the cache\nAssertionError: expected 1 to equal 2", "writes the cache"},
		// cargo and pytest name the failing test before their tally.
		{"running 12 tests\ntest config::tests::generate_rc_extra_commands_no_duplicates ... FAILED\nfailures:\nerror: test failed, to rerun pass `--lib`",
			"generate_rc_extra_commands_no_duplicates"},
		{"E   assert 1 == 2\nFAILED tests/test_cart.py::test_coupon - assert 1 == 2\n1 failed, 3 passed", "test_coupon"},
	}
	for _, c := range cases {
		if got := FirstErrorLine(c.out); !strings.Contains(got, c.want) {
			t.Errorf("FirstErrorLine = %q, want the line with %q", got, c.want)
		}
	}
}

// The scanner that stands in for errorLineRe must agree with it on every
// line: words at and off word boundaries, glued to punctuation, in any
// case, and lines with other bytes.
func TestErrorWordAgreesWithExpression(t *testing.T) {
	parts := []string{"error", "Errors", "fail", "FAILED", "failure", "panic", "undefined", "cannot", "can't", "not found",
		"exception", "traceback", "denied", "fatal", "invalid", "no such", "refused", "timeout", "timed out", "time out",
		"timedout", "runtime", "unexpected", "mismatch", "expected", "got", "gotten", "overflowed", "will not fit",
		"out of memory", "x", "_", "9", "-", ":", " ", "'", "é", "ſ", "miſmatch", "KB", "ok", "PASS", "TestX", "\t", "ago"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.IntN(5); k >= 0; k-- {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		line := b.String()
		want := errorLineRe.MatchString(line)
		if got := errorWord(line, strings.ToLower(line)); got != want {
			t.Fatalf("errorWord(%q) = %v, the expression says %v", line, got, want)
		}
	}
}
