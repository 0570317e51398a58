package lang

import "testing"

func TestNewBranch(t *testing.T) {
	for line, want := range map[string]string{
		"git checkout -b feat/prepare-trace-docs":                     "feat/prepare-trace-docs",
		"git switch -c fix-login origin/main":                         "fix-login",
		"git -C ../repo worktree add -b feat/x ../wt origin/main":     "feat/x",
		"git worktree add ../agentv.worktrees/trace feat/trace-docs":  "feat/trace-docs",
		"git worktree add ../wt":                                      "",
		"git worktree add /tmp/agentv-private-main-index origin/main": "",
		"git worktree add ../wt HEAD~2":                               "",
		"git worktree add ../wt 3f9c2a1":                              "",
		"git checkout main":                                           "",
		"git switch feat/existing":                                    "",
		"git branch -D old":                                           "",
		"npm run build":                                               "",
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

// npx, bunx and pnpm dlx run a package's program: its version and the
// --package flag are not the program; a package script's mode is not
// another task.
func TestPackageRunnersProgram(t *testing.T) {
	for line, want := range map[string]string{
		"npx @biomejs/biome check a.tsx":                   "biome",
		"npx --package @biomejs/biome@1 biome check a.tsx": "biome",
		"npx prettier@3 --check a.ts":                      "prettier",
		"pnpm dlx eslint@9 .":                              "eslint",
		"bunx tsc --noEmit":                                "tsc",
	} {
		if got := MainCommand(line).Program; got != want {
			t.Errorf("%q: program %q, want %q", line, got, want)
		}
	}
	for name, want := range map[string]string{"lint:fix": "lint", "format:check": "format", "test:e2e": "test:e2e", "lint": "lint"} {
		if got := ScriptTask(name); got != want {
			t.Errorf("ScriptTask(%q) = %q, want %q", name, got, want)
		}
	}
}
