package verify_test

import (
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

// realLabels is the schema of testdata/real/labels-*.json: real transcripts
// from public repositories, each compaction labelled by a person who read
// its source and its summary (never by running loupe). See
// testdata/real/README.md for where each file came from.
type realLabels struct {
	Cases []struct {
		File        string `json:"file"`
		Runtime     string `json:"runtime"`
		Version     string `json:"version"`
		Compactions []struct {
			Ordinal int    `json:"ordinal"`
			Verdict string `json:"verdict"`
			Losses  []struct {
				Kind     string `json:"kind"`
				Contains string `json:"contains"`
				Status   string `json:"status"`
				Basis    string `json:"basis"`
			} `json:"losses"`
			NotOwed []struct {
				Kind     string `json:"kind"`
				Contains string `json:"contains"`
			} `json:"not_owed"`
		} `json:"compactions"`
	} `json:"cases"`
}

// The figures the real corpus must keep: precision of what loupe reports
// as not retained, recall of the labelled losses, and verdict accuracy.
// Raise them when a change improves them; never lower them.
const (
	realMinPrecision = 1.0
	realMinRecall    = 1.0
	realMinVerdicts  = 1.0
)

// TestRealCorpus scores loupe on the hand-labelled real transcripts (the
// training split): every item it reports as not retained should be a real
// loss (precision), every real loss must be reported (recall), and each
// compaction's verdict must be the careful reader's. Run with -v for the
// compactions that fail.
func TestRealCorpus(t *testing.T) {
	if verify.RaceDetector {
		// Tens of megabytes of real sessions take minutes under the race
		// detector; .ci/run runs this package without it as well.
		t.Skip("run without -race")
	}
	s := scoreRealSplit(t, filepath.Join("testdata", "real"))
	for _, l := range s.lines {
		t.Log(l)
	}
	t.Logf("real corpus: %s", s)
	prec, rec, acc := ratioOr1(s.real, s.reported), ratioOr1(s.found, s.losses), ratioOr1(s.right, s.compactions)
	if prec < realMinPrecision || rec < realMinRecall || acc < realMinVerdicts {
		t.Errorf("real corpus fell below its floor: precision %.3f (min %.2f), recall %.3f (min %.2f), verdicts %.3f (min %.2f)",
			prec, realMinPrecision, rec, realMinRecall, acc, realMinVerdicts)
	}
}

// namedOnlyBy reports whether every item naming an identifier is lost.
func namedOnlyBy(names []string, lost map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	for _, n := range names {
		if !lost[n] {
			return false
		}
	}
	return true
}
