package verify_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
	"github.com/loupe-dev/loupe/verify/report"
)

// labels mirrors the schema of shared/eval's labels.json, so the project's
// own corpus (testdata/corpus) is scored by the same rules as the eval set.
type labels struct {
	Cases []struct {
		File        string `json:"file"`
		Compactions []struct {
			Seq     int    `json:"seq"`
			Verdict string `json:"verdict"`
			Items   []struct {
				Kind        string   `json:"kind"`
				Turn        *int     `json:"turn"`
				Contains    string   `json:"contains"`
				Status      []string `json:"status"`
				SelfReport  string   `json:"self_report"`
				NotRequired bool     `json:"not_required"`
			} `json:"items"`
			Unsourced []string `json:"unsourced_claims"`
			Consumers []struct {
				Name    string `json:"name"`
				Allowed bool   `json:"allowed"`
			} `json:"consumers"`
		} `json:"compactions"`
		Findings []struct {
			Kind string `json:"kind"`
			Turn int    `json:"turn"`
		} `json:"findings"`
		NoFindings []struct {
			Kind string `json:"kind"`
		} `json:"no_findings"`
	} `json:"cases"`
}

// TestCorpus scores the labelled corpora: every labelled fact must hold, and
// it reports precision and recall of violate (a violating compaction called
// degrade is the worst error: fail-closed) and accuracy per status.
//
// testdata/corpus was written with the rules; testdata/heldout, heldout2
// and heldout3 were written independently, one after the other, from
// DESIGN.md and the eval set's description, without reading this package,
// to see whether the rules generalise (they first scored 191/208, 220/231
// and 208/223 checks; the fixes were general rules, not their sentences).
// testdata/heldout5 was written the same way for paraphrase recall (British
// spellings, phrasal verbs, noun forms, call intents in other words, rules
// joined by dashes, sibling items): it first scored 85/130.
// testdata/heldout6 was written after those fixes, blind to them, over the
// same classes in sixteen new domains: the build of that day first scored
// 122/142 (the build before this work 91/142). Its failures are known
// gaps in TestCorpusBlind, not fixed sentence by sentence.
func TestCorpus(t *testing.T) {
	for _, name := range []string{"corpus", "heldout", "heldout2", "heldout3", "heldout5"} {
		t.Run(name, func(t *testing.T) {
			for _, f := range scoreCorpus(t, filepath.Join("testdata", name)) {
				t.Error(f)
			}
		})
	}
}

// TestCorpusRealistic scores testdata/heldout4, a fourth independent set of
// realistic runs (several items per compaction, near-duplicates, long
// summaries). loupe does not pass all of it: the failures are logged as
// known gaps (mostly whether a given tool call carried an action out), and
// the test fails only if more checks fail than when it was added.
func TestCorpusRealistic(t *testing.T) {
	const ceiling = knownRealisticGaps
	fails := scoreCorpus(t, filepath.Join("testdata", "heldout4"))
	for _, f := range fails {
		t.Log("known gap: " + f)
	}
	if len(fails) > ceiling {
		t.Errorf("%d checks fail, more than the %d known gaps recorded when this set was added", len(fails), ceiling)
	}
}

// TestCorpusBlind scores testdata/heldout6 with a ceiling, like heldout4:
// the failures are logged, and the test fails only if more checks fail.
func TestCorpusBlind(t *testing.T) {
	fails := scoreCorpus(t, filepath.Join("testdata", "heldout6"))
	for _, f := range fails {
		t.Log("known gap: " + f)
	}
	if len(fails) > knownBlindGaps {
		t.Errorf("%d checks fail, more than the %d known gaps", len(fails), knownBlindGaps)
	}
}

// knownBlindGaps is how many of testdata/heldout6's checks fail. Lower it
// when a change fixes more; never raise it.
const knownBlindGaps = 10

// knownRealisticGaps is how many of testdata/heldout4's checks still fail
// (shared/eval's score.py: 468 of 524 passed when the ceiling was set, 474
// now). Lower it when a change fixes more; never raise it.
const knownRealisticGaps = 50

