package lang

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrefilters checks that each cheap test run before a regular
// expression only skips texts the expression cannot match: on crafted
// edge cases (case, Unicode folding) and on every line of the corpora.
func TestPrefilters(t *testing.T) {
	lines := []string{
		"see ISSUE 12 and Pull Request 7", "mr 3", "PR\t#44", "pr\n5", "issue\u00a012", "iſſue 12",
		"api.EXAMPLE.COM/x", "host.Local", "a.localhost", "x.coM-y", "k.uK", "k.u\u212a", "k.\u017fh",
		"FATAL: x", "collect2: error: ld returned 1 exit status", "ninja: build stopped", "make[2]: *** [x] Error 1",
		"NPM ERR! code 1", "Exited With Status 3", "out of memory", "stack overflowed", "will not fit", "--- FAIL: TestX", "KeyError: 'a'", "Exception in thread", "panic: boom", "error[E0382]:",
		"no ſuch file", "TIMED OUT", "can't open", "checkout BRANCH feature/x", "git switch -c a/b",
		"deadbeef1 abc", "0123456", "ORD-1881", "https://x.io/a#12", "#123 fixed",
	}
	given := len(lines)
	files, _ := filepath.Glob("../testdata/*/*.jsonl")
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			// The JSON line and its escaped line breaks as real ones: the
			// filters see both whole texts and single lines.
			// (A long JSON line is seen by its lines only: the
			// expressions over every whole line took most of a -race run.)
			l := sc.Text()
			if len(l) <= 4<<10 {
				lines = append(lines, l)
			}
			lines = append(lines, strings.Split(strings.ReplaceAll(l, `\n`, "\n"), "\n")...)
		}
		fh.Close()
	}
	if len(lines) < 1000 {
		t.Fatalf("only %d lines", len(lines))
	}
	// Every expression over every line of the labelled sets took minutes
	// under -race: a fixed sample of 6,000 lines (the hand-written ones
	// first) covers the same kinds of text.
	if n, keep := len(lines), 6000; n > keep {
		sample := lines[:given]
		for i := given; i < n; i += (n - given + keep - 1) / keep {
			sample = append(sample, lines[i])
		}
		lines = sample
	}
	type filter struct {
		name string
		re   *Regexp
		may  func(s string) bool
	}
	filters := []filter{
		{"errorClass", errorClassRe, func(s string) bool { return errorClass(strings.ToLower(s)) }},
		{"wrapperLine", wrapperLineRe, func(s string) bool { return wrapperLine(s, strings.ToLower(s)) }},
		{"bareFail", bareFailRe, func(s string) bool { return strings.HasPrefix(s, "FAIL") || strings.HasPrefix(s, "ERROR") }},
		{"errorWord", errorLineRe, func(s string) bool { return errorWord(s, strings.ToLower(s)) }},
		{"testName", testNameRe, func(s string) bool {
			return strings.Contains(s, "Test") || strings.Contains(s, "test_") || strings.Contains(s, "::")
		}},
		{"url", urlRe, func(s string) bool { return strings.Contains(s, "://") }},
		{"host", hostRe, hostTLD},
		{"pr", prRe, func(s string) bool { return strings.IndexByte(s, '#') >= 0 }},
		{"prWord", prWordRe, func(s string) bool { return !isASCII(s) || prWord(s) }},
		{"branchNamed", branchNamedRe, func(s string) bool { return strings.Contains(s, "branch") }},
		{"branchWord", branchWordRe, func(s string) bool { return strings.IndexByte(s, '/') >= 0 }},
		{"ticket", ticketRe, func(s string) bool { return strings.IndexByte(s, '-') >= 0 }},
		{"hex", HexRe, hexRun},
		{"gitCheckout", branchRes[0], func(s string) bool { return strings.Contains(s, "git") }},
		{"gitPush", branchRes[1], func(s string) bool { return strings.Contains(s, "git") }},
		{"branchPath", branchRes[2], func(s string) bool { return !isASCII(s) || ContainsFoldASCII(s, "branch") }},
	}
	for _, f := range filters {
		skipped := 0
		for _, l := range lines {
			if f.may(l) {
				continue
			}
			skipped++
			if f.re.MatchString(l) {
				t.Errorf("%s: the filter skips %q, which the expression matches", f.name, l)
			}
		}
		if skipped == 0 {
			t.Errorf("%s: the filter never skips a line", f.name)
		}
	}
}
