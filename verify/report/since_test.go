package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

// Text with -v writes an item when it is new or changed and counts the
// others in one line; --evidence all writes every item each time.
func TestVerboseTextListsWhatChanged(t *testing.T) {
	res := keptRun(t)
	text := func(all bool) string {
		var b bytes.Buffer
		if err := (&Report{Results: []*verify.Result{res}, EvidenceAll: all}).Text(&b, TextOptions{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	changed, all := text(false), text(true)
	promise := "re-run the migration (turn 2) "
	if n := strings.Count(changed, promise); n != 3 {
		t.Errorf("-v lists the promise %d times, want 3 (new at #1, lost at #3, kept again at #4):\n%s", n, changed)
	}
	// The rule, written in full at #1, is counted at #2…#5 as unchanged
	// since then; the promise, written again at #4, since #4 at #5.
	for want, n := range map[string]int{"2 items unchanged since #1": 1, "1 item unchanged since #1": 2, "2 items unchanged since #4": 1} {
		if got := strings.Count(changed, want); got != n {
			t.Errorf("-v says %q %d times, want %d:\n%s", want, got, n, changed)
		}
	}
	if n := strings.Count(all, promise); n != 5 || strings.Contains(all, "unchanged since") {
		t.Errorf("-v --evidence all lists the promise %d times, want 5, and nothing unchanged:\n%s", n, all)
	}
}

// A review item lost by consecutive summaries has its full note once, then
// a line pointing at it, in text, Markdown and JUnit.
func TestReviewNoteOnce(t *testing.T) {
	res := runOf(t, "If the cache keeps failing, I'll switch the sessions to the Redis backend.",
		"Never push to main.", "Never push to main. The cache was looked at.", "Never push to main. The cache was looked at again.")
	var reviews int
	for _, c := range res.Compactions {
		n, _ := c.ReviewCount()
		reviews += n
	}
	if reviews != 3 {
		t.Fatalf("%d review items over 3 compactions, want the hypothetical in each", reviews)
	}
	writers := map[string]func(*bytes.Buffer, *Report) error{
		"text":     func(b *bytes.Buffer, r *Report) error { return r.Text(b, TextOptions{}) },
		"markdown": func(b *bytes.Buffer, r *Report) error { return r.Markdown(b) },
		"junit":    func(b *bytes.Buffer, r *Report) error { return r.JUnit(b) },
	}
	for name, w := range writers {
		var b bytes.Buffer
		if err := w(&b, &Report{Results: []*verify.Result{res}}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if full, short := strings.Count(out, "· cue: "), strings.Count(out, "), unchanged since #1"); full != 1 || short != 2 {
			t.Errorf("%s: %d full review notes and %d short ones, want 1 and 2:\n%s", name, full, short, out)
		}
	}
}

// Markdown details each violating compaction with a row per item that is
// new or changed since the one detailed before, and counts the others.
func TestMarkdownViolationsListWhatChanged(t *testing.T) {
	res := runOf(t, "I'll re-run the migration after the schema diff is reviewed.",
		"Never push to main.", "Never push to main. The orders table exists.", "The orders table exists.")
	if res.Violations() != 3 {
		t.Fatalf("%d violating compactions, want 3 (each loses the promise)", res.Violations())
	}
	var b bytes.Buffer
	if err := (&Report{Results: []*verify.Result{res}}).Markdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "\n| commitment | re-run the migration |"); n != 1 {
		t.Errorf("the lost promise has %d rows, want 1 (then counted as unchanged):\n%s", n, out)
	}
	if n := strings.Count(out, "\n| constraint | Never push to main. |"); n != 2 {
		t.Errorf("the rule has %d rows, want 2 (kept, then lost at #3):\n%s", n, out)
	}
	for _, want := range []string{"\n2 items, as in compaction 1 above.", "\n1 more item, as in compaction 1 above."} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
