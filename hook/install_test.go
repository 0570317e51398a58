package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/integrations/opencode"
	"github.com/loupe-dev/loupe/integrations/pi"
)

// Settings files as users have them: install then uninstall must give each
// back byte for byte, by the receipt and by the structural removal alone.
var settingsCases = []struct {
	name, doc string
}{
	{"absent", ""},
	{"empty object", "{}"},
	{"empty object newline", "{}\n"},
	{"other settings", "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(go test:*)\"]}\n}\n"},
	{"other hooks", `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [ { "type": "command", "command": "./check.sh" } ]
      }
    ],
    "PreCompact": [
      { "hooks": [ { "type": "command", "command": "cp \"$CLAUDE_TRANSCRIPT\" backups/" } ] }
    ]
  }
}
`},
	{"tabs no final newline", "{\n\t\"theme\": \"dark\",\n\t\"hooks\": {\n\t\t\"Stop\": []\n\t}\n}"},
	{"jsonc comments", "{\n  // my settings\n  \"ui\": { \"theme\": \"GitHub\" }, /* keep */\n  \"hooks\": {\n    \"BeforeTool\": [ { \"matcher\": \"run_shell_command\", \"hooks\": [ { \"type\": \"command\", \"command\": \"audit\" } ] } ]\n  }\n}\n"},
}

func TestInstallRoundTrip(t *testing.T) {
	for _, rt := range []string{ClaudeCode, Codex, Gemini, Opencode, Pi} {
		plugin := rt == Opencode || rt == Pi
		for _, c := range settingsCases {
			if plugin && c.doc != "" {
				continue // opencode's plugin and pi's extension are files of loupe's own
			}
			t.Run(rt+"/"+c.name, func(t *testing.T) {
				project := t.TempDir()
				store := &Store{Dir: t.TempDir()}
				opt := InstallOptions{Runtime: rt, Project: project, Command: "loupe", Gate: true}
				path, _, _ := settingsPath(opt)
				if c.doc != "" {
					os.MkdirAll(filepath.Dir(path), 0o755)
					os.WriteFile(path, []byte(c.doc), 0o640)
				}
				in, err := Install(opt)
				if err != nil {
					t.Fatal(err)
				}
				if in.Empty() || !bytes.Contains(in.After, []byte("loupe hook "+rt)) && !plugin {
					t.Fatalf("install changes nothing:\n%s", in.After)
				}
				// Structural removal alone restores the document.
				if !plugin {
					back, err := removeHooks(in.After, rt)
					if err != nil {
						t.Fatal(err)
					}
					want := c.doc
					if want == "" {
						want = "{}\n"
					}
					if string(back) != want {
						t.Errorf("removal without the receipt:\n%q\nwant\n%q", back, want)
					}
				}
				if _, err := store.Apply(in, true, time.Now()); err != nil {
					t.Fatal(err)
				}
				again, _ := Install(opt)
				if !again.Empty() {
					t.Errorf("a second install changes the file again:\n%s", again.Diff())
				}
				out, err := Uninstall(opt)
				if err != nil {
					t.Fatal(err)
				}
				store.Restore(out)
				if _, err := store.Apply(out, false, time.Now()); err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(path)
				switch {
				case c.doc == "" && err == nil:
					t.Errorf("uninstall left a file install created:\n%s", got)
				case c.doc != "" && string(got) != c.doc:
					t.Errorf("round trip changed the file:\n%q\nwant\n%q", got, c.doc)
				}
				if st, err := os.Stat(path); err == nil && c.doc != "" && st.Mode().Perm() != 0o640 {
					t.Errorf("mode %v, want 0640", st.Mode().Perm())
				}
			})
		}
	}
}

