package codex

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// TestLazyFixtures: every fixture imports the same with its texts on disk
// (all above 100 bytes) as in memory.
func TestLazyFixtures(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*/*.jsonl")
	paths = append(paths, "testdata/edge.jsonl")
	kittest.LazyFixtures(t, Open, paths)
}

// bigRollout writes a rollout whose outputs and inputs are large in every
// shape the importer reads, with escapes and multi-byte characters at the
// cuts.
func bigRollout(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	f := kittest.NewFiller(11)
	g := &cxGen{Gen: kittest.Gen{W: bufio.NewWriter(&b), F: f}}
	out := f.CutOutput
	g.line("session_meta", `{"id":"019c2222-0000-7000-8000-00000000b16e","cwd":"/tmp","originator":"codex_cli_rs","cli_version":"0.104.0","source":"cli"}`)
	g.userTurn()
	// A plain large output, and one that fails.
	g.call("shell_command", `{"command":"go test ./..."}`, "Exit code: 0\nWall time: 3.0 seconds\nOutput:\n"+out(40<<10))
	g.call("shell_command", `{"command":"go vet ./..."}`, "Exit code: 2\nWall time: 3.0 seconds\nOutput:\n"+out(30<<10))
	// The legacy wrapping, read whole.
	g.call("shell", `{"command":["bash","-lc","cat big.log"]}`, legacy(out(30<<10), 1))
	// A process left running, its session id past the head: read whole.
	g.call("exec_command", `{"cmd":"make serve"}`, "Chunk ID: ab12\nWall time: 10.0 seconds\nOutput:\n"+out(30<<10)+"\nProcess running with session ID 77\n")
	// A poll of it that shows it exited, with a large output.
	g.call("write_stdin", `{"session_id":77,"chars":""}`, "Chunk ID: cd34\nWall time: 1.0 seconds\nProcess exited with code 0\nOutput:\n"+out(30<<10))
	// Content items.
	g.n++
	g.line("response_item", `{"type":"function_call","name":"mcp__docs__fetch","arguments":"{}","call_id":"call_items"}`)
	g.line("response_item", `{"type":"function_call_output","call_id":"call_items","output":[{"type":"input_text","text":`+kittest.Quote(out(20<<10))+`},{"type":"input_image","image_url":"data:image/png;base64,iVBO"},{"type":"input_text","text":`+kittest.Quote("é"+out(20<<10))+`}]}`)
	// Escapes where a lazy text is cut: lone surrogates, a long run of
	// escaped backslashes, and the running marker written with \u escapes
	// (it must still be found).
	q := kittest.Quote(out(30 << 10))
	q = q[:len(q)-1] + `\ud800 lone \ud83d\ude00` + strings.Repeat(`\\`, 3000) + `\n\u0050rocess running with session ID 78"`
	g.line("response_item", `{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat dump\"}","call_id":"call_esc"}`)
	g.line("response_item", `{"type":"function_call_output","call_id":"call_esc","output":`+q+`}`)
	// Very large inputs: a patch adding a whole file, and arguments.
	g.line("response_item", `{"type":"custom_tool_call","status":"completed","call_id":"call_patch","name":"apply_patch","input":`+kittest.Quote("*** Begin Patch\n*** Add File: gen.go\n+"+out(300<<10)+"\n*** End Patch\n")+`}`)
	g.line("response_item", `{"type":"custom_tool_call_output","call_id":"call_patch","output":`+kittest.Quote(legacy("Success.", 0))+`}`)
	g.call("exec_command", `{"cmd":`+kittest.Quote("cat > gen.txt <<'EOF'\n"+out(300<<10)+"\nEOF")+`}`, "Exit code: 0\nOutput:\n")
	// An item loupe does not know, large: a raw event.
	g.line("response_item", `{"type":"future_item","data":`+kittest.Quote(out(30<<10))+`}`)
	g.compact()
	if err := g.W.Flush(); err != nil {
		t.Fatal(err)
	}
	return kittest.WriteTemp(t, "rollout-2026-03-02T10-00-00-019c2222-0000-7000-8000-00000000b16e.jsonl", b.String())
}

// TestLazyOutputs: large outputs, very large inputs and raw lines of a plain
// file stay on disk with an exact head, tail and length, and Load gives what
// the in-memory import holds; handles are found even when the text must be
// read whole for them; a gzipped copy is held in memory.
func TestLazyOutputs(t *testing.T) {
	path := bigRollout(t)
	lazy, whole := kittest.OpenBoth(t, Open, path, 0)
	n := kittest.SameAsInMemory(t, lazy, whole)
	// 7 outputs, 2 inputs, the unknown item.
	if n != 10 {
		t.Errorf("%d lazy texts, want 10", n)
	}
	jobs := map[string]model.JobState{}
	failed := 0
	for _, e := range lazy.Events {
		if r, ok := e.(*model.ToolResult); ok {
			if r.Job != nil {
				jobs[r.Job.ID] = r.Job.State
			}
			if r.IsError {
				failed++
			}
		}
	}
	if jobs["77"] != model.JobDone || jobs["78"] != model.JobRunning {
		t.Errorf("jobs %v; want 77 done (started, then exited) and 78 running", jobs)
	}
	if failed != 2 {
		t.Errorf("%d failed outputs, want 2 (exit code 2, legacy exit code 1)", failed)
	}
	if err := kittest.RoundTrip(lazy); err != nil {
		t.Errorf("round trip: %v", err)
	}

	kittest.GzippedInMemory(t, Open, path, whole)
}

// TestCustomToolInputIsJSON: a custom tool's input (an apply_patch with
// colours in it) is stored as a JSON string, not in Go's quoting ("\x1b").
func TestCustomToolInputIsJSON(t *testing.T) {
	line := `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x","cli_version":"0.104.0"}}` + "\n" +
		`{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","input":"a\u001b[0m\u00a0b\"q\\\n"}}` + "\n"
	path := filepath.Join(t.TempDir(), "rollout-x.jsonl")
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := open(t, path)
	in, err := tr.Events[0].(*model.ToolCall).Input.Load()
	if err != nil {
		t.Fatal(err)
	}
	var s string
	if err := json.Unmarshal([]byte(in), &s); err != nil || s != "a\x1b[0m\u00a0b\"q\\\n" {
		t.Errorf("input %s: %v, decodes to %q", in, err, s)
	}
}
