package verify_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/verify"
)

// realSplitScore is what TestRealCorpus measures on a labelled split:
// items reported not retained and how many of them are real losses, the
// labelled losses found, and the verdicts that match the label.
type realSplitScore struct {
	transcripts, compactions int
	reported, real           int
	losses, found            int
	right                    int
	lines                    []string // per-compaction failures, for a person
}

func (s realSplitScore) String() string {
	return fmt.Sprintf("%d transcripts, %d compactions; reported not retained %d, real %d: precision %.3f; labelled losses %d: recall %.3f; verdicts %d/%d (%.3f)",
		s.transcripts, s.compactions, s.reported, s.real, ratioOr1(s.real, s.reported),
		s.losses, ratioOr1(s.found, s.losses), s.right, s.compactions, ratioOr1(s.right, s.compactions))
}

// scoreRealSplit runs loupe on every case of root/labels-*.json and counts
// exactly as TestRealCorpus does (scripts/realscore.py does the same from
// the command line). A file loupe cannot open counts all its losses as missed.
func scoreRealSplit(t *testing.T, root string) realSplitScore {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(root, "labels-*.json"))
	if len(files) == 0 {
		t.Fatalf("no labels in %s", root)
	}
	var s realSplitScore
	for _, lf := range files {
		raw, err := os.ReadFile(lf)
		if err != nil {
			t.Fatal(err)
		}
		var lb realLabels
		if err := json.Unmarshal(raw, &lb); err != nil {
			t.Fatalf("%s: %v", lf, err)
		}
		for _, c := range lb.Cases {
			s.transcripts++
			tr, err := formats.Open(filepath.Join(root, c.File), formats.Options{})
			res := &verify.Result{}
			if err != nil {
				s.lines = append(s.lines, fmt.Sprintf("ERR %s: %v", c.File, err))
			} else {
				res = verify.Run(tr, verify.Options{})
			}
			for _, lc := range c.Compactions {
				s.compactions++
				for _, l := range lc.Losses {
					if l.Basis != "inferred" {
						s.losses++ // an inferred loss is review: found, it is real; missed, no miss
					}
				}
				if lc.Ordinal > len(res.Compactions) {
					s.lines = append(s.lines, fmt.Sprintf("ERR %s#%d: compaction not found (%d found)", c.File, lc.Ordinal, len(res.Compactions)))
					continue
				}
				cr := res.Compactions[lc.Ordinal-1]
				var losses []realLoss
				for _, l := range lc.Losses {
					losses = append(losses, realLoss{l.Kind, l.Contains})
				}
				tp, alarms, found := matchLosses(cr.Items, losses)
				s.reported += tp + len(alarms)
				s.real += tp
				missed := 0
				var missing []string
				for i, f := range found {
					switch {
					case lc.Losses[i].Basis == "inferred":
					case f:
						s.found++
					default:
						missed++
						missing = append(missing, fmt.Sprintf("      MISSED %s %q", losses[i].kind, losses[i].contains))
					}
				}
				ok := string(cr.Verdict) == lc.Verdict
				if ok {
					s.right++
				}
				if ok && len(alarms) == 0 && missed == 0 {
					continue
				}
				mark := "ok "
				if !ok {
					mark = "BAD"
				}
				s.lines = append(s.lines, fmt.Sprintf("%s %s #%d want %s got %s losses %d false alarms %d missed %d",
					mark, c.File, lc.Ordinal, lc.Verdict, cr.Verdict, len(losses), len(alarms), missed))
				for _, a := range alarms {
					s.lines = append(s.lines, "      false alarm: "+a)
				}
				s.lines = append(s.lines, missing...)
			}
		}
	}
	return s
}

// realLoss is one labelled loss: the item kind and a substring of its key or text.
type realLoss struct{ kind, contains string }

