package lang

import (
	"slices"
	"strings"
	"testing"
)

func TestFindCommitments(t *testing.T) {
	cases := []struct {
		text, action, condition string
		durable                 bool
	}{
		{"I will re-run the migration after the schema diff is reviewed.", "re-run the migration", "after the schema diff is reviewed", true},
		{"Schema diff is up for review; will re-run the migration after the schema diff is reviewed.", "re-run the migration", "after the schema diff is reviewed", true},
		{"Once the canary is healthy, I will switch the DNS record.", "switch the DNS record", "Once the canary is healthy", true},
		{"Next I need to rebase the branch onto main after the flaky test fix lands.", "rebase the branch onto main", "after the flaky test fix lands", true},
		{"TODO: remove the debug logger before merging.", "remove the debug logger", "before merging", true},
		{"I'll look at the build log first.", "look at the build log first", "", false},
		{"I'll write a test for it later.", "write a test for it later", "", true},
		// "at once" and "before/after" are not clause markers.
		{"Now I'll write the updated file with all the changes at once.", "write the updated file with all the changes at once", "", false},
		{"I'll post before/after screenshots in the design channel.", "post before/after screenshots in the design channel", "", false},
		// "check if" asks a question; it does not wait.
		{"I'll check if the layout handles flash already.", "check if the layout handles flash already", "", false},
		// What must hold keeps its condition: it is not a wait.
		{"We need to make sure the cache is only warmed when a deploy finishes.", "make sure the cache is only warmed when a deploy finishes", "", false},
	}
	for _, c := range cases {
		got := FindPromises(c.text)
		if len(got) != 1 {
			t.Errorf("%q: %d commitments, want 1", c.text, len(got))
			continue
		}
		a := got[0].Action
		if a.Text != c.action || a.Condition != c.condition || a.Deferred != c.durable {
			t.Errorf("%q: action %q condition %q durable %v; want %q %q %v", c.text, a.Text, a.Condition, a.Deferred, c.action, c.condition, c.durable)
		}
	}
	for _, none := range []string{
		"I will not re-run the migration.",
		"This will fix the flaky test.",
		"If you want, I can add caching to CI later.",
		"Should I rebase onto main?",
		"I'll be honest: the test is flaky.",
		"I've drafted the schema diff.",
		"Now let me check what still needs to be done for the rest.",
	} {
		if got := FindPromises(none); len(got) != 0 {
			t.Errorf("%q: found %q, want no commitment", none, got[0].Action.Text)
		}
	}
	two := FindPromises("After QA signs off, I'll tag v3.1.0 and then publish the release notes.")
	if len(two) != 2 || two[0].Action.Text != "tag v3.1.0" || two[1].Action.Text != "publish the release notes" {
		t.Errorf("two actions: %+v", two)
	}
}

func TestParseActionHead(t *testing.T) {
	cases := map[string][2]string{ // action -> verb term, head term
		"re-run the migration":                      {"rerun", "migrat"},
		"open the PR for ticket ORD-1881":           {"open", "pr"},
		"switch the PDF exporter to the new engine": {"switch", "export"},
		"edit files under vendor/":                  {"edit", "vendor"},
		"cherry-pick 9e41c7a2d into release/2.4":    {"cherrypick", "releas"},
		// A German to-do ends with its infinitive.
		"BrandBuilder Skill erstellen (nutzt CIS)": {TermOf("erstellen"), "skill"},
	}
	for text, want := range cases {
		a := ParseAction(text)
		if a.Verb != want[0] || a.Head != want[1] {
			t.Errorf("%q: verb %q head %q, want %q %q", text, a.Verb, a.Head, want[0], want[1])
		}
	}
}

func TestFindConstraints(t *testing.T) {
	cases := []struct {
		text    string
		n       int
		negated bool
	}{
		{"Add the orders table. Never push to main.", 1, true},
		{"Don't edit files under vendor/.", 1, true},
		{"Always keep the CSV header order unchanged.", 1, false},
		{"From now on, use pnpm instead of npm.", 1, false},
		{"You must not delete the old namespace.", 1, true},
		{"Don't forget to update the changelog.", 1, false},
		{"The nightly build always fails on Fridays.", 0, false},
		{"Should we always use tabs?", 0, false},
		{"Fix the flaky TestCheckout and then rebase onto main.", 0, false},
	}
	for _, c := range cases {
		got := FindRules(c.text)
		if len(got) != c.n {
			t.Errorf("%q: %d constraints, want %d", c.text, len(got), c.n)
			continue
		}
		if c.n > 0 && got[0].Action.Negated != c.negated {
			t.Errorf("%q: negated %v, want %v", c.text, got[0].Action.Negated, c.negated)
		}
	}
}

