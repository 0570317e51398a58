package main

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
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
	path := denseRun(t, 120<<10)

	var (
		mu       sync.Mutex
		shown    *verify.Result // the whole transcript, unverified
		verified []*verify.CompactionResult
		early    int // verdicts before the whole transcript
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
		if shown == nil {
			early += len(p.Verified)
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
	if shown == nil || shown.Transcript != res.Transcript || late {
		t.Fatalf("the whole transcript was not shown (shown %v, a report after the end %v)", shown != nil, late)
	}
	t.Logf("%d of %d verdicts before the reading ended", early, len(res.Compactions))
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

// TestInspectorVerifiesWhileReading: the verdicts reach the UI while the
// file is still being read, not after: here the reading waits, half-way,
// until the first verdict has been reported.
func TestInspectorVerifiesWhileReading(t *testing.T) {
	tr, err := formats.Open(denseRun(t, 60<<10), formats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := verify.Run(tr, verify.Options{})
	if len(want.Compactions) == 0 {
		t.Fatal("no compaction in the run")
	}
	first := make(chan struct{})
	var once sync.Once
	var reported []*verify.CompactionResult
	var mu sync.Mutex
	open := func(each func(*model.Transcript, model.Event)) (*model.Transcript, error) {
		head := &model.Transcript{Path: tr.Path, Meta: tr.Meta}
		for i, e := range tr.Events {
			each(head, e)
			if i == len(tr.Events)/2 {
				select {
				case <-first:
				case <-time.After(10 * time.Second):
					return nil, errors.New("no verdict while the file was read")
				}
			}
		}
		cp := *tr
		cp.Events = nil
		return &cp, nil
	}
	res, err := streamVerified(open, func(p ui.Progress) {
		if len(p.Verified) > 0 {
			mu.Lock()
			reported = append(reported, p.Verified...)
			mu.Unlock()
			once.Do(func() { close(first) })
		}
	}, verify.Options{}, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Compactions) != len(want.Compactions) || len(reported) != len(want.Compactions) || len(res.Transcript.Events) != len(tr.Events) {
		t.Fatalf("%d compactions (%d reported, %d events), verify.Run has %d (%d events)",
			len(res.Compactions), len(reported), len(res.Transcript.Events), len(want.Compactions), len(tr.Events))
	}
	for i, c := range res.Compactions {
		if c.Verdict != want.Compactions[i].Verdict || reported[i].Verdict != c.Verdict {
			t.Errorf("compaction #%d: %s (reported %s), verify.Run says %s", c.Seq, c.Verdict, reported[i].Verdict, want.Compactions[i].Verdict)
		}
	}
}

// denseRun writes a run of about size bytes with a compaction every few
// events (the dense-compactions shape).
func denseRun(t *testing.T, size int64) string {
	t.Helper()
	sh, ok := shapes.Lookup("dense-compactions")
	if !ok {
		t.Fatal("no dense-compactions shape")
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Write(f, size, shapes.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	return path
}
