package verify

import (
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// DESIGN.md, "Rulings on wording", headings: pending headings make what
// sits under them pending, done headings done; Claude Code's "Current
// Work" is neither (the sentence's own cues decide, and with none the
// work is still open). A completion cue inside a condition speaks of the
// condition, not of the action.
func TestRulingHeadings(t *testing.T) {
	promise := "I'll restore the replica once the backup has been verified."
	cases := []struct {
		name, summary string
		want          Status
	}{
		{"pending tasks", "## Pending Tasks\n- Restore the replica (after the backup is verified)", Retained},
		{"optional next step", "## Optional Next Step\nRestore the replica once the backup is verified.", Retained},
		{"remaining", "Remaining:\n- Restore the replica after the backup check", Retained},
		{"completed", "## Completed\n- Restore the replica", Flipped},
		{"accomplished", "## Accomplished\n- Restore the replica", Flipped},
		{"resolved", "## Resolved\n- Restore the replica", Flipped},
		{"current work without a cue", "8. Current Work:\nRestoring the replica from the verified backup.", Retained},
		{"current work, done in its own words", "8. Current Work:\nThe replica restore is finished.", Flipped},
		{"a completion cue in the condition", "Next: once the backup has completed, restore the replica.", Retained},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check([]model.Event{msg(1, model.RoleAssistant, promise)}, compaction(5, 1, c.summary), Options{})
			if ir := statusOf(t, r, Commitment, "replica"); ir.Status != c.want {
				t.Errorf("status %s (%s), want %s", ir.Status, ir.Why, c.want)
			}
		})
	}
}