func TestExtractIdents(t *testing.T) {
	got := ExtractIdents("I'll open the PR for ORD-1881 once CI passes on commit 3f9c2ab; see https://ci.example.com/run/7 and internal/orders/store.go on branch feature/orders (not call_f44cb63).")
	var vals []string
	for _, id := range got {
		vals = append(vals, id.Class.String()+":"+id.Value)
	}
	for _, want := range []string{"ticket:ORD-1881", "commit:3f9c2ab", "URL:https://ci.example.com/run/7", "path:internal/orders/store.go", "branch:feature/orders"} {
		if !slices.Contains(vals, want) {
			t.Errorf("missing %s in %v", want, vals)
		}
	}
	for _, none := range []string{"Upgrade Node.js and switch the UTF-8 decoder to SHA-256 per ISO-8601.", "Use v2.3.1 of the client, e.g. on 3.2 release."} {
		if ids := ExtractIdents(none); len(ids) > 0 {
			t.Errorf("%q: identifiers %v, want none", none, ids)
		}
	}
	for _, v := range vals {
		if strings.Contains(v, "f44cb63") {
			t.Errorf("a call id's hex tail is not a commit: %v", vals)
		}
	}
}

func TestFindRulesReal(t *testing.T) {
	cases := []struct {
		text string
		want []string // the rule actions, in order
	}{
		{"I think B, nested in strategy options. please use the british spelling :)", []string{"use the british spelling :)"}},
		{"A. is fine, ensure we log", []string{"log"}},
		{"intentional - keep it local! let's proceed with implementation", []string{"keep it local"}},
		{"can you review the change in this branch, I'm mostly concerned in regards to shadow branches where we use `git add` but don't change the local folder tree", nil},
		{"make sure it's in Project: Troy", nil},
		{"brainstorm:\n- automatically generate summaries\n- must be controlled by configuration, default to 'off'", nil},
		{"Here is the skill:\n```\nAssume they don't know good test design very well.\n- \"Run it to make sure it fails\" - step\n```", nil},
		{"go ahead with the rollback, but don't touch iOS", []string{"touch iOS"}},
		{"Never push to main; always open a PR.", []string{"push to main", "open a PR"}},
		{"Only deploy to staging until I say otherwise.", []string{"Only deploy to staging"}},
		{"I don't know if we can ship this today.", nil},
		{"Can you make sure you never commit generated files?", []string{"commit generated files"}},
		{"<system-reminder>Never use emojis.</system-reminder>", nil},
		{"> never do this\nthanks", nil},
		{"It doesn't work. The transcript: ❯ Make something\n⏺ Only index.html was included — the changes were left unstaged.\n   86 +   // never clear", nil},
		{"got this feedback:\nDon't use a global lock here.", nil},
		{"plase don't rewrite teh changelog.md make surgical edits", []string{"rewrite teh changelog.md make surgical edits"}},
		{"stop commiting everything", []string{"commiting everything"}},
		{"let's avoid code duplication", nil},
		{"this plan must be written in such a way, that you can start a new session", nil},
		{"please use the format we use for the diagrams above", nil},
		{"can you look at the latest commit, and make sure the line count is correct?", nil},
		{"Never force-push. Here is the log:\nerror: must not be empty", []string{"force-push"}},
		{"Only run plans against staging — never run terraform apply on prod yourself; don't commit any .tfvars files.",
			[]string{"Only run plans against staging", "run terraform apply on prod yourself", "commit any .tfvars files"}},
		{"Keep it short – never add emojis.", []string{"Keep it short", "add emojis"}},
		{"Here are items 4 and 5 of their list, pasted as-is. Does our export cover 4?\n\n  4. Must include all manual journals.\n  5. Files must never be sent as zip attachments.", nil},
		{"Should I create this on a separate tree? Here is the prompt I gave Codex:  Read these files first:\n  - AGENTS.md\n\n  Port the files. Do NOT change any visual output.", nil},
		{"Never push to main. This is the error the hook printed: must not be empty", []string{"push to main"}},
		{"⏺ SUMMARY: Backend is ready\n\n  When frontend is ready, I need to:\n\n  1. Verify no port conflicts - Frontend must NOT start its own WS server on 8765\n  2. Never skip the smoke test\n\nok go on, and never push to main",
			[]string{"push to main"}},
		{"Their checklist, as-is. Which does CI enforce?\n\n---\n- Headings must use sentence case.\n- Never use \"simply\".\n---\n\nAnd never push to main.",
			[]string{"push to main"}},
	}
	for _, c := range cases {
		var got []string
		for _, r := range FindRules(c.text) {
			got = append(got, r.Action.Text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q:\n  got  %q\n  want %q", c.text, got, c.want)
		}
	}
}

// A promise splits on "and" only before a verb: a list of things to do
// ending in a plural noun stays one action.
func TestSplitActions(t *testing.T) {
	cases := map[string][]string{
		"fix the test and then rebase onto main":                             {"fix the test", "rebase onto main"},
		"fix the flaky test and run the suite":                               {"fix the flaky test", "run the suite"},
		"export the orders and customers":                                    {"export the orders and customers"},
		"do the CLI command rename, tests, ClickHouse, and docs in parallel": {"do the CLI command rename, tests, ClickHouse, and docs in parallel"},
		"update the schema and tests":                                        {"update the schema and tests"},
	}
	for in, want := range cases {
		if got := splitActions(in); !slices.Equal(got, want) {
			t.Errorf("splitActions(%q) = %q, want %q", in, got, want)
		}
	}
}
