package verify

import (
	"strings"
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

// An announced look or start of work, in any language users write, is
// carried out by the calls that come next in the same stretch ("Primeiro
// vou ler o arquivo completo." then the Read; "I'll proceed directly to
// implementation." beside a todo list, then the work), however many other
// promises are open; one that waits for something stays owed.
func TestAnnouncedLookInAnyLanguage(t *testing.T) {
	read := `{"file_path":"/w/Features/Workout/WorkoutExerciseDetailView.swift","offset":1,"limit":30}`
	edit := `{"file_path":"/w/Features/Workout/WorkoutExerciseDetailView.swift","old_string":"a","new_string":"b"}`
	cases := []struct {
		name, said, key string
		open            bool
	}{
		{"Portuguese read", "Agora vou fazer o mesmo no `WorkoutExerciseDetailView.swift`. Primeiro vou ler o arquivo completo.", "ler o arquivo completo", false},
		{"Portuguese review, the noun before its adjective", "Agora tenho todo o contexto. Vou executar a review completa.", "executar review completa", false},
		{"Spanish read", "Voy a leer el archivo completo.", "leer el archivo completo", false},
		{"English start of work", "Given the tasks are well-defined, I'll proceed directly to implementation.", "proceed directly implementation", false},
		{"a read that waits stays owed", "Vou ler o arquivo de novo depois da revisão do usuário.", "ler o arquivo", true},
	}
	for _, many := range []bool{false, true} {
		for _, c := range cases {
			name := c.name
			if many {
				name += ", found through the index"
			}
			t.Run(name, func(t *testing.T) {
				if many {
					below := scanBelow
					scanBelow = 0
					defer func() { scanBelow = below }()
				}
				src := []model.Event{msg(1, model.RoleUser, "Revise o arquivo WorkoutExerciseDetailView"), msg(2, model.RoleAssistant, c.said),
					call(2, "p", "TodoWrite", `{"todos":[{"content":"Task 1","status":"in_progress"}]}`), result(3, "p", "ok", false),
					call(4, "a", "Read", read), result(5, "a", "1 import SwiftUI", false),
					call(6, "b", "Edit", edit), result(7, "b", "The file has been updated.", false),
					msg(8, model.RoleAssistant, "Pronto.")}
				r := Check(src, compaction(300, 1, "Worked on the view."), Options{})
				found := false
				for _, it := range r.Items {
					if it.Kind == Commitment && strings.Contains(it.Key, c.key) && it.Open {
						found = true
					}
				}
				if found != c.open {
					t.Errorf("%q open = %v, want %v (items %v)", c.key, found, c.open, r.Items)
				}
			})
		}
	}
}

// A look that waits on something the agent runs itself ("let me check the
// build output once it finishes compiling") is done by the reads of it
// that follow in the same stretch; one that waits on somebody else stays
// owed.
func TestLookAwaitingOwnRun(t *testing.T) {
	cases := []struct {
		said string
		open bool
	}{
		{"Cargo is still compiling. Let me check the build output once it finishes compiling.", false},
		{"I'll check the test output when the tests finish.", false},
		{"I'll check the build output once the review is done.", true},
	}
	for _, c := range cases {
		t.Run(c.said, func(t *testing.T) {
			src := []model.Event{msg(1, model.RoleUser, "The tray icon does not show."), msg(2, model.RoleAssistant, c.said),
				call(2, "o1", "TaskOutput", `{"task_id":"b03faf1","block":false}`), result(3, "o1", "<status>running</status> Compiling image-png", false),
				call(4, "o2", "Bash", `{"command":"tail -20 /tmp/tasks/b03faf1.output"}`), result(5, "o2", "Finished dev profile; Running target/debug/app", false),
				msg(6, model.RoleAssistant, "The app is running now.")}
			r := Check(src, compaction(300, 1, "Working on the tray icon."), Options{})
			open := false
			for _, it := range r.Items {
				if it.Kind == Commitment && it.Open && strings.Contains(it.Key, "output") {
					open = true
				}
			}
			if open != c.open {
				t.Errorf("open = %v, want %v (items %v)", open, c.open, r.Items)
			}
		})
	}
}

// "I'll analyze the changes and create the commit": the commit the agent
// then makes, and reports, carries it out; a look at the tree does not.
func TestPublishingCallCarriesItsOwnObject(t *testing.T) {
	commit := []model.Event{call(49, "c2", "Bash", `{"command":"git commit -m \"feat: load the trainer state\""}`),
		result(50, "c2", "[feature/home 3204b93] feat: load the trainer state\n 1 file changed", false)}
	cases := []struct {
		name string
		work []model.Event
		open bool
	}{
		{"committed and reported", commit, false},
		{"only looked", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := append([]model.Event{msg(40, model.RoleUser, "Commit issue #29."),
				msg(43, model.RoleAssistant, "I'll analyze the changes and create the commit."),
				call(43, "c1", "Bash", `{"command":"git status"}`), result(44, "c1", "Changes not staged for commit", false),
				msg(47, model.RoleUser, "ok")}, c.work...)
			src = append(src, msg(53, model.RoleAssistant, "Commit created successfully: 3204b93."), msg(54, model.RoleUser, "Next issue."))
			r := Check(src, compaction(300, 1, "Working on issue #30."), Options{})
			open := false
			for _, it := range r.Items {
				if it.Kind == Commitment && it.Open && strings.Contains(it.Key, "commit") {
					open = true
				}
			}
			if open != c.open {
				t.Errorf("open = %v, want %v (items %v)", open, c.open, r.Items)
			}
		})
	}
}
