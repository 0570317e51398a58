package verify

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/sampledata/shapes"
)

// TestSlimSameReports runs transcripts twice, once as shipped and once with
// the commitment index swept and every closed commitment slimmed at each
// close (coolKeep, sweepEvery): what a closed commitment lets go of must
// never change a report, plan steps closed and reopened included.
func TestSlimSameReports(t *testing.T) {
	var paths []string
	pats := []string{"testdata/*/*.jsonl", "testdata/real*/*/*.jsonl.gz"}
	if testing.Short() || raceDetector {
		// The real sessions are most of the time; one of them closes and
		// reopens plan steps (cc-2.0.67-erk-schema-migration-3x). CI runs
		// them all once without -race.
		pats = []string{"testdata/*/*.jsonl", "testdata/real/claude-code/cc-2.0.67-erk-schema-migration-3x.jsonl.gz"}
	}
	for _, pat := range pats {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	for _, name := range []string{"plan-updates", "dense-compactions", "compactions", "big-plan", "commitments"} {
		s, ok := shapes.Lookup(name)
		if !ok {
			t.Fatalf("no shape %s", name)
		}
		n, err := kittest.ParseSize("200KB")
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := s.Write(&buf, n, shapes.Options{Seed: 1}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), s.File)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	if len(paths) < 50 {
		t.Fatalf("only %d transcripts found", len(paths))
	}
	report := func(t *testing.T, p string) []byte {
		tr, err := formats.Open(p, formats.Options{})
		if err != nil {
			t.Skip(err)
		}
		b, err := json.Marshal(Run(tr, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	keep, every := coolKeep, sweepEvery
	defer func() { coolKeep, sweepEvery = keep, every }()
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			coolKeep, sweepEvery = keep, every
			want := report(t, p)
			coolKeep, sweepEvery = 0, 1
			if got := report(t, p); !bytes.Equal(got, want) {
				t.Errorf("slimming at every close changes the report of %s", p)
			}
		})
	}
}
