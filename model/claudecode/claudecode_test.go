package claudecode

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// The fixtures are copied from shared/fixtures (see testdata/README.md) so
// that the tests run in a clean clone.

func open(t *testing.T, path string) *model.Transcript {
	t.Helper()
	tr, err := Open(path, model.ReadOptions{})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return tr
}

func warnings(tr *model.Transcript) []string {
	var out []string
	for _, p := range tr.Problems {
		if p.Severity == model.Warning {
			out = append(out, p.Msg)
		}
	}
	return out
}

func TestImport(t *testing.T) {
	tests := []struct {
		path     string
		counts   kittest.Counts
		pending  [][]string // handles open at each compaction
		warnings int
		errors   int
		source   string
	}{
		{
			path:    "testdata/synthetic/11111111-2222-4333-8444-555555555555.jsonl",
			counts:  kittest.Counts{Events: 16, Messages: 5, Calls: 4, Results: 4, Errors: 1, Compactions: 2, Raw: 1},
			pending: [][]string{{"job:bash_7"}, nil},
			// the truncated last line
			warnings: 1,
			source:   "claude-code 2.1.39",
		},
		{
			// micro-compaction, tasks, todos, async handles closed by
			// KillShell and a task notification, a broken middle line, an
			// attachment, an unknown line type, an in-file sidechain line
			path: "testdata/synthetic/33333333-4444-4555-8666-777777777777.jsonl",
			// its todo_reminder attachment is skipped by name (counted), no raw event
			counts:  kittest.Counts{Events: 25, Messages: 4, Calls: 7, Results: 8, Plans: 3, PlanItems: 4, Compactions: 1, Raw: 2},
			pending: [][]string{{"job:a77c0de", "job:b111aaa"}},
			errors:  1,
			source:  "claude-code 2.1.120",
		},
		{
			path:    "testdata/synthetic/pending_tool_use_at_boundary.jsonl",
			counts:  kittest.Counts{Events: 6, Messages: 1, Calls: 2, Results: 2, Errors: 1, Compactions: 1},
			pending: [][]string{{"call:toolu_P_B"}},
			source:  "claude-code 2.1.39",
		},
		{
			// The rewound branch b1u/b1a becomes two raw events.
			path:    "testdata/daaain/dag_compact_after_rewind.jsonl",
			counts:  kittest.Counts{Events: 11, Messages: 8, Compactions: 1, Raw: 2},
			pending: [][]string{nil},
			source:  "claude-code 2.1.0",
		},
		{
			path:    "testdata/daaain/dag_compact_after_rewind_preserved.jsonl",
			counts:  kittest.Counts{Events: 11, Messages: 8, Compactions: 1, Raw: 2},
			pending: [][]string{nil},
			source:  "claude-code 2.1.0",
		},
		{
			// The real sessions: each background job ends in the queue log
			// (or a TaskOutput) first; the notice the agent gets later, as
			// a user message, is a system message, not a second result.
			// Two prompts typed while the agent worked are only in the
			// queue log.
			path:    "testdata/real/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
			counts:  kittest.Counts{Events: 469, Messages: 94, Calls: 186, Results: 188, Errors: 7, Compactions: 1},
			pending: [][]string{nil},
			source:  "claude-code 2.1.39",
		},
		{
			// The boundary's logical parent is not in the file: file order.
			path:     "testdata/real/4d5611e5-241a-462a-8d15-5122611a9569.jsonl",
			counts:   kittest.Counts{Events: 392, Messages: 90, Calls: 150, Results: 151, Errors: 5, Compactions: 1},
			pending:  [][]string{nil},
			warnings: 0, // the path is walked from the last result, though the logical parent is not written
			source:   "claude-code 2.1.39",
		},
		{
			path:    "testdata/real/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl",
			counts:  kittest.Counts{Events: 437, Messages: 81, Calls: 177, Results: 178, Errors: 13, Compactions: 1},
			pending: [][]string{nil},
			source:  "claude-code 2.1.39",
		},
		{
			// A resume that started a new file at compaction: the source is
			// in the previous file, which is loaded with it.
			path:     "testdata/resume/bbbbbbbb-0000-4000-8000-000000000002.jsonl",
			counts:   kittest.Counts{Events: 7, Messages: 3, Calls: 1, Results: 1, Plans: 1, PlanItems: 2, Compactions: 1},
			pending:  [][]string{nil},
			warnings: 1,
			source:   "claude-code 2.1.230–2.1.231",
		},
		{
			// The directory: the newest session and the one it continues;
			// the unrelated one is left for the picker.
			path:     "testdata/resume",
			counts:   kittest.Counts{Events: 7, Messages: 3, Calls: 1, Results: 1, Plans: 1, PlanItems: 2, Compactions: 1},
			pending:  [][]string{nil},
			warnings: 1,
			source:   "claude-code 2.1.230–2.1.231",
		},
		{
			path:   "testdata/resume/cccccccc-0000-4000-8000-000000000003/subagents/agent-a1b2c3.jsonl",
			counts: kittest.Counts{Events: 2, Messages: 2},
			source: "claude-code 2.1.200",
		},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			tr := open(t, tt.path)
			if got := kittest.Count(tr); got != tt.counts {
				t.Errorf("counts\n got %+v\nwant %+v", got, tt.counts)
			}
			if got := kittest.Pending(tr); !equalPending(got, tt.pending) {
				t.Errorf("pending handles per compaction: got %q, want %q", got, tt.pending)
			}
			if w := warnings(tr); len(w) != tt.warnings {
				t.Errorf("warnings: got %d %q, want %d", len(w), w, tt.warnings)
			}
			if errs := tr.Problems.Errors(); len(errs) != tt.errors {
				t.Errorf("errors: %v, want %d", errs, tt.errors)
			}
			if tr.Meta.Source != tt.source {
				t.Errorf("meta.source %q, want %q", tr.Meta.Source, tt.source)
			}
			checkInvariants(t, tr)
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip through loupe JSONL: %v", err)
			}
		})
	}
}

