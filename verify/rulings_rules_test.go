package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// DESIGN.md, "Rulings on wording": a standing rule lasts until the user's
// own later words name it and lift it; a relayed rule is the user's unless
// the user distances themself from it in the same message; a bug report or
// a request about the thing at hand is no rule; a label is not part of it.
func TestRulingStandingRules(t *testing.T) {
	cases := []struct {
		name  string
		msgs  []string // user messages, in order
		key   string   // a rule key (substring)
		owed  bool     // the rule is open at the compaction (and dropped by its summary)
		exist bool     // the rule was found at all
	}{
		{"standing for the rest of the session", []string{"For the rest of this session, use pnpm instead of npm."}, "pnpm", true, true},
		{"standing going forward", []string{"Going forward, run the linter before every commit."}, "linter", true, true},
		{"standing until I say otherwise", []string{"Only run the playbook with --check --diff until I say otherwise."}, "playbook", true, true},
		{"revoked by naming the rule", []string{"Only run the playbook with --check --diff until I say otherwise.",
			"Check mode looks right. Go ahead and apply for real — the check-mode rule no longer applies."}, "playbook", false, true},
		{"revoked by 'that rule'", []string{"Never deploy on Fridays.", "That rule no longer applies."}, "deploy", false, true},
		{"revoked by forgetting what was said about it", []string{"Never use the staging cluster for load tests.",
			"Forget what I said about the staging cluster."}, "staging cluster", false, true},
		{"revoked by allowing it now", []string{"Never push to main.", "You can push to main now."}, "push", false, true},
		{"revoked by ignoring the earlier instruction", []string{"Always run the linter before committing.",
			"Ignore my earlier instruction about the linter."}, "linter", false, true},
		{"revoked in Spanish", []string{"Nunca hagas push a main.", "Esa regla ya no aplica."}, "push", false, true},
		{"revoked in Chinese", []string{"以后不要碰生产数据库。", "那条规则不再适用。"}, "碰生产数据库", false, true},
		{"another rule's revocation leaves it", []string{"Never push to main.", "Always run the linter before committing.",
			"Ignore my earlier instruction about the linter."}, "push", true, true},
		{"a relayed rule is the user's", []string{"The platform team says never deploy on Fridays."}, "deploy", true, true},
		{"a relayed rule the user distances themself from", []string{"The platform team says never deploy on Fridays, but that's not our concern."}, "deploy", false, false},
		{"a label before the rule", []string{"Rule from now on: never touch the prod database"}, "touch prod database", true, true},
		{"a bug report with a negation", []string{"The button never shows up for guests."}, "button", false, false},
		{"a failure described", []string{"It fails and doesn't retry."}, "retry", false, false},
		{"a one-off request about the thing at hand", []string{"Make the header sticky too."}, "header", false, false},
		{"an idea offered is no rule", []string{"Alternatively, we could create a new writer that writes directly to SVG (instead of reusing the same logic but only writing differently)."}, "writing", false, false},
		{"a piece of work asked with 'must'", []string{"I was talking about the codebase itself.\nYou must remove things like\n* <!-- skip --> tags in markdown files\n* .docalign.yml config files"}, "remove", false, true},
		{"a way of working asked with 'must'", []string{"You must use pnpm in this repo."}, "pnpm", true, true},
		{"a precondition of the request at hand", []string{"Add the rate-limit offer to the bot. Just make sure the bot is fully operational before you do this."}, "operational", false, true},
		{"a doubt is no prohibition", []string{"Split the two packages (don't know if they should share a common base, feel free to offer your opinion)."}, "share", false, false},
		{"a limit on the fix asked for", []string{"Fix the ingest — only update timestamps when node data actually changes (compare before writing)."}, "timestamps", false, true},
		{"a limit of its own is a rule", []string{"Only update timestamps when node data actually changes."}, "timestamps", true, true},
		{"the same request phrased as lasting", []string{"From now on, always make headers sticky."}, "header", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var src []model.Event
			for i, m := range c.msgs {
				src = append(src, msg(i+1, model.RoleUser, m))
			}
			r := Check(src, compaction(20, 1, "Worked on the release."), Options{})
			found := false
			for _, it := range r.Items {
				if it.Kind == Constraint && strings.Contains(it.Key, c.key) {
					found = true
					if !c.owed && it.Counts() {
						t.Errorf("rule %q is owed (%s), want it closed or none", it.Key, it.Status)
					}
				}
			}
			if c.owed && !found {
				t.Errorf("rule %q is not owed: %v", c.key, r.Items)
			}
		})
	}
}

// One source sentence is one reason of a compaction, whatever items were
// read from it.
func TestRulingReasonsOncePerSentence(t *testing.T) {
	src := []model.Event{msg(1, model.RoleUser, "Never touch edge-fra-02; always take a config backup before any write.")}
	r := Check(src, compaction(5, 1, "Added the peer."), Options{})
	n := 0
	for _, reason := range r.Reasons {
		if strings.Contains(reason, "Never touch edge-fra-02") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the sentence is in %d reasons, want 1: %q", n, r.Reasons)
	}
	rules := 0
	for _, it := range r.Items {
		if it.Kind == Constraint {
			rules++
		}
	}
	if rules != 2 {
		t.Errorf("%d rules, want 2 (each still listed as an item)", rules)
	}
}
