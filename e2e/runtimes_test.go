package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The user's words. Runtimes driven one prompt per process get the rule in
// the task prompt; Claude Code gets it as its own turn.
const (
	task = "Prepare the orders-service database migration. Check the shell works first."
	rule = "Rule from now on: never touch the prod database."
)

const turnTimeout = 4 * time.Minute

// find is the one file under root matching the glob pattern at any depth
// (by base name), or the newest when several do.
func find(t *testing.T, root, pattern string) string {
	t.Helper()
	var best string
	var bestTime time.Time
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if ok, _ := filepath.Match(pattern, info.Name()); ok && info.ModTime().After(bestTime) {
				best, bestTime = p, info.ModTime()
			}
		}
		return nil
	})
	if best == "" {
		t.Fatalf("no %s under %s: the runtime wrote no session", pattern, root)
	}
	return best
}

func count(t *testing.T, path, s string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), s)
}

func TestClaudeCode(t *testing.T) {
	r := newRig(t, "Claude Code")
	r.srv.HighRule = "next" // the 4th turn's reply reports 195000 tokens: auto-compaction with --autocompact
	cfg := filepath.Join(r.root, "cfg")
	r.setenv("CLAUDE_CONFIG_DIR="+cfg, "ANTHROPIC_BASE_URL="+r.srv.URL, "ANTHROPIC_API_KEY=sk-ant-dummy-000",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	settings := filepath.Join(r.project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte("{\n  \"permissions\": {}\n}\n"), 0o644)
	r.installHooks("claude-code", settings)
	claude := filepath.Join(r.bin, "claude")
	turn := func(prompt string, more ...string) {
		args := append([]string{"-p", prompt}, more...)
		// --allowedTools, not --dangerously-skip-permissions: that one refuses to run as root.
		r.run(turnTimeout, false, claude, append(args, "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash", "--model", "claude-sonnet-4-5")...)
	}
	turn("Please do the database migration work; check the schema first.")
	turn(rule, "--continue")
	turn("/compact", "--continue")                                 // manual compaction
	turn("What is next?", "--continue", "--autocompact", "100000") // auto, mid-turn

	session := find(t, filepath.Join(cfg, "projects"), "*.jsonl")
	n := count(t, session, `"subtype":"compact_boundary"`)
	if n != 2 || r.summaryRequests() != 2 {
		t.Errorf("Claude Code compacted %d times (%d summary requests), want a manual and an automatic one", n, r.summaryRequests())
	}
	r.checkSession(session, "claude-code", n)
	r.checkSteered()
	for seq := 1; seq <= n; seq++ {
		r.checkBlock(seq)
	}
	r.checkHooks([]string{"reinject"}, []string{"post-compact", "session-start"})
	r.checkQuietLog()
	r.checkUninstall("claude-code")
}

func TestCodex(t *testing.T) {
	r := newRig(t, "Codex")
	codexHome := filepath.Join(r.home, ".codex")
	os.MkdirAll(codexHome, 0o755)
	config := fmt.Sprintf(`model = "fake-model"
model_provider = "fake"
model_context_window = 200000
model_auto_compact_token_limit = 100000
approval_policy = "never"
sandbox_mode = "danger-full-access"
[model_providers.fake]
name = "fake"
base_url = "%s/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"
[projects.%q]
trust_level = "trusted"
`, r.srv.URL, r.project)
	configPath := filepath.Join(codexHome, "config.toml")
	os.WriteFile(configPath, []byte(config), 0o644)
	r.setenv("CODEX_HOME="+codexHome, "FAKE_API_KEY=dummy")
	r.installHooks("codex", filepath.Join(r.project, ".codex", "hooks.json"))
	// Hooks run only once trusted, as the user does it in /hooks (not with
	// --dangerously-bypass-hook-trust, which the app-server has not).
	r.codexTrust(configPath)
	codex := filepath.Join(r.bin, "codex")
	exec := []string{"exec", "--skip-git-repo-check"}
	r.run(turnTimeout, false, codex, append(exec, task+" "+rule)...) // auto-compaction mid-turn
	session := find(t, filepath.Join(codexHome, "sessions"), "rollout-*.jsonl")
	r.codexCompact(session) // manual
	r.run(turnTimeout, false, codex, append(exec, "resume", "--last", "Go on.")...)

	n := count(t, session, `"type":"compacted"`)
	if n < 2 {
		t.Errorf("Codex compacted %d times (%d summary requests), want a manual and an automatic one", n, r.summaryRequests())
	}
	r.checkSession(session, "codex", n)
	r.checkTokensBefore(session)
	for seq := 1; seq <= n; seq++ {
		r.checkBlock(seq)
	}
	r.checkHooks(nil, []string{"post-compact", "session-start"})
	r.checkQuietLog()
	r.checkUninstall("codex")
}

func TestGeminiCLI(t *testing.T) {
	r := newRig(t, "Gemini CLI")
	r.srv.Big, r.srv.BigAll = 1000000, true
	os.MkdirAll(filepath.Join(r.home, ".gemini"), 0o755)
	os.WriteFile(filepath.Join(r.home, ".gemini", "settings.json"), []byte(`{"security":{"auth":{"selectedType":"gemini-api-key"}},`+
		`"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`), 0o644)
	r.setenv("GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL="+r.srv.URL)
	r.installHooks("gemini", filepath.Join(r.project, ".gemini", "settings.json"))
	gemini := filepath.Join(r.bin, "gemini")
	g := []string{"-m", "gemini-2.5-flash", "--yolo"}
	r.run(turnTimeout, false, gemini, append(g, "-p", task+" "+rule)...)
	r.run(turnTimeout, false, gemini, append(g, "--resume", "latest", "-p", "Continue.")...) // compresses mid-turn
	r.run(turnTimeout, false, gemini, append(g, "--resume", "latest", "-p", "/compress")...)
	// Gemini CLI gives hooks no turn between a compression and the reply
	// that follows it in the same run (BeforeAgent fired before it): what
	// the last one lost goes back at the user's next prompt.
	r.run(turnTimeout, false, gemini, append(g, "--resume", "latest", "-p", "Go on.")...)

	chats := filepath.Join(r.home, ".gemini", "tmp")
	session := oldest(t, chats, "session-*.jsonl")
	snapshots := 0
	for _, q := range r.srv.Requests() {
		// Each compression is two calls, the snapshot and its self-check.
		if q.Decision == "summary" && strings.Contains(string(q.Body), "Critically evaluate the <state_snapshot>") {
			snapshots++
		}
	}
	if snapshots < 2 {
		t.Errorf("Gemini CLI compressed %d times, want an automatic and a manual one", snapshots)
	}
	// Gemini CLI keeps a compression only when its self-check accepts it
	// (a snapshot that saves no tokens is thrown away): loupe must find
	// each one the session installed, a <state_snapshot> message it wrote.
	installed := installedSnapshots(t, session)
	if installed == 0 || installed > snapshots {
		t.Errorf("the session installed %d snapshots of %d compressions", installed, snapshots)
	}
	r.checkSession(session, "gemini-cli", installed)
	for seq := 1; seq <= installed; seq++ {
		r.checkBlock(seq)
	}
	r.checkHooks([]string{"before-agent", "after-tool"}, []string{"before-agent"})
	r.checkQuietLog()
	r.checkUninstall("gemini")
}

// installedSnapshots counts the distinct <state_snapshot> messages a
// Gemini CLI session file wrote into its message list.
func installedSnapshots(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		var rec struct {
			Set struct {
				Messages []struct {
					ID      string          `json:"id"`
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			} `json:"$set"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		for _, m := range rec.Set.Messages {
			if strings.Contains(string(m.Content), "state_snapshot") {
				ids[m.ID] = true
			}
		}
	}
	return len(ids)
}

// oldest is the first session file a runtime wrote (Gemini CLI writes a
// short extra file on each resume).
func oldest(t *testing.T, root, pattern string) string {
	t.Helper()
	var best string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if ok, _ := filepath.Match(pattern, info.Name()); ok && (best == "" || filepath.Base(p) < filepath.Base(best)) {
				best = p
			}
		}
		return nil
	})
	if best == "" {
		t.Fatalf("no %s under %s: the runtime wrote no session", pattern, root)
	}
	return best
}

// opencodeRig configures opencode for the scripted server (a 20,000-token
// context, so the task's reported usage overflows it) and installs loupe's
// plugin with the install flags given.
func opencodeRig(t *testing.T, name string, flags ...string) (*rig, string) {
	r := newRig(t, name)
	conf := fmt.Sprintf(`{"$schema":"https://opencode.ai/config.json","autoupdate":false,"share":"disabled",
 "provider":{"fake":{"npm":"@ai-sdk/openai-compatible","name":"Fake",
   "options":{"baseURL":"%s/v1","apiKey":"dummy"},
   "models":{"fake-model":{"name":"Fake Model","limit":{"context":20000,"output":1000},"tool_call":true}}}},
 "model":"fake/fake-model","small_model":"fake/fake-model"}
`, r.srv.URL)
	os.WriteFile(filepath.Join(r.project, "opencode.json"), []byte(conf), 0o644)
	r.setenv("OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1")
	r.installHooks("opencode", filepath.Join(r.project, ".opencode", "plugins", "loupe.ts"), flags...)
	return r, filepath.Join(r.bin, "opencode")
}

func TestOpencode(t *testing.T) {
	r, opencode := opencodeRig(t, "opencode")
	r.run(turnTimeout, false, opencode, "run", task+" "+rule) // auto (overflow)
	r.opencodeCompact()                                       // manual
	r.run(turnTimeout, false, opencode, "run", "--continue", "Go on.")

	db := filepath.Join(r.home, ".local", "share", "opencode", "opencode.db")
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("opencode wrote no store: %v", err)
	}
	n := r.summaryRequests()
	if n < 2 {
		t.Errorf("opencode compacted %d times, want an automatic and a manual one", n)
	}
	r.checkSession(db, "opencode", n)
	r.checkSteered()
	for seq := 1; seq <= n; seq++ {
		r.checkBlock(seq)
	}
	r.checkHooks([]string{"system"}, []string{"compacted"})
	r.checkQuietLog()
	r.checkUninstall("opencode")
}

// TestOpencodeGate: with --gate, the automatic compaction whose summary
// drops the promise is checked before opencode would auto-continue, and
// it does not: no request follows the summary in that run. The block goes
// back at the user's next prompt, once.
func TestOpencodeGate(t *testing.T) {
	r, opencode := opencodeRig(t, "opencode gate", "--gate")
	r.run(turnTimeout, false, opencode, "run", task+" "+rule)
	var after []string
	summarized := false
	for _, q := range r.srv.Requests() {
		if summarized {
			after = append(after, q.Decision)
		}
		summarized = summarized || q.Decision == "summary"
	}
	if !summarized || len(after) > 0 {
		t.Errorf("with --gate: summarized %v, then the model got %q; want no auto-continue after the violating summary", summarized, after)
	}
	r.run(turnTimeout, false, opencode, "run", "--continue", "Go on.")
	r.checkBlock(1)
	r.checkHooks([]string{"system"}, []string{"compacted"})
	r.checkQuietLog()
	r.checkUninstall("opencode")
}

func TestPi(t *testing.T) {
	r := newRig(t, "pi")
	agent := filepath.Join(r.home, ".pi", "agent")
	os.MkdirAll(agent, 0o755)
	os.WriteFile(filepath.Join(agent, "models.json"), []byte(fmt.Sprintf(`{"providers":{"fake":{"baseUrl":"%s/v1","api":"openai-completions","apiKey":"dummy",
  "compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},
  "models":[{"id":"fake-model","name":"Fake","reasoning":false,"contextWindow":100000,"maxTokens":4000}]}}}`, r.srv.URL)), 0o644)
	os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"compaction":{"enabled":true,"reserveTokens":16384,"keepRecentTokens":10}}`), 0o644)
	r.setenv("PI_CODING_AGENT_DIR="+agent, "PI_OFFLINE=1")
	r.installHooks("pi", filepath.Join(r.project, ".pi", "extensions", "loupe.ts"))
	pi := filepath.Join(r.bin, "pi")
	args := []string{"--offline", "--provider", "fake", "--model", "fake-model"}
	// Manual: pi's RPC mode, prompt → compact → prompt.
	r.piRPC(append(args, "--mode", "rpc"))
	// Automatic: print mode with every reply reporting a context overflow.
	r.srv.BigAll = true
	r.run(turnTimeout, false, pi, append(args, "--continue", "-p", "Go on.")...)
	// pi compacts after the reply: the block goes back at the next prompt.
	r.srv.BigAll = false
	r.run(turnTimeout, false, pi, append(args, "--continue", "-p", "What is next?")...)

	session := find(t, filepath.Join(agent, "sessions"), "*.jsonl")
	n := count(t, session, `"type":"compaction"`)
	if n < 2 {
		t.Errorf("pi compacted %d times, want a manual and an automatic one", n)
	}
	r.checkSession(session, "pi", n)
	for seq := 1; seq <= n; seq++ {
		r.checkBlock(seq)
	}
	r.checkHooks([]string{"agent-start"}, []string{"post-compact"})
	r.checkQuietLog()
	r.checkUninstall("pi")
}

// piRPC drives `pi --mode rpc`: the task, then a compact command, then
// "Go on.", each waited for (bounded), then the process group is killed.
func (r *rig) piRPC(args []string) {
	t := r.t
	t.Helper()
	cmd := exec.Command(filepath.Join(r.bin, "pi"), args...)
	cmd.Dir, cmd.Env = r.project, r.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	events := make(chan map[string]any, 1024)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var e map[string]any
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				events <- e
			}
		}
		close(events)
	}()
	send := func(v map[string]any) {
		b, _ := json.Marshal(v)
		stdin.Write(append(b, '\n'))
	}
	wait := func(what string, ok func(map[string]any) bool) {
		deadline := time.After(turnTimeout)
		for {
			select {
			case e, open := <-events:
				if !open {
					t.Fatalf("pi exited while waiting for %s", what)
				}
				if ok(e) {
					return
				}
			case <-deadline:
				t.Fatalf("pi: no %s within %s", what, turnTimeout)
			}
		}
	}
	agentEnd := func(e map[string]any) bool { return e["type"] == "agent_end" }
	send(map[string]any{"id": "1", "type": "prompt", "message": task + " " + rule})
	wait("agent_end", agentEnd)
	send(map[string]any{"id": "2", "type": "compact"})
	wait("compact response", func(e map[string]any) bool { return e["type"] == "response" && e["command"] == "compact" })
	send(map[string]any{"id": "3", "type": "prompt", "message": "Go on."})
	wait("agent_end", agentEnd)
	stdin.Close()
}