// matchLosses sorts the items a compaction reports not retained into real
// losses (tp) and false alarms, and marks which labelled losses were found.
// An identifier is real when a label names it or when only lost items name
// it (the file a dropped rule is about).
func matchLosses(items []verify.ItemResult, losses []realLoss) (tp int, alarms []string, found []bool) {
	found = make([]bool, len(losses))
	lost := map[string]bool{}
	var idents []verify.ItemResult
	for _, ir := range items {
		if !ir.Counts() {
			// Verified, or review (only inferred): not a reported loss
			// (DESIGN.md, basis: precision is of recorded and stated).
			continue
		}
		if ir.Kind == verify.Identifier {
			idents = append(idents, ir)
			continue
		}
		hay := strings.ToLower(ir.Key + " " + ir.Text)
		hit := false
		for i, l := range losses {
			if string(ir.Kind) == l.kind && strings.Contains(hay, strings.ToLower(l.contains)) {
				found[i], hit = true, true
			}
		}
		if hit {
			tp++
			lost[ir.Key] = true
		} else {
			alarms = append(alarms, fmt.Sprintf("%s %s %q", ir.Kind, ir.Status, model.Clip(ir.Key, 70)))
		}
	}
	for _, ir := range idents {
		hit := false
		for i, l := range losses {
			if l.kind == string(verify.Identifier) && strings.Contains(strings.ToLower(ir.Key), strings.ToLower(l.contains)) {
				found[i], hit = true, true
			}
		}
		if hit || namedOnlyBy(ir.Names, lost) {
			tp++
		} else {
			alarms = append(alarms, fmt.Sprintf("%s %s %q", ir.Kind, ir.Status, model.Clip(ir.Key, 70)))
		}
	}
	return tp, alarms, found
}

// The frozen test split's figures (its first contact, at 61a7bff, was
// precision 0.171, recall 0.513, verdicts 21/35; 0.488, 0.513, 24/35 at
// the end of the second round of issue 19, whose rules had seen its
// failures): far from the 0.9, and a floor, so that no change makes
// it worse unseen. Raise them when a change improves them; never lower
// them. realtest2, labelled blind later, has no loss labelled: its floor
// is on verdicts and on the false alarms it counts (its failures were read
// in the third round: it is seen now too). realtest3, labelled blind in the
// fourth round and frozen: first contact at a801f36, 28 false alarms, 0 of
// its 4 losses found, 18/30 verdicts; its failures are not read.
//
// At the end of the fourth round: realtest 0.541, 0.513, 27/35; realtest2
// 2 false alarms, 15/17; realtest3 unchanged from its first contact (28
// false alarms, 0/4, 18/30): the round's rules fitted what was seen. Its
// failures were read after that end score, to name the classes left; one
// rule made from them (a report on an awaited run is inferred) took its
// false alarms to 20, and that is its floor now. A second (a failure
// handed to the user) was left out: it turned a verdict that was right
// only through false alarms wrong, its real loss (a user's request in
// Japanese, which loupe does not extract) still missed.
//
// Fifth round: conversational words that only look like promises (a
// thing's "will", narration after an interjection or before the step it
// precedes, "be careful", framing the answer the message gives) took
// realtest3 to 12 false alarms and 20/30; a doubt after "don't" and a
// limit on the one fix asked for, to 10; a step carried out while in
// progress by the file named for it, or after an early call had named its
// words, to 8 and 22/30 (realtest2: 1 false alarm, 16/17); a summary's
// open question ("whether …"), reported speech and "Fixed X: …" lines, to
// 5 and 25/30. A failure handed to the user ("手動で削除してください")
// is left behind: 2 false alarms, and the one time a floor went down, to
// 24/30 verdicts: the compaction whose three false alarms made its verdict
// right still misses its real loss (a queued request in Japanese), so it
// now reads degrade. A verdict right for false reasons is not kept. An idea
// offered ("alternatively, we could…"), a past intent ("was never going
// to"), a qualifier for a wait ("when available"): realtest 0.588, 0.513,
// 29/35. A server a background job started with "&" outlives the job:
// realtest3 1 false alarm, 25/30. A failure nothing ran again while the
// user spoke three times is left behind: realtest 0.606, realtest3 0 false
// alarms and 26/30.
//
// Eighth round: a done word inside a quotation is no claim, the worktree
// branch the work is on is owed: realtest 0.629, 0.564, 30/35. A failure
// the turn-ending report says nothing of: realtest6 0 false alarms, 7/7.
const (
	testSplitMinPrecision = 0.62
	testSplitMinRecall    = 0.56
	testSplitMinVerdicts  = 0.85

	test2MaxFalseAlarms = 0
	test2MinVerdicts    = 17

	test6MaxFalseAlarms = 0
	test6MinVerdicts    = 7

	test5MaxFalseAlarms = 0
	test5MinFound       = 3
	test5MinVerdicts    = 16

	test7MaxFalseAlarms = 2
	test7MinFound       = 5
	test7MinVerdicts    = 15

	test8MaxFalseAlarms = 0
	test8MinFound       = 1
	test8MinVerdicts    = 1

	test9MaxFalseAlarms = 1
	test9MinVerdicts    = 5
	// realtest10: first contact at 14fba59 was 12, 2, 12.
	test10MaxFalseAlarms = 2
	test10MinFound       = 2
	test10MinVerdicts    = 16
	// realtest11: first contact at d655325 was 10, 5, 7.
	test11MaxFalseAlarms = 6
	test11MinFound       = 5
	test11MinVerdicts    = 11

	test4MaxFalseAlarms = 0
	test4MinFound       = 3
	test4MinVerdicts    = 7

	test3MaxFalseAlarms = 0
	test3MinFound       = 0
	test3MinVerdicts    = 26
)