// A user who edits the settings after the install keeps the edit: only
// loupe's entries go.
func TestUninstallKeepsUserEdits(t *testing.T) {
	project := t.TempDir()
	store := &Store{Dir: t.TempDir()}
	opt := InstallOptions{Runtime: ClaudeCode, Project: project, Command: "/opt/loupe bin/loupe"}
	in, err := Install(opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(in.After, []byte(`"'/opt/loupe bin/loupe' hook claude-code pre-compact # loupe-managed"`)) {
		t.Fatalf("a command with a space is not quoted for the shell:\n%s", in.After)
	}
	store.Apply(in, true, time.Now())
	edited := bytes.Replace(in.After, []byte(`"hooks": {`), []byte(`"hooks": {
    "Stop": [ { "hooks": [ { "type": "command", "command": "notify-send done" } ] } ],`), 1)
	os.WriteFile(in.Path, edited, 0o644)
	out, err := Uninstall(opt)
	if err != nil {
		t.Fatal(err)
	}
	store.Restore(out)
	if bytes.Contains(out.After, []byte("loupe")) || !bytes.Contains(out.After, []byte("notify-send done")) {
		t.Fatalf("uninstall after an edit:\n%s", out.After)
	}
}

func TestInstallRefuses(t *testing.T) {
	cases := []struct{ rt, doc, err string }{
		{ClaudeCode, `{"hooks": []}`, `"hooks" is an array, not an object`},
		{ClaudeCode, `{"hooks": {"PreCompact": {}}}`, "hooks.PreCompact is an object, not an array"},
		{Gemini, `[1, 2]`, "not a JSON object"},
		{Codex, `{"hooks": {`, "line 1"},
		{Opencode, "export default {}\n", "is not loupe's plugin"},
		{Pi, "export default function () {}\n", "is not loupe's plugin"},
	}
	for _, c := range cases {
		project := t.TempDir()
		opt := InstallOptions{Runtime: c.rt, Project: project, Command: "loupe"}
		path, _, _ := settingsPath(opt)
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(c.doc), 0o644)
		_, err := Install(opt)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %q: error %v, want %q", c.rt, c.doc, err, c.err)
		}
	}
}

func TestInstallGate(t *testing.T) {
	in, err := Install(InstallOptions{Runtime: Codex, Project: t.TempDir(), Command: "loupe", Gate: true})
	if err != nil || !bytes.Contains(in.After, []byte("loupe hook codex --gate post-compact")) {
		t.Fatalf("codex gate: %v\n%s", err, in.After)
	}
	in, err = Install(InstallOptions{Runtime: Opencode, Project: t.TempDir(), Command: "/usr/local/bin/loupe", Gate: true})
	if err != nil || !bytes.Contains(in.After, []byte(`const GATE: boolean = true`)) ||
		!bytes.Contains(in.After, []byte(`const LOUPE: string = "/usr/local/bin/loupe"`)) || !bytes.Contains(in.After, []byte(opencode.Marker)) {
		t.Fatalf("opencode plugin: %v\n%s", err, in.After)
	}
	in, err = Install(InstallOptions{Runtime: Pi, Project: t.TempDir(), Command: "/usr/local/bin/loupe", Gate: true})
	if err != nil || !bytes.Contains(in.After, []byte(`const GATE: boolean = true`)) || !strings.HasSuffix(in.Path, ".pi/extensions/loupe.ts") ||
		!bytes.Contains(in.After, []byte(`const LOUPE: string = "/usr/local/bin/loupe"`)) || !bytes.Contains(in.After, []byte(pi.Marker)) {
		t.Fatalf("pi extension: %v\n%s", err, in.After)
	}
}

func TestChangeDiff(t *testing.T) {
	in, err := Install(InstallOptions{Runtime: Gemini, Project: t.TempDir(), Command: "loupe"})
	if err != nil {
		t.Fatal(err)
	}
	d := in.Diff()
	if !strings.HasPrefix(d, "--- /dev/null\n+++ b/") || !strings.Contains(d, `+            "command": "loupe hook gemini pre-compress # loupe-managed",`) {
		t.Fatalf("diff:\n%s", d)
	}
}
