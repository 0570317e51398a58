package lang

import "testing"

func TestNewBranch(t *testing.T) {
	for line, want := range map[string]string{
		"git checkout -b feat/prepare-trace-docs":                    "feat/prepare-trace-docs",
		"git switch -c fix-login origin/main":                        "fix-login",
		"git -C ../repo worktree add -b feat/x ../wt origin/main":    "feat/x",
		"git worktree add ../agentv.worktrees/trace feat/trace-docs": "feat/trace-docs",
		"git worktree add ../wt":                                     "",
		"git checkout main":                                          "",
		"git switch feat/existing":                                   "",
		"git branch -D old":                                          "",
		"npm run build":                                              "",
	} {
		got := ""
		for _, c := range Commands(line) {
			if b := c.NewBranch(); b != "" {
				got = b
			}
		}
		if got != want {
			t.Errorf("%q: NewBranch = %q, want %q", line, got, want)
		}
	}
}
