package pi

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/verify"
)

const (
	v1Fixture   = "testdata/v1-kept-tail.jsonl"
	v3Fixture   = "testdata/v3-tree.jsonl"
	edgeFixture = "testdata/edge.jsonl"
)

func load(t *testing.T, path string) *model.Transcript {
	t.Helper()
	tr, err := Open(path, model.ReadOptions{})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return tr
}

func problems(tr *model.Transcript) (warnings, errors []string) {
	for _, p := range tr.Problems {
		if p.Severity == model.Warning {
			warnings = append(warnings, p.Error())
		} else {
			errors = append(errors, p.Error())
		}
	}
	return warnings, errors
}

func TestImport(t *testing.T) {
	tests := []struct {
		path             string
		counts           kittest.Counts
		pending          [][]string
		kept             [][]string
		before, after    []int
		lines            []int // of the compactions
		warnings, errors int
		version, title   string
	}{
		{
			// v1: index-based; two lines hold two records each (a call and
			// the compaction it was in flight at; a reply and a hook's
			// compaction that kept nothing).
			path: v1Fixture,
			// calls: write, grep, the user's make test, read, make migrate,
			// edit, make test (in flight), the user's git status; the
			// aborted make migrate is the raw event.
			counts:  kittest.Counts{Events: 29, Messages: 10, Calls: 8, Results: 7, Errors: 2, Compactions: 3, Raw: 1},
			pending: [][]string{nil, {"call:call_t1"}, {"call:call_t1"}},
			kept: [][]string{
				{"E9", "E10", "E11", "call_r1"},
				{"E16", "E17", "E18", "call_e1", "call_t1"},
				nil,
			},
			before:  []int{150000, 160000, 90000},
			after:   []int{11500, 12000, 0},
			lines:   []int{13, 19, 22},
			version: "1",
		},
		{
			// v3: a tree; the retry-loop branch was left with /tree.
			path:     v3Fixture,
			counts:   kittest.Counts{Events: 17, Messages: 7, Calls: 3, Results: 3, Errors: 1, Compactions: 2, Raw: 2},
			pending:  [][]string{nil, nil},
			kept:     [][]string{{"b1000006", "b1000007", "c4"}, nil},
			before:   []int{120000, 60000},
			after:    []int{8000, 0},
			lines:    []int{15, 20},
			warnings: 1, // the branches
			version:  "3",
			title:    "checkout race",
		},
		{
			path: edgeFixture,
			// raw: the bytes between two records, the line that is not
			// JSON, an unknown entry type, an unknown role, a message
			// without its message, a result without its call id, a !!
			// command, a second header, a call in a failed reply, the
			// truncated last record.
			counts:   kittest.Counts{Events: 19, Messages: 3, Calls: 3, Results: 2, Compactions: 1, Raw: 10},
			pending:  [][]string{nil},
			kept:     [][]string{nil},
			before:   []int{50000},
			after:    []int{3},
			lines:    []int{9},
			warnings: 5, // no message; no toolCallId; firstKeptEntryIndex 99; second header; truncated record
			errors:   2, // the bytes between records; the line that is not JSON
			version:  "1",
		},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			tr := load(t, tt.path)
			if got := kittest.Count(tr); got != tt.counts {
				t.Errorf("counts\n got %+v\nwant %+v", got, tt.counts)
			}
			if got := kittest.Pending(tr); !equalLists(got, tt.pending) {
				t.Errorf("pending: got %q, want %q", got, tt.pending)
			}
			var kept [][]string
			var before, after, lines []int
			for _, c := range tr.Compactions {
				kept = append(kept, c.Kept)
				before = append(before, c.TokensBefore)
				after = append(after, c.TokensAfter)
				lines = append(lines, c.Line)
				if c.Trigger != "" {
					t.Errorf("compaction %d: trigger %q; pi does not record one", c.Seq, c.Trigger)
				}
			}
			if !equalLists(kept, tt.kept) {
				t.Errorf("kept: got %q, want %q", kept, tt.kept)
			}
			if !slices.Equal(before, tt.before) || !slices.Equal(after, tt.after) || !slices.Equal(lines, tt.lines) {
				t.Errorf("tokens before %v after %v, lines %v; want %v %v %v", before, after, lines, tt.before, tt.after, tt.lines)
			}
			w, e := problems(tr)
			if len(w) != tt.warnings || len(e) != tt.errors {
				t.Errorf("warnings %q, errors %q; want %d and %d", w, e, tt.warnings, tt.errors)
			}
			if tr.Meta.Source != Name || tr.Meta.Extra["session_version"] != tt.version || tr.Meta.Extra["title"] != tt.title || tr.Meta.Run == "" {
				t.Errorf("meta %+v", tr.Meta)
			}
			turn := 0
			for i, e := range tr.Events {
				if e.Header().Index != i || e.Header().Turn < turn {
					t.Fatalf("event %d: index %d turn %d after %d", i, e.Header().Index, e.Header().Turn, turn)
				}
				turn = e.Header().Turn
			}
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

func equalLists(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || len(a[i]) > 0 && !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestV1Details: what the verifier reads of the v1 fixture besides counts.
func TestV1Details(t *testing.T) {
	tr := load(t, v1Fixture)
	// The split turn's summary keeps both parts.
	s := tr.Compactions[1].Summary
	if !strings.Contains(s, "\n---\n\n**Turn Context (split turn):**\n") || !strings.Contains(s, "## Next Steps") {
		t.Errorf("split-turn summary cut: %q", s)
	}
	var users, aborted []string
	for _, e := range tr.Events {
		switch ev := e.(type) {
		case *model.ToolCall:
			if ev.Name == "user_bash" {
				users = append(users, ev.ID+" "+ev.Input.Head())
			}
			if ev.ID == "call_m1" {
				t.Error("the aborted call became a tool call")
			}
		case *model.ToolResult:
			if ev.ID == "bash@E7" && (!ev.IsError || !strings.HasSuffix(ev.Text.Head(), "\n\nCommand exited with code 2")) {
				t.Errorf("the user's failing make test: error %v, text %q", ev.IsError, ev.Text.Head())
			}
			if ev.ID == "call_g1" && !ev.IsError {
				t.Error("grep exiting 1 is an error result, as pi says")
			}
		case *model.Raw:
			aborted = append(aborted, ev.Ref+" "+ev.Reason)
		}
	}
	want := []string{`bash@E7 {"command":"make test"}`, `bash@E20 {"command":"git status"}`}
	if !slices.Equal(users, want) {
		t.Errorf("user commands %q, want %q", users, want)
	}
	if len(aborted) != 1 || !strings.HasPrefix(aborted[0], `E8 tool call call_m1 (bash) in a reply that ended with stopReason "aborted"`) {
		t.Errorf("aborted call: %q", aborted)
	}
	// The aborted reply's words are still the assistant's.
	found := false
	for _, e := range tr.Events {
		if m, ok := e.(*model.Message); ok && m.Ref == "E8" && m.Role == model.RoleAssistant && m.Text == "Running the migration now." {
			found = true
		}
	}
	if !found {
		t.Error("the aborted reply's text is missing")
	}
	if got := tr.Meta.Extra["skipped"]; got != "thinking=1 thinking_level_change=1" {
		t.Errorf("skipped %q", got)
	}
}

// TestV3Details: the tree's roles and branch.
func TestV3Details(t *testing.T) {
	tr := load(t, v3Fixture)
	var roles []string
	for _, e := range tr.Events {
		switch ev := e.(type) {
		case *model.Message:
			roles = append(roles, ev.Ref+":"+string(ev.Role))
		case *model.Raw:
			if !strings.HasPrefix(ev.Reason, "on another branch") {
				t.Errorf("raw %s: %s", ev.Ref, ev.Reason)
			}
			roles = append(roles, ev.Ref+":raw")
		}
	}
	// The branch summary, the custom_message entry and the custom message
	// are the runtime's, not the user's.
	want := []string{"a1000001:user", "a1000005:raw", "a1000006:raw", "b1000001:system", "b1000002:user", "b1000003:assistant",
		"b1000005:system", "b1000011:system", "b1000012:assistant"}
	if !slices.Equal(roles, want) {
		t.Errorf("roles %q\nwant %q", roles, want)
	}
	if tr.Meta.Agent != "claude-opus-4-5" || tr.Meta.Extra["cwd"] != "/home/user/shop" {
		t.Errorf("meta %+v", tr.Meta)
	}
}

// TestLinearTreeReadOnce: a v3 session with one branch imports every entry,
// with no warning.
func TestLinearTreeReadOnce(t *testing.T) {
	data, err := os.ReadFile(v3Fixture)
	if err != nil {
		t.Fatal(err)
	}
	// Drop the abandoned branch (lines 6 and 7): the branch summary's
	// parent is then the entry before it.
	lines := strings.Split(string(data), "\n")
	lines = append(lines[:5:5], lines[7:]...)
	path := kittest.WriteTemp(t, "linear.jsonl", strings.Join(lines, "\n"))
	tr := load(t, path)
	if w, e := problems(tr); len(w)+len(e) != 0 {
		t.Errorf("problems %q %q", w, e)
	}
	if c := kittest.Count(tr); c.Raw != 0 || c.Events != 15 {
		t.Errorf("counts %+v", c)
	}
}

func TestDetect(t *testing.T) {
	for _, f := range []string{v1Fixture, v3Fixture, edgeFixture} {
		b, _ := os.ReadFile(f)
		if !Detect(f, b, false) {
			t.Errorf("%s not detected", f)
		}
	}
	for _, s := range []string{
		`{"type":"meta","format":"loupe/v1"}` + "\n",
		`{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}` + "\n",
		`{"parentUuid":null,"type":"user","sessionId":"s"}` + "\n",
		`{"type":"session","id":"x"}` + "\n", // no cwd
		"not json\n",
	} {
		if Detect("x", []byte(s), false) {
			t.Errorf("detected %q", s)
		}
	}
	// A header sharing its line with the next record.
	if !Detect("x", []byte(`{"type":"session","id":"s","cwd":"/"}{"type":"message"}`), false) {
		t.Error("a header followed on its line by a record is not detected")
	}
	if Detect("testdata", nil, true) {
		t.Error("a directory detected")
	}
}

func TestScan(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "--home-user-shop--")
	os.MkdirAll(sub, 0o755)
	for _, f := range []string{v1Fixture, v3Fixture} {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(sub, filepath.Base(f)), b, 0o644)
	}
	os.WriteFile(filepath.Join(sub, "notes.jsonl"), []byte(`{"type":"meta"}`+"\n"), 0o644)
	infos, err := Scan(dir)
	if err != nil || len(infos) != 2 {
		t.Fatalf("scan: %v %+v", err, infos)
	}
	got := map[string]string{}
	for _, si := range infos {
		got[filepath.Base(si.Path)] = fmt.Sprintf("%s|%s|%d|%d|%v", si.ID, si.Title, si.Compactions, si.Turns, si.Start.IsZero())
	}
	want := map[string]string{
		// The compaction that shares a line with a reply is counted.
		"v1-kept-tail.jsonl": "0b1c2d3e-4f50-4617-8283-949596979899|Add the orders table to the store. Never push to main.|3|22|false",
		"v3-tree.jsonl":      "5e551011-0000-4000-8000-00000000c0de|checkout race|2|16|false",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s", k, got[k], v)
		}
	}
}

