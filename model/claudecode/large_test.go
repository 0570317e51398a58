package claudecode

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// largeSession writes a Claude Code session of about size bytes: user
// prompts, assistant text, thinking and tool_use lines (parallel calls
// sharing a message id), tool results with toolUseResult, TodoWrite plans,
// a few errors, an auto compaction (compact_boundary and its summary line)
// every ~size/13 bytes, and 15 tool results of 1–5 MB spread through it
// (Bash outputs repeated in toolUseResult as Claude Code writes them, and MCP
// results as content blocks). Large Write inputs of up to 600 KB appear too.
// Every line is on the parentUuid chain. It is deterministic.
func largeSession(w io.Writer, size int64) error {
	g := &ccGen{
		Gen:     kittest.Gen{W: bufio.NewWriterSize(w, 1<<20), F: kittest.NewFiller(uint64(size))},
		session: "0b8e7c1a-5d2f-4e3b-9a6c-1f2e3d4c5b6a",
	}
	// A big result line carries about size*0.55/15 bytes.
	line := size * 55 / 100 / 15
	bigBash := int(min(max(line/2, 1<<20), 5<<20))
	bigMCP := int(min(max(line, 1<<20), 5<<20))
	g.userPrompt()
	return g.Drive(size, func(i int) {
		if i%2 == 0 {
			g.bashCall("kubectl logs deploy/ordersd -n staging --since=24h", g.F.Logs(bigBash-i%5*bigBash/8), false)
		} else {
			g.mcpCall(bigMCP - i%5*bigMCP/8)
		}
	}, g.compact, g.userPrompt, g.routine)
}

type ccGen struct {
	kittest.Gen
	session string
	parent  string // the last line on the path
	n       int
	todos   int
}

// start writes the fields every conversation line begins with and returns
// the new line's uuid.
func (g *ccGen) start(b *strings.Builder) string {
	u := g.F.UUID()
	b.WriteString(`{"parentUuid":`)
	if g.parent == "" {
		b.WriteString("null")
	} else {
		b.WriteString(`"` + g.parent + `"`)
	}
	b.WriteString(`,"isSidechain":false,"userType":"external","cwd":"/home/dev/src/orders","sessionId":"` + g.session + `","version":"2.1.39","gitBranch":"main",`)
	return u
}

func (g *ccGen) end(b *strings.Builder, u string) {
	b.WriteString(`"uuid":"` + u + `","timestamp":"` + g.F.Tick(20*time.Second) + `"}` + "\n")
	g.Write(b.String())
	g.parent = u
}

func (g *ccGen) userPrompt() {
	var b strings.Builder
	u := g.start(&b)
	b.WriteString(`"type":"user","message":{"role":"user","content":` + kittest.Quote(g.F.Prompt()) + `},`)
	g.end(&b, u)
}

// assistant writes one assistant line with one content block.
func (g *ccGen) assistant(msgID, block string) {
	var b strings.Builder
	u := g.start(&b)
	fmt.Fprintf(&b, `"message":{"model":"claude-opus-4-6","id":"%s","type":"message","role":"assistant","content":[%s],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d,"service_tier":"standard"}},"requestId":"req_%s","type":"assistant",`,
		msgID, block, g.F.Rng.IntN(9000), 20000+g.F.Rng.IntN(140000), 10+g.F.Rng.IntN(900), g.F.Hex(24))
	g.end(&b, u)
}

// result writes the user line with the result of call id; content is the
// JSON of the block's content, tur that of toolUseResult ("" for none).
func (g *ccGen) result(id, content string, isErr bool, tur string) {
	var b strings.Builder
	b.Grow(len(content) + len(tur) + 600)
	u := g.start(&b)
	fmt.Fprintf(&b, `"type":"user","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":`, id)
	b.WriteString(content)
	fmt.Fprintf(&b, `,"is_error":%t}]},`, isErr)
	if tur != "" {
		b.WriteString(`"toolUseResult":` + tur + `,`)
	}
	g.end(&b, u)
}

func (g *ccGen) ids() (msgID, callID string) {
	g.n++
	return "msg_01" + g.F.Hex(22), fmt.Sprintf("toolu_01%s%04d", g.F.Hex(18), g.n%10000)
}

func (g *ccGen) toolUse(msgID, id, name, input string) {
	g.assistant(msgID, fmt.Sprintf(`{"type":"tool_use","id":"%s","name":"%s","input":%s}`, id, name, input))
}

func (g *ccGen) bashCall(cmd, out string, isErr bool) {
	msgID, id := g.ids()
	g.toolUse(msgID, id, "Bash", `{"command":`+kittest.Quote(cmd)+`,"description":"Run it"}`)
	q := kittest.Quote(out)
	g.result(id, q, isErr, `{"stdout":`+q+`,"stderr":"","interrupted":false,"isImage":false}`)
}

// mcpCall is an MCP tool whose large result comes back as text blocks.
func (g *ccGen) mcpCall(n int) {
	msgID, id := g.ids()
	g.toolUse(msgID, id, "mcp__grafana__query_logs", `{"query":"{app=\"ordersd\"} |= \"request\"","since":"24h"}`)
	var b strings.Builder
	b.WriteString(`[{"type":"text","text":` + kittest.Quote("Query returned the following log lines:") + `},{"type":"text","text":`)
	b.WriteString(kittest.Quote(g.F.Logs(n)))
	b.WriteString(`}]`)
	g.result(id, b.String(), false, "")
}

