package lang

import (
	"strings"
	"testing"
)

// "to ensure" says what something is for, and "(no more X)" after a
// description says what changed: neither is the user's order. The same
// cues as orders still are.
func TestPurposeAndDescriptionAreNoRules(t *testing.T) {
	for text, want := range map[string]int{
		"Consider testing:\n\nNon-Go languages to ensure the trivial patterns don't cause false negatives\n": 0,
		"- strategy.SessionState is now a type alias for session.State (no more converter functions)":        0,
		"This helps ensure the cache stays warm.":                                                            0,
		"Ensure every migration is reversible.":                                                              1,
		"No more force pushes to the release branch.":                                                        1,
		"Run the linter, and no more skipping the hooks.":                                                    1,
		"i forgot to add the ssh key - never mind!":                                                          0,
		"Never mind the docs; never push to main.":                                                           1,
	} {
		if got := len(FindRules(text)); got != want {
			t.Errorf("%q: %d rules %v, want %d", text, got, FindRules(text), want)
		}
	}
}

// go test's output: the failing test by name is the error line, not the
// package's bare FAIL marker after it.
func TestGoTestFailureLine(t *testing.T) {
	out := "Exit code 1\n[test] $ go test ./...\n[test] ERROR task failed\nok  \tentire.io/cli/cmd/entire/cli\t2.000s\n--- FAIL: TestCalculateAttribution_UserEdits (0.00s)\n    attribution_test.go:741: got 2, want 0\nFAIL\nFAIL\tentire.io/cli/cmd/entire/cli/strategy\t0.412s\nFAIL\n"
	if got, want := FirstErrorLine(out), "--- FAIL: TestCalculateAttribution_UserEdits (0.00s)"; !strings.HasPrefix(got, want) {
		t.Errorf("FirstErrorLine = %q, want it to start with %q", got, want)
	}
}

// "git config KEY" reads the key (and exits 1 when it is unset); with a
// value it writes it.
func TestGitConfigRead(t *testing.T) {
	for line, want := range map[string]bool{
		`git -C /x config gc.auto 2>&1; echo "---"; git config --global gc.autoPackLimit 2>&1`: true,
		`git config --get user.name`:          true,
		`git config user.name "A B"`:          false,
		`git config --global --unset gc.auto`: false,
	} {
		if got := ReadOnly(line); got != want {
			t.Errorf("ReadOnly(%q) = %v, want %v", line, got, want)
		}
	}
}

// mise's "[lint] ERROR task failed" says the task it ran failed, after the
// line that says how.
func TestTaskRunnerWrapperLine(t *testing.T) {
	out := "Exit code 1\n[lint] $ golangci-lint run ./...\ncmd/cli/resume.go:42:2: ineffectual assignment to err (ineffassign)\n[lint] ERROR task failed\n"
	if got := FirstErrorLine(out); !strings.HasPrefix(got, "cmd/cli/resume.go:42:2: ineffectual assignment") {
		t.Errorf("FirstErrorLine = %q, want the linter's finding", got)
	}
}
