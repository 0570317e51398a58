package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/loupe-dev/loupe/sampledata/shapes"
	"github.com/loupe-dev/loupe/ui"
	"github.com/loupe-dev/loupe/verify"
)

// TestInspectorLoaderReportsEachCompaction: the inspector's loader hands
// the UI every compaction's verdict while the run is verified (issue 20):
// after the transcript, in file order, before the loader returns, as
// copies that the verifier no longer changes, and the same verdicts as the
// whole result's.
func TestInspectorLoaderReportsEachCompaction(t *testing.T) {
	sh, ok := shapes.Lookup("dense-compactions")
	if !ok {
		t.Fatal("no dense-compactions shape")
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Write(f, 120<<10, shapes.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	var (
		mu       sync.Mutex
		shown    *verify.Result // the whole transcript, unverified
		verified []*verify.CompactionResult
		early    bool // a verdict came before the whole transcript
		returned bool
		late     bool // a report after the loader returned
	)
	res, err := fileLoader(path, "", verify.Options{})(func(p ui.Progress) {
		mu.Lock()
		defer mu.Unlock()
		late = late || returned
		if p.Unverified != nil && !p.Partial {
			shown = p.Unverified
		}
		if len(p.Verified) > 0 && shown == nil {
			early = true
		}
		verified = append(verified, p.Verified...)
	})
	mu.Lock()
	returned = true
	mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Compactions); n < 50 {
		t.Fatalf("only %d compactions: the shape is too small for the test", n)
	}
	if shown == nil || shown.Transcript != res.Transcript || early || late {
		t.Fatalf("the transcript was not shown first (shown %v, a verdict before it %v, after the end %v)", shown != nil, early, late)
	}
	if len(verified) != len(res.Compactions) {
		t.Fatalf("%d compactions reported while verifying, the run has %d", len(verified), len(res.Compactions))
	}
	for i, got := range verified {
		want := res.Compactions[i]
		if got == want {
			t.Fatalf("compaction #%d: the stream's own result was handed to the UI, not a copy", want.Seq)
		}
		if got.Seq != want.Seq || got.Event != want.Event || got.Verdict != want.Verdict || len(got.Items) != len(want.Items) || len(got.Reasons) != len(want.Reasons) {
			t.Fatalf("compaction %d reported as #%d %s (%d items), the result has #%d %s (%d items)",
				i, got.Seq, got.Verdict, len(got.Items), want.Seq, want.Verdict, len(want.Items))
		}
		for k := range got.Items {
			g, w := got.Items[k], want.Items[k]
			if g.Item != nil && g.Item == w.Item {
				t.Fatalf("compaction #%d item %d shares the verifier's item", want.Seq, k)
			}
			if g.Status != w.Status || (g.Item != nil) != (w.Item != nil) || g.Item != nil && g.ID != w.ID {
				t.Fatalf("compaction #%d item %d: %v %v, the result has %v %v", want.Seq, k, g.Status, g.Item, w.Status, w.Item)
			}
		}
	}
}
