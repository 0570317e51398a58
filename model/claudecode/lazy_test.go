package claudecode

import (
	"bufio"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// TestLazyFixtures: every fixture imports the same with its texts on disk
// (all above 100 bytes) as in memory, and each lazy text loads back exactly.
func TestLazyFixtures(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*/*.jsonl")
	paths = append(paths, "testdata/resume")
	if total := kittest.LazyFixtures(t, Open, paths); total < 50 {
		t.Errorf("only %d lazy texts in the fixtures", total)
	}
}

// bigSession writes a session whose tool outputs are large in every shape
// the importer flattens, with escapes and multi-byte characters at the cuts.
func bigSession(t *testing.T) string {
	t.Helper()
	f := kittest.NewFiller(9)
	out := f.CutOutput
	var b strings.Builder
	w := bufio.NewWriter(&b)
	g := &ccGen{Gen: kittest.Gen{W: w, F: f}, session: "5e551017-0000-4000-8000-00000000b16e"}
	g.userPrompt()
	// A background shell whose id is printed at the end of a large output:
	// the importer must read it whole to find the handle.
	msgID, id := g.ids()
	g.toolUse(msgID, id, "Bash", `{"command":"make build-all","run_in_background":true}`)
	g.result(id, kittest.Quote(out(40<<10)+"\nCommand running in background with ID: bash_big"), false, "")
	// Blocks: text, an image, an empty text, text again.
	msgID, id = g.ids()
	g.toolUse(msgID, id, "mcp__docs__fetch", `{"url":"https://example.com/spec"}`)
	g.result(id, `[{"type":"text","text":`+kittest.Quote(out(30<<10))+`},{"type":"image","source":{"type":"base64","data":"iVBORw0KGgo="}},{"type":"text","text":""},{"type":"text","text":`+kittest.Quote("é"+out(20<<10))+`}]`, false, "")
	// A first block with empty text: no newline before the next one.
	msgID, id = g.ids()
	g.toolUse(msgID, id, "mcp__docs__fetch", `{"url":"https://example.com/b"}`)
	g.result(id, `[{"type":"text","text":""},{"type":"text","text":`+kittest.Quote(out(20<<10))+`}]`, false, "")
	// Lone surrogates and a long run of escaped backslashes at the tail's cut.
	msgID, id = g.ids()
	g.toolUse(msgID, id, "Bash", `{"command":"cat dump.bin"}`)
	q := kittest.Quote(out(30 << 10))
	q = q[:len(q)-1] + `\ud800 lone \udc00 pair \ud83d\ude00` + strings.Repeat(`\\`, 3000) + `n"`
	g.result(id, q, true, `{"stdout":`+q+`}`)
	// A very large input: a whole file written.
	msgID, id = g.ids()
	g.toolUse(msgID, id, "Write", `{"file_path":"/tmp/gen.go","content":`+kittest.Quote(out(300<<10))+`}`)
	g.result(id, kittest.Quote("File created successfully at: /tmp/gen.go"), false, "")
	// A server tool's result inside the response.
	msgID, id = g.ids()
	g.assistant(msgID, `{"type":"server_tool_use","id":"`+id+`","name":"web_search","input":{"query":"orders"}},{"type":"web_search_tool_result","tool_use_id":"`+id+`","content":[{"type":"text","text":`+kittest.Quote(out(25<<10))+`}]}`)
	// A rewound branch: a large result abandoned, the conversation goes on
	// from its parent.
	fork := g.parent
	msgID, id = g.ids()
	g.toolUse(msgID, id, "Read", `{"file_path":"/tmp/big.log"}`)
	g.result(id, kittest.Quote(out(50<<10)), false, "")
	g.parent = fork
	g.userPrompt()
	g.compact()
	msgID, id = g.ids()
	g.toolUse(msgID, id, "Bash", `{"command":"go test ./..."}`)
	g.result(id, kittest.Quote(out(60<<10)), false, "")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return kittest.WriteTemp(t, g.session+".jsonl", b.String())
}

// TestLazyOutputs: large tool outputs, inputs and raw lines of a plain file
// stay on disk with an exact head, tail and length; Load gives what the
// in-memory import holds; a gzipped copy is held in memory.
func TestLazyOutputs(t *testing.T) {
	path := bigSession(t)
	lazy, whole := kittest.OpenBoth(t, Open, path, 0)
	n := kittest.SameAsInMemory(t, lazy, whole)
	// 6 results (one with blocks twice), the server result, the rewound
	// branch's raw line, the Write input.
	if n != 8 {
		t.Errorf("%d lazy texts, want 8", n)
	}
	var job, input, raw bool
	for _, e := range lazy.Events {
		switch ev := e.(type) {
		case *model.ToolResult:
			if ev.Job != nil && ev.Job.ID == "bash_big" {
				job = true
			}
		case *model.ToolCall:
			if ev.Name == "Write" && !ev.Input.Complete() {
				input = true
			}
		case *model.Raw:
			if !ev.JSON.Complete() && strings.Contains(ev.Reason, "rewind") {
				raw = true
			}
		}
	}
	if !job || !input || !raw {
		t.Errorf("background job found %v, Write input lazy %v, rewound line lazy %v; want all", job, input, raw)
	}
	if err := kittest.RoundTrip(lazy); err != nil {
		t.Errorf("round trip: %v", err)
	}

	// Compressed: everything in memory, the same events.
	kittest.GzippedInMemory(t, Open, path, whole)
}
