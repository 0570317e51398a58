package claudecode

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// The rules the importer follows on real sessions, each checked on files
// shaped like the real case: synthetic sessions modelled on 2.1.2xx records,
// and the real 2.1.39 sessions rewritten the way newer versions write them
// (records moved or added around the same conversation).

const (
	realC     = "testdata/real/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl"
	orderFile = "testdata/synthetic/44444444-0000-4000-8000-00000000000a.jsonl"
)

// edit is a change to a session file's lines (0-based line indexes).
type edit func(t *testing.T, lines [][]byte) [][]byte

// rewrite writes path's lines, changed by edits, to a new session file.
func rewrite(t *testing.T, path string, edits ...edit) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	for _, ed := range edits {
		lines = ed(t, lines)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// find returns the index of the only line holding all of subs.
func find(t *testing.T, lines [][]byte, subs ...string) int {
	t.Helper()
	at := -1
	for i, l := range lines {
		ok := true
		for _, s := range subs {
			ok = ok && bytes.Contains(l, []byte(s))
		}
		if ok {
			if at >= 0 {
				t.Fatalf("lines %d and %d both hold %q", at+1, i+1, subs)
			}
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("no line holds %q", subs)
	}
	return at
}

// move puts the line holding from just before (or, after, just after) the
// line holding to.
func move(from, to []string, after bool) edit {
	return func(t *testing.T, lines [][]byte) [][]byte {
		i := find(t, lines, from...)
		l := lines[i]
		lines = slices.Delete(lines, i, i+1)
		j := find(t, lines, to...)
		if after {
			j++
		}
		return slices.Insert(lines, j, l)
	}
}

// insert puts line before the line holding at (at the start when at is nil).
func insert(line string, at ...string) edit {
	return func(t *testing.T, lines [][]byte) [][]byte {
		j := 0
		if at != nil {
			j = find(t, lines, at...)
		}
		return slices.Insert(lines, j, []byte(line))
	}
}

// replace changes old to new in the line holding at.
func replace(at, old, new string) edit {
	return func(t *testing.T, lines [][]byte) [][]byte {
		i := find(t, lines, at)
		lines[i] = bytes.Replace(lines[i], []byte(old), []byte(new), 1)
		return lines
	}
}

// callsBeforeResults checks that every result whose call is in the
// transcript comes after it, and that turns never go back.
func callsBeforeResults(t *testing.T, tr *model.Transcript) {
	t.Helper()
	checkInvariants(t, tr)
	calls := map[string]int{}
	for i, e := range tr.Events {
		switch ev := e.(type) {
		case *model.ToolCall:
			calls[ev.ID] = i
		case *model.ToolResult:
			if ev.Job != nil && ev.Job.State != model.JobRunning {
				continue // a job's end, reported later under its call's id
			}
			if _, ok := calls[ev.ID]; !ok {
				t.Errorf("result %s (line %d) comes before its call", ev.ID, ev.Line)
			}
		}
	}
	for _, p := range tr.Problems {
		if strings.Contains(p.Msg, "not in the transcript") || strings.Contains(p.Msg, "file order") {
			t.Errorf("problem: %v", p)
		}
	}
}

func sourceRefs(tr *model.Transcript, c *model.Compaction) []string {
	var refs []string
	for _, e := range tr.Source(c) {
		refs = append(refs, e.Kind().String()+":"+e.Header().Ref)
	}
	return refs
}

// TestResultBeforeCall: a tool_result written before its tool_use pairs with
// it all the same; it is emitted after it, and no call whose result was
// written before a compaction is in flight at it.
func TestResultBeforeCall(t *testing.T) {
	base := open(t, realC)
	tests := []struct {
		name    string
		path    func(t *testing.T) string
		counts  kittest.Counts // the zero value: the same as the real file's
		pending [][]string
		// refs that must be in the source of the first compaction
		inSource []string
	}{
		{
			name:    "synthetic: a result first, a parallel result first, a call written after the boundary",
			path:    func(*testing.T) string { return orderFile },
			counts:  kittest.Counts{Events: 16, Messages: 4, Calls: 5, Results: 5, Errors: 1, Compactions: 1, Raw: 1},
			pending: [][]string{nil},
			// toolu_O5's call line comes after the boundary in the file
			inSource: []string{"tool_call:o-a7", "tool_result:o-r5", "tool_call:o-a4", "tool_result:o-r3"},
		},
		{
			name: "real: a result line moved before its call line",
			path: func(t *testing.T) string {
				return rewrite(t, realC, move([]string{`"tool_use_id":"toolu_018gg2XVh2GR77bDhzYRBgoY"`}, []string{`"id":"toolu_018gg2XVh2GR77bDhzYRBgoY"`}, false))
			},
			pending:  [][]string{nil},
			inSource: []string{"tool_result:8f50ada3-46e3-49c2-bfc0-e2fbd425f1b7"},
		},
		{
			name: "real: the boundary's logical parent is a result whose call line is written after the summary",
			path: func(t *testing.T) string {
				return rewrite(t, realC, move([]string{`"id":"toolu_01164hogfWqDfCiihfruaFtq"`}, []string{`"isCompactSummary":true`}, true))
			},
			pending:  [][]string{nil},
			inSource: []string{"tool_call:cd17771b-ceb3-41e9-83ce-5f0b976de9c0", "tool_result:baf018bd-4787-46a4-9bd2-4e3fb5024f70"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := open(t, tt.path(t))
			want := tt.counts
			if want == (kittest.Counts{}) {
				want = kittest.Count(base)
			}
			if got := kittest.Count(tr); got != want {
				t.Errorf("counts\n got %+v\nwant %+v", got, want)
			}
			if got := kittest.Pending(tr); !equalPending(got, tt.pending) {
				t.Errorf("pending handles per compaction: got %q, want %q", got, tt.pending)
			}
			callsBeforeResults(t, tr)
			refs := sourceRefs(tr, tr.Compactions[0])
			for _, r := range tt.inSource {
				if !slices.Contains(refs, r) {
					t.Errorf("the source of compaction 1 lacks %s", r)
				}
			}
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}