func equalPending(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || (len(a[i]) > 0 && !slices.Equal(a[i], b[i])) {
			return false
		}
	}
	return true
}

// checkInvariants: turns never go back, indexes are positions, compactions
// are numbered 1..n.
func checkInvariants(t *testing.T, tr *model.Transcript) {
	t.Helper()
	turn := 0
	for i, e := range tr.Events {
		h := e.Header()
		if h.Index != i {
			t.Fatalf("event %d has Index %d", i, h.Index)
		}
		if h.Turn < turn {
			t.Fatalf("event %d: turn %d goes back from %d", i, h.Turn, turn)
		}
		turn = h.Turn
	}
	for k, c := range tr.Compactions {
		if c.Seq != k+1 || tr.Events[c.Index] != model.Event(c) {
			t.Fatalf("compaction %d: seq %d at index %d", k, c.Seq, c.Index)
		}
	}
}

// TestRealSources checks the source of the one compaction of each real
// session: it starts at the first conversation line, ends at the line the
// boundary's logicalParentUuid names (or, when that line is not in the file,
// the line just before the boundary), holds every call and result written
// before the boundary and nothing written after it.
func TestRealSources(t *testing.T) {
	tests := []struct {
		file                string
		first, last         string // refs of the first and last source events
		calls, results      int    // tool_use / tool_result blocks before the boundary line
		boundaryLine        int
		preTokens, post     int
		currentWorkMentions string // what the summary's "Current Work" is about, seen in the last events
	}{
		{"258c7280-ae70-4798-800f-63464d01a85d.jsonl", "1a2252ee-fde8-4a8f-a103-4028c39c47ce", "7c642069-996d-4ae0-a61c-554b35d36fb6", 124, 124, 1256, 167094, 33960, "project_review_live.ex"},
		{"4d5611e5-241a-462a-8d15-5122611a9569.jsonl", "daa5a4bb-530c-4055-b20c-bde38255c99e", "ce1910a6-d099-47d6-b88c-2f2f8abc0cc2", 69, 69, 754, 170251, 36081, "transcript_components.ex"},
		{"8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl", "d35f0cc4-428d-436c-b878-2ddb26209d06", "baf018bd-4787-46a4-9bd2-4e3fb5024f70", 88, 88, 714, 167731, 42603, "spotter.css"},
	}
	for _, tt := range tests {
		t.Run(tt.file[:8], func(t *testing.T) {
			tr := open(t, filepath.Join("testdata/real", tt.file))
			if len(tr.Compactions) != 1 {
				t.Fatalf("%d compactions, want 1", len(tr.Compactions))
			}
			c := tr.Compactions[0]
			if c.Line != tt.boundaryLine || c.Trigger != "auto" || c.TokensBefore != tt.preTokens || c.TokensAfter != tt.post {
				t.Errorf("compaction at line %d trigger %q tokens %d→%d, want line %d auto %d→%d", c.Line, c.Trigger, c.TokensBefore, c.TokensAfter, tt.boundaryLine, tt.preTokens, tt.post)
			}
			if !strings.HasPrefix(c.Summary, preamble) || !strings.Contains(c.Summary, "Current Work") {
				t.Errorf("summary does not look like Claude Code's: %.80q", c.Summary)
			}
			src := tr.Source(c)
			if got := src[0].Header().Ref; got != tt.first {
				t.Errorf("first source event %s, want %s", got, tt.first)
			}
			if got := src[len(src)-1].Header().Ref; got != tt.last {
				t.Errorf("last source event %s, want %s", got, tt.last)
			}
			calls, results := 0, 0
			for _, e := range src {
				switch ev := e.(type) {
				case *model.ToolCall:
					calls++
				case *model.ToolResult:
					if ev.Job == nil || ev.Job.State == model.JobRunning || !strings.HasPrefix(ev.Text.Head(), "<task-notification>") {
						results++
					}
				case *model.Raw:
					t.Errorf("raw event in the source: %s", ev.Reason)
				}
				if e.Header().Line >= c.Line {
					t.Errorf("source event from line %d, after the boundary", e.Header().Line)
				}
			}
			if calls != tt.calls || results != tt.results {
				t.Errorf("source has %d calls, %d results; want %d, %d", calls, results, tt.calls, tt.results)
			}
			// The last events before the boundary are what the summary's
			// "Current Work" section describes.
			var tail strings.Builder
			for _, e := range src[len(src)-4:] {
				if call, ok := e.(*model.ToolCall); ok {
					tail.WriteString(call.Input.Head())
				}
			}
			cw := c.Summary[strings.Index(c.Summary, "Current Work"):]
			if !strings.Contains(tail.String(), tt.currentWorkMentions) || !strings.Contains(cw, tt.currentWorkMentions) {
				t.Errorf("the last calls before the boundary and the summary's Current Work should both name %s", tt.currentWorkMentions)
			}
		})
	}
}

