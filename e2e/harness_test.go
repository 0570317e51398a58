package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	installOnce sync.Once
	installDir  string
	installErr  error
	loupeBin    string
)

func TestMain(m *testing.M) {
	code := func() int {
		if os.Getenv("LOUPE_E2E") != "1" {
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "loupe-e2e-bin")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer os.RemoveAll(dir)
		loupeBin = filepath.Join(dir, "loupe")
		build := exec.Command("go", "build", "-o", loupeBin, ".")
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building loupe: %v\n%s", err, out)
			return 2
		}
		code := m.Run()
		printLatencies()
		return code
	}()
	os.Exit(code)
}

// need skips a test unless the suite is asked for, and gives the folder of
// the installed runtimes.
func need(t *testing.T) string {
	t.Helper()
	if os.Getenv("LOUPE_E2E") != "1" {
		t.Skip("the end-to-end suite runs with LOUPE_E2E=1 (it installs the real runtimes from npm)")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the suite runs on Linux")
	}
	installOnce.Do(func() {
		installDir, installErr = install()
		if installErr == nil {
			fmt.Fprintf(os.Stderr, "e2e: runtimes %s\n", strings.Join(versions(installDir), ", "))
		}
	})
	if installErr != nil {
		t.Fatalf("installing the runtimes: %v", installErr)
	}
	return installDir
}

// postinstalls are the install scripts that put a runtime's native binary in
// place. Everything else runs with --ignore-scripts: other packages' scripts
// would fetch prebuilt binaries from outside the npm registry.
var postinstalls = [][2]string{
	{"@anthropic-ai/claude-code", "install.cjs"},
	{"opencode-ai", "postinstall.mjs"},
}

