package replay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/verify"
)

// Each replay of the migration run reads back, through its runtime's
// importer, as the same run: every compaction has the verdict the run's own
// has, and the lost promise keeps its turn where the runtime can carry it
// (Codex's plan updates take two lines each, so its turns drift).
func TestReplaysVerifyAsTheRun(t *testing.T) {
	r, err := sampledata.Open("migration")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	run, err := model.Read(r, model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := verify.Run(run, verify.Options{})
	dir := t.TempDir()
	cases := []struct {
		from, name string
		recs       []Record
		turn       int // of the lost promise (0: not checked)
	}{
		{"claude-code", "7f3a0000-0000-4000-8000-000000000001.jsonl", ClaudeCode(run, "7f3a0000-0000-4000-8000-000000000001", "/w", "/t"), 210},
		{"codex", "rollout-2026-11-02T09-00-00-0199aaaa-1111-7222-8333-444444444444.jsonl", Codex(run, "0199aaaa-1111-7222-8333-444444444444", "/w"), 0},
		{"gemini-cli", "session-2026-11-02T09-00-mig00001.jsonl", Gemini(run, "mig00001"), 210},
	}
	for _, c := range cases {
		t.Run(c.from, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			if err := os.WriteFile(p, Bytes(c.recs), 0o600); err != nil {
				t.Fatal(err)
			}
			tr, err := formats.Open(p, formats.Options{From: c.from})
			if err != nil {
				t.Fatal(err)
			}
			got := verify.Run(tr, verify.Options{})
			if len(got.Compactions) != len(want.Compactions) {
				t.Fatalf("%d compactions, want %d", len(got.Compactions), len(want.Compactions))
			}
			for i, gc := range got.Compactions {
				if gc.Verdict != want.Compactions[i].Verdict {
					t.Errorf("#%d %s, the run says %s: %v", gc.Seq, gc.Verdict, want.Compactions[i].Verdict, gc.Reasons)
				}
			}
			if c.turn == 0 {
				return
			}
			for _, it := range got.Compactions[3].Items {
				if it.Key == "re-run migration" && it.Turn != c.turn {
					t.Errorf("the promise is at turn %d, want %d", it.Turn, c.turn)
				}
			}
		})
	}
}
