package claudecode

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	realA     = "testdata/real/258c7280-ae70-4798-800f-63464d01a85d.jsonl"
	realC     = "testdata/real/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl"
	orderFile = "testdata/synthetic/44444444-0000-4000-8000-00000000000a.jsonl"
	jobsFile  = "testdata/synthetic/55555555-0000-4000-8000-00000000000b.jsonl"
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

// replaceAll changes old to new in every line.
func replaceAll(old, new string) edit {
	return func(t *testing.T, lines [][]byte) [][]byte {
		for i := range lines {
			lines[i] = bytes.ReplaceAll(lines[i], []byte(old), []byte(new))
		}
		return lines
	}
}

// drop deletes the line holding at.
func drop(at ...string) edit {
	return func(t *testing.T, lines [][]byte) [][]byte {
		i := find(t, lines, at...)
		return slices.Delete(lines, i, i+1)
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

// jobLog lists what the results say about jobs: "job:state@ref" (the ref of
// a queue-operation line is empty).
func jobLog(tr *model.Transcript) []string {
	var out []string
	for _, e := range tr.Events {
		if r, ok := e.(*model.ToolResult); ok && r.Job != nil {
			out = append(out, fmt.Sprintf("%s:%s@%s", r.Job.ID, r.Job.State, r.Ref))
		}
	}
	return out
}

// TestBackgroundJobs: a background job is an open handle until a read finds
// it finished, a kill stops it, or its task notification arrives — in a
// queue-operation, a queued_command attachment or a user message, whichever
// comes first; later notices of it are context.
func TestBackgroundJobs(t *testing.T) {
	tests := []struct {
		name    string
		path    func(t *testing.T) string
		pending [][]string
		jobs    []string
		notices int // task notifications mapped to system messages
		users   []string
	}{
		{
			name:    "synthetic 2.1.2xx: queue-operation, attachments, TaskOutput, TaskStop, BashOutput",
			path:    func(*testing.T) string { return jobsFile },
			pending: [][]string{{"job:bj3"}, nil},
			jobs: []string{
				"bj1:running@j-r1", "aj2:running@j-r2", "bj3:running@j-r3",
				"bj1:done@", // the queue-operation
				"bj3:running@j-r4",
				"aj2:done@j-at2", // the queued_command attachment
				"bj3:killed@j-r5",
				"bj6:running@j-r6", "bj6:done@j-r7",
			},
			notices: 2,
			users: []string{
				"Start the dev server in the background, run the e2e suite with an agent, and don't touch the schema.",
				"Also, never run the migrations against prod.", // typed while the agent worked
			},
		},
		{
			// the job ends in the queue log before the agent's TaskOutput
			// returns, long before the notice reaches it as a user message
			name:    "real 2.1.39: queue-operation first",
			path:    func(*testing.T) string { return realA },
			pending: [][]string{nil},
			jobs: []string{
				"b0be39e:running@051a2517-f8b0-4d9d-92ac-9f67dd879c95", "b0be39e:done@",
				"bd0afab:running@29d1d6ac-92cd-434c-829e-9ad71693d2c2", "bd0afab:running@5b51e10a-4420-4701-b8f9-ceb53de1493a",
				"bd0afab:done@",
			},
			notices: 2,
		},
		{
			// the same session in 2.0.x's words: an <agent-notification>
			// naming the job by <agent-id>, in the queue log
			name: "real 2.1.39 rewritten as 2.0.x notices",
			path: func(t *testing.T) string {
				return rewrite(t, realA, replaceAll(`<task-notification>\n<task-id>`, `<agent-notification>\n<agent-id>`),
					replaceAll(`</task-id>`, `</agent-id>`), replaceAll(`</task-notification>`, `</agent-notification>`))
			},
			pending: [][]string{nil},
			jobs: []string{
				"b0be39e:running@051a2517-f8b0-4d9d-92ac-9f67dd879c95", "b0be39e:done@",
				"bd0afab:running@29d1d6ac-92cd-434c-829e-9ad71693d2c2", "bd0afab:running@5b51e10a-4420-4701-b8f9-ceb53de1493a",
				"bd0afab:done@",
			},
			notices: 2,
		},
		{
			// the same session as a version that writes no queue log: the
			// notice in the user message closes the job
			name: "real 2.1.39 without queue-operation lines, the notice naming the call",
			path: func(t *testing.T) string {
				return rewrite(t, realA, func(t *testing.T, lines [][]byte) [][]byte {
					return slices.DeleteFunc(lines, func(l []byte) bool { return bytes.Contains(l, []byte(`"type":"queue-operation"`)) })
				}, replace(`"uuid":"0a5857c1-7c3d-4165-b520-c7eff1cfa27a"`, `<task-id>b0be39e</task-id>\n`, `<task-id>b0be39e</task-id>\n<tool-use-id>toolu_01NJnxGx5djuhZxzyADD3hKf</tool-use-id>\n`))
			},
			pending: [][]string{nil},
			jobs: []string{
				"b0be39e:running@051a2517-f8b0-4d9d-92ac-9f67dd879c95",
				"bd0afab:running@29d1d6ac-92cd-434c-829e-9ad71693d2c2", "bd0afab:running@5b51e10a-4420-4701-b8f9-ceb53de1493a",
				"b0be39e:done@0a5857c1-7c3d-4165-b520-c7eff1cfa27a",
				"bd0afab:done@138f2fef-a575-4873-ab29-043f791250a5", // the TaskOutput that found it finished
			},
			notices: 1, // bd0afab's notice, after its TaskOutput
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := open(t, tt.path(t))
			if got := kittest.Pending(tr); !equalPending(got, tt.pending) {
				t.Errorf("pending handles per compaction: got %q, want %q", got, tt.pending)
			}
			if got := jobLog(tr); !slices.Equal(got, tt.jobs) {
				t.Errorf("jobs\n got %q\nwant %q", got, tt.jobs)
			}
			notices := 0
			var users []string
			for _, e := range tr.Events {
				if m, ok := e.(*model.Message); ok {
					if isNotice(m.Text) {
						notices++
						if m.Role != model.RoleSystem {
							t.Errorf("a task notification as a %s message", m.Role)
						}
					}
					if m.Role == model.RoleUser {
						users = append(users, m.Text)
					}
				}
			}
			if notices != tt.notices {
				t.Errorf("%d notices as messages, want %d", notices, tt.notices)
			}
			if tt.users != nil && !slices.Equal(users, tt.users) {
				t.Errorf("user messages %q, want %q", users, tt.users)
			}
			callsBeforeResults(t, tr)
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

// TestUnknownRecords: records of types loupe does not know, anywhere in the
// file — first, in the middle, on the conversation path itself — are kept
// (raw, or skipped and counted when they are known session state) and change
// nothing else.
func TestUnknownRecords(t *testing.T) {
	base := open(t, realC)
	baseRefs := sourceRefs(base, base.Compactions[0])
	const sess = `"sessionId":"8463c716-a2ea-4c14-9efa-87158ebd9f20"`
	tests := []struct {
		name  string
		edits []edit
		raw   int    // raw events added
		skip  string // a skipped count that must be in meta
	}{
		{"permission-mode first", []edit{insert(`{"type":"permission-mode","permissionMode":"bypassPermissions",` + sess + `}`)}, 0, "permission-mode=1"},
		{"last-prompt first", []edit{insert(`{"type":"last-prompt","lastPrompt":"tackle the beads",` + sess + `}`)}, 0, "last-prompt=1"},
		{"unknown type first", []edit{insert(`{"type":"worktree-state",` + sess + `,"worktree":{"path":"/w"}}`)}, 1, ""},
		{"unknown type before the boundary", []edit{insert(`{"type":"pr-link","prNumber":12,`+sess+`}`, `"subtype":"compact_boundary"`)}, 1, ""},
		{
			// a record of a new kind linked into the tree: the last result
			// before the boundary hangs off it
			"unknown type on the conversation path",
			[]edit{
				insert(`{"parentUuid":"cd17771b-ceb3-41e9-83ce-5f0b976de9c0","isSidechain":false,`+sess+`,"type":"tool-progress-v2","uuid":"x-link","timestamp":"2026-02-11T22:30:00.000Z"}`, `"uuid":"baf018bd-4787-46a4-9bd2-4e3fb5024f70"`),
				replace(`"uuid":"baf018bd-4787-46a4-9bd2-4e3fb5024f70"`, `"parentUuid":"cd17771b-ceb3-41e9-83ce-5f0b976de9c0"`, `"parentUuid":"x-link"`),
			}, 1, "",
		},
		{"unknown type after the compaction", []edit{insert(`{"type":"agent-color","color":"blue",`+sess+`}`, `"uuid":"965eb96c-fcc0-412d-9ce1-ee10ffd850aa"`)}, 1, ""},
		{"unknown system subtype", []edit{insert(`{"parentUuid":null,"isSidechain":false,`+sess+`,"type":"system","subtype":"hook_metrics","uuid":"x-sys","timestamp":"2026-02-11T22:30:00.000Z"}`, `"subtype":"compact_boundary"`)}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := rewrite(t, realC, tt.edits...)
			head, _ := os.ReadFile(path)
			if !Detect(path, head[:min(len(head), 64<<10)], false) {
				t.Fatal("not detected")
			}
			tr := open(t, path)
			want := kittest.Count(base)
			want.Raw += tt.raw
			want.Events += tt.raw
			if got := kittest.Count(tr); got != want {
				t.Errorf("counts\n got %+v\nwant %+v", got, want)
			}
			var refs []string
			for _, r := range sourceRefs(tr, tr.Compactions[0]) {
				if !strings.HasPrefix(r, "raw:") {
					refs = append(refs, r)
				}
			}
			if !slices.Equal(refs, baseRefs) {
				t.Errorf("the source of the compaction changed: %d events, was %d", len(refs), len(baseRefs))
			}
			if len(tr.Problems) != len(base.Problems) {
				t.Errorf("problems %v", tr.Problems)
			}
			if tt.skip != "" && !strings.Contains(tr.Meta.Extra["skipped"], tt.skip) {
				t.Errorf("skipped %q lacks %q", tr.Meta.Extra["skipped"], tt.skip)
			}
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

// TestLostResults: Claude Code compacts only once the calls of a response
// have returned, and in real 2.1.29-2.1.56 sessions the result of the last
// call before an auto-compaction is sometimes never written (the boundary's
// logicalParentUuid names it; the summary reports what it said). Such a call
// is answered just before the compaction, not in flight at it; a call whose
// result is written late, after the boundary, still is.
func TestLostResults(t *testing.T) {
	const (
		lastCall   = "toolu_01164hogfWqDfCiihfruaFtq"
		lostResult = `"uuid":"baf018bd-4787-46a4-9bd2-4e3fb5024f70"` // the boundary's logical parent
		sess       = `"sessionId":"8463c716-a2ea-4c14-9efa-87158ebd9f20"`
	)
	hook := func(event string) string {
		return `{"parentUuid":"baf018bd-4787-46a4-9bd2-4e3fb5024f70","isSidechain":false,` + sess + `,"type":"progress","data":{"type":"hook_progress","hookEvent":"` + event + `","hookName":"` + event + `:Edit","command":"callback"},"parentToolUseID":"` + lastCall + `","toolUseID":"` + lastCall + `","timestamp":"2026-02-11T22:40:00.000Z","uuid":"x-hook"}`
	}
	tests := []struct {
		name    string
		path    func(t *testing.T) string
		pending [][]string
		lost    []string // "id:error?@ref" of the results made for lost ones
	}{
		{
			name: "2.1.42 shape: result not written, a PostToolUse hook ran",
			path: func(t *testing.T) string {
				return rewrite(t, realC, drop(lostResult), insert(hook("PostToolUse"), `"subtype":"compact_boundary"`))
			},
			pending: [][]string{nil},
			lost:    []string{lastCall + ":false@baf018bd-4787-46a4-9bd2-4e3fb5024f70"},
		},
		{
			name:    "2.1.56 shape: result not written, no hook",
			path:    func(t *testing.T) string { return rewrite(t, realC, drop(lostResult)) },
			pending: [][]string{nil},
			lost:    []string{lastCall + ":false@baf018bd-4787-46a4-9bd2-4e3fb5024f70"},
		},
		{
			name: "result not written, a PostToolUseFailure hook ran",
			path: func(t *testing.T) string {
				return rewrite(t, realC, drop(lostResult), insert(hook("PostToolUseFailure"), `"subtype":"compact_boundary"`))
			},
			pending: [][]string{nil},
			lost:    []string{lastCall + ":true@baf018bd-4787-46a4-9bd2-4e3fb5024f70"},
		},
		{
			name:    "the real session as written: nothing lost",
			path:    func(*testing.T) string { return realC },
			pending: [][]string{nil},
		},
		{
			name:    "a result written after the boundary: in flight",
			path:    func(*testing.T) string { return "testdata/synthetic/pending_tool_use_at_boundary.jsonl" },
			pending: [][]string{{"call:toolu_P_B"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := open(t, tt.path(t))
			if got := kittest.Pending(tr); !equalPending(got, tt.pending) {
				t.Errorf("pending handles per compaction: got %q, want %q", got, tt.pending)
			}
			var lost []string
			for _, e := range tr.Source(tr.Compactions[0]) {
				if r, ok := e.(*model.ToolResult); ok && r.Text.Head() == lostText {
					lost = append(lost, fmt.Sprintf("%s:%v@%s", r.ID, r.IsError, r.Ref))
				}
			}
			if !slices.Equal(lost, tt.lost) {
				t.Errorf("results made for lost ones %q, want %q", lost, tt.lost)
			}
			warned := false
			for _, w := range warnings(tr) {
				warned = warned || strings.Contains(w, "no result in the file for "+lastCall)
			}
			if warned != (len(tt.lost) > 0) {
				t.Errorf("warnings %q", warnings(tr))
			}
			callsBeforeResults(t, tr)
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

// TestQueuedPrompts: a prompt the user typed while the agent worked is in
// the queue log only; once Claude Code takes it from the queue into the
// turn (remove) the agent has read it, so it is a user message there. One
// sent later as a user line of its own (dequeue), pulled back into the input
// box (popAll), or still queued at the end is not.
func TestQueuedPrompts(t *testing.T) {
	const sess = `"sessionId":"8463c716-a2ea-4c14-9efa-87158ebd9f20"`
	q := func(op, content string) string {
		l := `{"type":"queue-operation","operation":"` + op + `","timestamp":"2026-02-11T22:20:00.000Z",` + sess
		if content != "" {
			l += `,"content":` + strconv.Quote(content)
		}
		return l + "}"
	}
	const at = `"uuid":"baf018bd-4787-46a4-9bd2-4e3fb5024f70"` // the last result before the boundary
	tests := []struct {
		name  string
		path  func(t *testing.T) string
		users []string // user messages added, in order, with where they land
	}{
		{
			name:  "real 2.1.39: two prompts folded into the turn",
			path:  func(*testing.T) string { return realA },
			users: []string{"check again@before", "new beads for the epic were added. tackle them@before"},
		},
		{
			name: "enqueue then remove, before the boundary",
			path: func(t *testing.T) string {
				return rewrite(t, realC, insert(q("enqueue", "Never run the migrations against prod."), at), insert(q("remove", ""), at))
			},
			users: []string{"Never run the migrations against prod.@before"},
		},
		{
			name: "enqueued before the boundary, removed after it",
			path: func(t *testing.T) string {
				return rewrite(t, realC, insert(q("enqueue", "Never run the migrations against prod."), at),
					insert(q("remove", ""), `"uuid":"965eb96c-fcc0-412d-9ce1-ee10ffd850aa"`))
			},
			users: []string{"Never run the migrations against prod.@after"},
		},
		{
			name: "pulled back into the input box",
			path: func(t *testing.T) string {
				return rewrite(t, realC, insert(q("enqueue", "Never run the migrations against prod."), at), insert(q("popAll", "Never run the migrations against prod."), at), insert(q("remove", ""), at))
			},
		},
		{
			name: "sent as a user line of its own",
			path: func(t *testing.T) string {
				return rewrite(t, realC, insert(q("enqueue", "Never run the migrations against prod."), at), insert(q("dequeue", ""), at))
			},
		},
		{
			name: "a slash command and a task's registration are not prompts",
			path: func(t *testing.T) string {
				return rewrite(t, realC, insert(q("enqueue", "/exit"), at), insert(q("enqueue", `{"task_id":"af0053c","tool_use_id":"toolu_X","description":"Re-run CI","task_type":"local_agent"}`), at), insert(q("remove", ""), at))
			},
		},
		{
			name: "still queued at the end",
			path: func(t *testing.T) string {
				return rewrite(t, realC, func(t *testing.T, lines [][]byte) [][]byte {
					return append(lines, []byte(q("enqueue", "and then deploy")))
				})
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := open(t, tt.path(t))
			var users []string
			for _, e := range tr.Events {
				if m, ok := e.(*model.Message); ok && m.Role == model.RoleUser && m.Ref == "" {
					where := "before"
					if e.Header().Index > tr.Compactions[0].Index {
						where = "after"
					}
					users = append(users, m.Text+"@"+where)
				}
			}
			if !slices.Equal(users, tt.users) {
				t.Errorf("user messages from the queue %q, want %q", users, tt.users)
			}
			callsBeforeResults(t, tr)
		})
	}
}

// TestRejectionWords: when the user rejects a call and says why, Claude Code
// puts the words in the call's error result ("...To tell you how to proceed,
// the user said:\n..."), and nowhere else: they are a user message after
// the result. A bare rejection, or an error that merely quotes the phrase,
// adds none.
func TestRejectionWords(t *testing.T) {
	const sess = `"sessionId":"8463c716-a2ea-4c14-9efa-87158ebd9f20"`
	const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). "
	pair := func(result string, isErr bool) edit {
		call := `{"parentUuid":"d280fbb7-9ee6-4432-903c-df5a5fe7d404","isSidechain":false,` + sess + `,"type":"assistant","message":{"model":"claude-opus-4-6","id":"msg_X1","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_X1","name":"Bash","input":{"command":"git commit -am wip"}}]},"uuid":"x-call","timestamp":"2026-02-11T23:00:00.000Z"}`
		res := `{"parentUuid":"x-call","isSidechain":false,` + sess + `,"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":` + strconv.Quote(result) + `,"is_error":` + strconv.FormatBool(isErr) + `,"tool_use_id":"toolu_X1"}]},"uuid":"x-result","timestamp":"2026-02-11T23:00:05.000Z"}`
		return func(t *testing.T, lines [][]byte) [][]byte { return append(lines, []byte(call), []byte(res)) }
	}
	tests := []struct {
		name   string
		result string
		isErr  bool
		words  []string
	}{
		{"rejected with the user's words", rejected + "To tell you how to proceed, the user said:\nno, I did not say commit anything", true, []string{"no, I did not say commit anything"}},
		{"rejected with several lines", rejected + "To tell you how to proceed, the user said:\nnot yet.\nNever commit without asking me first.", true, []string{"not yet.\nNever commit without asking me first."}},
		{"rejected without words", rejected + "STOP what you are doing and wait for the user to tell you how to proceed.", true, nil},
		{"a successful output quoting the phrase", rejected + "To tell you how to proceed, the user said:\nquoted in a log", false, nil},
		{"an error that is not a rejection", "Exit code 1\nthe user said:\nsomething in a test fixture", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := open(t, rewrite(t, realC, pair(tt.result, tt.isErr)))
			var words []string
			var sawResult bool
			for _, e := range tr.Events {
				switch ev := e.(type) {
				case *model.ToolResult:
					sawResult = sawResult || ev.ID == "toolu_X1"
				case *model.Message:
					if ev.Ref == "x-result" {
						if !sawResult || ev.Role != model.RoleUser {
							t.Errorf("the words as a %s message, before the result: %v", ev.Role, !sawResult)
						}
						words = append(words, ev.Text)
					}
				}
			}
			if !slices.Equal(words, tt.words) {
				t.Errorf("user words %q, want %q", words, tt.words)
			}
		})
	}
}

// A sub-agent marks the task it was given completed in the shared task list
// (2.1.17+); the update is only in its progress record. The plan step must
// close there, or every later summary owes a finished step.
func TestSubagentTaskUpdates(t *testing.T) {
	tr, err := Open("testdata/synthetic/66666666-0000-4000-8000-00000000000c.jsonl", model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Events {
		if p, ok := e.(*model.Plan); ok {
			for _, it := range p.Items {
				got = append(got, it.ID+" "+string(it.Status))
			}
		}
	}
	if want := []string{"1 pending", "1 completed"}; !slices.Equal(got, want) {
		t.Errorf("plan updates %q, want %q", got, want)
	}
	if len(tr.Compactions) != 1 {
		t.Fatalf("%d compactions", len(tr.Compactions))
	}
}

// TestUnwrittenParentAfterLaterLines: when the boundary's logical parent is
// not in the file, the path to the compaction is walked from the newest
// conversation line before it, not from a call far back whose result was
// never written (an async agent's launch, say): walking from that call
// took everything after it as a branch abandoned by a rewind, and a task
// list closed since looked open (a real 2.1.50 session).
func TestUnwrittenParentAfterLaterLines(t *testing.T) {
	const (
		earlyResult = `"uuid":"e58d9eef-1354-4bd5-806a-5e6983fe75a9"`
		earlyCall   = "a7fd2416-8003-45d7-b90b-9e7cb735efc2"
		lparent     = `"logicalParentUuid":"baf018bd-4787-46a4-9bd2-4e3fb5024f70"`
	)
	base := open(t, realC)
	tr := open(t, rewrite(t, realC,
		drop(earlyResult),
		replaceAll(`"parentUuid":"e58d9eef-1354-4bd5-806a-5e6983fe75a9"`, `"parentUuid":"`+earlyCall+`"`),
		replace(lparent, lparent, `"logicalParentUuid":"00000000-0000-4000-8000-00000000dead"`)))
	count := func(tr *model.Transcript) (raw, calls int) {
		for _, e := range tr.Source(tr.Compactions[0]) {
			switch e.Kind() {
			case model.KindRaw:
				raw++
			case model.KindToolCall:
				calls++
			}
		}
		return raw, calls
	}
	bRaw, bCalls := count(base)
	raw, calls := count(tr)
	if raw != bRaw || calls != bCalls {
		t.Errorf("source of the compaction: %d lines off the path and %d calls, want %d and %d as in the file as written",
			raw, calls, bRaw, bCalls)
	}
}

// TestLateResultKeepsWhatItJumpsOver: a tool result written long after its
// call (a command the user sent to the background) names the call as its
// parent, jumping over a prompt the user wrote meanwhile. That prompt was
// in the context the compaction summarised (a real 2.1.45 session's summary
// quotes it): it is on the path, not a branch abandoned by a rewind. A
// prompt re-parented to an earlier line still is a rewind.
func TestLateResultKeepsWhatItJumpsOver(t *testing.T) {
	line := func(typ, uuid, parent, rest string) string {
		p := `null`
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"11111111-2222-4333-8444-555555555555","version":"2.1.45","cwd":"/w","timestamp":"2026-02-18T15:00:00Z",` + rest + `}`
	}
	user := func(text string) string { return `"message":{"role":"user","content":` + strconv.Quote(text) + `}` }
	say := func(id, text string) string {
		return `"message":{"id":"` + id + `","role":"assistant","content":[{"type":"text","text":` + strconv.Quote(text) + `}]}`
	}
	build := func(promptParent string) string {
		lines := []string{
			line("user", "u1", "", user("Run the extraction on the docs.")),
			line("assistant", "a1", "u1", `"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Bash","input":{"command":"docalign extract README.md"}}]}`),
			line("user", "u2", promptParent, user("Don't launch it anymore; investigate why it blocks.")),
			line("assistant", "a2", "u2", say("m2", "Looking into why the script blocks.")),
			line("user", "r1", "a1", `"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_A","content":"Command running in background with ID: b1."}]}`),
			line("assistant", "a3", "r1", say("m3", "Checking the script now.")),
			line("system", "b1", "", `"subtype":"compact_boundary","logicalParentUuid":"a3","compactMetadata":{"trigger":"auto","preTokens":1000}`),
			line("user", "s1", "b1", `"isCompactSummary":true,`+user("This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent: extraction.")),
		}
		p := filepath.Join(t.TempDir(), "11111111-2222-4333-8444-555555555555.jsonl")
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inSource := func(tr *model.Transcript) bool {
		for _, e := range tr.Source(tr.Compactions[0]) {
			if m, ok := e.(*model.Message); ok && strings.Contains(m.Text, "launch it anymore") {
				return true
			}
		}
		return false
	}
	if tr := open(t, build("a1")); !inSource(tr) {
		t.Errorf("the prompt the late result jumps over is left out of the compaction's source")
	}
	// The same prompt on a branch the user rewound: the path to the
	// boundary goes a3 → r1 → a1, and u2 hangs off u1 as an edit would.
	if tr := open(t, build("u1")); inSource(tr) {
		t.Errorf("a prompt on a rewound branch is taken into the compaction's source")
	}
}