func TestRewindLeftOut(t *testing.T) {
	tr := open(t, "testdata/daaain/dag_compact_after_rewind.jsonl")
	var refs []string
	for _, e := range tr.Source(tr.Compactions[0]) {
		if e.Kind() != model.KindRaw {
			refs = append(refs, e.Header().Ref)
		}
	}
	if want := []string{"u1", "a1", "b2u", "b2a", "b2u2", "b2a2"}; !slices.Equal(refs, want) {
		t.Errorf("source refs %q, want %q", refs, want)
	}
	for _, e := range tr.Events {
		if r, ok := e.(*model.Raw); ok && !strings.Contains(r.Reason, "rewind") {
			t.Errorf("raw event with reason %q", r.Reason)
		}
	}
}

func TestPreservedSegmentIsKept(t *testing.T) {
	tr := open(t, "testdata/daaain/dag_compact_after_rewind_preserved.jsonl")
	c := tr.Compactions[0]
	if want := []string{"b2a", "b2u2", "b2a2"}; !slices.Equal(c.Kept, want) {
		t.Errorf("kept %q, want %q", c.Kept, want)
	}
	// b2a2 is written only after the summary (as the preserved copy): it
	// stays after the compaction, once.
	n := 0
	for _, e := range tr.Events {
		if e.Header().Ref == "b2a2" {
			n++
			if e.Header().Index < c.Index {
				t.Errorf("b2a2 before the compaction")
			}
		}
	}
	if n != 1 {
		t.Errorf("b2a2 appears %d times", n)
	}
}

func TestSyntheticDetails(t *testing.T) {
	tr := open(t, "testdata/synthetic/11111111-2222-4333-8444-555555555555.jsonl")
	// The assistant response split over two lines sharing msg_01A is one
	// turn: its text and its tool call.
	if tr.Events[1].Header().Turn != tr.Events[2].Header().Turn {
		t.Errorf("split assistant lines have turns %d and %d", tr.Events[1].Header().Turn, tr.Events[2].Header().Turn)
	}
	c1, c2 := tr.Compactions[0], tr.Compactions[1]
	if c1.Trigger != "auto" || c1.TokensBefore != 171234 || c2.Trigger != "manual" || c2.TokensAfter != 3100 {
		t.Errorf("compactions %+v %+v", c1, c2)
	}
	// The manual /compact scaffolding comes after the boundary: the caveat
	// and the command output are not the user's words.
	var roles []model.Role
	for _, e := range tr.Events[c2.Index+1:] {
		if m, ok := e.(*model.Message); ok {
			roles = append(roles, m.Role)
		}
	}
	if want := []model.Role{model.RoleSystem, model.RoleUser, model.RoleSystem}; !slices.Equal(roles, want) {
		t.Errorf("roles after /compact %q, want %q", roles, want)
	}
	if tr.Meta.Extra["title"] != "Fix parser test (synthetic)" {
		t.Errorf("title %q", tr.Meta.Extra["title"])
	}
	last := tr.Events[len(tr.Events)-1].(*model.Raw)
	if last.Problem == nil || last.Problem.Severity != model.Warning || last.Problem.Line != 20 {
		t.Errorf("truncated last line: %+v", last.Problem)
	}
}

