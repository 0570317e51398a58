package openhands

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

func TestImport(t *testing.T) {
	tests := []struct {
		path     string
		counts   kittest.Counts
		pending  [][]string
		kept     []string
		warnings int
		source   string
	}{
		{
			path:    "testdata/v0/sid-synthetic",
			counts:  kittest.Counts{Events: 6, Messages: 1, Calls: 2, Results: 2, Errors: 1, Compactions: 1},
			pending: [][]string{{"call:toolu_01BBB"}},
			// events 1 and 2 (the failing test run) are forgotten; the user's
			// request and the read still in flight stay.
			kept:   []string{"0", "3", "toolu_01BBB"},
			source: "openhands v0",
		},
		{
			path:     "testdata/v0/sid-tasks",
			counts:   kittest.Counts{Events: 9, Messages: 3, Calls: 2, Results: 2, Plans: 1, PlanItems: 2, Compactions: 1},
			pending:  [][]string{{"call:toolu_R1"}},
			kept:     []string{"0", "3", "toolu_R1"},
			warnings: 1, // forgotten without a summary
			source:   "openhands v0",
		},
		{
			// The same failing test as sid-synthetic: no exit code is
			// recorded, and the output's FAIL line makes it an error.
			path:    "testdata/v1/synthetic",
			counts:  kittest.Counts{Events: 4, Messages: 1, Calls: 1, Results: 1, Errors: 1, Compactions: 1},
			pending: [][]string{nil},
			kept:    []string{"e0000000-0000-4000-8000-000000000000"},
			source:  "openhands v1 (agent SDK)",
		},
		{
			// the events directory itself
			path:    "testdata/v1/synthetic/events",
			counts:  kittest.Counts{Events: 4, Messages: 1, Calls: 1, Results: 1, Errors: 1, Compactions: 1},
			pending: [][]string{nil},
			kept:    []string{"e0000000-0000-4000-8000-000000000000"},
			source:  "openhands v1 (agent SDK)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if !Detect(tt.path, nil, true) {
				t.Fatal("not detected")
			}
			tr, err := Open(tt.path, model.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := kittest.Count(tr); got != tt.counts {
				t.Errorf("counts\n got %+v\nwant %+v", got, tt.counts)
			}
			got := kittest.Pending(tr)
			if len(got) != len(tt.pending) || !slices.Equal(got[0], tt.pending[0]) {
				t.Errorf("pending %q, want %q", got, tt.pending)
			}
			if !slices.Equal(tr.Compactions[0].Kept, tt.kept) {
				t.Errorf("kept %q, want %q", tr.Compactions[0].Kept, tt.kept)
			}
			w := 0
			for _, p := range tr.Problems {
				if p.Severity == model.Warning {
					w++
				}
			}
			if w != tt.warnings || len(tr.Problems.Errors()) > 0 {
				t.Errorf("problems %v", tr.Problems)
			}
			if tr.Meta.Source != tt.source || tr.Meta.Run == "" {
				t.Errorf("meta %+v", tr.Meta)
			}
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

func TestScan(t *testing.T) {
	infos, err := Scan("testdata/v0")
	if err != nil || len(infos) != 3 {
		t.Fatalf("scan: %v %+v", err, infos)
	}
	for _, si := range infos {
		if si.Compactions != 1 || si.Start.IsZero() || si.Title == "" || filepath.Dir(si.Path) != "testdata/v0" {
			t.Errorf("scan: %+v", si)
		}
	}
	if Detect("testdata", nil, true) || Detect("testdata/v0/sid-tasks/events/0.json", nil, false) {
		t.Error("detected what is not a conversation directory")
	}
}

// copyConversation copies a fixture conversation into a temporary directory
// and returns its path.
func copyConversation(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestHugeForgottenRange: a V0 condensation of 130 bytes can name the range
// 0..2^63-1. It forgets the events that exist in it, and costs no more than
// they do (it used to spell out ten million ids per event: 1 GB, 16 s).
func TestHugeForgottenRange(t *testing.T) {
	conv := copyConversation(t, "testdata/v0/sid-synthetic")
	for i := 6; i < 9; i++ {
		ev := fmt.Sprintf(`{"id":%d,"source":"agent","action":"condensation","args":{"forgotten_events_start_id":%d,"forgotten_events_end_id":9223372036854775807}}`, i, 3)
		if err := os.WriteFile(filepath.Join(conv, "events", fmt.Sprintf("%d.json", i)), []byte(ev), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := Open(conv, model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Compactions) != 4 {
		t.Fatalf("%d compactions, want 4", len(tr.Compactions))
	}
	// The first condensation forgot 1..2; the range 3.. forgets the rest:
	// only the user's request (event 0) is kept.
	for _, c := range tr.Compactions[1:] {
		if !slices.Equal(c.Kept, []string{"0"}) {
			t.Errorf("compaction %d keeps %q, want only event 0", c.Seq, c.Kept)
		}
	}
	var msgs []string
	for _, p := range tr.Problems {
		msgs = append(msgs, p.Msg)
	}
	want := []string{
		"compaction 2: the condenser forgot 2 events without a summary", // 3 and 5 (4 is the first condensation)
		"compaction 3: the condenser forgot 2 events without a summary",
		"compaction 4: the condenser forgot 2 events without a summary",
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("problems %q, want %q", msgs, want)
	}
}

func BenchmarkHugeForgottenRange(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "conv", "events")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "0.json"), []byte(`{"id":0,"source":"user","action":"message","args":{"content":"hi"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "1.json"), []byte(`{"id":1,"source":"agent","action":"condensation","args":{"forgotten_events_start_id":0,"forgotten_events_end_id":9223372036854775807}}`), 0o644)
	for b.Loop() {
		if _, err := Open(filepath.Dir(dir), model.ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