// frozenSplit scores a frozen split of testdata and logs its aggregate
// line only: its per-compaction failures are not for tuning the rules
// (LOUPE_SHOW_TEST_FAILURES=1 shows them).
func frozenSplit(t *testing.T, dir string) realSplitScore {
	t.Helper()
	if verify.RaceDetector {
		t.Skip("run without -race")
	}
	s := scoreRealSplit(t, filepath.Join("testdata", dir))
	if os.Getenv("LOUPE_SHOW_TEST_FAILURES") == "1" {
		for _, l := range s.lines {
			t.Log(l)
		}
	}
	t.Logf("%s: %s", dir, s)
	return s
}

// splitFloor is a frozen split's floor: the most false alarms it may
// report, and the fewest labelled losses found and verdicts right.
type splitFloor struct{ maxFalseAlarms, minFound, minVerdicts int }

// checkFloor scores a frozen split and fails when it falls below its
// floor; like frozenSplit it logs the aggregate line only.
func checkFloor(t *testing.T, dir string, f splitFloor) {
	t.Helper()
	s := frozenSplit(t, dir)
	if alarms := s.reported - s.real; alarms > f.maxFalseAlarms || s.found < f.minFound || s.right < f.minVerdicts {
		t.Errorf("%s fell below its floor: %d false alarms (max %d), %d/%d losses found (min %d), %d/%d verdicts right (min %d)",
			dir, alarms, f.maxFalseAlarms, s.found, s.losses, f.minFound, s.right, s.compactions, f.minVerdicts)
	}
}

// TestRealTest2Split scores the second frozen split (testdata/realtest2);
// like TestRealTestSplit it logs the aggregate line only.
func TestRealTest2Split(t *testing.T) {
	s := frozenSplit(t, "realtest2")
	if alarms := s.reported - s.real; alarms > test2MaxFalseAlarms || s.right < test2MinVerdicts {
		t.Errorf("the second test split fell below its floor: %d false alarms (max %d), %d/%d verdicts right (min %d)",
			alarms, test2MaxFalseAlarms, s.right, s.compactions, test2MinVerdicts)
	}
}

// TestRealTest3Split scores the third frozen split (testdata/realtest3,
// labelled blind, with losses); it logs the aggregate line only.
func TestRealTest3Split(t *testing.T) {
	checkFloor(t, "realtest3", splitFloor{test3MaxFalseAlarms, test3MinFound, test3MinVerdicts})
}

