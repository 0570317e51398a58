package codex

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

const (
	local2025  = "testdata/synthetic/rollout-2025-10-01T08-00-00-0199aaaa-1111-7222-8333-444444444444.jsonl"
	remote2026 = "testdata/synthetic/rollout-2026-02-01T09-00-00-019b0000-aaaa-7bbb-8ccc-dddddddddddd.jsonl"
)

func open(t *testing.T, path string) *model.Transcript {
	t.Helper()
	tr, err := Open(path, model.ReadOptions{})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return tr
}

func TestImport(t *testing.T) {
	tests := []struct {
		path             string
		counts           kittest.Counts
		pending          [][]string
		warnings, errors int
		source           string
		triggers         []string
	}{
		{
			path:     local2025,
			counts:   kittest.Counts{Events: 7, Messages: 4, Calls: 1, Results: 1, Compactions: 1},
			pending:  [][]string{nil},
			source:   "codex 0.46.0",
			triggers: []string{"manual"},
		},
		{
			path:     remote2026,
			counts:   kittest.Counts{Events: 13, Messages: 4, Calls: 4, Results: 4, Compactions: 1},
			pending:  [][]string{{"job:41"}},
			source:   "codex 0.98.0",
			triggers: []string{"auto"},
		},
		{
			path:     "testdata/kvsankar/session_with_compaction.jsonl",
			counts:   kittest.Counts{Events: 15, Messages: 10, Calls: 2, Results: 2, Compactions: 1},
			pending:  [][]string{nil},
			source:   "codex 0.77.0",
			triggers: []string{""},
		},
		{
			path: "testdata/edge.jsonl",
			// calls: update_plan ×2, exec ×2, local_shell, write_stdin, web_search
			counts: kittest.Counts{Events: 21, Messages: 1, Calls: 7, Results: 7, Errors: 2, Plans: 2, PlanItems: 4, Compactions: 2, Raw: 2},
			// at the server-side compaction: the local shell call has no
			// output yet and exec session 7 is running; at the marker-only
			// one, nothing.
			pending:  [][]string{{"call:call_ls9", "job:7"}, nil},
			warnings: 2, // truncated last line; context_compacted without compacted
			errors:   1, // the broken middle line
			source:   "codex 0.104.0",
			triggers: []string{"auto", "auto"},
		},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			tr := open(t, tt.path)
			if got := kittest.Count(tr); got != tt.counts {
				t.Errorf("counts\n got %+v\nwant %+v", got, tt.counts)
			}
			if got := kittest.Pending(tr); !equalPending(got, tt.pending) {
				t.Errorf("pending: got %q, want %q", got, tt.pending)
			}
			var w []string
			for _, p := range tr.Problems {
				if p.Severity == model.Warning {
					w = append(w, p.Error())
				}
			}
			if len(w) != tt.warnings || len(tr.Problems.Errors()) != tt.errors {
				t.Errorf("warnings %q, errors %v; want %d and %d", w, tr.Problems.Errors(), tt.warnings, tt.errors)
			}
			if tr.Meta.Source != tt.source {
				t.Errorf("source %q, want %q", tr.Meta.Source, tt.source)
			}
			var trig []string
			for _, c := range tr.Compactions {
				trig = append(trig, c.Trigger)
			}
			if !slices.Equal(trig, tt.triggers) {
				t.Errorf("triggers %q, want %q", trig, tt.triggers)
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

func equalPending(a, b [][]string) bool {
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

func TestCompactionDetails(t *testing.T) {
	tr := open(t, local2025)
	c := tr.Compactions[0]
	if !strings.HasPrefix(c.Summary, "Another language model started to solve this problem") || c.Opaque {
		t.Errorf("local compaction: %+v", c)
	}
	// event_msg copies are not imported: one user message per prompt.
	tr = open(t, remote2026)
	c = tr.Compactions[0]
	if !c.Opaque || c.Summary != "" || c.TokensBefore != 238000 {
		t.Errorf("remote compaction: opaque %v summary %q before %d", c.Opaque, c.Summary, c.TokensBefore)
	}
	// replacement_history carried the developer message, the environment
	// context and the user's request over verbatim.
	if want := []string{"L2", "L3", "L5"}; !slices.Equal(c.Kept, want) {
		t.Errorf("kept %q, want %q", c.Kept, want)
	}
	users := 0
	for _, e := range tr.Events {
		if m, ok := e.(*model.Message); ok && m.Role == model.RoleUser {
			users++
		}
	}
	if users != 1 {
		t.Errorf("%d user messages, want 1 (the event_msg copy is not imported, injected context is system)", users)
	}
}

func TestEdgeDetails(t *testing.T) {
	tr := open(t, "testdata/edge.jsonl")
	c := tr.Compactions[0]
	// The compaction item and its compacted line are one compaction.
	if !c.Opaque || c.TokensBefore != 250000 || c.TokensAfter != 12000 || !slices.Equal(c.Kept, []string{"L2"}) {
		t.Errorf("compaction 1: %+v", c)
	}
	var errs, jobs []string
	var plans [][]model.PlanItem
	for _, e := range tr.Events {
		switch ev := e.(type) {
		case *model.ToolResult:
			if ev.IsError {
				errs = append(errs, ev.ID)
			}
			if ev.Job != nil {
				jobs = append(jobs, ev.Job.ID+":"+string(ev.Job.State))
			}
		case *model.Plan:
			plans = append(plans, ev.Items)
		}
	}
	// make migrate exited 2; write_stdin's ^C ended the watcher with 130.
	if want := []string{"call_mig1", "call_w2"}; !slices.Equal(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
	if want := []string{"7:running", "7:done"}; !slices.Equal(jobs, want) {
		t.Errorf("jobs %q, want %q", jobs, want)
	}
	// The second update_plan drops "Write the migration": it is cancelled.
	if len(plans) != 2 || plans[1][1] != (model.PlanItem{ID: "Write the migration", Text: "Write the migration", Status: model.PlanCancelled}) {
		t.Errorf("plans %+v", plans)
	}
	// The legacy JSON shell output is unwrapped.
	for _, e := range tr.Events {
		if r, ok := e.(*model.ToolResult); ok && r.ID == "call_ls9" && r.Text.Head() != "Makefile\n" {
			t.Errorf("legacy output %q", r.Text.Head())
		}
	}
}

func TestZstd(t *testing.T) {
	raw, err := os.ReadFile(remote2026)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := zstd.NewWriter(nil)
	path := filepath.Join(t.TempDir(), "rollout-x.jsonl.zst")
	if err := os.WriteFile(path, enc.EncodeAll(raw, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := open(t, path)
	plain := open(t, remote2026)
	if kittest.Count(tr) != kittest.Count(plain) || tr.Bytes != plain.Bytes {
		t.Errorf("zstd: %+v (%d bytes), plain %+v (%d bytes)", kittest.Count(tr), tr.Bytes, kittest.Count(plain), plain.Bytes)
	}
}

func TestDetectAndScan(t *testing.T) {
	for _, f := range []string{local2025, remote2026, "testdata/kvsankar/session_with_compaction.jsonl", "testdata/edge.jsonl"} {
		b, _ := os.ReadFile(f)
		if !Detect(f, b, false) {
			t.Errorf("%s not detected", f)
		}
	}
	if Detect("x", []byte(`{"type":"meta","format":"loupe/v1"}`+"\n"), false) ||
		Detect("x", []byte(`{"parentUuid":null,"type":"user","sessionId":"s"}`+"\n"), false) {
		t.Error("detected a foreign format")
	}
	infos, err := Scan("testdata/synthetic")
	if err != nil || len(infos) != 2 {
		t.Fatalf("scan: %v %+v", err, infos)
	}
	for _, si := range infos {
		if si.Compactions != 1 || si.ID == "" || si.Start.IsZero() || si.Title == "" {
			t.Errorf("scan: %+v", si)
		}
	}
}

// A turn is one model response: the text and the calls it writes as lines
// of their own share a turn (a promise and the call that keeps it are one
// response, as Claude Code's message id makes them); a call's output or the
// user's next message starts another.
func TestTurnIsOneResponse(t *testing.T) {
	lines := strings.Join([]string{
		`{"timestamp":"t","type":"session_meta","payload":{"id":"s1","cli_version":"0.171.0"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Run the tests."}]}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"I'll run the tests."}]}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[]}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"go\",\"test\"]}","call_id":"c1"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"go\",\"vet\"]}","call_id":"c2"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"ok"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Both pass."}]}}`,
	}, "\n") + "\n"
	tr, err := Read(strings.NewReader(lines), model.ReadOptions{Name: "rollout.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, e := range tr.Events {
		got = append(got, e.Header().Turn)
	}
	// user, text + two calls, output, output, text
	want := []int{1, 2, 2, 2, 3, 4, 5}
	if !slices.Equal(got, want) {
		t.Errorf("turns %v, want %v", got, want)
	}
}

// Codex marks preamble messages "phase":"commentary"; the mark survives
// conversion to loupe JSONL and back.
func TestCommentaryPhase(t *testing.T) {
	lines := `{"timestamp":"t","type":"session_meta","payload":{"id":"s1","cli_version":"0.142.0"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","phase":"commentary","content":[{"type":"output_text","text":"I'm going to read the config first."}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","phase":"final_answer","content":[{"type":"output_text","text":"Done: the config is fixed."}]}}
`
	tr, err := Read(strings.NewReader(lines), model.ReadOptions{Name: "rollout.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, e := range tr.Events {
		if m, ok := e.(*model.Message); ok {
			got = append(got, m.Commentary)
		}
	}
	if !slices.Equal(got, []bool{true, false}) {
		t.Fatalf("commentary %v, want [true false]", got)
	}
	var buf strings.Builder
	if err := model.Write(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, err := model.Read(strings.NewReader(buf.String()), model.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m := back.Events[0].(*model.Message); !m.Commentary {
		t.Errorf("the phase was lost in loupe JSONL:\n%s", buf.String())
	}
}