// opencodeCompact runs a manual compaction the way the TUI's /compact does:
// `opencode serve` on 127.0.0.1, then POST /session/ID/summarize on the
// newest session (opencode run has no /compact). The server's process
// group is killed after.
func (r *rig) opencodeCompact() {
	t := r.t
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(filepath.Join(r.bin, "opencode"), "serve", "--hostname", "127.0.0.1", "--port", fmt.Sprint(port))
	cmd.Dir, cmd.Env = r.project, r.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	// Without ?directory= the server waits on a project instance that
	// never serves the request.
	dir := "?directory=" + url.QueryEscape(r.project)
	client := &http.Client{Timeout: turnTimeout}
	var sessions []struct {
		ID   string `json:"id"`
		Time struct {
			Updated int64 `json:"updated"`
		} `json:"time"`
	}
	deadline := time.Now().Add(3 * time.Minute) // it installs the plugin's dependencies first
	for {
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(base + "/session" + dir)
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&sessions)
			resp.Body.Close()
			if err == nil && len(sessions) > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("opencode serve: no session listed within 3 minutes: %v", err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	newest := sessions[0]
	for _, s := range sessions {
		if s.Time.Updated > newest.Time.Updated {
			newest = s
		}
	}
	compacted := func() int {
		n := 0
		for _, c := range r.hookCalls() {
			if c.event == "compacted" {
				n++
			}
		}
		return n
	}
	before := compacted()
	// The plugin handles session.compacted after the request has returned:
	// give it time before the server is killed.
	defer func() {
		for end := time.Now().Add(30 * time.Second); compacted() == before && time.Now().Before(end); {
			time.Sleep(200 * time.Millisecond)
		}
	}()
	start := time.Now()
	resp, err := client.Post(base+"/session/"+newest.ID+"/summarize"+dir, "application/json",
		strings.NewReader(`{"providerID":"fake","modelID":"fake-model","auto":false}`))
	if err != nil {
		t.Fatalf("opencode summarize: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	r.t.Logf("POST /session/%s/summarize: %s %s (%s)", newest.ID, resp.Status, tail(body, 200), time.Since(start).Round(time.Millisecond))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("opencode summarize: %s", resp.Status)
	}
}
