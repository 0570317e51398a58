package hook

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Case 3: loupe's entries are the ones with loupe's marker, or exactly what
// an earlier loupe wrote; another tool's hook that runs a loupe hook
// command of its own is neither skipped for nor removed.
func TestOnlyLoupesOwnEntries(t *testing.T) {
	foreign := []string{
		"my-wrapper loupe hook claude-code pre-compact",
		"loupe hook claude-code pre-compact --max-chars 5000",
		"echo 'loupe hook claude-code pre-compact'",
		"/opt/other/bin/summarize hook claude-code pre-compact",
		"loupe hook claude-code pre-compact; curl example.com",
	}
	for _, cmd := range foreign {
		t.Run(cmd, func(t *testing.T) {
			r := newRig(t, ClaudeCode)
			doc := `{"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": ` + mustMarshal(cmd) + `}]}]}}`
			r.write(r.path, doc, 0o644)
			c, err := Install(r.opt)
			if err != nil {
				t.Fatal(err)
			}
			if n := countLoupe(t, c.After, ClaudeCode, "PreCompact"); n != 1 {
				t.Fatalf("install took the foreign hook for loupe's: %d of loupe's PreCompact entries\n%s", n, c.After)
			}
			// Without the receipt: only loupe's entries go.
			back, err := removeHooks(c.After, ClaudeCode)
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != doc {
				t.Fatalf("uninstall:\n%s\nwant\n%s", back, doc)
			}
		})
	}
}

