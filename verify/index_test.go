package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/sampledata/shapes"
)

// TestIndexesAgree runs every labelled, real and fixture transcript, and
// every generated run shape at a small size, with each index of the sweep
// checked against the exhaustive scan it replaces: an index may only
// narrow the items a step looks at, never miss one the scan would act on.
// The reports are byte-identical to the scans' only if this holds.
func TestIndexesAgree(t *testing.T) {
	var misses []string
	indexCheck = func(what string) {
		if len(misses) < 20 {
			misses = append(misses, what)
		}
	}
	// Every index in use whatever the number of open items.
	below := scanBelow
	scanBelow = 0
	defer func() { indexCheck, scanBelow = nil, below }()
	check := func(t *testing.T, tr *model.Transcript) {
		misses = misses[:0]
		Run(tr, Options{})
		for _, m := range misses {
			t.Error(m)
		}
	}
	var paths []string
	for _, pat := range []string{"testdata/*/*.jsonl", "testdata/real/*/*.jsonl.gz", "../../shared/eval/dev/*.jsonl", "../../shared/fixtures/*/*.jsonl"} {
		m, _ := filepath.Glob(pat)
		for i, p := range m {
			if raceDetector && i%4 != 0 {
				continue // a quarter under -race (.ci/run also runs it whole without)
			}
			paths = append(paths, p)
		}
	}
	if len(paths) < 50 {
		t.Fatalf("only %d transcripts found", len(paths))
	}
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, "testdata/"), func(t *testing.T) {
			tr, err := formats.Open(p, formats.Options{})
			if err != nil {
				t.Skip(err) // bad input is another test's business
			}
			check(t, tr)
		})
	}
	// Many open commitments whose words a call names only as a prefix
	// ("mock" in mockgen), and a claim through the head's alternative.
	var b strings.Builder
	b.WriteString(`{"type":"meta","format":"loupe/v1","run":"prefix"}` + "\n")
	for i := range 20 {
		fmt.Fprintf(&b, `{"type":"message","turn":%d,"role":"assistant","text":"I'll regenerate the mocks for service%d after the API review."}`+"\n", i+1, i)
	}
	b.WriteString(`{"type":"message","turn":20,"role":"assistant","text":"I'll migrate the staging orders database after the review."}` + "\n")
	b.WriteString(`{"type":"message","turn":20,"role":"assistant","text":"Then I'll migrate the orders database once it is approved."}` + "\n")
	b.WriteString(`{"type":"message","turn":21,"role":"assistant","text":"I'll rebuild the search index for fr-FR once de-DE is loaded."}` + "\n")
	b.WriteString(`{"type":"message","turn":22,"role":"assistant","text":"Finished the fr-FR reindexing."}` + "\n")
	b.WriteString(`{"type":"plan","turn":23,"items":[{"id":"d2","text":"Backfill sessions_hourly for 2024-03","status":"pending"}]}` + "\n")
	b.WriteString(`{"type":"message","turn":24,"role":"assistant","text":"The hourly backfill for 2024-03 is finished."}` + "\n")
	b.WriteString(`{"type":"message","turn":25,"role":"assistant","text":"I'll remove the stale cache entries after the deploy."}` + "\n")
	b.WriteString(`{"type":"message","turn":26,"role":"assistant","text":"Cleaned up the stale cache entries."}` + "\n")
	b.WriteString(`{"type":"tool_call","turn":30,"id":"c1","name":"bash","input":{"command":"mockgen -source=service7.go"}}` + "\n")
	b.WriteString(`{"type":"tool_result","turn":30,"id":"c1","text":"ok"}` + "\n")
	b.WriteString(`{"type":"message","turn":31,"role":"assistant","text":"Regenerated the mocks for service7."}` + "\n")
	b.WriteString(`{"type":"compaction","turn":32,"seq":1,"summary":"Pending: regenerate the mocks for service3."}` + "\n")
	t.Run("prefix", func(t *testing.T) {
		tr, err := model.Read(strings.NewReader(b.String()), model.ReadOptions{Name: "prefix.jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		check(t, tr)
	})
	seeds := uint64(2)
	if raceDetector {
		seeds = 1
	}
	for _, s := range shapes.All() {
		if s.IsDir() {
			continue // a project of tiny Claude Code sessions: claude-code covers the importer's shape
		}
		for seed := uint64(1); seed <= seeds; seed++ {
			size := s.Small
			if testing.Short() || raceDetector {
				size = "100KB"
			}
			t.Run(s.Name, func(t *testing.T) {
				n, err := kittest.ParseSize(size)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := s.Write(&buf, n, shapes.Options{Seed: seed, Sessions: filepath.Join("..", shapes.DefaultSessions)}); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(t.TempDir(), s.File)
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				tr, err := formats.Open(path, formats.Options{})
				if err != nil {
					t.Fatal(err)
				}
				check(t, tr)
			})
		}
	}
}

// TestCallFieldFilter: an input mayHaveField rules out sets no field of
// callInput when unmarshalled, on edge cases and every call of the corpora.
func TestCallFieldFilter(t *testing.T) {
	inputs := []string{`{"p":"f1"}`, `{"Command":"ls"}`, `{"PATH":"x"}`, `{"\u0070ath":"x"}`, `{"ſcript":"x"}`,
		`{"FilePath":"a.go"}`, `{"q":"path"}`, `{"x":1}`, `[1,2]`, `"str"`}
	paths, _ := filepath.Glob("testdata/*/*.jsonl")
	if !raceDetector { // the real sessions are tens of megabytes
		more, _ := filepath.Glob("testdata/real/*/*.jsonl.gz")
		paths = append(paths, more...)
	}
	for _, p := range paths {
		tr, err := formats.Open(p, formats.Options{})
		if err != nil {
			continue
		}
		for _, e := range tr.Events {
			if c, ok := e.(*model.ToolCall); ok {
				inputs = append(inputs, c.Input.Head())
			}
		}
	}
	skipped := 0
	for _, in := range inputs {
		if mayHaveField(in) {
			continue
		}
		skipped++
		var got callInput
		_ = json.Unmarshal([]byte(in), &got)
		if !reflect.DeepEqual(got, callInput{}) {
			t.Errorf("mayHaveField skips %q, which sets %+v", in, got)
		}
	}
	if skipped == 0 {
		t.Error("the filter never skips an input")
	}
}