// install installs the runtimes once into the cache (keyed by the lock
// file's hash) and gives the node_modules folder's parent.
func install() (string, error) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("%s is not installed (.ci/run installs it)", tool)
		}
	}
	pkg, err := os.ReadFile("package.json")
	if err != nil {
		return "", err
	}
	lock, err := os.ReadFile("package-lock.json")
	if err != nil {
		return "", err
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	latest := os.Getenv("LOUPE_E2E_LATEST") == "1"
	sum := sha256.Sum256(append(pkg, lock...))
	key := hex.EncodeToString(sum[:8])
	if latest {
		key = "latest-" + time.Now().UTC().Format("20060102")
	}
	dir := filepath.Join(cache, "loupe-e2e", key)
	done := filepath.Join(dir, ".installed")
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// npm install, not ci: npm leaves the other platforms' optional
	// binaries (opencode-darwin-*, ...) out of the lock, and ci then calls
	// it out of sync. With the lock beside it, install keeps to it.
	args := []string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"}
	if latest {
		var p struct{ Dependencies map[string]string }
		if err := json.Unmarshal(pkg, &p); err != nil {
			return "", fmt.Errorf("package.json: %w", err)
		}
		args = []string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"}
		for name := range p.Dependencies {
			args = append(args, name+"@latest")
		}
		sort.Strings(args[5:])
		os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true}`+"\n"), 0o644)
	} else {
		os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644)
		os.WriteFile(filepath.Join(dir, "package-lock.json"), lock, 0o644)
	}
	start := time.Now()
	if out, err := runIn(dir, 15*time.Minute, nil, "npm", args...); err != nil {
		return "", fmt.Errorf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, p := range postinstalls {
		if out, err := runIn(filepath.Join(dir, "node_modules", p[0]), 2*time.Minute, nil, "node", p[1]); err != nil {
			return "", fmt.Errorf("%s %s: %v\n%s", p[0], p[1], err, out)
		}
	}
	fmt.Fprintf(os.Stderr, "e2e: installed the runtimes into %s in %s\n", dir, time.Since(start).Round(time.Second))
	return dir, os.WriteFile(done, nil, 0o644)
}

// versions are the installed runtimes' name@version.
func versions(dir string) []string {
	pkg, _ := os.ReadFile("package.json")
	var p struct{ Dependencies map[string]string }
	json.Unmarshal(pkg, &p)
	var out []string
	for name := range p.Dependencies {
		b, _ := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
		var v struct{ Version string }
		json.Unmarshal(b, &v)
		out = append(out, name+"@"+v.Version)
	}
	sort.Strings(out)
	return out
}

// runIn runs a command with a deadline in its own process group, killed
// whole when the deadline passes.
func runIn(dir string, timeout time.Duration, env []string, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever it left behind
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("timed out after %s: %w", timeout, err)
	}
	return out.Bytes(), err
}

// rig is one runtime's throwaway world: HOME, a project, loupe's state, the
// scripted server and a wrapper that times every hook call.
type rig struct {
	t        *testing.T
	name     string
	root     string
	home     string
	project  string
	state    string
	wrapper  string
	wrapLog  string
	bin      string // node_modules/.bin
	srv      *Server
	env      []string
	settings string // the settings file loupe's installer edits
	before   []byte // the settings as they were before install
}

func newRig(t *testing.T, name string) *rig {
	t.Helper()
	mods := need(t)
	// Not t.TempDir: a failed test's world (the session, the requests the
	// server got, each hook's input) is kept for a look, and so is every
	// test's with LOUPE_E2E_KEEP=1.
	root, err := os.MkdirTemp("", "loupe-e2e-"+strings.ReplaceAll(name, " ", "")+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("LOUPE_E2E_KEEP") == "1" {
			t.Logf("kept the runtime's world in %s", root)
			return
		}
		os.RemoveAll(root)
	})
	r := &rig{t: t, name: name, root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj"),
		state: filepath.Join(root, "state"), bin: filepath.Join(mods, "node_modules", ".bin"),
		wrapper: filepath.Join(root, "wrap", "loupe"), wrapLog: filepath.Join(root, "hooks.log")}
	// The wrapper is named loupe: uninstall finds loupe's entries by the
	// command's name.
	for _, d := range []string{r.home, r.project, r.state, filepath.Dir(r.wrapper)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := StartServer(filepath.Join(root, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		var ds []string
		for _, q := range srv.Requests() {
			ds = append(ds, q.Decision)
		}
		t.Logf("the model answered: %s", strings.Join(ds, ", "))
		srv.Close()
	})
	r.srv = srv
	// The wrapper times the loupe process alone (nanoseconds around it)
	// and keeps each payload, so a failure can be replayed.
	wrap := fmt.Sprintf(`#!/bin/sh
in=$(mktemp %[1]s/in.XXXXXX)
cat > "$in"
s=$(date +%%s%%N)
%[2]s "$@" < "$in"
rc=$?
e=$(date +%%s%%N)
echo "$((e - s)) $rc $in $*" >> %[3]s
exit $rc
`, root, loupeBin, r.wrapLog)
	if err := os.WriteFile(r.wrapper, []byte(wrap), 0o755); err != nil {
		t.Fatal(err)
	}
	r.env = []string{
		"HOME=" + r.home, "XDG_STATE_HOME=" + r.state, "XDG_CONFIG_HOME=" + filepath.Join(r.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(r.home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(r.home, ".cache"),
		"PATH=" + r.bin + ":" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "CI=1",
		"NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1",
	}
	return r
}

func (r *rig) setenv(kv ...string) { r.env = append(r.env, kv...) }

// run runs the runtime (or any command) in the project with the rig's
// environment, bounded, and fails the test on a non-zero exit unless
// mayFail.
func (r *rig) run(timeout time.Duration, mayFail bool, name string, args ...string) string {
	r.t.Helper()
	start := time.Now()
	out, err := runIn(r.project, timeout, r.env, name, args...)
	r.t.Logf("$ %s %s  (%s)", filepath.Base(name), strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	if err != nil && !mayFail {
		r.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(out, 3000))
	}
	return string(out)
}

func tail(b []byte, n int) string {
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}

// loupe runs the loupe under test with the rig's environment.
func (r *rig) loupe(args ...string) (string, int) {
	r.t.Helper()
	out, err := runIn(r.project, 2*time.Minute, r.env, loupeBin, args...)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatalf("loupe %s: %v", strings.Join(args, " "), err)
	}
	return string(out), code
}

// installHooks installs loupe's hooks (run through the timing wrapper) and
// remembers the settings file as it was, for the uninstall check.
func (r *rig) installHooks(runtime, settings string, extra ...string) {
	r.t.Helper()
	r.settings = settings
	r.before, _ = os.ReadFile(settings)
	args := append([]string{"hook", "install", "--project", r.project, "--command", r.wrapper, "--write"}, extra...)
	out, code := r.loupe(append(args, runtime)...)
	if code != 0 {
		r.t.Errorf("loupe hook install %s: exit %d\n%s", runtime, code, out)
	}
	r.t.Logf("hook install: %s", strings.TrimSpace(out))
}

// checkUninstall: `hook uninstall` gives the settings back byte for byte
// (a file that did not exist before is gone again).
func (r *rig) checkUninstall(runtime string) {
	r.t.Helper()
	out, code := r.loupe("hook", "uninstall", "--project", r.project, "--write", runtime)
	if code != 0 {
		r.t.Errorf("loupe hook uninstall %s: exit %d\n%s", runtime, code, out)
		return
	}
	// Backups of the settings belong in loupe's state directory: a file
	// left in the project is the user's to clean up, and runtimes show the
	// project's files to the model.
	filepath.Walk(r.project, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.Contains(info.Name(), "loupe-backup") {
			r.t.Errorf("loupe left %s in the project", p)
		}
		return nil
	})
	for _, q := range r.srv.Requests() {
		if strings.Contains(string(q.Body), "loupe-backup") {
			r.t.Errorf("request %d shows the model loupe's settings backup", q.Seq)
			break
		}
	}
	after, err := os.ReadFile(r.settings)
	switch {
	case r.before == nil && err == nil && len(after) > 0:
		r.t.Errorf("hook uninstall left %s behind (it did not exist before install):\n%s", r.settings, after)
	case r.before != nil && !bytes.Equal(after, r.before):
		r.t.Errorf("hook uninstall did not give %s back byte for byte:\nbefore:\n%s\nafter:\n%s", r.settings, r.before, after)
	}
}