// Entries written by loupe before the marker are still loupe's, exactly
// as that version wrote them.
func TestLegacyEntriesRecognised(t *testing.T) {
	cases := []struct {
		rt, event, cmd string
		ours           bool
	}{
		{ClaudeCode, "PreCompact", "loupe hook claude-code pre-compact", true},
		{ClaudeCode, "PostToolUse", "/usr/local/bin/loupe hook claude-code reinject", true},
		{ClaudeCode, "PreCompact", `'/opt/loupe bin/loupe' hook claude-code pre-compact`, true},
		{ClaudeCode, "PreCompact", `'/home/o'\''brien/loupe' hook claude-code pre-compact`, true},
		{Codex, "PostCompact", "loupe hook codex --gate post-compact", true},
		{Gemini, "AfterTool", "/home/u/go/bin/loupe hook gemini after-tool", true},
		// Not what the old installer wrote for that event or runtime.
		{ClaudeCode, "PostToolUse", "loupe hook claude-code pre-compact", false},
		{ClaudeCode, "PreCompact", "loupe hook codex pre-compact", false},
		{ClaudeCode, "PreCompact", "/opt/loupe bin/loupe hook claude-code pre-compact", false},
		{ClaudeCode, "PreCompact", "/usr/bin/other hook claude-code pre-compact", false},
		{ClaudeCode, "PreCompact", "'loupe' hook claude-code pre-compact", false},
		{ClaudeCode, "PreCompact", " loupe hook claude-code pre-compact", false},
	}
	for _, c := range cases {
		if got := isLoupeCommand(c.cmd, c.rt, c.event); got != c.ours {
			t.Errorf("%s %s %q: loupe's = %v, want %v", c.rt, c.event, c.cmd, got, c.ours)
		}
	}
	// An install over an old one adds nothing; uninstall removes the old.
	r := newRig(t, ClaudeCode)
	old := `{"hooks": {"PreCompact": [{"matcher": "auto|manual", "hooks": [{"type": "command", "command": "loupe hook claude-code pre-compact", "timeout": 20}]}]}, "model": "opus"}`
	r.write(r.path, old, 0o644)
	c, err := Install(r.opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := countLoupe(t, c.After, ClaudeCode, "PreCompact"); n != 1 {
		t.Fatalf("PreCompact has %d loupe entries after an install over an old one", n)
	}
	out, err := Uninstall(r.opt)
	if err != nil || string(out.After) != `{"model": "opus"}` {
		t.Fatalf("uninstall of an old install: %v\n%s", err, out.After)
	}
}

// countLoupe counts loupe's handlers of event in a settings document.
func countLoupe(t *testing.T, doc []byte, runtime, event string) int {
	t.Helper()
	_, body := cutBOM(doc)
	root, err := parseJSONC(body)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	n := 0
	arr := root.member("hooks").member(event)
	if arr == nil {
		return 0
	}
	for _, g := range arr.elems {
		for _, is := range loupeGroup(body, g, runtime, event) {
			if is {
				n++
			}
		}
	}
	return n
}

// Case 4: the command is quoted for the shell: a loupe at a path holding
// any of the shell's special characters runs with the right arguments,
// through sh and bash, and through Gemini CLI's expansion of
// $GEMINI_PROJECT_DIR before it.
func TestCommandQuotedForTheShell(t *testing.T) {
	names := []string{
		"plain",
		"with space",
		"a&b;c|d",
		"paren(s)",
		"back`tick`",
		"dollar$HOME${PATH}$(id)",
		"$GEMINI_PROJECT_DIR",
		"single'quote",
		`double"quote\back`,
		"new\nline",
		"glob*?[x]~",
		"tab\there#hash",
		"ünïcode",
	}
	shells := []string{"sh", "bash"}
	for _, name := range names {
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Skip("file system refuses the name:", err)
			}
			out := filepath.Join(t.TempDir(), "args")
			loupe := filepath.Join(dir, "loupe")
			script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + shellQuote(out) + "\n"
			if err := os.WriteFile(loupe, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, rt := range []string{ClaudeCode, Codex, Gemini} {
				r := newRig(t, rt)
				r.opt.Command = loupe
				r.opt.Gate = true
				c, err := Install(r.opt)
				if err != nil {
					t.Fatal(err)
				}
				var doc struct {
					Hooks map[string][]struct {
						Hooks []struct{ Command string }
					}
				}
				if err := json.Unmarshal(c.After, &doc); err != nil {
					t.Fatal(err)
				}
				for _, h := range handlers(rt, true) {
					cmd := doc.Hooks[h.event][0].Hooks[0].Command
					if !isLoupeCommand(cmd, rt, h.event) {
						t.Errorf("%q is not recognised as loupe's", cmd)
					}
					if rt == Gemini {
						cmd = strings.ReplaceAll(cmd, "$GEMINI_PROJECT_DIR", "'/the project'")
					}
					want := append([]string{"hook", rt}, strings.Fields(h.arg)...)
					for _, sh := range shells {
						if _, err := exec.LookPath(sh); err != nil {
							continue
						}
						os.Remove(out)
						if b, err := exec.Command(sh, "-c", cmd).CombinedOutput(); err != nil {
							t.Fatalf("%s -c %q: %v\n%s", sh, cmd, err, b)
						}
						got := strings.Split(strings.TrimSuffix(read(t, out), "\n"), "\n")
						if !slices.Equal(got, want) {
							t.Errorf("%s -c %q ran loupe with %q, want %q", sh, cmd, got, want)
						}
					}
				}
			}
		})
	}
}

func TestCommandRefused(t *testing.T) {
	r := newRig(t, ClaudeCode)
	r.opt.Command = "/opt/lo\x00upe"
	if _, err := Install(r.opt); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Fatalf("a NUL in the command: %v", err)
	}
	r.opt.Command = "/opt/lo\xffupe"
	if _, err := Install(r.opt); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Fatalf("a command that is not UTF-8: %v", err)
	}
	if _, err := os.Stat(r.path); err == nil {
		t.Fatal("a settings file was written")
	}
}

// Any text but NUL comes back from sh as it went in.
func TestShellQuoteRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	words := []string{"", "-n", "~user", "a\\b", "'", "''", "$", "$'x'", "\"$(id)\"", "\x01\x7f\xff\xfe"}
	for i := range 200 {
		var b []byte
		for j := range 1 + i%17 {
			b = append(b, byte(1+(i*131+j*71)%255))
		}
		words = append(words, string(b))
	}
	var script strings.Builder
	for _, w := range words {
		script.WriteString("printf '%s\\0' " + shellQuote(w) + "\n")
	}
	out, err := exec.Command("sh", "-c", script.String()).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Equal(got, words) {
		for i := range min(len(got), len(words)) {
			if got[i] != words[i] {
				t.Fatalf("%q came back as %q", words[i], got[i])
			}
		}
		t.Fatalf("%d words came back as %d", len(words), len(got))
	}
}
