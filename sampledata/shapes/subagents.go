package shapes

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"
)

// agentsPerSession is how many sub-agents each session of the
// subagent-project shape starts.
const agentsPerSession = 100

// subagentProject writes a Claude Code project directory into dir: n
// sub-agent files (<session>/subagents/agent-<id>.jsonl) spread over
// sessions of agentsPerSession each, every session file launching its
// sub-agents with the Task tool and compacting once (its compaction run,
// agent-acompact-*, beside the sub-agents), one sub-agent in ten compacting
// too. Sub-agent files are small, as real ones mostly are: the cost is per
// file (listing, opening, verifying, reporting), not per byte.
func subagentProject(dir string, n int64, opt Options) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x5ab0a9e7))
	for s := 0; int64(s*agentsPerSession) < n; s++ {
		agents := int(min(int64(agentsPerSession), n-int64(s*agentsPerSession)))
		if err := writeProjectSession(dir, s, agents, opt.Seed, rng); err != nil {
			return err
		}
	}
	return nil
}

// ccLines writes Claude Code lines of one session file, chaining each
// conversation line to the one before.
type ccLines struct {
	w       *bufio.Writer
	f       *os.File
	session string
	agent   string // set in a sub-agent's file
	parent  string
	clock   time.Time
	k       int // lines written, for unique uuids
	salt    string
	err     error
}

func newCCLines(path, session, agent, salt string, clock time.Time) (*ccLines, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &ccLines{w: bufio.NewWriterSize(f, 16<<10), f: f, session: session, agent: agent, salt: salt, clock: clock}, nil
}

// put writes one conversation line of type typ with the fields extra.
func (c *ccLines) put(typ string, extra map[string]any) string {
	c.k++
	c.clock = c.clock.Add(time.Duration(1+c.k%7) * time.Second)
	uuid := fakeUUID(c.salt, c.k)
	line := map[string]any{
		"parentUuid": nil, "isSidechain": c.agent != "", "userType": "external", "cwd": "/home/user/proj",
		"sessionId": c.session, "version": "2.1.39", "type": typ, "uuid": uuid,
		"timestamp": c.clock.Format("2006-01-02T15:04:05.000Z"),
	}
	if c.parent != "" {
		line["parentUuid"] = c.parent
	}
	if c.agent != "" {
		line["agentId"] = c.agent
	}
	for k, v := range extra {
		line[k] = v
	}
	b, err := json.Marshal(line)
	if err == nil {
		b = append(b, '\n')
		_, err = c.w.Write(b)
	}
	if c.err == nil {
		c.err = err
	}
	c.parent = uuid
	return uuid
}

func (c *ccLines) user(content any) string {
	return c.put("user", map[string]any{"message": map[string]any{"role": "user", "content": content}})
}

func (c *ccLines) assistant(blocks ...map[string]any) string {
	c.k++ // a message id of its own
	id := fmt.Sprintf("msg_%s%d", c.salt, c.k)
	return c.put("assistant", map[string]any{"message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": "claude-opus-4-6", "content": blocks, "stop_reason": "end_turn"}})
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func toolUse(id, name string, input map[string]any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}

