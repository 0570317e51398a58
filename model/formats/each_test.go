package formats

import (
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// TestOpenEach: every format hands OpenEach the events Open keeps, in
// order and numbered alike, with the same meta and problems, and keeps
// none itself; a file in which nothing reads as the forced format is the
// same error.
func TestOpenEach(t *testing.T) {
	for _, path := range []string{"../testdata/tiny.jsonl", claudeReal, claudeSynth, codexRemote, geminiJSONL, ohV0, piV3} {
		whole, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var got []model.Event
		tr, err := OpenEach(path, Options{}, func(tr *model.Transcript, e model.Event) { got = append(got, e) })
		if err != nil {
			t.Fatalf("%s: OpenEach: %v", path, err)
		}
		if len(tr.Events) != 0 {
			t.Errorf("%s: OpenEach kept %d events", path, len(tr.Events))
		}
		if len(got) != len(whole.Events) {
			t.Fatalf("%s: %d events handed on, Open reads %d", path, len(got), len(whole.Events))
		}
		for i, e := range got {
			w := whole.Events[i]
			if e.Kind() != w.Kind() || e.Header().Index != i || e.Header().Line != w.Header().Line {
				t.Errorf("%s: event %d is %v at line %d (index %d), Open's is %v at line %d", path, i, e.Kind(), e.Header().Line, e.Header().Index, w.Kind(), w.Header().Line)
			}
		}
		if !reflect.DeepEqual(tr.Meta, whole.Meta) || tr.Runtime != whole.Runtime || len(tr.Compactions) != len(whole.Compactions) {
			t.Errorf("%s: meta %+v runtime %q %d compactions; Open: %+v %q %d", path, tr.Meta, tr.Runtime, len(tr.Compactions), whole.Meta, whole.Runtime, len(whole.Compactions))
		}
		if g, w := problemsText(tr.Problems), problemsText(whole.Problems); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: problems\n%v\nOpen's\n%v", path, g, w)
		}
	}
	f, err := os.Open("../testdata/tiny.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	if _, err := OpenReaderEach(f, "-", Options{}, func(*model.Transcript, model.Event) { n++ }); err != nil || n == 0 {
		t.Errorf("OpenReaderEach: %d events, %v", n, err)
	}
	_, err = OpenEach(claudeSynth, Options{From: "codex"}, func(*model.Transcript, model.Event) {})
	var nr *NothingReadError
	if !errors.As(err, &nr) || nr.Format != "codex" {
		t.Errorf("forcing codex on a Claude Code file: %v", err)
	}
}

func problemsText(ps model.Problems) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Error())
	}
	return out
}
