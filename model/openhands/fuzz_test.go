package openhands

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// FuzzImport: any records as the event files of an OpenHands conversation
// (V1 names when the first holds a "kind", V0 ones otherwise; the last
// record may be base_state.json) import without panic, keep the
// transcript's invariants and convert to loupe JSONL and back unchanged.
func FuzzImport(f *testing.F) {
	for _, dir := range []string{"testdata/v0/sid-synthetic", "testdata/v0/sid-tasks", "testdata/v1/synthetic"} {
		files, _ := listEvents(eventsDir(dir))
		var paths []string
		for _, ef := range files {
			paths = append(paths, ef.path)
		}
		f.Add(kittest.JoinFiles(f, paths...))
	}
	// A condensation forgetting a range reaching the end of int64.
	f.Add([]byte(`{"id":0,"source":"user","action":"message","args":{"content":"hi"}}` + kittest.RecordSep +
		`{"id":1,"source":"agent","action":"condensation","args":{"forgotten_events_start_id":0,"forgotten_events_end_id":9223372036854775807}}`))
	root := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, data []byte) {
		n++
		conv := filepath.Join(root, fmt.Sprint(n))
		events := filepath.Join(conv, "events")
		if err := os.MkdirAll(events, 0o755); err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(conv)
		recs := kittest.Records(data)
		v1 := bytes.Contains(recs[0], []byte(`"kind"`))
		for i, r := range recs {
			name := fmt.Sprintf("%d.json", i)
			if v1 {
				name = fmt.Sprintf("event-%05d-%08x.json", i, i)
			}
			if i == len(recs)-1 && i > 0 && bytes.Contains(r, []byte(`"agent"`)) {
				name = "../base_state.json"
			}
			if err := os.WriteFile(filepath.Join(events, name), r, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		kittest.ImportDir(t, Open, conv, nil)
		if _, err := Scan(conv); err != nil {
			t.Fatalf("Scan: %v", err)
		}
	})
}
