package codex

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// largeRollout writes a Codex rollout of about size bytes: session_meta,
// turn_context, user and assistant messages (each repeated as an event_msg
// for the UI), reasoning items, exec_command / shell_command calls and
// their outputs (a few of them running unified-exec sessions polled with
// write_stdin, a few in the legacy {"output","metadata"} wrapping),
// apply_patch calls, update_plan, token counts, a local compaction (compacted
// line with its replacement_history, then context_compacted) every
// ~size/13 bytes, and 15 outputs of 1–5 MB spread through it. It is
// deterministic.
func largeRollout(w io.Writer, size int64) error {
	g := &cxGen{Gen: kittest.Gen{W: bufio.NewWriterSize(w, 1<<20), F: kittest.NewFiller(uint64(size) + 7)}}
	big := int(min(max(size*55/100/15, 1<<20), 5<<20))
	g.line("session_meta", `{"id":"019c1111-2222-7333-8444-555566667777","timestamp":"`+g.F.Clock.Format(time.RFC3339)+`","cwd":"/home/dev/src/orders","originator":"codex_cli_rs","cli_version":"0.104.0","source":"cli","model_provider":"openai","base_instructions":{"text":`+kittest.Quote(g.F.Prose(6000))+`},"git":{"commit_hash":"`+g.F.Hex(40)+`","branch":"main"}}`)
	g.userTurn()
	return g.Drive(size, func(i int) {
		n := big - i%5*big/8
		if i == 7 {
			// One in the legacy wrapping: a JSON document in the string.
			g.call("shell", `{"command":["bash","-lc","kubectl logs deploy/ordersd -n staging --since=24h"],"workdir":"/home/dev/src/orders"}`,
				legacy(g.F.Logs(n), 0))
		} else {
			g.call("shell_command", `{"command":"kubectl logs deploy/ordersd -n staging --since=24h","workdir":"/home/dev/src/orders"}`,
				"Exit code: 0\nWall time: 4.2 seconds\nOutput:\n"+g.F.Logs(n))
		}
	}, g.compact, g.userTurn, func(int) { g.routine() })
}

type cxGen struct {
	kittest.Gen
	n     int
	users []string // the user messages so far, for replacement_history
	plan  int
}

func (g *cxGen) line(typ, payload string) {
	if g.Err != nil {
		return
	}
	g.Write(`{"timestamp":"` + g.F.Tick(15*time.Second) + `","type":"` + typ + `","payload":` + payload + "}\n")
}

func legacy(out string, code int) string {
	return `{"output":` + kittest.Quote(out) + fmt.Sprintf(`,"metadata":{"exit_code":%d,"duration_seconds":1.2}}`, code)
}

func (g *cxGen) message(role, text string) {
	kind := "input_text"
	if role == "assistant" {
		kind = "output_text"
	}
	g.line("response_item", `{"type":"message","role":"`+role+`","content":[{"type":"`+kind+`","text":`+kittest.Quote(text)+`}]}`)
	if role == "user" {
		g.line("event_msg", `{"type":"user_message","message":`+kittest.Quote(text)+`,"images":[],"local_images":[],"text_elements":[]}`)
	} else {
		g.line("event_msg", `{"type":"agent_message","message":`+kittest.Quote(text)+`}`)
	}
}

func (g *cxGen) userTurn() {
	g.line("turn_context", `{"turn_id":"turn-`+g.F.Hex(6)+`","cwd":"/home/dev/src/orders","approval_policy":"on-request","sandbox_policy":{"type":"workspace-write","network_access":false},"model":"gpt-5.2-codex","effort":"medium","summary":"auto"}`)
	text := g.F.Prompt()
	g.users = append(g.users, text)
	g.message("user", text)
}

func (g *cxGen) tokens() {
	in := 20000 + g.F.Rng.IntN(200000)
	g.line("event_msg", fmt.Sprintf(`{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d},"last_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":0,"total_tokens":%d},"model_context_window":258400},"rate_limits":null}`,
		in*3, in*2, 3000, in*3+3000, in, in-2000, 300, in+300))
}

// call writes a function call and its output.
func (g *cxGen) call(name, args, output string) string {
	g.n++
	id := fmt.Sprintf("call_%s%05d", g.F.Hex(16), g.n%100000)
	g.line("response_item", `{"type":"function_call","name":"`+name+`","arguments":`+kittest.Quote(args)+`,"call_id":"`+id+`"}`)
	g.line("response_item", `{"type":"function_call_output","call_id":"`+id+`","output":`+kittest.Quote(output)+`}`)
	g.tokens()
	return id
}

