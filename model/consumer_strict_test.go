package model

import (
	"bytes"
	"strings"
	"testing"
)

// TestStrictConsumer: a consumer marked strict in the meta line reads back
// strict, survives a write, and a strict that is not a boolean is bad input.
func TestStrictConsumer(t *testing.T) {
	src := `{"type":"meta","format":"loupe/v1","consumers":[{"name":"planner","requires":["commitment"],"strict":true},{"name":"router","requires":["handle"]}]}` + "\n"
	tr, err := Read(strings.NewReader(src), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cs := tr.Meta.Consumers
	if len(cs) != 2 || !cs[0].Strict || cs[1].Strict {
		t.Fatalf("consumers %+v: want planner strict, router not", cs)
	}
	var buf bytes.Buffer
	if err := Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !back.Meta.Consumers[0].Strict || back.Meta.Consumers[1].Strict {
		t.Errorf("after a write: %+v", back.Meta.Consumers)
	}
	bad, _ := Read(strings.NewReader(`{"type":"meta","consumers":[{"name":"planner","requires":[],"strict":"yes"}]}`+"\n"), ReadOptions{})
	if bad == nil || len(bad.Problems.Errors()) == 0 || !strings.Contains(bad.Problems.Errors()[0].Error(), "strict") {
		t.Errorf("a non-boolean strict is not reported: %v", bad)
	}
}