func toolResult(id, out string, isErr bool) []map[string]any {
	return []map[string]any{{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": isErr}}
}

// compact writes a compaction: the boundary, then the summary.
func (c *ccLines) compact(summary string) {
	last := c.parent
	c.parent = ""
	c.put("system", map[string]any{"subtype": "compact_boundary", "content": "Conversation compacted", "logicalParentUuid": last,
		"level": "info", "compactMetadata": map[string]any{"trigger": "auto", "preTokens": 160000}})
	c.put("user", map[string]any{"isCompactSummary": true, "message": map[string]any{"role": "user", "content": summary}})
}

func (c *ccLines) close() error {
	if c.err == nil {
		c.err = c.w.Flush()
	}
	if err := c.f.Close(); c.err == nil {
		c.err = err
	}
	return c.err
}

// fakeUUID is a uuid that is the same for the same salt and k.
func fakeUUID(salt string, k int) string {
	h1, h2 := fnv.New64a(), fnv.New64()
	fmt.Fprintf(h1, "%s/%d", salt, k)
	fmt.Fprintf(h2, "%d/%s", k, salt)
	x := fmt.Sprintf("%016x%016x", h1.Sum64(), h2.Sum64())
	return x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-8" + x[17:20] + "-" + x[20:32]
}

// writeProjectSession writes session s and its agents sub-agents.
func writeProjectSession(dir string, s, agents int, seed uint64, rng *rand.Rand) error {
	session := fakeUUID(fmt.Sprintf("session-%d", seed), s)
	clock := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).Add(time.Duration(s) * time.Hour)
	p, err := newCCLines(filepath.Join(dir, session+".jsonl"), session, "", fmt.Sprintf("S%d_%d_", seed, s), clock)
	if err != nil {
		return err
	}
	p.user(fmt.Sprintf("Fix the flaky importer tests of ticket PROJ-%d. Never push to main; keep the public API unchanged.", 100+s))
	for j := 0; j < agents; j++ {
		agent := fmt.Sprintf("a%07x", s*agentsPerSession+j)
		call := fmt.Sprintf("toolu_%s%d", p.salt, j)
		pkg := fmt.Sprintf("pkg%d", j)
		p.assistant(text(fmt.Sprintf("I'll have an agent look at %s.", pkg)), toolUse(call, "Task", map[string]any{
			"description": "Explore " + pkg, "subagent_type": "Explore",
			"prompt": fmt.Sprintf("Find why the tests of %s fail now and then, and report the cause.", pkg)}))
		p.put("user", map[string]any{"message": map[string]any{"role": "user", "content": toolResult(call,
			fmt.Sprintf("The tests of %s fail when the cache is cold: the fixture is read before it is written.", pkg), false)},
			"toolUseResult": map[string]any{"agentId": agent, "status": "completed", "totalTokens": 1200 + rng.IntN(9000)}})
		if err := writeSubagent(dir, session, agent, pkg, seed, clock, rng); err != nil {
			p.close()
			return err
		}
		if j == agents/2 {
			p.compact(fmt.Sprintf("Summary: the user asked to fix the flaky importer tests of ticket PROJ-%d. "+
				"Constraints: never push to main; keep the public API unchanged. Sub-agents have explored %d packages so far; "+
				"the rest are still to explore.", 100+s, j+1))
			if err := writeCompactRun(dir, session, s, seed, clock); err != nil {
				p.close()
				return err
			}
		}
	}
	p.assistant(text("All packages are explored; the fixes are next."))
	return p.close()
}

// writeCompactRun writes the compaction run of a session's compaction,
// which a listing leaves out.
func writeCompactRun(dir, session string, s int, seed uint64, clock time.Time) error {
	agent := fmt.Sprintf("acompact-%06x", s)
	c, err := newCCLines(filepath.Join(dir, session, "subagents", "agent-"+agent+".jsonl"), session, agent, fmt.Sprintf("C%d_%d_", seed, s), clock)
	if err != nil {
		return err
	}
	c.user("Your task is to create a detailed summary of the conversation so far.")
	c.assistant(text("<analysis>The user wants the flaky tests fixed.</analysis><summary>Fix the flaky importer tests.</summary>"))
	return c.close()
}

// writeSubagent writes one sub-agent's file: its prompt, a test run that
// may fail, a file read, and its answer; one in ten compacts midway.
func writeSubagent(dir, session, agent, pkg string, seed uint64, clock time.Time, rng *rand.Rand) error {
	path := filepath.Join(dir, session, "subagents", "agent-"+agent+".jsonl")
	c, err := newCCLines(path, session, agent, fmt.Sprintf("A%d_%s_", seed, agent), clock)
	if err != nil {
		return err
	}
	c.user(fmt.Sprintf("Find why the tests of %s fail now and then, and report the cause.", pkg))
	run := "toolu_" + c.salt + "run"
	c.assistant(text(fmt.Sprintf("I'll run the tests of %s first.", pkg)), toolUse(run, "Bash", map[string]any{"command": "go test ./" + pkg + "/..."}))
	failed := rng.IntN(3) == 0
	out := fmt.Sprintf("ok  \texample.com/proj/%s\t0.%03ds", pkg, rng.IntN(1000))
	if failed {
		out = fmt.Sprintf("--- FAIL: TestImport%d (0.%02ds)\n    import_test.go:%d: fixture %s/testdata/cold.json: no such file or directory\nFAIL\texample.com/proj/%s",
			rng.IntN(90), rng.IntN(100), 10+rng.IntN(300), pkg, pkg)
	}
	c.user(toolResult(run, out, failed))
	read := "toolu_" + c.salt + "read"
	c.assistant(toolUse(read, "Read", map[string]any{"file_path": "/home/user/proj/" + pkg + "/import_test.go"}))
	src := ""
	for i := 0; i < 12+rng.IntN(20); i++ {
		src += fmt.Sprintf("%4d\tfunc helper%d(t *testing.T) { t.Helper(); readFixture(t, %q) }\n", i+1, i, pkg)
	}
	c.user(toolResult(read, src, false))
	if rng.IntN(10) == 0 {
		c.compact(fmt.Sprintf("Summary: exploring why the tests of %s fail now and then. The tests were run and the test file read; "+
			"the fixture is read before it is written.", pkg))
	}
	c.assistant(text(fmt.Sprintf("The tests of %s fail when the cache is cold: the fixture is read before it is written.", pkg)))
	return c.close()
}