// TestLazy: every fixture imports the same with its texts on disk as in
// memory, and a large output of a record that shares its line with another
// loads back from the right record.
func TestLazy(t *testing.T) {
	kittest.LazyFixtures(t, Open, []string{v1Fixture, v3Fixture, edgeFixture})

	f := kittest.NewFiller(3)
	out := f.CutOutput(40 << 10)
	arg := f.CutOutput(300 << 10)
	var b bytes.Buffer
	b.WriteString(`{"type":"session","id":"big","timestamp":"2025-12-01T00:00:00Z","cwd":"/"}` + "\n")
	b.WriteString(`{"type":"message","timestamp":"2025-12-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"text","text":"writing"},` +
		`{"type":"toolCall","id":"w","name":"write","arguments":{"path":"gen.txt","content":` + kittest.Quote(arg) + `}}],"stopReason":"toolUse"}}`)
	b.WriteString(`{"type":"message","timestamp":"2025-12-01T00:00:02Z","message":{"role":"toolResult","toolCallId":"w","content":[{"type":"text","text":` +
		kittest.Quote(out) + `},{"type":"image","data":"iVBO","mimeType":"image/png"}],"isError":false}}` + "\n")
	b.WriteString(`{"type":"message","timestamp":"2025-12-01T00:00:03Z","message":{"role":"bashExecution","command":"cat log","output":` +
		kittest.Quote(out) + `,"exitCode":1,"cancelled":false,"truncated":false}}` + "\n")
	path := kittest.WriteTemp(t, "big.jsonl", b.String())
	lazy, whole := kittest.OpenBoth(t, Open, path, 0)
	// The input, the result, the user command's output.
	if n := kittest.SameAsInMemory(t, lazy, whole); n != 3 {
		t.Errorf("%d lazy texts, want 3", n)
	}
	for _, e := range lazy.Events {
		if r, ok := e.(*model.ToolResult); ok && r.ID == "w" {
			s, err := r.Text.Load()
			if err != nil || s != out+"\n[image]" {
				t.Errorf("result loads %d bytes (%v)", len(s), err)
			}
		}
	}
	if err := kittest.RoundTrip(lazy); err != nil {
		t.Errorf("round trip: %v", err)
	}
	kittest.GzippedInMemory(t, Open, path, whole)
}