// TestRealTest6Split scores the sixth frozen split (testdata/realtest6,
// labelled blind, no loss labelled: a false-alarm test); it logs the
// aggregate line only. First contact, also the end of the fifth round's
// rules (b0bc206): 17 false alarms, 1/7 verdicts (22 and 1/7 at 76b4af8).
// Read since (seen): a look over ssh, "let me know", a step's nested
// bullets and statements in a steps list, a precondition of the request
// at hand: 10 and 3/7; "here is the prompt I gave Codex:" introduces a
// paste: 6; a slash command for the user to run is no promise: 4, 5/7; a
// line the shell could not parse ran nothing: 3; a step named by what it
// makes has no verb: 2, 6/7.
func TestRealTest6Split(t *testing.T) {
	checkFloor(t, "realtest6", splitFloor{test6MaxFalseAlarms, 0, test6MinVerdicts})
}

// TestRealTest5Split scores the fifth frozen split (testdata/realtest5,
// labelled blind); it logs the aggregate line only. First contact: 8 false
// alarms, 2 of 3 losses, 10/16 verdicts at 76b4af8; 7, 2 of 3, 11/16 at
// b1ccf1e, whose rules were made before the split existed. End of the
// fifth round's rules (ad2b4ca), before its failures were read: 5 false
// alarms, 2 of 3, 12/16. Read since (seen): the same condition rule, 4
// and 13/16; many files not carried by one edit, a failure left behind
// after three of the user's messages: 2 and 15/16; a one-off piece of work
// asked with "you must", and the Claude Code importer keeping what a late
// tool result jumps over (the missed rule was there): 1, 3 of 3, 15/16.
func TestRealTest5Split(t *testing.T) {
	checkFloor(t, "realtest5", splitFloor{test5MaxFalseAlarms, test5MinFound, test5MinVerdicts})
}

// TestRealTest4Split scores the fourth frozen split (testdata/realtest4,
// labelled blind, one Codex file among them); it logs the aggregate line
// only. First contact, at 76b4af8 and fb721d5 alike: 10 false alarms, 3
// of 4 losses found, 2/7 verdicts. End of the fifth round's rules
// (ad2b4ca), before its failures were read: 8, 3 of 4, 2/7. Read since
// (seen): a condition on a thing's state or a gerund ("when a path
// exists", "when creating instances") is no wait: 7; "…, then v2.2 (4
// issues)" keeps the first action's verb: 6; a failure nothing ran again
// while the user spoke three times is left behind: 5, 3/7; cargo names its
// failing test, and a fix reported with its re-run still to do is kept: 4,
// 4/7. Sixth round: a promise whose object is a pronoun ("I'll update
// that in the plan") is inferred: 2, 6/7; a Japanese topic with a verb of
// what happens to it ("次のリリースは … で発火します") is no promise, and a
// pushed tag no branch: 0, 7/7.
func TestRealTest4Split(t *testing.T) {
	checkFloor(t, "realtest4", splitFloor{test4MaxFalseAlarms, test4MinFound, test4MinVerdicts})
}

// TestRealTestSplit scores loupe on the frozen test split of real runs
// (testdata/realtest: repositories the rules were never built from). Its
// per-compaction failures are not for tuning the rules, so only the
// aggregate line is logged; LOUPE_SHOW_TEST_FAILURES=1 shows them.
func TestRealTestSplit(t *testing.T) {
	s := frozenSplit(t, "realtest")
	prec, rec, acc := ratioOr1(s.real, s.reported), ratioOr1(s.found, s.losses), ratioOr1(s.right, s.compactions)
	if prec < testSplitMinPrecision || rec < testSplitMinRecall || acc < testSplitMinVerdicts {
		t.Errorf("the test split fell below its floor: precision %.3f (min %.2f), recall %.3f (min %.2f), verdicts %.3f (min %.2f)",
			prec, testSplitMinPrecision, rec, testSplitMinRecall, acc, testSplitMinVerdicts)
	}
}

