package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/loupe-dev/loupe/verify"
)

// arrivalStep is one thing that happens while a run is verified: results
// handed out by the verifier (indices into the final result's
// compactions), keys the reader presses, or the whole result; then what
// the screen must and must not show.
type arrivalStep struct {
	verified []int
	keys     []string
	final    bool
	want     []string
	not      []string
}

// TestVerdictsAppearAsTheyArrive: while the run is verified, each
// compaction's verdict shows as soon as its result arrives, the others
// keep saying they are being verified, and the whole result replaces them.
func TestVerdictsAppearAsTheyArrive(t *testing.T) {
	// The fixture: #1 degrades, #2 and #3 violate.
	cases := []struct {
		name  string
		steps []arrivalStep
	}{
		{"one by one, the selection follows to the first violation", []arrivalStep{
			{want: []string{"verifying 3 compactions", "the verdicts appear here"}, not: []string{"VIOLATE", "DEGRADE", "#1 of"}},
			{verified: []int{0}, want: []string{"verified 1 of 3 compactions", "#1 turn 4 manual 50% ✓ degrade", "verifying 2 more", "#1 of 3", "DEGRADE — every item verified"},
				not: []string{"VIOLATE", "#2 turn"}},
			{verified: []int{1}, want: []string{"✗ 1 violate so far", "verified 2 of 3", "#2 turn 9", "verifying 1 more", "#2 of 3 · turn 9", "VIOLATE — the summary must not be consumed"},
				not: []string{"#3 turn"}},
			{final: true, want: []string{"3 compactions", "✗ 2 violate", "#3 turn 12", "#2 of 3"}, not: []string{"verifying", "so far", "verified 3"}},
		}},
		{"a batch at once", []arrivalStep{
			{verified: []int{0, 1, 2}, want: []string{"verified 3 of 3", "✗ 2 violate so far", "#3 turn 12", "#2 of 3"}, not: []string{"more …"}},
			{final: true, want: []string{"3 compactions", "#2 of 3"}, not: []string{"verifying", "so far"}},
		}},
		{"the reader's pick stays, then survives the whole result", []arrivalStep{
			{verified: []int{0}, keys: []string{"3"}, want: []string{"#1 of 3", "DEGRADE"}},
			{verified: []int{1}, want: []string{"#1 of 3", "✗ 1 violate so far"}, not: []string{"#2 of 3"}},
			{keys: []string{"]"}, want: []string{"#2 of 3", "VIOLATE"}},
			{keys: []string{"]"}, want: []string{"#2 of 3", "the next compactions are still being verified"}},
			{verified: []int{2}, keys: []string{"]"}, want: []string{"#3 of 3"}},
			{final: true, want: []string{"#3 of 3", "3 compactions"}, not: []string{"verifying", "so far"}},
		}},
		{"run-wide overlays wait for the whole run", []arrivalStep{
			{verified: []int{0}, keys: []string{"f"}, want: []string{"findings: shown once every compaction is verified"}, not: []string{"Findings"}},
			{final: true, keys: []string{"f"}, want: []string{"Findings"}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := fixtureResult(t)
			m := New(Options{Title: "fixture.jsonl", Load: func(func(Progress)) (*verify.Result, error) { return res, nil }, ClipDir: t.TempDir()})
			m.statusTTL = time.Millisecond
			m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
			m.startLoad(m.opt.Load) // its command is not run: the test sends what it would
			m.Update(progressMsg{req: m.loadReq, progress: Progress{Phase: "verifying 3 compactions", Unverified: verify.Unverified(res.Transcript)}})
			for i, st := range tc.steps {
				if len(st.verified) > 0 {
					var rs []*verify.CompactionResult
					for _, ci := range st.verified {
						rs = append(rs, res.Compactions[ci])
					}
					m.Update(progressMsg{req: m.loadReq, progress: Progress{Verified: rs}})
				}
				if st.final {
					m.Update(loadedMsg{req: m.loadReq, res: res})
				}
				press(m, st.keys...)
				s := screen(m)
				for _, w := range st.want {
					if !strings.Contains(s, w) {
						t.Errorf("step %d: the screen lacks %q:\n%s", i, w, s)
					}
				}
				for _, w := range st.not {
					if strings.Contains(s, w) {
						t.Errorf("step %d: the screen shows %q:\n%s", i, w, s)
					}
				}
			}
			if m.res != res {
				t.Error("the whole result did not replace the verdicts as they arrived")
			}
		})
	}
}

// TestVerifiedBatched: a loader handing out 10,000 results in a burst
// makes a handful of messages (one every ~50 ms), the first at once, in
// file order, and none after the load's end.
func TestVerifiedBatched(t *testing.T) {
	const n = 10000
	results := make([]*verify.CompactionResult, n)
	for i := range results {
		results[i] = &verify.CompactionResult{Seq: i + 1}
	}
	load := func(report func(Progress)) (*verify.Result, error) {
		report(Progress{Phase: "verifying", Unverified: &verify.Result{Pending: true}})
		for i, r := range results {
			report(Progress{Verified: []*verify.CompactionResult{r}})
			if i == n/2 {
				time.Sleep(3 * verifiedEvery) // the first half reaches the screen meanwhile
			}
		}
		time.Sleep(3 * verifiedEvery)
		return &verify.Result{}, nil
	}
	start := loadCmd(1, load, "")().(loadStartedMsg)
	msgs, got, ended := 0, 0, false
	for msg := range start.ch {
		switch msg := msg.(type) {
		case progressMsg:
			if ended {
				t.Fatal("a progress message after the load ended")
			}
			if len(msg.progress.Verified) == 0 {
				continue
			}
			msgs++
			for _, r := range msg.progress.Verified {
				if got++; r.Seq != got {
					t.Fatalf("result %d arrived as the %dth", r.Seq, got)
				}
			}
		case loadedMsg:
			ended = true
		}
	}
	if got != n {
		t.Errorf("%d of %d results reached the UI", got, n)
	}
	if msgs < 2 || msgs > 20 {
		t.Errorf("%d messages for %d results: want a few, one per ~%v", msgs, n, verifiedEvery)
	}
}

// TestVerdictsAheadOfTheReading: the verifier may hand out verdicts of
// compactions the file's beginning on screen does not reach yet; they show
// once the whole transcript is there.
func TestVerdictsAheadOfTheReading(t *testing.T) {
	res := fixtureResult(t)
	lines := strings.SplitAfter(fixtureJSONL, "\n")
	head := loadFixture(t, strings.Join(lines[:len(lines)/2], ""))
	if n := len(head.Compactions); n == 0 || n >= len(res.Compactions) {
		t.Fatalf("the beginning has %d of %d compactions", n, len(res.Compactions))
	}
	m := New(Options{Title: "fixture.jsonl", Load: func(func(Progress)) (*verify.Result, error) { return res, nil }})
	m.statusTTL = time.Millisecond
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m.startLoad(m.opt.Load)
	send := func(p Progress) { m.Update(progressMsg{req: m.loadReq, progress: p}) }
	send(Progress{Phase: "reading", Unverified: verify.Unverified(head), Partial: true})
	send(Progress{Verified: res.Compactions}) // every one, ahead of the reading
	s := screen(m)
	if got := len(m.res.Compactions); got != len(head.Compactions) {
		t.Errorf("%d compactions shown on a beginning that has %d", got, len(head.Compactions))
	}
	if !strings.Contains(s, "#1 turn 4") || strings.Contains(s, "#3 turn 12") || !strings.Contains(s, "reading the file") {
		t.Errorf("the beginning with its verdicts:\n%s", s)
	}
	send(Progress{Phase: "verifying", Unverified: verify.Unverified(res.Transcript)})
	s = screen(m)
	if !strings.Contains(s, "#3 turn 12") || !strings.Contains(s, "verified 3 of 3") {
		t.Errorf("the whole transcript with every verdict:\n%s", s)
	}
	m.Update(loadedMsg{req: m.loadReq, res: res})
	if s := screen(m); m.res != res || strings.Contains(s, "verifying") || !strings.Contains(s, "3 compactions") {
		t.Errorf("after the whole result:\n%s", s)
	}
}