func (g *cxGen) routine() {
	if g.F.Rng.IntN(3) == 0 {
		g.line("response_item", `{"type":"reasoning","summary":[{"type":"summary_text","text":`+kittest.Quote("**"+g.F.Sentence(4)+"**")+`}],"content":null,"encrypted_content":"gAAAAA`+g.F.Hex(600)+`"}`)
	}
	if g.F.Rng.IntN(2) == 0 {
		g.message("assistant", g.F.Prose(100+g.F.Rng.IntN(600)))
	}
	size := g.F.OutputSize()
	switch k := g.F.Rng.IntN(20); {
	case k < 10:
		code := 0
		if g.F.Rng.IntN(20) == 0 {
			code = 1
		}
		g.call("shell_command", `{"command":"go test ./... 2>&1 | tail -200","workdir":"/home/dev/src/orders"}`,
			fmt.Sprintf("Exit code: %d\nWall time: %.1f seconds\nOutput:\n%s", code, float64(g.F.Rng.IntN(90))/10, g.F.Output(size)))
	case k < 12:
		g.call("shell", `{"command":["bash","-lc","cat store/store.go"],"workdir":"/home/dev/src/orders"}`, legacy(g.F.Output(size), 0))
	case k < 14:
		// A unified-exec session: started, polled, done.
		sess := 1000 + g.n
		g.call("exec_command", `{"cmd":"go run ./cmd/ordersd","yield_time_ms":1000}`,
			fmt.Sprintf("Chunk ID: %s\nWall time: 1.0 seconds\nProcess running with session ID %d\nOriginal token count: 40\nOutput:\nlistening on :8080\n", g.F.Hex(4), sess))
		g.call("write_stdin", fmt.Sprintf(`{"session_id":%d,"chars":"\u0003","yield_time_ms":500}`, sess),
			fmt.Sprintf("Chunk ID: %s\nWall time: 0.5 seconds\nProcess exited with code 0\nOriginal token count: 10\nOutput:\n%s", g.F.Hex(4), g.F.Output(size)))
	case k < 17:
		g.n++
		id := fmt.Sprintf("call_%s%05d", g.F.Hex(16), g.n%100000)
		patch := "*** Begin Patch\n*** Update File: store/store.go\n@@\n-" + g.F.Sentence(6) + "\n+" + g.F.Sentence(6) + "\n*** End Patch\n"
		if g.F.Rng.IntN(40) == 0 {
			// A generated file added whole: a large input.
			patch = "*** Begin Patch\n*** Add File: gen/tables.go\n+" + strings.ReplaceAll(g.F.Output(100<<10+g.F.Rng.IntN(500<<10)), "\n", "\n+") + "\n*** End Patch\n"
		}
		g.line("response_item", `{"type":"custom_tool_call","status":"completed","call_id":"`+id+`","name":"apply_patch","input":`+kittest.Quote(patch)+`}`)
		g.line("response_item", `{"type":"custom_tool_call_output","call_id":"`+id+`","output":`+kittest.Quote(legacy("Success. Updated the following files:\nM store/store.go\n", 0))+`}`)
	case k < 18:
		g.plan++
		var steps []string
		for i := 0; i < 4; i++ {
			steps = append(steps, fmt.Sprintf(`{"step":"Step %d of batch %d: %s","status":"%s"}`, i+1, g.plan/4, g.F.Sentence(4), kittest.PlanStatus(i, g.plan)))
		}
		g.call("update_plan", `{"plan":[`+strings.Join(steps, ",")+`]}`, "Plan updated")
	default:
		g.call("shell_command", `{"command":"rg -n Cancel store","workdir":"/home/dev/src/orders"}`, "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n"+g.F.Output(size/4))
	}
}

func (g *cxGen) compact() {
	summary := "**Progress**\n\n" + g.F.Prose(2500) + "\n\n**Outstanding TODOs**\n\n- " + g.F.Prose(300) + "\n- " + g.F.Prose(200)
	var hist []string
	for _, u := range g.users[max(0, len(g.users)-20):] {
		hist = append(hist, `{"type":"message","role":"user","content":[{"type":"input_text","text":`+kittest.Quote(u)+`}]}`)
	}
	hist = append(hist, `{"type":"message","role":"user","content":[{"type":"input_text","text":`+kittest.Quote(summary)+`}]}`)
	g.line("compacted", `{"message":`+kittest.Quote(summary)+`,"replacement_history":[`+strings.Join(hist, ",")+`]}`)
	g.line("event_msg", `{"type":"context_compacted"}`)
	g.tokens()
}

// TestGenerateLarge writes a large rollout for measuring `loupe verify` by
// hand, when LOUPE_GEN_LARGE names the file (LOUPE_GEN_SIZE its size):
//
//	LOUPE_GEN_LARGE=/tmp/codex/rollout.jsonl LOUPE_GEN_SIZE=100MB go test ./model/codex -run TestGenerateLarge -count=1
func TestGenerateLarge(t *testing.T) {
	kittest.GenerateLarge(t, largeRollout)
}

// BenchmarkOpenLarge imports a generated ~100 MB rollout (LOUPE_BENCH_SIZE
// sets another size). It reports the heap the transcript keeps after a
// collection (retained-MB) besides time and allocations.
func BenchmarkOpenLarge(b *testing.B) {
	kittest.BenchOpenLarge(b, "rollout-2026-03-02T09-00-00-019c1111-2222-7333-8444-555566667777.jsonl", largeRollout, Open)
}
