package openhands

import (
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
