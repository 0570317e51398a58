package verify

import (
	"slices"
	"testing"

	"github.com/loupe-dev/loupe/verify/lang"
)

func TestIdentifierBoundaries(t *testing.T) {
	shas := new(shaSet)
	for _, h := range []string{"3f9c2ab17", "3f9c2ff00", "3f9c2ab17"} {
		shas.add(h)
	}
	cases := []struct {
		id      lang.Ident
		summary string
		found   bool
	}{
		{lang.Ident{Value: "#12", Class: lang.ClassPR}, "See issue #123.", false},
		{lang.Ident{Value: "#12", Class: lang.ClassPR}, "See PR 12.", true},
		{lang.Ident{Value: "#4412", Class: lang.ClassPR}, "https://github.com/o/r/pull/4412", true},
		{lang.Ident{Value: "ORD-1881", Class: lang.ClassTicket}, "ticket ORD-18810", false},
		{lang.Ident{Value: "ORD-1881", Class: lang.ClassTicket}, "ticket ORD-1881.", true},
		{lang.Ident{Value: "src/auth.ts", Class: lang.ClassPath}, "fix src/oauth.ts", false},
		{lang.Ident{Value: "internal/orders/store.go", Class: lang.ClassPath}, "edit orders/store.go:88", true},
		{lang.Ident{Value: "3f9c2ab17", Class: lang.ClassSHA}, "commit 3f9c2ab", true},
		{lang.Ident{Value: "3f9c2ab17", Class: lang.ClassSHA}, "commit 3f9c2", false},
		{lang.Ident{Value: "feature/orders", Class: lang.ClassBranch}, "branch feature/orders-v2", false},
		{lang.Ident{Value: "feature/orders", Class: lang.ClassBranch}, "pushed feature/orders.", true},
	}
	for _, c := range cases {
		d := parseSummary(c.summary)
		if got := d.findIdent(c.id, shas).found; got != c.found {
			t.Errorf("%s in %q: found %v, want %v", c.id.Value, c.summary, got, c.found)
		}
	}
	d := parseSummary("Unit tests passed (call_12).")
	if _, ok := d.findVerbatim("call_1"); ok {
		t.Error("call_1 found inside call_12")
	}
	if _, ok := d.findVerbatim("call_12"); !ok {
		t.Error("call_12 not found")
	}
	if got := d.findIdent(lang.Ident{Value: "internal/orders/store.go", Class: lang.ClassPath}, nil); got.found {
		t.Error("unrelated path found")
	}
	if got := parseSummary("store.go is fixed").findIdent(lang.Ident{Value: "internal/orders/store.go", Class: lang.ClassPath}, nil); !got.weak {
		t.Error("a bare file name should be weak evidence for a path with directories")
	}
}

func TestPolarity(t *testing.T) {
	at := newAtom(lang.ParseAction("rebase the branch onto main"))
	cases := map[string]Polarity{
		"Rebased the branch onto main.":                              Done,
		"Pending: rebase the branch onto main.":                      Pending,
		"Still need to rebase the branch onto main.":                 Pending,
		"We will not rebase the branch onto main.":                   Negated,
		"Will rebase the branch onto main once the fix has merged.":  Pending,
		"The branch has been rebased onto main.":                     Done,
		"- [x] Rebase the branch onto main":                          Done,
		"3. [TODO] Rebase the branch onto main":                      Pending,
		"The branch rebase onto main was cancelled.":                 Negated,
		"## Completed\n- Rebase the branch onto main":                Done,
		"7. Pending Tasks:\n   - Rebase the branch onto main":        Pending,
		"<current_plan>\n2. [IN PROGRESS] Rebase branch onto main\n": Pending,
		// A need told in the past is narrative, not work to do.
		"Errors: the branch needed to be rebased onto main, so it was.": Done,
		"Still needed to rebase the branch onto main.":                  Pending,
		// An open question about the step, a report of what it was, and
		// what someone said are not the step presented as pending.
		"9. Optional Next Step:\n- Whether the branch rebase onto main deviates from the release lesson": Neutral,
		"- Fixed rebase error: the branch should be rebased onto main before the merge":                  Done,
		"- The user said the branch will be rebased onto main by the release team":                       Neutral,
		"- The branch will be rebased onto main after the user said so":                                  Pending,
	}
	for text, want := range cases {
		r := parseSummary(text).match(at)
		if !r.found {
			t.Errorf("%q: no match", text)
			continue
		}
		if r.polarity != want {
			t.Errorf("%q: polarity %s (%s), want %s", text, r.polarity, r.cue, want)
		}
	}
}

