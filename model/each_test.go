package model

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestOpenEachChecksAlike: a reader that hands the events on and keeps
// none finds the same problems, consistency warnings included, as one
// that keeps them, and numbers the events alike.
func TestOpenEachChecksAlike(t *testing.T) {
	const run = `{"type":"message","turn":1,"role":"user","text":"go"}
{"type":"meta","format":"loupe/v1","run":"r"}
{"type":"tool_call","turn":2,"id":"c1","name":"sh","input":{"command":"ls"}}
{"type":"tool_result","turn":2,"id":"c1","text":"ok"}
{"type":"tool_result","turn":2,"id":"c1","text":"again"}
{"type":"tool_result","turn":3,"id":"nope","text":"?"}
{"type":"tool_call","turn":1,"id":"c1","name":"sh","input":{}}
not json
{"type":"compaction","turn":4,"seq":2,"trigger":"auto","summary":"s"}
{"type":"compaction","turn":5,"seq":4,"trigger":"auto","summary":"t"}
`
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, err := Open(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []Event
	tr, err := OpenEach(path, ReadOptions{}, func(_ *Transcript, e Event) { got = append(got, e) })
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 0 || len(got) != len(whole.Events) {
		t.Fatalf("kept %d, handed %d, Open read %d", len(tr.Events), len(got), len(whole.Events))
	}
	for i, e := range got {
		if e.Header().Index != i {
			t.Errorf("event %d has index %d", i, e.Header().Index)
		}
	}
	if len(whole.Problems) < 7 {
		t.Fatalf("the run should have problems of every kind, Open found %v", whole.Problems)
	}
	if !reflect.DeepEqual(tr.Problems, whole.Problems) {
		t.Errorf("OpenEach's problems:\n%v\nOpen's:\n%v", tr.Problems, whole.Problems)
	}
	if len(tr.Compactions) != 2 || tr.Meta.Run != "r" || tr.Bytes != int64(len(run)) {
		t.Errorf("compactions %d, meta %+v, bytes %d", len(tr.Compactions), tr.Meta, tr.Bytes)
	}
}
