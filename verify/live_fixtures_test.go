package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
)

// liveDir is where the transcripts the real runtimes wrote lie: shared/
// beside the checkout (as CI lays it), or LOUPE_SHARED.
func liveDir(t *testing.T) string {
	t.Helper()
	dir := "../../shared"
	if d := os.Getenv("LOUPE_SHARED"); d != "" {
		dir = d
	}
	dir = filepath.Join(dir, "fixtures", "live")
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Skipf("no live fixtures at %s (shared/ is not beside the checkout)", dir)
	}
	return dir
}

// knownExtra is the one item a live fixture gives beside the dropped
// promise while "Rule from now on: …" is read with "Rule" as its action
// (issue 19, the rulings' work, not the importers'): allowed here, never
// required.
const knownExtra = "Rule from now on: never touch the prod database."

// TestLiveFixtures: every session the current runtimes wrote reads as
// shared/fixtures/live/README.md says. Each compaction is found with its
// real summary, violates with exactly the dropped re-run promise (pi's run2
// kept everything and degrades), its loss ratio is over the conversation
// (not the runtime's bookkeeping), tokens_before is the request before it,
// and no record of a known type is a raw event.
func TestLiveFixtures(t *testing.T) {
	dir := liveDir(t)
	tests := []struct {
		path        string // a file or a directory (read as one run)
		compactions int
		summary     string // in every compaction's summary
		tokens      int    // tokens_before of the first compaction (0: not checked)
		degrade     bool
	}{
		{"claude-code-2.1.332/manual-then-auto.jsonl", 2, "schema diff", 1050, false},
		{"claude-code-2.1.332/manual-with-hooks.jsonl", 1, "schema diff", 0, false},
		{"claude-code-2.1.332/auto-with-hooks.jsonl", 1, "schema diff", 0, false},
		{"codex-0.171.0/rollout-2026-12-01T22-59-45-01a233d5-e4df-7da2-a98c-0ca7c6a8407b.jsonl", 1, "schema diff is being reviewed", 190000, false},
		{"codex-0.171.0/rollout-2026-12-01T23-00-48-01a233d6-dc01-78c0-9181-f833d5b97547.jsonl", 1, "schema diff is being reviewed", 190000, false},
		{"codex-0.171.0/rollout-2026-12-01T23-17-02-01a233e5-b6f6-7631-b79b-9c742d1218cf.jsonl", 2, "schema diff is being reviewed", 190000, false},
		{"gemini-cli-0.61.0/run2", 1, "<state_snapshot>", 0, false},
		{"gemini-cli-0.61.0/run2/session-2026-12-01T23-03-e8decc6d.jsonl", 1, "<state_snapshot>", 0, false},
		{"gemini-cli-0.61.0/run3-hooks", 1, "<state_snapshot>", 0, false},
		{"gemini-cli-0.61.0/run4-manual-compress", 1, "<state_snapshot>", 0, false},
		{"gemini-cli-0.61.0/run5-hook-payloads", 1, "<state_snapshot>", 0, false},
		{"opencode-1.18.33/run3", 1, "schema diff is being reviewed", 190000, false},
		{"opencode-1.18.33/run3/opencode.db", 1, "schema diff is being reviewed", 190000, false},
		{"opencode-1.18.33/run3/export.json", 1, "schema diff is being reviewed", 190000, false},
		{"pi-0.73.1/run2", 1, "", 0, true},
		{"pi-0.73.1/run4", 1, "", 0, false},
		{"pi-0.73.1/run5-auto-print", 1, "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			tr := openLive(t, filepath.Join(dir, tt.path))
			for _, e := range tr.Events {
				if r, ok := e.(*model.Raw); ok {
					t.Errorf("raw event at line %d: %s", r.Line, r.Reason)
				}
			}
			if len(tr.Compactions) != tt.compactions {
				t.Fatalf("%d compactions, want %d", len(tr.Compactions), tt.compactions)
			}
			if c := tr.Compactions[0]; tt.tokens != 0 && c.TokensBefore != tt.tokens {
				t.Errorf("tokens_before %d, want %d", c.TokensBefore, tt.tokens)
			}
			res := Run(tr, Options{})
			for _, cr := range res.Compactions {
				c := tr.Compactions[cr.Seq-1]
				if !strings.Contains(c.Summary, tt.summary) || cr.SummaryBytes == 0 || cr.Unverifiable {
					t.Errorf("#%d: summary %.60q, want its real text", cr.Seq, c.Summary)
				}
				// The scripted conversations are a few hundred bytes; the
				// bookkeeping records around them were hundreds of KB.
				if cr.SourceBytes <= 0 || cr.SourceBytes > 8<<10 || cr.LossRatio >= 1 {
					t.Errorf("#%d: source %d bytes, loss ratio %.3f: not the conversation", cr.Seq, cr.SourceBytes, cr.LossRatio)
				}
				var dropped []string
				for _, it := range cr.Items {
					if it.Status == Dropped && it.Text != knownExtra {
						dropped = append(dropped, it.Action)
					}
				}
				switch {
				case tt.degrade:
					if cr.Verdict != Degrade || len(dropped) != 0 {
						t.Errorf("#%d: %s, dropped %q; want degrade, nothing dropped", cr.Seq, cr.Verdict, dropped)
					}
				case cr.Verdict != Violate || len(dropped) != 1 || dropped[0] != "re-run the migration":
					t.Errorf("#%d: %s, dropped %q; want violate with the re-run promise alone", cr.Seq, cr.Verdict, dropped)
				}
			}
		})
	}
}

// openLive opens a file, or the one run a directory holds.
func openLive(t *testing.T, path string) *model.Transcript {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.IsDir() {
		l, err := formats.List(path, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Sessions) != 1 {
			t.Fatalf("%d sessions listed, want one run: %+v", len(l.Sessions), l.Sessions)
		}
		path = l.Sessions[0].Path
	}
	tr, err := formats.Open(path, formats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
