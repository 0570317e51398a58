package verify

import (
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
)

// TestSourceBytesAreTheReplacedSpan: the stream counts each compaction's
// source as the events go by; it is the previous summary and the source
// events of the transcript's replaced span, as a reader holding the whole
// transcript would count them.
func TestSourceBytesAreTheReplacedSpan(t *testing.T) {
	for _, name := range []string{"migration", "clean", "tiny"} {
		r, err := sampledata.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := model.Read(r, model.ReadOptions{Name: name})
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		res := Run(tr, Options{})
		if len(res.Compactions) != len(tr.Compactions) || len(tr.Compactions) == 0 {
			t.Fatalf("%s: %d results for %d compactions", name, len(res.Compactions), len(tr.Compactions))
		}
		for i, c := range tr.Compactions {
			want := 0
			if p := tr.Previous(c); p != nil {
				want = len(p.Summary)
			}
			lo, hi := tr.ReplacedSpan(c)
			for _, e := range tr.Events[lo:hi] {
				if model.IsSource(e) {
					want += eventBytes(e)
				}
			}
			if got := res.Compactions[i].SourceBytes; got != want {
				t.Errorf("%s: compaction %d: source %d bytes, the replaced span and previous summary are %d", name, c.Seq, got, want)
			}
		}
	}
}
