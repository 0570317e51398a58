package lang

import "testing"

// Real agents' shell lines: an escaped quote inside double quotes does not
// end the string (a pattern with "|" in it is not a pipe), process
// substitution runs its own command, and a redirect after a parenthesis
// belongs to what came before. Read-only stays read-only through all three.
func TestShellQuotingAndSubstitution(t *testing.T) {
	for _, c := range []struct {
		line     string
		readOnly bool
		programs string
	}{
		{`rg -n "Target|turns:|source: \"live\"|source: \"checkpoint\"" src/checkpoints`, true, "rg"},
		{`diff <(jq '.permissions' a.json) <(jq '.permissions' b.json) 2>&1`, true, "diff jq jq"},
		{`echo "say \"hi\"" > greeting.txt`, false, "echo"},
		{`(cd web && ls) 2>&1`, true, "cd ls"},
		{`psql "$DB" < schema.sql`, false, "psql"},
	} {
		var progs string
		for i, cmd := range Commands(c.line) {
			if i > 0 {
				progs += " "
			}
			progs += cmd.Program
		}
		if got := ReadOnly(c.line); got != c.readOnly || progs != c.programs {
			t.Errorf("%q: ReadOnly %v programs %q, want %v %q", c.line, got, progs, c.readOnly, c.programs)
		}
	}
}
