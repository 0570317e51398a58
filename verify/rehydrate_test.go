package verify

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

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

// owedWant is an item a block must hold: loupe's line, and excerpts by
// label.
type owedWant struct {
	line     string
	excerpts map[string]string
}

func TestRehydrateMigration(t *testing.T) {
	res, tr := migrationResult(t)
	cases := []struct {
		seq      int
		want     []owedWant // in this order
		noBlocks bool
	}{
		{seq: 2, want: []owedWant{{"pending tool call (turn 613): its result had not been read when the context was compacted; the summary says what the call was doing but not its id",
			map[string]string{"call id": "call_7c41e9", "tool": "bash", "call": "go test ./... -run Integration -timeout 30m"}}}},
		{seq: 4, want: []owedWant{{"open commitment (promised at turn 210)", map[string]string{
			"what": "re-run the migration", "on the condition": "after the schema diff is reviewed",
			"as written by the agent at turn 210": "I will re-run the migration after the schema diff is reviewed."}}}},
		// Newest first within a kind; a flipped item says so.
		{seq: 5, want: []owedWant{
			{"open commitment (promised at turn 1148); the summary presents it as done, but the source does not show it done",
				map[string]string{"what": "open the PR for the orders table", "on the condition": "once CI is green"}},
			{"open commitment (promised at turn 210)", map[string]string{"what": "re-run the migration"}}}},
		// Finished work the summary presents as open comes after what is owed.
		{seq: 6, want: []owedWant{
			{"open commitment (promised at turn 210)", map[string]string{"what": "re-run the migration"}},
			{"already done: a commitment closed at turn 1389; the summary presents it as still open",
				map[string]string{"what": "Add the orders_by_customer index", "closed by": "plan t6 completed at turn 1389"}}}},
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
			if len(rh.Items) != len(c.want) || len(rh.Omitted) != 0 {
				t.Fatalf("items %d omitted %d, want %d and 0:\n%s", len(rh.Items), len(rh.Omitted), len(c.want), rh.Text)
			}
			at := 0
			for i, w := range c.want {
				o := rh.Items[i]
				if o.Line != w.line {
					t.Errorf("item %d: line %q, want %q", i, o.Line, w.line)
				}
				for label, text := range w.excerpts {
					if !slices.Contains(o.Excerpts, Excerpt{Label: label, Text: text}) {
						t.Errorf("item %d lacks the excerpt %s: %q; it has %q", i, label, text, o.Excerpts)
					}
				}
				// The block holds the items in this order.
				j := strings.Index(rh.Text[at:], "- "+w.line+"\n")
				if j < 0 {
					t.Fatalf("block lacks %q after byte %d:\n%s", w.line, at, rh.Text)
				}
				at += j
			}
			if !strings.Contains(rh.Text, "```\nrun.jsonl\n```") {
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
	for _, maxChars := range []int{MinRehydrateChars, MinRehydrateChars + 200, MinRehydrateChars + 300} {
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
	if what, _ := excerptOf(rh.Items[0], "what"); !strings.Contains(what, "𝔪400") {
		t.Errorf("the newest promise should come first, got %q", rh.Items[0].Excerpts)
	}
}

func excerptOf(o Owed, label string) (string, bool) {
	for _, e := range o.Excerpts {
		if e.Label == label {
			return e.Text, true
		}
	}
	return "", false
}

// An excerpt is one inert line, clipped at a rune boundary, and its fence
// is longer than any run of backticks in it.
func TestInertExcerpt(t *testing.T) {
	cases := []struct{ in, want, fence string }{
		{"plain", "plain", "```"},
		{"a ``` b", "a ``` b", "````"},
		{"``````````", "``````````", "```````````"},
		{"line\nbreak\u2028sep\ttab", "line break sep tab", "```"},
		{"</system-reminder> <x> ‹y› a < b", "‹/system-reminder> ‹x> ⟨U+2039⟩y› a ‹ b", "```"},
		{"\x1b[31mred\u202e\u200b", "␛[31mred⟨U+202E⟩⟨U+200B⟩", "```"},
	}
	for _, c := range cases {
		got := inert(c.in, 1000)
		if got != c.want {
			t.Errorf("inert(%q) = %q, want %q", c.in, got, c.want)
		}
		if f := fenced(got); f != c.fence+"\n"+got+"\n"+c.fence {
			t.Errorf("fenced(%q) = %q, want fence %q", got, f, c.fence)
		}
	}
	long := strings.Repeat("é𝔪`", 200)
	for n := 1; n < 40; n++ {
		got := inert(long, n)
		if !utf8.ValidString(got) || len(got) > n+len("…") || !strings.HasSuffix(got, "…") {
			t.Fatalf("inert(…, %d) = %q", n, got)
		}
	}
	// A cut after a joiner or a variation selector leaves it with nothing
	// to join: it is shown, as Sanitize shows one anywhere else.
	for _, s := range []string{strings.Repeat("👩\u200d💻", 4), strings.Repeat("é\ufe0f", 8)} {
		for n := 1; n < 30; n++ {
			if got := inert(s, n); !model.IsSafe(got) {
				t.Errorf("inert(%q, %d) = %q: Sanitize would change it", s, n, got)
			}
		}
	}
}
