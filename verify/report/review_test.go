package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// reviewRun is a run whose one compaction loses a stated rule and an
// inferred (hypothetical) promise: the first violates, the second is review.
const reviewRun = `{"type":"meta","format":"loupe/v1","run":"review"}
{"type":"message","turn":1,"role":"user","text":"From now on, never push to main."}
{"type":"message","turn":2,"role":"assistant","text":"If the cache is still stale, we'll need to rebuild the CDN manifest."}
{"type":"compaction","turn":3,"seq":1,"trigger":"token_budget","summary":"Worked on the header."}
`

func reviewResult(t *testing.T, opt verify.Options) []*verify.Result {
	t.Helper()
	tr, err := model.Read(strings.NewReader(reviewRun), model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return []*verify.Result{verify.Run(tr, opt)}
}

// TestReviewItemsInEveryFormat: a review item is listed apart in every
// format with its cue and source, counted per kind, and is never a reason,
// a failure or a refusal.
func TestReviewItemsInEveryFormat(t *testing.T) {
	res := reviewResult(t, verify.Options{})
	rep := &Report{Results: res}
	var text, md, ju, js bytes.Buffer
	for _, w := range []struct {
		buf    *bytes.Buffer
		format string
	}{{&text, "text"}, {&md, "markdown"}, {&ju, "junit"}, {&js, "json"}} {
		if err := rep.Write(w.buf, w.format, TextOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "junit": ju.String()} {
		if !strings.Contains(out, "review (not counted): commitment dropped") || !strings.Contains(out, "hypothetical") {
			t.Errorf("%s does not list the review item with its cue:\n%s", name, out)
		}
		if !strings.Contains(out, "rebuild the CDN manifest") {
			t.Errorf("%s does not quote the review item's source:\n%s", name, out)
		}
	}
	if !strings.Contains(text.String(), "1 review (1 commitment)") {
		t.Errorf("text does not count review items per kind:\n%s", text.String())
	}
	if n := strings.Count(ju.String(), "<failure"); n != 1 {
		t.Errorf("JUnit has %d failures, want 1 (the rule; the review item is no failure):\n%s", n, ju.String())
	}
	var doc JSONReport
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Files[0].Compactions[0]
	if c.Review != 1 || c.ReviewByKind["commitment"] != 1 {
		t.Errorf("JSON review %d %v, want 1 commitment", c.Review, c.ReviewByKind)
	}
	for _, it := range c.Items {
		switch it.Kind {
		case verify.Commitment:
			if !it.Review || it.Basis != verify.Inferred || it.Status != verify.Dropped {
				t.Errorf("commitment: review %v basis %s status %s, want review, inferred, dropped", it.Review, it.Basis, it.Status)
			}
		case verify.Constraint:
			if it.Review || it.Basis != verify.Stated {
				t.Errorf("constraint: review %v basis %s, want counted, stated", it.Review, it.Basis)
			}
		}
	}
	for _, r := range c.Reasons {
		if strings.Contains(r, "manifest") {
			t.Errorf("a review item is a reason: %s", r)
		}
	}
	// --strict counts it.
	strict := reviewResult(t, verify.Options{Strict: true})
	sc := ToJSON(strict[0]).Compactions[0]
	if sc.Review != 0 || !strings.Contains(strings.Join(sc.Reasons, "\n"), "manifest") {
		t.Errorf("strict: review %d, reasons %v; want the promise counted", sc.Review, sc.Reasons)
	}
}
