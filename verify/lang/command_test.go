package lang

import (
	"slices"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	cases := []struct {
		line string
		want []string // program + args, per command
	}{
		{"go test ./...", []string{"go test ./..."}},
		{"cd /repo && GOFLAGS=-mod=mod go test -run TestX ./pkg", []string{"cd /repo", "go test -run TestX ./pkg"}},
		{"sudo -E timeout 30 uv run pytest -q tests/", []string{"pytest -q tests/"}},
		{"bundle exec rspec spec/a_spec.rb | tee out.log", []string{"rspec spec/a_spec.rb", "tee out.log"}},
		{`git commit -m "fix: a && b"; git push`, []string{"git commit -m fix: a && b", "git push"}},
		{"npx --yes prettier --check . 2>&1", []string{"prettier --check . >&1"}},
		{"go test ./... > out.log 2>/dev/null", []string{"go test ./... >out.log >/dev/null"}},
		{"python3 -m pytest -x", []string{"pytest -x"}},
		{"docker run --rm -v $PWD:/w ghcr.io/acme/ffmpeg-svtav1:7.0 -i /w/in.mp4 out.mp4", []string{"ffmpeg -i /w/in.mp4 out.mp4"}},
		{"docker exec -it -w /app api-1 npm test", []string{"npm test"}},
		{"podman run --rm node:20 npm test", []string{"npm test"}},
		{"./bin/rake db:migrate", []string{"rake db:migrate"}},
		{"cat <<'EOF' > notes.md\nrm -rf /\nEOF\nls", []string{"cat", "ls"}},
		{"FOO=1", nil},
		{"bash -c 'source lib.sh\nf 16 | grep x'", []string{"source lib.sh", "f 16", "grep x"}},
	}
	for _, c := range cases {
		var got []string
		for _, cmd := range Commands(c.line) {
			got = append(got, cmd.Program+joinArgs(cmd.Args))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.line, got, c.want)
		}
	}
}

func joinArgs(args []string) string {
	s := ""
	for _, a := range args {
		s += " " + a
	}
	return s
}

func TestReadOnly(t *testing.T) {
	for _, line := range []string{
		"cat missing.txt", "cd app && grep -rn foo src | head", "sed -n '1,20p' a.go", "ls -la build/",
		"git log --oneline -5", "git status", "git branch", "git branch -a", "git stash list", "git config --get user.name",
		"gh pr view 123", "gh pr checks 42 --watch", "gh api repos/o/r/pulls/1", "gh run list --limit 5",
		"kubectl get pods -n prod", "find . -name '*.go'", "rg TODO >/dev/null 2>&1",
		`find skills -name "SKILL.md" -exec echo "=== {} ===" \; -exec cat {} \;`,
		`x="o/r" && gh api repos/${x}/pulls | jq 'map(select(.n > 1))'`, "jq '.a -> .b' f.json",
		// Loops and tests run their body's commands: the keywords run nothing.
		`for wt in .claude/worktrees/agent-*/; do echo "=== $(basename $wt) ===" && git -C "$wt" status --short 2>/dev/null && echo; done`,
		`for id in a1 b2; do wc -c /tmp/$id.output 2>/dev/null; done`, `if [ -f x ]; then cat x; else ls; fi`,
		`while read f; do head -3 "$f"; done < list.txt`, `! grep -q TODO main.go`,
		// A look on a remote host.
		`ssh root@65.108.24.131 tail -5 /var/log/nginx/access.log | grep assistant`, `ssh -i ~/.ssh/k -p 2222 deploy@host "ls -la /srv"`,
	} {
		if !ReadOnly(line) {
			t.Errorf("%q: not read-only", line)
		}
	}
	for _, line := range []string{
		"sed -i 's/a/b/' x.go", "echo hi > notes.txt", "git commit -m x", "git branch -D old", "git tag v1.2",
		"gh pr create --fill", "gh api -X POST repos/o/r/issues -f title=x", "gh pr merge 12",
		"find . -name '*.tmp' -delete", "find . -exec rm {} \\;", "cat a && rm b", "go test ./...", "make", "",
		"for f in *.tmp; do rm $f; done", "if [ -d build ]; then make clean; fi",
		"ssh root@host systemctl restart nginx", "ssh root@host",
	} {
		if ReadOnly(line) {
			t.Errorf("%q: read-only", line)
		}
	}
}

func TestCommandParts(t *testing.T) {
	c := MainCommand("cd repo && git push --force-with-lease -u origin feature/x")
	if c.Program != "git" || c.Sub() != "push" {
		t.Fatalf("got %+v", c)
	}
	if got := c.Positionals(); !slices.Equal(got, []string{"push", "origin", "feature/x"}) {
		t.Errorf("positionals %q", got)
	}
	if got := MainCommand(`git commit -m "wip" -- a.go`).Positionals(); !slices.Equal(got, []string{"commit", "a.go"}) {
		t.Errorf("-m takes a value: %q", got)
	}
	if got := MainCommand(`git rebase origin/main 2>&1 >/dev/null`).Positionals(); !slices.Equal(got, []string{"rebase", "origin/main"}) {
		t.Errorf("redirects are no positionals: %q", got)
	}
	if got := MainCommand(`make -C services/a build`).Positionals(); !slices.Equal(got, []string{"-C=services/a", "build"}) {
		t.Errorf("-C chooses the target: %q", got)
	}
	if got := MainCommand(`go test -run TestX ./pkg`).Positionals(); !slices.Equal(got, []string{"test", "-run=TestX", "./pkg"}) {
		t.Errorf("-run chooses the tests: %q", got)
	}
}

func TestKeyCommand(t *testing.T) {
	cases := map[string]string{
		"git add a.go && git commit -m x && git push":     "git push",
		"cd repo && go test ./... 2>&1 | tee out.log":     "go test",
		"go test ./... | head -50":                        "go test",
		"ls && cat a":                                     "ls",
		"set -e; incus start dev; echo no-ip >&2; exit 1": "incus start",
	}
	for line, want := range cases {
		c := KeyCommand(line)
		if got := c.Program + " " + c.Sub(); strings.TrimSpace(got) != want {
			t.Errorf("%q: key %q, want %q", line, got, want)
		}
	}
}
