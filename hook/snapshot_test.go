package hook

import (
	"fmt"
	"sort"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/verify"
)

func unverified(cr *verify.CompactionResult) []string {
	var out []string
	for _, ir := range cr.Items {
		if !ir.Status.Verified() {
			out = append(out, fmt.Sprintf("%s %s %s", ir.Kind, ir.Key, ir.Status))
		}
	}
	sort.Strings(out)
	return out
}

// The minimal source a snapshot keeps gives every compaction of the
// migration run the same verdict and the same lost items as verifying the
// whole transcript, from a few dozen events instead of thousands.
func TestMinimalSourceAgreesWithFullRun(t *testing.T) {
	r, err := sampledata.Open("migration")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tr, err := model.Read(r, model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	full := verify.Run(tr, verify.Options{})
	for k, c := range tr.Compactions {
		prefix := &model.Transcript{Meta: tr.Meta, Events: tr.Events[:c.Index], Compactions: tr.Compactions[:k]}
		p := preserve(prefix, "")
		events, closed, fast := minimalSource(p, nil)
		if !fast {
			t.Errorf("#%d: the minimal source does not reproduce the preservation set", c.Seq)
			continue
		}
		if len(events)*20 > c.Index {
			t.Errorf("#%d: minimal source of %d events for %d", c.Seq, len(events), c.Index)
		}
		snap := &Snapshot{Keys: openKeys(p.cr), Closed: closed}
		cc := *c
		got := restrict(verify.Check(events, &cc, verify.Options{}), allowed(snap, len(events)))
		want := full.Compactions[k]
		if got.Verdict != want.Verdict || fmt.Sprint(unverified(got)) != fmt.Sprint(unverified(want)) {
			t.Errorf("#%d: minimal %s %v, full %s %v", c.Seq, got.Verdict, unverified(got), want.Verdict, unverified(want))
		}
	}
}