// TestVerifyRoundTrip: converting to loupe JSONL and reading it back gives
// the same verification, compaction by compaction.
func TestVerifyRoundTrip(t *testing.T) {
	for _, path := range []string{v1Fixture, v3Fixture, edgeFixture} {
		t.Run(filepath.Base(path), func(t *testing.T) { sameVerification(t, load(t, path)) })
	}
}

func sameVerification(t *testing.T, tr *model.Transcript) {
	t.Helper()
	var buf bytes.Buffer
	if err := model.Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, err := model.Read(bytes.NewReader(buf.Bytes()), model.ReadOptions{Name: "back"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := verdicts(verify.Run(tr, verify.Options{})), verdicts(verify.Run(back, verify.Options{}))
	if a != b {
		t.Errorf("verification differs after loupe JSONL:\nimported:\n%s\nread back:\n%s", a, b)
	}
	if len(tr.Compactions) > 0 && !strings.Contains(a, "#1 ") {
		t.Errorf("no compaction verified:\n%s", a)
	}
}

// verdicts is what a verification decides, without where it read it.
func verdicts(r *verify.Result) string {
	var b strings.Builder
	for _, c := range r.Compactions {
		fmt.Fprintf(&b, "#%d %s loss %.4f unverifiable %v\n", c.Seq, c.Verdict, c.LossRatio, c.Unverifiable)
		for _, why := range c.Reasons {
			fmt.Fprintf(&b, "  reason %s\n", why)
		}
		for _, it := range c.Items {
			fmt.Fprintf(&b, "  item %s %q %s turn %d\n", it.Kind, it.Key, it.Status, it.Turn)
		}
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "finding %s %q lost at %d turn %d\n", f.Kind, f.Item, f.LostAt, f.Turn)
	}
	return b.String()
}

// TestSplitLine: the records of a line are found whatever their strings
// hold, and what is not a record is cut out as a bad run.
func TestSplitLine(t *testing.T) {
	tests := []struct {
		line string
		want []string // records as written; bad runs in [brackets]
	}{
		{`{"a":1}`, []string{`{"a":1}`}},
		{`{"a":1}{"b":2}`, []string{`{"a":1}`, `{"b":2}`}},
		{` {"a":1}  {"b":[{}]} `, []string{`{"a":1}`, `{"b":[{}]}`}},
		// Braces and quotes inside strings.
		{`{"s":"}{\"x\\"}{"t":"{"}`, []string{`{"s":"}{\"x\\"}`, `{"t":"{"}`}},
		{`{"a":1} xx {"b":2}`, []string{`{"a":1}`, `[xx]`, `{"b":2}`}},
		{`junk`, []string{`[junk]`}},
		// A record cut off takes the rest of the line.
		{`{"a":1}{"b":"x`, []string{`{"a":1}`, `[{"b":"x]`}},
		{`{"a":{"b":1}`, []string{`[{"a":{"b":1}]`}},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range splitLine([]byte(tt.line)) {
			part := tt.line[s.start:s.end]
			if s.bad {
				part = "[" + part + "]"
			}
			got = append(got, part)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.line, got, tt.want)
		}
	}
}
