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

// A clause after a dash or a colon explains the object; it is no wait.
func TestAppositionIsNoCondition(t *testing.T) {
	for text, want := range map[string]string{
		"investigate the actual issue — when running the full suite, the page gets closed": "",
		"fix the flake: when the cache is cold the test times out":                         "",
		"re-run the migration after the schema diff is reviewed":                           "after the schema diff is reviewed",
		"deploy the hotfix when the freeze ends":                                           "when the freeze ends",
		"fall back to the default agent when the agent type is empty or unknown":           "",
		"return early if the input is nil":                                                 "",
		"merge it when the review is done":                                                 "when the review is done",
		// The purpose's condition is not the action's.
		"fix the UI issues (remove Google and wallet buttons) so we can test email login once CORS is resolved": "",
		"rebuild the index in order to rerun the benchmark after the freeze":                                    "",
	} {
		if got := ParseAction(text).Condition; got != want {
			t.Errorf("%q: condition %q, want %q", text, got, want)
		}
	}
}
