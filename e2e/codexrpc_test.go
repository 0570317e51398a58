package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// appServer is `codex app-server` driven over standard input and output
// (JSON-RPC, one message a line): what the TUI does for /compact and for
// trusting hooks, which codex exec cannot.
type appServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	msgs  chan map[string]any
	seen  []string
	next  int
}

func (r *rig) codexAppServer() *appServer {
	t := r.t
	t.Helper()
	cmd := exec.Command(filepath.Join(r.bin, "codex"), "app-server")
	cmd.Dir, cmd.Env = r.project, r.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a := &appServer{t: t, cmd: cmd, stdin: stdin, msgs: make(chan map[string]any, 1024)}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				a.msgs <- m
			}
		}
		close(a.msgs)
	}()
	a.call("initialize", map[string]any{"clientInfo": map[string]any{"name": "loupe-e2e", "version": "0"}})
	a.send(map[string]any{"method": "initialized"})
	return a
}

func (a *appServer) close() {
	syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
	a.cmd.Wait()
}

func (a *appServer) send(v map[string]any) {
	v["jsonrpc"] = "2.0"
	b, _ := json.Marshal(v)
	a.stdin.Write(append(b, '\n'))
}

// wait reads messages until ok says so, bounded.
func (a *appServer) wait(what string, ok func(map[string]any) bool) map[string]any {
	a.t.Helper()
	deadline := time.After(turnTimeout)
	for {
		select {
		case m, open := <-a.msgs:
			if !open {
				a.t.Fatalf("codex app-server exited while waiting for %s; it said: %s", what, strings.Join(a.seen, " "))
			}
			if method, _ := m["method"].(string); method != "" {
				a.seen = append(a.seen, method)
			}
			if ok(m) {
				return m
			}
		case <-deadline:
			a.t.Fatalf("codex app-server: no %s within %s; it said: %s", what, turnTimeout, strings.Join(a.seen, " "))
		}
	}
}

// call sends a request and returns its result.
func (a *appServer) call(method string, params any) json.RawMessage {
	a.t.Helper()
	a.next++
	id := a.next
	a.send(map[string]any{"id": id, "method": method, "params": params})
	m := a.wait(method, func(m map[string]any) bool {
		v, _ := m["id"].(float64)
		_, isReq := m["method"]
		return int(v) == id && !isReq
	})
	if e, bad := m["error"]; bad {
		a.t.Fatalf("codex app-server %s: error %v", method, e)
	}
	b, _ := json.Marshal(m["result"])
	return b
}

// codexTrust trusts loupe's hooks as a user does in the TUI's /hooks: it
// asks Codex for each hook's current hash (hooks/list) and records it in
// config.toml's [hooks.state]. loupe never computes the hash.
func (r *rig) codexTrust(config string) {
	t := r.t
	t.Helper()
	a := r.codexAppServer()
	defer a.close()
	list := func() []map[string]any {
		var res struct {
			Data []struct{ Hooks []map[string]any }
		}
		json.Unmarshal(a.call("hooks/list", map[string]any{"cwds": []string{r.project}}), &res)
		var hooks []map[string]any
		for _, d := range res.Data {
			hooks = append(hooks, d.Hooks...)
		}
		return hooks
	}
	var state strings.Builder
	for _, h := range list() {
		fmt.Fprintf(&state, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h["key"], h["currentHash"])
	}
	f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(state.String())
	f.Close()
	hooks := list()
	if len(hooks) == 0 {
		t.Fatal("codex lists none of loupe's hooks")
	}
	for _, h := range hooks {
		if h["trustStatus"] != "trusted" {
			t.Errorf("hook %v: trust %v after recording its hash", h["key"], h["trustStatus"])
		}
	}
}

// codexCompact runs a manual compaction the way the TUI's /compact does
// (codex exec has none): thread/resume, thread/compact/start, then wait
// for the thread to say it compacted.
func (r *rig) codexCompact(rollout string) {
	t := r.t
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(rollout), ".jsonl")
	if len(base) < 36 {
		t.Fatalf("no thread id in %s", rollout)
	}
	thread := base[len(base)-36:]
	a := r.codexAppServer()
	defer a.close()
	a.call("thread/resume", map[string]any{"threadId": thread})
	a.call("thread/compact/start", map[string]any{"threadId": thread})
	a.wait("the compaction", func(m map[string]any) bool {
		method, _ := m["method"].(string)
		return method == "thread/compacted" || method == "turn/completed"
	})
}