func TestMicrocompactAndHandles(t *testing.T) {
	tr := open(t, "testdata/synthetic/33333333-4444-4555-8666-777777777777.jsonl")
	c := tr.Compactions[0]
	if c.Trigger != "microcompact" || c.Summary != "" || c.TokensBefore != 150000 || c.TokensAfter != 110000 {
		t.Errorf("micro-compaction %+v", c)
	}
	// The cleared Read result (and its call id) are the losses; the rest of
	// the context is kept.
	for _, lost := range []string{"m-u5", "toolu_RD1"} {
		if slices.Contains(c.Kept, lost) {
			t.Errorf("kept lists %s, whose result was cleared", lost)
		}
	}
	for _, kept := range []string{"m-u1", "m-a2", "m-u6", "toolu_TD1", "toolu_BG1"} {
		if !slices.Contains(c.Kept, kept) {
			t.Errorf("kept lacks %s", kept)
		}
	}
	var jobs, plans []string
	var roles []model.Role
	for _, e := range tr.Events {
		switch ev := e.(type) {
		case *model.ToolResult:
			if ev.Job != nil {
				jobs = append(jobs, ev.ID+">"+ev.Job.ID+":"+string(ev.Job.State))
			}
		case *model.Plan:
			for _, it := range ev.Items {
				plans = append(plans, it.ID+"="+string(it.Status))
			}
		case *model.Message:
			roles = append(roles, ev.Role)
		}
	}
	wantJobs := []string{"toolu_BG1>b111aaa:running", "toolu_AG1>a77c0de:running", "toolu_KS1>b111aaa:killed", "toolu_AG1>a77c0de:done"}
	if !slices.Equal(jobs, wantJobs) {
		t.Errorf("jobs %q, want %q", jobs, wantJobs)
	}
	wantPlans := []string{"1=pending", "Fix the race in setup=in_progress", "Run make lint=pending", "1=completed"}
	if !slices.Equal(plans, wantPlans) {
		t.Errorf("plans %q, want %q", plans, wantPlans)
	}
	// the user; the isMeta reminder; the assistant's two text lines merged
	// into one message; the API error Claude Code wrote as an assistant line
	wantRoles := []model.Role{model.RoleUser, model.RoleSystem, model.RoleAssistant, model.RoleSystem}
	if !slices.Equal(roles, wantRoles) {
		t.Errorf("roles %q, want %q", roles, wantRoles)
	}
	if tr.Meta.Extra["skipped"] != "attachment/todo_reminder=1 sidechain line (a sub-agent's own context)=1 thinking block=1" {
		t.Errorf("skipped %q", tr.Meta.Extra["skipped"])
	}
}

func TestSplitSummary(t *testing.T) {
	tr := open(t, "testdata/real/258c7280-ae70-4798-800f-63464d01a85d.jsonl")
	s := tr.Compactions[0].Summary
	pre, body, trailer := SplitSummary(s)
	if pre+body+trailer != s {
		t.Fatal("the parts do not make up the summary")
	}
	if !strings.HasPrefix(pre, preamble) || !strings.HasPrefix(body, "Analysis:") ||
		!strings.Contains(trailer, "read the full transcript at: /home/USER/.claude/projects/") {
		t.Errorf("split: %.60q | %.60q | %.60q", pre, body, trailer)
	}
	if _, b, _ := SplitSummary("plain text"); b != "plain text" {
		t.Errorf("a summary without preamble is all body, got %q", b)
	}
}