func (g *ccGen) routine(step int) {
	msgID, id := g.ids()
	if g.F.Rng.IntN(3) == 0 {
		g.assistant(msgID, `{"type":"thinking","thinking":`+kittest.Quote(g.F.Prose(300+g.F.Rng.IntN(1200)))+`,"signature":"`+g.F.Hex(64)+`"}`)
	}
	if g.F.Rng.IntN(2) == 0 {
		g.assistant(msgID, `{"type":"text","text":`+kittest.Quote(g.F.Prose(100+g.F.Rng.IntN(600)))+`}`)
	}
	// Output sizes: mostly small, one in eight 5–40 KB.
	size := g.F.OutputSize()
	switch k := g.F.Rng.IntN(20); {
	case k < 8:
		isErr := g.F.Rng.IntN(20) == 0
		out := g.F.Output(size)
		if isErr {
			out = "Exit code 1\n" + out + "FAIL\tgithub.com/acme/orders/store\t0.412s"
		}
		q := kittest.Quote(out)
		g.toolUse(msgID, id, "Bash", `{"command":"go test ./... 2>&1 | tail -200","description":"Run the tests"}`)
		g.result(id, q, isErr, `{"stdout":`+q+`,"stderr":"","interrupted":false,"isImage":false}`)
	case k < 13:
		path := fmt.Sprintf("/home/dev/src/orders/store/file%d.go", g.F.Rng.IntN(60))
		g.toolUse(msgID, id, "Read", `{"file_path":"`+path+`"}`)
		out := g.F.Output(size)
		g.result(id, kittest.Quote(out), false, `{"type":"text","file":{"filePath":"`+path+`","content":`+kittest.Quote(out)+`,"numLines":120,"startLine":1,"totalLines":120}}`)
	case k < 15:
		// Parallel calls: two tool_use lines of one response.
		_, id2 := g.ids()
		g.toolUse(msgID, id, "Grep", `{"pattern":"Cancel\\(","path":"store"}`)
		g.toolUse(msgID, id2, "Glob", `{"pattern":"**/*_test.go"}`)
		g.result(id, kittest.Quote(g.F.Output(400)), false, "")
		g.result(id2, kittest.Quote(g.F.Output(300)), false, "")
	case k < 17:
		// A Write; one in 40 writes a whole generated file (large input).
		n := 2<<10 + g.F.Rng.IntN(18<<10)
		if g.F.Rng.IntN(40) == 0 {
			n = 100<<10 + g.F.Rng.IntN(500<<10)
		}
		path := fmt.Sprintf("/home/dev/src/orders/gen/file%d.go", step)
		g.toolUse(msgID, id, "Write", `{"file_path":"`+path+`","content":`+kittest.Quote(g.F.Output(n))+`}`)
		g.result(id, kittest.Quote("File created successfully at: "+path), false, "")
	case k < 18:
		g.todos++
		var items []string
		for i := 0; i < 4; i++ {
			items = append(items, fmt.Sprintf(`{"content":"Step %d of batch %d: %s","status":"%s","activeForm":"Working"}`, i+1, g.todos/4, g.F.Sentence(4), kittest.PlanStatus(i, g.todos)))
		}
		g.toolUse(msgID, id, "TodoWrite", `{"todos":[`+strings.Join(items, ",")+`]}`)
		g.result(id, kittest.Quote("Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress."), false, "")
	default:
		old, repl := g.F.Sentence(5), g.F.Sentence(5)
		g.toolUse(msgID, id, "Edit", `{"file_path":"/home/dev/src/orders/store/store.go","old_string":`+kittest.Quote(old)+`,"new_string":`+kittest.Quote(repl)+`}`)
		g.result(id, kittest.Quote("The file /home/dev/src/orders/store/store.go has been updated."), false, "")
	}
}

func (g *ccGen) compact() {
	var b strings.Builder
	logical := g.parent
	g.parent = ""
	u := g.start(&b)
	fmt.Fprintf(&b, `"logicalParentUuid":"%s","type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{"trigger":"auto","preTokens":%d},`, logical, 160000+g.F.Rng.IntN(10000))
	g.end(&b, u)
	b.Reset()
	u = g.start(&b)
	summary := preamble + " that ran out of context. The conversation is summarized below:\nAnalysis:\n" + g.F.Prose(3000) +
		"\n\nSummary:\n1. Primary Request and Intent:\n   " + g.F.Prose(800) + "\n\n9. Current Work:\n   " + g.F.Prose(600) +
		"\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/dev/.claude/projects/orders/" + g.session + ".jsonl\nPlease continue the conversation from where we left off without asking the user any further questions."
	b.WriteString(`"type":"user","message":{"role":"user","content":` + kittest.Quote(summary) + `},"isVisibleInTranscriptOnly":true,"isCompactSummary":true,`)
	g.end(&b, u)
}

// TestGenerateLarge writes a large session for measuring `loupe verify` by
// hand, when LOUPE_GEN_LARGE names the file (LOUPE_GEN_SIZE its size):
//
//	LOUPE_GEN_LARGE=/tmp/cc/session.jsonl LOUPE_GEN_SIZE=100MB go test ./model/claudecode -run TestGenerateLarge -count=1
func TestGenerateLarge(t *testing.T) {
	kittest.GenerateLarge(t, largeSession)
}

// BenchmarkOpenLarge imports a generated ~100 MB session (LOUPE_BENCH_SIZE
// sets another size). It reports the heap the transcript keeps after a
// collection (retained-MB) besides time and allocations.
func BenchmarkOpenLarge(b *testing.B) {
	kittest.BenchOpenLarge(b, "0b8e7c1a-5d2f-4e3b-9a6c-1f2e3d4c5b6a.jsonl", largeSession, Open)
}
