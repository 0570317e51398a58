package verify

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
)

func migrationResult(t *testing.T) (*Result, *model.Transcript) {
	t.Helper()
	r, err := sampledata.Open("migration")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tr, err := model.Read(r, model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Run(tr, Options{}), tr
}

func TestRehydrateMigration(t *testing.T) {
	res, tr := migrationResult(t)
	cases := []struct {
		seq      int
		want     []string // in this order
		owed     int
		noBlocks bool
	}{
		{seq: 2, owed: 1, want: []string{"pending tool call call_7c41e9 (bash, turn 613)", "“go test ./... -run Integration -timeout 30m”"}},
		{seq: 4, owed: 1, want: []string{
			"re-run the migration (promised at turn 210, after the schema diff is reviewed)",
			"source, the agent at turn 210: “I will re-run the migration after the schema diff is reviewed.”"}},
		// Newest first within a kind; a flipped item says so.
		{seq: 5, owed: 2, want: []string{"open the PR for the orders table (promised at turn 1148, once CI is green); the summary presents it as done",
			"re-run the migration (promised at turn 210"}},
		// Finished work the summary presents as open comes after what is owed.
		{seq: 6, owed: 2, want: []string{"re-run the migration (promised at turn 210", "already done: commitment “Add the orders_by_customer index” (plan t6 completed at turn 1389)"}},
		{seq: 7, noBlocks: true},
		{seq: 11, noBlocks: true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.seq), func(t *testing.T) {
			rh := Rehydrate(res.Compactions[c.seq-1], tr.Events, RehydrateOptions{Transcript: "run.jsonl"})
			if c.noBlocks {
				if rh.Text != "" || len(rh.Items) != 0 {
					t.Fatalf("a degrading compaction owes nothing, got %q", rh.Text)
				}
				return
			}
			if len(rh.Items) != c.owed || len(rh.Omitted) != 0 {
				t.Fatalf("items %d omitted %d, want %d and 0:\n%s", len(rh.Items), len(rh.Omitted), c.owed, rh.Text)
			}
			at := 0
			for _, w := range c.want {
				i := strings.Index(rh.Text[at:], w)
				if i < 0 {
					t.Fatalf("block lacks %q after byte %d:\n%s", w, at, rh.Text)
				}
				at += i + len(w)
			}
			if !strings.Contains(rh.Text, "run.jsonl") {
				t.Errorf("block does not name the transcript:\n%s", rh.Text)
			}
		})
	}
}

func hostile(t *testing.T) (*CompactionResult, []model.Event) {
	t.Helper()
	tr, err := model.Open("testdata/rehydrate/hostile.jsonl", model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(tr, Options{})
	return res.Compactions[0], tr.Events
}

// Transcript text reaches an agent's context and a terminal: no escape
// sequence, control character or bidi override gets through.
func TestRehydrateSanitizes(t *testing.T) {
	cr, events := hostile(t)
	rh := Rehydrate(cr, events, RehydrateOptions{})
	if rh.Text == "" {
		t.Fatal("nothing owed")
	}
	for _, r := range rh.Text {
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("block holds %U:\n%q", r, rh.Text)
		}
	}
	for _, w := range []string{"␛[31mchangelog", "⟨U+202E⟩", "␛]52;c;"} {
		if !strings.Contains(rh.Text, w) {
			t.Errorf("block should show %q visibly:\n%s", w, rh.Text)
		}
	}
}

func TestRehydrateRanksKinds(t *testing.T) {
	cr, events := hostile(t)
	rh := Rehydrate(cr, events, RehydrateOptions{})
	var got []Kind
	for _, o := range rh.Items {
		got = append(got, o.Kind)
	}
	want := []Kind{Handle, Commitment, Error, Constraint, Identifier}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("kinds in %v, want %v", got, want)
	}
}

// The cap holds whatever is owed, the lowest-ranked items go first, and
// the block says what it left out.
func TestRehydrateCap(t *testing.T) {
	cr, events := hostile(t)
	for _, maxChars := range []int{MinRehydrateChars, 600, 700} {
		rh := Rehydrate(cr, events, RehydrateOptions{MaxChars: maxChars, Transcript: "hostile.jsonl"})
		if rh.Chars() > maxChars {
			t.Errorf("cap %d: block is %d chars", maxChars, rh.Chars())
		}
		if len(rh.Omitted) == 0 {
			t.Errorf("cap %d: nothing left out of %d items", maxChars, len(cr.Items))
			continue
		}
		if len(rh.Items) > 0 && rh.Items[0].Kind != Handle {
			t.Errorf("cap %d: the pending call should be kept first, got %s", maxChars, rh.Items[0].Kind)
		}
		if !strings.Contains(rh.Text, "Left out for length:") || !strings.Contains(rh.Text, "loupe rehydrate --compaction 1") {
			t.Errorf("cap %d: block does not say what it left out:\n%s", maxChars, rh.Text)
		}
	}
}

// A long run with hundreds of open promises stays under the default cap,
// counted as the runtimes count (UTF-16 code units).
func TestRehydrateDefaultCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"meta","format":"loupe/v1"}` + "\n")
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&b, `{"type":"message","turn":%d,"role":"assistant","text":"I will port module 𝔪%03d to the new API after the freeze ends."}`+"\n", i, i)
	}
	b.WriteString(`{"type":"compaction","turn":401,"seq":1,"summary":"Work on the API port."}` + "\n")
	path := t.TempDir() + "/many.jsonl"
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := model.Open(path, model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(tr, Options{})
	rh := Rehydrate(res.Compactions[0], tr.Events, RehydrateOptions{})
	if rh.Chars() > DefaultRehydrateChars {
		t.Fatalf("block is %d chars, over %d", rh.Chars(), DefaultRehydrateChars)
	}
	if len(rh.Omitted) == 0 || len(rh.Items) < 20 {
		t.Fatalf("items %d omitted %d: the cap should keep many and leave some out", len(rh.Items), len(rh.Omitted))
	}
	if !strings.Contains(rh.Items[0].Line, "𝔪400") {
		t.Errorf("the newest promise should come first, got %q", rh.Items[0].Line)
	}
}