func TestSectionHeadings(t *testing.T) {
	cases := map[string]Polarity{
		"7. Pending Tasks:":                Pending,
		"9. Optional Next Step:":           Pending,
		"8. Current Work:":                 Neutral,
		"### Completed":                    Done,
		"### Active":                       Pending,
		"## Exact Next Steps":              Pending,
		"PENDING: backfill totals":         Pending,
		"COMPLETED: unit suite":            Done,
		"6. Pending Tasks and Next Steps:": Pending,
		"<recent_actions>":                 Done,
		"**Outstanding TODOs**":            Pending,
		"4. Errors and fixes:":             Neutral,
		"2. Key Technical Concepts:":       Neutral,
	}
	for line, want := range cases {
		d := parseSummary(line + "\nsomething")
		if len(d.sections) != 1 {
			t.Errorf("%q: %d sections, want 1", line, len(d.sections))
			continue
		}
		if got := d.sections[0].Polarity; got != want {
			t.Errorf("%q: polarity %s, want %s", line, got, want)
		}
	}
}

// TestSHASetPrefixed: the run's SHAs kept two digits to a byte count the
// SHAs a prefix starts as the strings did, each SHA once.
func TestSHASetPrefixed(t *testing.T) {
	var s shaSet
	for _, h := range []string{"3f9c2ab17", "3f9c2ff00", "3f9c2ab17", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "0bad1dea"} {
		s.add(h)
	}
	for _, c := range []struct {
		prefix string
		want   int
	}{
		{"3f9c2", 2}, {"3f9c2a", 1}, {"3f9c2ab17", 1}, {"3f9c2ab170", 0}, {"3F9C2", 0}, {"a1b2c3d4e5f6071", 1},
		{"0bad1de", 1}, {"0bad1dea", 1}, {"0bad1deb", 0}, {"zz", 0}, {"", 4},
	} {
		if got := s.prefixed(c.prefix, 10); got != c.want {
			t.Errorf("prefixed(%q) = %d, want %d", c.prefix, got, c.want)
		}
	}
	if got := s.prefixed("", 2); got != 2 {
		t.Errorf("prefixed stops at most: got %d", got)
	}
	var none *shaSet
	if none.prefixed("3f9c2", 2) != 0 {
		t.Error("no set, no SHA")
	}
}

// An error's token is found in a summary where a search through the whole
// text finds it (lang.FindBounded from the end of each mention), whether
// it is one run of identifier bytes or several: the index of runs only
// spares the search.
func TestBoundedTokensAreTheSearchesMentions(t *testing.T) {
	text := "- `go test ./services/orders/...` still fails: services/orders/store.go:88:3: undefined: billing.Money\n" +
		"- services/orders/store.go:88 and services/orders/store.go.bak; billing.Money. billing.MoneyX _billing.Money\n" +
		"- a/b/a/b/a a/b/a. TestCreateOrder/sub-case ok; -x.y -x.yz .dot .dot.\n" +
		"services/orders/store.go:88"
	d := &doc{text: text}
	for _, tok := range []string{"services/orders/store.go:88", "services/orders/store.go", "billing.Money", "a/b/a",
		"TestCreateOrder/sub-case", "TestCreateOrder", "-x.y", ".dot", "store.go:88:3", "missing/thing", "Money"} {
		var want []int
		for off := 0; off < len(text); {
			i := lang.FindBounded(text[off:], tok, lang.IsIdentByte, lang.IsIdentByte, false)
			if i < 0 {
				break
			}
			want = append(want, off+i)
			off += i + len(tok)
		}
		for range 2 { // the second answer is the one kept
			if got := d.boundedAll(tok); !slices.Equal(got, want) {
				t.Errorf("%q: found at %v, the search finds it at %v", tok, got, want)
			}
		}
	}
}
