package codex

import (
	"slices"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// TestKeptVerbatim: the messages a compaction's replacement_history carries
// into the new context are listed in its Kept, by the ref of the message
// they repeat, whether the summary is encrypted (remote compaction) or not
// (a local one that writes replacement_history too), so that the verifier
// can count what they hold (the user's rules, the agent's final answers) as
// kept; what the history does not repeat (tool output, the summary's own
// user message) is not.
func TestKeptVerbatim(t *testing.T) {
	const rules = "testdata/kept/rollout-2026-03-10T09-00-00-019c1111-2222-7333-8444-555555555555.jsonl"
	tests := []struct {
		path   string
		seq    int
		opaque bool
		kept   []string
		texts  []string // what the kept messages say, in order
	}{
		{remote2026, 1, true, []string{"L2", "L3", "L5"}, []string{
			"<permissions instructions>(omitted)</permissions instructions>",
			"<environment_context>\n  <cwd>/workspace/demo</cwd>\n  <shell>bash</shell>\n</environment_context>",
			"Start the dev server and fix the failing parser test.",
		}},
		{rules, 1, true, []string{"L2", "L3", "L5", "L10", "L14"}, []string{
			"<permissions instructions>Filesystem sandboxing: workspace-write.</permissions instructions>",
			"<environment_context>\n  <cwd>/w/shop</cwd>\n  <shell>zsh</shell>\n</environment_context>",
			"Migrate the orders table to the new schema. Never push to main; open a PR instead.",
			"The migration is written and applied locally. I'll open the PR once the tests pass.",
			"Also keep the old status column until the backfill finishes.",
		}},
		{rules, 2, false, []string{"L2", "L3", "L5", "L14"}, []string{
			"<permissions instructions>Filesystem sandboxing: workspace-write.</permissions instructions>",
			"<environment_context>\n  <cwd>/w/shop</cwd>\n  <shell>zsh</shell>\n</environment_context>",
			"Migrate the orders table to the new schema. Never push to main; open a PR instead.",
			"Also keep the old status column until the backfill finishes.",
		}},
		// the compaction item and its compacted line are one compaction
		{"testdata/edge.jsonl", 1, true, []string{"L2"}, []string{"Migrate the orders table, then run the tests. Never push to main."}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			tr := open(t, tt.path)
			c := tr.Compactions[tt.seq-1]
			if c.Opaque != tt.opaque {
				t.Errorf("compaction %d: opaque %v, want %v", tt.seq, c.Opaque, tt.opaque)
			}
			if !slices.Equal(c.Kept, tt.kept) {
				t.Errorf("compaction %d: kept %q, want %q", tt.seq, c.Kept, tt.kept)
			}
			var texts []string
			for _, e := range tr.Source(c) {
				if m, ok := e.(*model.Message); ok && slices.Contains(c.Kept, m.Ref) {
					texts = append(texts, m.Text)
				}
			}
			if !slices.Equal(texts, tt.texts) {
				t.Errorf("compaction %d: kept messages %q, want %q", tt.seq, texts, tt.texts)
			}
		})
	}
}
