package gemini

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

const (
	jsonlFile   = "testdata/session-2026-06-01T12-00-3f0c0000.jsonl"
	legacyFile  = "testdata/session-2026-01-20T10-00-legacy01.json"
	maskingFile = "testdata/session-2026-07-01T09-00-masking1.jsonl"
)

func open(t *testing.T, path string) *model.Transcript {
	t.Helper()
	tr, err := Open(path, model.ReadOptions{})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return tr
}

func TestImport(t *testing.T) {
	tests := []struct {
		path     string
		counts   kittest.Counts
		pending  [][]string
		warnings int
		triggers []string
	}{
		{
			path:     jsonlFile,
			counts:   kittest.Counts{Events: 6, Messages: 2, Calls: 1, Results: 1, Compactions: 1, Raw: 1},
			pending:  [][]string{nil},
			triggers: []string{"auto"},
		},
		{
			path:     legacyFile,
			counts:   kittest.Counts{Events: 12, Messages: 4, Calls: 3, Results: 2, Errors: 1, Plans: 1, PlanItems: 2, Compactions: 2},
			pending:  [][]string{nil, {"call:run_shell_command-1768903805000-cc"}},
			warnings: 2,
			triggers: []string{"auto", "auto"},
		},
		{
			path:     maskingFile,
			counts:   kittest.Counts{Events: 6, Messages: 3, Calls: 1, Results: 1, Compactions: 1},
			pending:  [][]string{nil},
			triggers: []string{"tool_output_masking"},
		},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			tr := open(t, tt.path)
			if got := kittest.Count(tr); got != tt.counts {
				t.Errorf("counts\n got %+v\nwant %+v", got, tt.counts)
			}
			got := kittest.Pending(tr)
			if len(got) != len(tt.pending) {
				t.Fatalf("pending %q, want %q", got, tt.pending)
			}
			for i := range got {
				if !slices.Equal(got[i], tt.pending[i]) {
					t.Errorf("pending at compaction %d: %q, want %q", i+1, got[i], tt.pending[i])
				}
			}
			w := 0
			for _, p := range tr.Problems {
				if p.Severity == model.Warning {
					w++
				}
			}
			if w != tt.warnings || len(tr.Problems.Errors()) > 0 {
				t.Errorf("problems %v, want %d warnings", tr.Problems, tt.warnings)
			}
			var trig []string
			for _, c := range tr.Compactions {
				trig = append(trig, c.Trigger)
			}
			if !slices.Equal(trig, tt.triggers) {
				t.Errorf("triggers %q, want %q", trig, tt.triggers)
			}
			if tr.Meta.Source != "gemini-cli" || tr.Meta.Run == "" {
				t.Errorf("meta %+v", tr.Meta)
			}
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

func TestSnapshotCompaction(t *testing.T) {
	tr := open(t, jsonlFile)
	c := tr.Compactions[0]
	if len(c.Summary) == 0 || c.Summary[:len(snapshotTag)] != snapshotTag || c.TokensBefore != 900000 {
		t.Errorf("compaction %+v", c)
	}
	// m3, the tool response turn kept after the summary, is carried over.
	if !slices.Equal(c.Kept, []string{"m3"}) {
		t.Errorf("kept %q", c.Kept)
	}
	// $rewindTo m5: m5 is rewound.
	last := tr.Events[len(tr.Events)-1].(*model.Raw)
	if last.Ref != "m5" {
		t.Errorf("rewound event %+v", last)
	}
}

func TestLegacyTokens(t *testing.T) {
	tr := open(t, legacyFile)
	c1, c2 := tr.Compactions[0], tr.Compactions[1]
	if c1.TokensBefore != 120500 || c1.TokensAfter != 31000 || c2.TokensBefore != 130000 || c2.TokensAfter != 33000 || c1.Summary != "" {
		t.Errorf("compactions %+v %+v", c1, c2)
	}
}

func TestMaskingKeepsUnchanged(t *testing.T) {
	tr := open(t, maskingFile)
	// g1 and u2 lost their tool output; u1 and g2 are unchanged.
	if !slices.Equal(tr.Compactions[0].Kept, []string{"u1", "g2"}) {
		t.Errorf("kept %q", tr.Compactions[0].Kept)
	}
}

func TestDetectAndScan(t *testing.T) {
	for _, f := range []string{jsonlFile, legacyFile, maskingFile} {
		b, _ := os.ReadFile(f)
		if !Detect(f, b, false) {
			t.Errorf("%s not detected", f)
		}
	}
	if Detect("x", []byte(`{"timestamp":"x","type":"session_meta","payload":{}}`+"\n"), false) {
		t.Error("a Codex rollout detected as Gemini")
	}
	// five sessions: resume-0.61's stub is listed by its session's file
	infos, err := Scan("testdata")
	if err != nil || len(infos) != 5 {
		t.Fatalf("scan: %v %+v", err, infos)
	}
	for _, si := range infos {
		if si.ID == "" || si.Start.IsZero() || si.Compactions == 0 || si.Title == "" {
			t.Errorf("scan: %+v", si)
		}
	}
}