func TestScan(t *testing.T) {
	infos, err := Scan("testdata/resume")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, si := range infos {
		got[filepath.Base(si.Path)] = si.ID + "|" + si.Parent + "|" + si.Title
		if si.Start.IsZero() || si.Format != Name {
			t.Errorf("%s: start %v format %q", si.Path, si.Start, si.Format)
		}
	}
	// bbbbbbbb continues aaaaaaaa (its boundary points into it): one run,
	// listed once by its newest file, with the first file's title.
	want := map[string]string{
		"bbbbbbbb-0000-4000-8000-000000000002.jsonl": "bbbbbbbb-0000-4000-8000-000000000002||Add the orders table. Never push to main.",
		"cccccccc-0000-4000-8000-000000000003.jsonl": "cccccccc-0000-4000-8000-000000000003||Unrelated",
		"agent-a1b2c3.jsonl":                         "a1b2c3|cccccccc-0000-4000-8000-000000000003|Explore the repository.",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if len(infos) != len(want) {
		t.Errorf("%d sessions, want %d", len(infos), len(want))
	}
	real, err := Scan("testdata/real/258c7280-ae70-4798-800f-63464d01a85d.jsonl")
	if err != nil || len(real) != 1 || real[0].Compactions != 1 || real[0].Title != "Implement spotter-gqc" {
		t.Errorf("scan of a real session: %+v %v", real, err)
	}
}

func TestDetect(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 64<<10 {
			b = b[:64<<10]
		}
		if !Detect(f, b, false) {
			t.Errorf("%s not detected", f)
		}
	}
	if !Detect("testdata/resume", nil, true) || Detect("testdata", nil, true) {
		t.Error("directory detection")
	}
	for _, s := range []string{
		`{"type":"meta","format":"loupe/v1"}`,
		`{"timestamp":"2025","type":"session_meta","payload":{}}`,
		`{"type":"message","turn":1,"role":"user","text":"hi"}`,
	} {
		if Detect("x", []byte(s+"\n"), false) {
			t.Errorf("%s detected as Claude Code", s)
		}
	}
}

// BenchmarkClaudeCodeLoad loads the largest real session (3.2 MB, 1,512
// lines).
func BenchmarkClaudeCodeLoad(b *testing.B) {
	path := "testdata/real/4d5611e5-241a-462a-8d15-5122611a9569.jsonl"
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Open(path, model.ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestProgress(t *testing.T) {
	var last, total int64
	calls := 0
	_, err := Open("testdata/real/258c7280-ae70-4798-800f-63464d01a85d.jsonl", model.ReadOptions{Progress: func(read, tot int64) {
		if read < last {
			t.Errorf("progress goes back: %d after %d", read, last)
		}
		last, total = read, tot
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last != total || total != 2759694 {
		t.Errorf("progress: %d calls, last %d of %d", calls, last, total)
	}
}

// TestListIsScanWithoutReading: List finds the sessions Scan finds (the
// sub-agent's file, not the file the newest one continues), with only
// their path and format.
func TestListIsScanWithoutReading(t *testing.T) {
	const dir = "testdata/resume"
	scanned, err := Scan(dir)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(scanned) || len(listed) != 3 {
		t.Fatalf("List found %d sessions, Scan %d; want 3", len(listed), len(scanned))
	}
	for i := range listed {
		if listed[i].Path != scanned[i].Path || listed[i].Format != Name || listed[i].Turns != 0 {
			t.Errorf("session %d: %+v, want %s with only path and format", i, listed[i], scanned[i].Path)
		}
	}
}

func TestSubagentSession(t *testing.T) {
	for _, c := range []struct {
		path, session string
		ok            bool
	}{
		{"p/s1/subagents/agent-a1.jsonl", "p/s1", true},
		{"p/s1/subagents/agent-a1.jsonl.gz", "p/s1", true},
		{"p/s1/subagents/agent-acompact-9f.jsonl", "", false}, // a compaction run
		{"p/s1/subagents/notes.jsonl", "", false},
		{"p/agent-a1.jsonl", "", false}, // the older layout: beside the session, no session in the path
		{"subagents/agent-a1.jsonl", "", false},
	} {
		got, ok := SubagentSession(filepath.FromSlash(c.path))
		if ok != c.ok || got != filepath.FromSlash(c.session) {
			t.Errorf("SubagentSession(%s) = %q, %v; want %q, %v", c.path, got, ok, c.session, c.ok)
		}
	}
	if s := SessionStem("p/s1.jsonl.zst"); s != "p/s1" {
		t.Errorf("SessionStem: %q", s)
	}
}