// TestRealTest7Split scores the seventh frozen split (testdata/realtest7,
// labelled blind: 18 Claude Code compactions from two new repositories, 6
// losses). First contact, at e92286c and at 13852ff alike, and the end of
// the seventh round's rules before it was read: 12 false alarms, 5 of 6
// losses found, 12/18 verdicts. Read since (seen): a command run over ssh
// is what ran on the host; "never mind"; "will take effect on next
// deploy"; a stop call ends its job when made; a search that matched
// nothing: 3 false alarms, 5 of 6, 15/18.
func TestRealTest7Split(t *testing.T) {
	checkFloor(t, "realtest7", splitFloor{test7MaxFalseAlarms, test7MinFound, test7MinVerdicts})
}

// TestRealTest8Split scores the eighth frozen split (testdata/realtest8,
// labelled blind: one Codex compaction, 4 losses; the licensed public
// supply of runtimes other than Claude Code is nearly empty). First
// contact: 3 false alarms, 1 of 4 losses, 1/1 verdict. Read since (seen):
// a pkill ends the job it matches; dash's and awk's parse errors ran
// nothing; "exit 1" is no key command: 0 false alarms.
func TestRealTest8Split(t *testing.T) {
	checkFloor(t, "realtest8", splitFloor{test8MaxFalseAlarms, test8MinFound, test8MinVerdicts})
}

// TestRealTest9Split scores the ninth frozen split (testdata/realtest9,
// labelled blind: 6 Claude Code compactions from two repositories, no
// loss: a false-alarm test). First contact, at e92286c and 154a2d0 alike,
// also its end-of-rules score: 3 false alarms, 4/6. Read since (seen): a
// promise to wait; npx runs a package's program whatever its version: 1,
// 5/6.
func TestRealTest9Split(t *testing.T) {
	checkFloor(t, "realtest9", splitFloor{test9MaxFalseAlarms, 0, test9MinVerdicts})
}

// TestRealTest10Split scores the tenth frozen split (testdata/realtest10,
// labelled blind: 19 Claude Code compactions from two committed ~/.claude
// homes; 4 losses that count, 3 inferred ones that are review). First
// contact at 14fba59: 12 false alarms, 2 of 4 losses, 12/19 verdicts.
// Read since (seen): a German verb before "nicht" describes, a condition
// clause forbids nothing, "show, don't tell", an agent's pasted terminal
// answer, a German rule glued to the sentence before, a call the
// permission prompt denied, an offer gated on the user's approval, a task
// line opening with "Complete": 3, 2 of 4, 17/19. A German to-do's verb
// comes last ("BrandBuilder Skill erstellen"), and a foreign verb matches
// its English one in a summary: 2 false alarms, 16/19 — the floor went down
// one verdict, as in the fifth round: compaction 3 of the tpos session read
// violate only through that false alarm; its real loss (the German rule)
// is cross-language review there, not a loss loupe can claim.
func TestRealTest10Split(t *testing.T) {
	checkFloor(t, "realtest10", splitFloor{test10MaxFalseAlarms, test10MinFound, test10MinVerdicts})
}

// TestRealTest11Split scores the eleventh frozen split (testdata/realtest11,
// labelled blind: 12 Claude Code compactions from one committed ~/.claude
// home; 6 losses that count, all recorded). First contact at d655325, the
// end of the eighth round's rules: 10 false alarms, 5 of 6 losses, 7/12
// verdicts (12/12 with --decide recorded). Read since (seen): Claude Code's
// "Failed to parse command" ran nothing; "only report your findings"
// shapes one answer; sub-agent calls carry "spawn 5 explore agents": 6
// false alarms, 5 of 6, 11/12.
func TestRealTest11Split(t *testing.T) {
	checkFloor(t, "realtest11", splitFloor{test11MaxFalseAlarms, test11MinFound, test11MinVerdicts})
}
