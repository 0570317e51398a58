package report

import (
	"reflect"
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

func TestOverallVerdict(t *testing.T) {
	violates := corpusResults(t, "f1_deploy_claude")[0]
	if violates.Violations() == 0 {
		t.Fatal("f1_deploy_claude should violate")
	}
	degrades := &verify.Result{Path: "ok.jsonl", Compactions: []*verify.CompactionResult{{Seq: 1, Verdict: verify.Degrade}}}
	none := &verify.Result{Path: "none.jsonl"}
	broken := []Unverified{{Path: "broken.jsonl", Error: "cannot be read"}}
	for _, tt := range []struct {
		name    string
		rep     Report
		want    string
		perFile []string
	}{
		{"a violation wins over an unverified file", Report{Results: []*verify.Result{degrades, violates}, Unverified: broken}, "violate", []string{"degrade", "violate"}},
		{"an unverified file and no violation", Report{Results: []*verify.Result{degrades}, Unverified: broken}, "error", []string{"degrade"}},
		{"every compaction degrades", Report{Results: []*verify.Result{none, degrades}}, "degrade", []string{"none", "degrade"}},
		{"no compaction anywhere", Report{Results: []*verify.Result{none}}, "none", []string{"none"}},
		{"nothing at all", Report{}, "none", nil},
	} {
		if got := tt.rep.OverallVerdict(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
		for i, r := range tt.rep.Results {
			if got := FileVerdict(r); got != tt.perFile[i] {
				t.Errorf("%s: file %s is %s, want %s", tt.name, r.Path, got, tt.perFile[i])
			}
		}
	}
}

func TestSkippedCounts(t *testing.T) {
	got := skippedCounts("file-history-snapshot=3 progress=12 odd")
	want := map[string]int{"file-history-snapshot": 3, "progress": 12, "odd": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}
