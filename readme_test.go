package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeListsEveryFlag: the README's commands table names every flag of
// every command, as each command's --help lists it (issue 22: a prompt
// tuner found -v nowhere but in the code).
func TestReadmeListsEveryFlag(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start, end := strings.Index(readme, "## Commands"), strings.Index(readme, "## Documentation")
	if start < 0 || end < start {
		t.Fatal("README has no Commands section before its Documentation")
	}
	table := readme[start:end]
	flagRe := regexp.MustCompile(`(?m)^\s+-{1,2}([a-z][a-z-]*)`)
	for _, cmd := range [][]string{{"verify"}, {"report"}, {"convert"}, {"rehydrate"}, {"hook"}, {"hook", "install"}} {
		r := runCLI(t, "", append(cmd, "--help")...)
		help := r.stdout + r.stderr
		flags := flagRe.FindAllStringSubmatch(help, -1)
		if len(flags) == 0 {
			t.Fatalf("loupe %s --help lists no flag:\n%s", strings.Join(cmd, " "), help)
		}
		for _, f := range flags {
			name := f[1]
			if name == "h" || name == "help" {
				continue
			}
			if !strings.Contains(table, "--"+name) && !strings.Contains(table, "`-"+name) && !strings.Contains(table, "[-"+name) {
				t.Errorf("loupe %s --%s is not in the README's commands table", strings.Join(cmd, " "), name)
			}
		}
	}
}
