package verify

import (
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// Real runtimes put a sentence of narration and the call that does the work
// in one response (one turn). Such a promise is kept as it is made; a
// summary owes it nothing. The same words with the work missing, or waiting
// on something the call cannot be, stay owed.
func TestSameTurnNarration(t *testing.T) {
	write := `{"file_path":"priv/repo/migrations/add_refs.exs","content":"defmodule AddRefs do\n  use Ecto.Migration\nend"}`
	edit := `{"file_path":"lib/web/review_live.ex","old_string":"<h1>","new_string":"<h1><button>Close</button>"}`
	cases := []struct {
		name  string
		src   []model.Event
		owed  string // the key of the commitment the summary still owes, or ""
		unkey string // a commitment that must not be in the set
	}{
		{
			name: "said and done in one response",
			src: []model.Event{
				msg(42, model.RoleAssistant, "SQLite cannot alter nullability. I need to rewrite it with a SQLite-safe table rewrite pattern."),
				call(42, "c1", "Write", write),
				result(43, "c1", "The file has been updated.", false),
			},
			unkey: "rewrite",
		},
		{
			name: "the work never came",
			src: []model.Event{
				msg(42, model.RoleAssistant, "SQLite cannot alter nullability. I need to rewrite it with a SQLite-safe table rewrite pattern."),
				call(43, "c1", "Read", `{"file_path":"priv/repo/migrations/add_refs.exs"}`),
				result(44, "c1", "defmodule AddRefs do", false),
			},
			owed: "rewrite",
		},
		{
			name: "a condition on what shows, with the edit beside it",
			src: []model.Event{
				msg(220, model.RoleAssistant, "Now the button. I'll add it next to the header when annotations exist."),
				call(220, "c2", "Edit", edit),
				result(221, "c2", "The file has been updated successfully.", false),
			},
			unkey: "header",
		},
		{
			name: "a wait the call cannot satisfy",
			src: []model.Event{
				msg(220, model.RoleAssistant, "I'll re-run it after the review is approved."),
				call(220, "c2", "Edit", edit),
				result(221, "c2", "The file has been updated successfully.", false),
			},
			owed: "re-run",
		},
		{
			name: "a promise with nothing specific in it",
			src: []model.Event{
				msg(5, model.RoleAssistant, "Good question. I'll check."),
			},
			unkey: "check",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(300, 1, "Worked on the review page and the migration."), Options{})
			for _, it := range r.Items {
				if it.Kind == Commitment && c.unkey != "" && containsTerm(it.Key, c.unkey) {
					t.Errorf("commitment %q is owed (%s); want it kept as it was made", it.Key, it.Status)
				}
			}
			if c.owed != "" {
				if got := statusOf(t, r, Commitment, c.owed).Status; got != Dropped {
					t.Errorf("commitment %q: status %s, want dropped", c.owed, got)
				}
			}
		})
	}
}

func containsTerm(key, term string) bool {
	for _, w := range lang.Terms(lang.Tokenize(key)) {
		if w == lang.TermOf(term) {
			return true
		}
	}
	return false
}