// scoreCorpus checks every labelled fact of a corpus and returns the ones
// that do not hold.
func scoreCorpus(t *testing.T, dir string) []string {
	var fails []string
	fail := func(format string, args ...any) { fails = append(fails, fmt.Sprintf(format, args...)) }
	raw, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lb labels
	if err := json.Unmarshal(raw, &lb); err != nil {
		t.Fatal(err)
	}
	var tp, fp, fn, tn int
	statusOK, statusAll := map[string]int{}, map[string]int{}
	compactions := 0
	for _, c := range lb.Cases {
		tr, err := model.Open(filepath.Join(dir, c.File), model.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if errs := tr.Problems.Errors(); len(errs) > 0 {
			t.Fatalf("%s: %v", c.File, errs[0])
		}
		res := report.ToJSON(verify.Run(tr, verify.Options{}))
		byseq := map[int]report.JSONCompaction{}
		for _, jc := range res.Compactions {
			byseq[jc.Seq] = jc
		}
		for _, lc := range c.Compactions {
			compactions++
			got, ok := byseq[lc.Seq]
			if !ok {
				fail("%s#%d: compaction missing", c.File, lc.Seq)
				continue
			}
			want := lc.Verdict == string(verify.Violate)
			have := got.Verdict == verify.Violate
			switch {
			case lc.Verdict == "":
				// The labeller left the verdict open (score.py skips it too).
			case want && have:
				tp++
			case !want && have:
				fp++
				fail("%s#%d: degrade reported as violate: %v", c.File, lc.Seq, got.Reasons)
			case want && !have:
				fn++
				fail("%s#%d: VIOLATION MISSED (reported degrade)", c.File, lc.Seq)
			default:
				tn++
			}
			for _, li := range lc.Items {
				found := findItems(got, li.Kind, li.Turn, li.Contains)
				desc := fmt.Sprintf("%s#%d %s %q", c.File, lc.Seq, li.Kind, li.Contains)
				if li.NotRequired {
					if len(found) > 0 {
						fail("%s: must not be in the preservation set, found %s", desc, found[0].Status)
					}
					continue
				}
				key := strings.Join(li.Status, "|")
				statusAll[key]++
				if len(found) == 0 {
					fail("%s: not in the preservation set", desc)
					continue
				}
				ok := false
				for _, f := range found {
					if slices.Contains(li.Status, string(f.Status)) {
						ok = true
					}
				}
				if ok {
					statusOK[key]++
				} else {
					fail("%s: status %s, want %v (%s)", desc, found[0].Status, li.Status, found[0].Why)
				}
				if li.SelfReport != "" {
					srOK := false
					for _, f := range found {
						if f.SelfReport != nil && string(*f.SelfReport) == li.SelfReport {
							srOK = true
						}
					}
					if !srOK {
						fail("%s: self-report finding is not %s", desc, li.SelfReport)
					}
				}
			}
			for _, u := range lc.Unsourced {
				if !slices.ContainsFunc(got.UnsourcedClaims, func(s string) bool { return strings.Contains(strings.ToLower(s), strings.ToLower(u)) }) {
					fail("%s#%d: unsourced claim %q not reported: %v", c.File, lc.Seq, u, got.UnsourcedClaims)
				}
			}
			for _, lcn := range lc.Consumers {
				i := slices.IndexFunc(got.Consumers, func(x report.JSONConsumer) bool { return x.Name == lcn.Name })
				if i < 0 || got.Consumers[i].Allowed != lcn.Allowed {
					fail("%s#%d: consumer %s allowed should be %v", c.File, lc.Seq, lcn.Name, lcn.Allowed)
				}
			}
		}
		for _, lf := range c.Findings {
			if !slices.ContainsFunc(res.Findings, func(f report.JSONFinding) bool { return string(f.Kind) == lf.Kind && f.Turn == lf.Turn }) {
				fail("%s: finding %s at turn %d missing: %v", c.File, lf.Kind, lf.Turn, res.Findings)
			}
		}
		for _, lf := range c.NoFindings {
			for _, f := range res.Findings {
				if string(f.Kind) == lf.Kind {
					fail("%s: unexpected %s at turn %d", c.File, f.Kind, f.Turn)
				}
			}
		}
	}
	prec, rec := ratioOr1(tp, tp+fp), ratioOr1(tp, tp+fn)
	t.Logf("corpus: %d files, %d compactions; violate precision %.3f (%d/%d), recall %.3f (%d/%d); degrade correctly kept %d",
		len(lb.Cases), compactions, prec, tp, tp+fp, rec, tp, tp+fn, tn)
	keys := make([]string, 0, len(statusAll))
	for k := range statusAll {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("  status %-22s %d/%d correct", k, statusOK[k], statusAll[k])
	}
	// A floor against a labels file cut short by accident.
	if compactions < 25 {
		fail("a corpus must hold at least 25 compactions, has %d", compactions)
	}
	return fails
}

func ratioOr1(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func findItems(c report.JSONCompaction, kind string, turn *int, needle string) []report.JSONItem {
	var out []report.JSONItem
	for _, it := range c.Items {
		if string(it.Kind) != kind || (turn != nil && it.Turn != *turn) {
			continue
		}
		hay := strings.ToLower(it.Key + " " + it.Text)
		if needle != "" && !strings.Contains(hay, strings.ToLower(needle)) {
			continue
		}
		out = append(out, it)
	}
	return out
}
