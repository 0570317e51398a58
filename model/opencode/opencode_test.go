package opencode

import (
	"slices"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

const (
	session1 = "testdata/storage/session/prj_synthetic/ses_synthetic0001.json"
	session2 = "testdata/storage/session/prj_synthetic/ses_synthetic0002.json"
)

func TestImport(t *testing.T) {
	tests := []struct {
		path     string
		counts   kittest.Counts
		pending  []string
		trigger  string
		kept     []string
		warnings int
		source   string
	}{
		{
			path:    session1,
			counts:  kittest.Counts{Events: 5, Messages: 1, Calls: 2, Results: 1, Errors: 1, Compactions: 1},
			pending: []string{"call:toolu_01PEN"},
			trigger: "auto",
			source:  "opencode 1.0.0",
		},
		{
			path:    session2,
			counts:  kittest.Counts{Events: 10, Messages: 4, Calls: 2, Results: 2, Errors: 1, Plans: 1, PlanItems: 2, Compactions: 1},
			trigger: "manual",
			kept:    []string{"msg_103", "msg_104"},
			source:  "opencode 1.1.4",
		},
		{
			// the storage directory: the newest session, with a note
			path:     "testdata/storage",
			counts:   kittest.Counts{Events: 10, Messages: 4, Calls: 2, Results: 2, Errors: 1, Plans: 1, PlanItems: 2, Compactions: 1},
			trigger:  "manual",
			kept:     []string{"msg_103", "msg_104"},
			warnings: 1,
			source:   "opencode 1.1.4",
		},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			tr, err := Open(tt.path, model.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := kittest.Count(tr); got != tt.counts {
				t.Errorf("counts\n got %+v\nwant %+v", got, tt.counts)
			}
			if got := kittest.Pending(tr); len(got) != 1 || !slices.Equal(got[0], tt.pending) {
				t.Errorf("pending %q, want %q", got, tt.pending)
			}
			c := tr.Compactions[0]
			if c.Trigger != tt.trigger || c.Summary == "" || !slices.Equal(c.Kept, tt.kept) {
				t.Errorf("compaction trigger %q kept %q summary %q", c.Trigger, c.Kept, c.Summary)
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
			if tr.Meta.Source != tt.source {
				t.Errorf("source %q", tr.Meta.Source)
			}
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

func TestDetectAndScan(t *testing.T) {
	if !Detect("testdata/storage", nil, true) || !Detect("testdata", nil, true) || Detect("testdata/storage/message", nil, true) {
		t.Error("directory detection")
	}
	head := []byte(`{"id": "ses_synthetic0002", "projectID": "prj_synthetic", "time": {"created": 1}}`)
	if !Detect(session2, head, false) || Detect("elsewhere/x.json", head, false) {
		t.Error("session file detection")
	}
	infos, err := Scan("testdata/storage")
	if err != nil || len(infos) != 2 {
		t.Fatalf("scan %v %+v", err, infos)
	}
	for _, si := range infos {
		if si.Compactions != 1 || si.Title == "" || si.Start.IsZero() {
			t.Errorf("scan: %+v", si)
		}
	}
}
