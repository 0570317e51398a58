package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The installer on a repository the user has just cloned, and on settings
// files as odd as users and other tools leave them (issue 18).

// rig is a project with a runtime's settings file and loupe's state
// directory.
type rig struct {
	t       *testing.T
	opt     InstallOptions
	store   *Store
	path    string // the settings file as loupe names it
	outside string // a directory outside the project
}

func newRig(t *testing.T, runtime string) *rig {
	t.Helper()
	opt := InstallOptions{Runtime: runtime, Project: t.TempDir(), Command: "loupe"}
	path, _, err := settingsPath(opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, opt: opt, store: &Store{Dir: t.TempDir()}, path: path, outside: t.TempDir()}
}

func (r *rig) write(name, content string, mode os.FileMode) string {
	r.t.Helper()
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		r.t.Fatal(err)
	}
	return name
}

// install does what `loupe hook install --write` does.
func (r *rig) install() (*Change, error) {
	c, err := Install(r.opt)
	if err != nil {
		return nil, err
	}
	_, err = r.store.Apply(c, true, time.Now())
	return c, err
}

// uninstall does what `loupe hook uninstall --write` does.
func (r *rig) uninstall() (*Change, error) {
	c, err := Uninstall(r.opt)
	if err != nil {
		return nil, err
	}
	r.store.Restore(c)
	_, err = r.store.Apply(c, false, time.Now())
	return c, err
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Case 1: a repository that ships FILE.loupe-backup as a link to a file of
// the user's gets nothing written through it; backups go to the state
// directory, named after the file's real path, with the file's mode.
func TestBackupNeverThroughALink(t *testing.T) {
	for _, rt := range []string{ClaudeCode, Codex, Gemini, Opencode} {
		t.Run(rt, func(t *testing.T) {
			r := newRig(t, rt)
			keys := r.write(filepath.Join(r.outside, "authorized_keys"), "ssh-ed25519 AAAA user@host\n", 0o600)
			if err := os.Symlink(keys, r.path+".loupe-backup"); err != nil {
				t.Fatal(err)
			}
			orig := "{\n  \"model\": \"opus\"\n}\n"
			if rt == Opencode {
				orig = "// " + "loupe-opencode-plugin" + " (an older copy)\n"
			}
			r.write(r.path, orig, 0o640)
			if _, err := r.install(); err != nil {
				t.Fatal(err)
			}
			if _, err := r.uninstall(); err != nil {
				t.Fatal(err)
			}
			if got := read(t, keys); got != "ssh-ed25519 AAAA user@host\n" {
				t.Fatalf("written through the link: %q", got)
			}
			if fi, err := os.Lstat(r.path + ".loupe-backup"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the repository's link was replaced: %v %v", fi, err)
			}
			entries, _ := os.ReadDir(filepath.Dir(r.path))
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if want := []string{filepath.Base(r.path), filepath.Base(r.path) + ".loupe-backup"}; !slices.Equal(names, want) && rt != Opencode {
				t.Errorf("files beside the settings: %v, want %v", names, want)
			}
			backups, _ := filepath.Glob(filepath.Join(r.store.Dir, "backups", "*"))
			if len(backups) != 2 {
				t.Fatalf("backups in the state directory: %v", backups)
			}
			slices.Sort(backups)
			real, _ := filepath.EvalSymlinks(r.path)
			for _, b := range backups {
				if !strings.Contains(filepath.Base(b), sum([]byte(real))[:12]) {
					t.Errorf("backup %s is not named after %s", b, real)
				}
				if fi, _ := os.Stat(b); fi.Mode().Perm() != 0o640 {
					t.Errorf("backup %s has mode %v, want the file's 0640", b, fi.Mode().Perm())
				}
			}
			if rt != Opencode && read(t, r.path) != orig {
				t.Errorf("round trip:\n%q\nwant\n%q", read(t, r.path), orig)
			}
		})
	}
}

// A backup never replaces another, even at the same instant.
func TestBackupsKeptApart(t *testing.T) {
	s := &Store{Dir: t.TempDir()}
	now := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC)
	a, err := s.writeBackup("/p/.claude/settings.json", []byte("a"), 0o600, now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.writeBackup("/p/.claude/settings.json", []byte("b"), 0o600, now)
	if err != nil {
		t.Fatal(err)
	}
	if a == b || read(t, a) != "a" || read(t, b) != "b" {
		t.Fatalf("backups %s %s", a, b)
	}
	if left, _ := filepath.Glob(filepath.Join(s.Dir, "backups", ".tmp-*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// Case 2: a settings file that is a link is edited at its target, the link
// stays a link, and the diff says where the edit goes.
func TestSymlinkedSettingsEditedAtTarget(t *testing.T) {
	for _, rt := range []string{ClaudeCode, Codex, Gemini} {
		t.Run(rt, func(t *testing.T) {
			r := newRig(t, rt)
			orig := "{\n  \"theme\": \"dark\"\n}\n"
			real := r.write(filepath.Join(r.outside, "shared-settings.json"), orig, 0o600)
			if err := os.Symlink(real, r.path); err != nil {
				t.Fatal(err)
			}
			c, err := Install(r.opt)
			if err != nil {
				t.Fatal(err)
			}
			if d := c.Diff(); !strings.Contains(d, "--- a/"+r.path+" → "+real+"\n") {
				t.Errorf("the diff does not name the link's target:\n%s", d)
			}
			if _, err := r.store.Apply(c, true, time.Now()); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(r.path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link is no longer a link: %v", err)
			}
			if got := read(t, real); !strings.Contains(got, managedMarker) {
				t.Fatalf("the target was not edited:\n%s", got)
			}
			if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
				t.Errorf("target mode %v, want 0600", fi.Mode().Perm())
			}
			if left, _ := filepath.Glob(filepath.Join(r.outside, ".*")); len(left) != 0 {
				t.Errorf("temporary files left beside the target: %v", left)
			}
			if _, err := r.uninstall(); err != nil {
				t.Fatal(err)
			}
			if got := read(t, real); got != orig {
				t.Errorf("round trip through the link:\n%q\nwant\n%q", got, orig)
			}
			if fi, err := os.Lstat(r.path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("uninstall replaced the link: %v", err)
			}
		})
	}
}

// A link to something that is not a regular file, or to nothing, is
// refused with a message, and nothing changes.
func TestSymlinkedSettingsRefused(t *testing.T) {
	cases := []struct {
		name, want string
		target     func(r *rig) string
	}{
		{"directory", "not a regular file", func(r *rig) string { return r.outside }},
		{"dangling", "cannot be read", func(r *rig) string { return filepath.Join(r.outside, "gone.json") }},
		{"fifo", "not a regular file", func(r *rig) string {
			p := filepath.Join(r.outside, "fifo")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				r.t.Skip("no FIFOs here:", err)
			}
			return p
		}},
		{"loop", "cannot be read", func(r *rig) string { return r.path }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, ClaudeCode)
			if err := os.Symlink(c.target(r), r.path); err != nil {
				t.Fatal(err)
			}
			for _, f := range []func(InstallOptions) (*Change, error){Install, Uninstall} {
				_, err := f(r.opt)
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), r.path) {
					t.Errorf("error %v, want %q naming %s", err, c.want, r.path)
				}
			}
			if fi, err := os.Lstat(r.path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("the link changed: %v", err)
			}
		})
	}
}

// A settings file that is not a regular file is refused, not read.
func TestSettingsNotARegularFile(t *testing.T) {
	r := newRig(t, Codex)
	if err := syscall.Mkfifo(r.path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := Install(r.opt); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO: %v", err)
	}
}

// Case 5: duplicate keys on the way to loupe's entries, and documents that
// are not a settings object, are refused with a message naming the file,
// and the file stays as it is.
func TestOddDocumentsRefused(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`{"hooks": {"Stop": []}, "model": "x", "hooks": {}}`, `line 1: "hooks" appears twice at the top level`},
		{"{\n \"hooks\": {\n  \"PreCompact\": [],\n  \"PreCompact\": []\n }\n}", `line 4: "PreCompact" appears twice in hooks`},
		{`{"hooks": {"Stop": [{"hooks": [{"command": "a", "command": "b"}]}]}}`, `"command" appears twice in hooks.Stop[0].hooks[0]`},
		{`[]`, "are an array, not a JSON object"},
		{`"settings"`, "are a string, not a JSON object"},
		{`{"hooks": "none"}`, `"hooks" is a string, not an object`},
		{"{}\n{}", `line 2: unexpected '{' after the document`},
		{"{} x", "unexpected 'x' after the document"},
		{`{"a": 1,}x`, "unexpected 'x'"},
		{strings.Repeat("[", 10000), "nested more than"},
	}
	for _, c := range cases {
		r := newRig(t, ClaudeCode)
		r.write(r.path, c.doc, 0o644)
		_, err := Install(r.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), r.path+": ") {
			t.Errorf("install on %.40q: %v, want %q after the file's name", c.doc, err, c.want)
		}
		if strings.Contains(c.want, "twice") {
			if _, err := Uninstall(r.opt); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("uninstall on %q: %v, want %q", c.doc, err, c.want)
			}
		}
		if read(t, r.path) != c.doc {
			t.Errorf("the file changed")
		}
	}
	// Duplicates away from loupe's way are the user's business.
	r := newRig(t, ClaudeCode)
	r.write(r.path, `{"permissions": {"allow": [], "allow": []}}`, 0o644)
	if _, err := Install(r.opt); err != nil {
		t.Errorf("a duplicate outside hooks: %v", err)
	}
}

// Case 6: a read-only settings file is refused unless forced, and stays
// read-only when it is.
func TestReadOnlySettings(t *testing.T) {
	r := newRig(t, Gemini)
	orig := "{\n  \"ui\": {}\n}\n"
	r.write(r.path, orig, 0o444)
	_, err := Install(r.opt)
	if err == nil || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("install on a read-only file: %v", err)
	}
	r.opt.Force = true
	if _, err := r.install(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(r.path); fi.Mode().Perm() != 0o444 || !strings.Contains(read(t, r.path), managedMarker) {
		t.Fatalf("forced install: mode %v\n%s", fi.Mode().Perm(), read(t, r.path))
	}
	r.opt.Force = false
	if _, err := Uninstall(r.opt); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("uninstall on a read-only file: %v", err)
	}
	r.opt.Force = true
	if _, err := r.uninstall(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(r.path); fi.Mode().Perm() != 0o444 || read(t, r.path) != orig {
		t.Fatalf("forced uninstall: mode %v\n%s", fi.Mode().Perm(), read(t, r.path))
	}
	// Nothing to do is not refused.
	r.opt.Force = false
	if c, err := Uninstall(r.opt); err != nil || !c.Empty() {
		t.Fatalf("uninstall with nothing to remove: %v", err)
	}
}

// Case 7: a byte order mark is kept, byte for byte.
func TestByteOrderMark(t *testing.T) {
	for _, rt := range []string{ClaudeCode, Codex, Gemini} {
		for _, doc := range []string{"\ufeff{\n  \"model\": \"opus\"\n}\n", "\ufeff{}", "\ufeff"} {
			r := newRig(t, rt)
			r.write(r.path, doc, 0o644)
			c, err := r.install()
			if err != nil {
				t.Fatalf("%s %q: %v", rt, doc, err)
			}
			if !bytes.HasPrefix(c.After, bom) || countLoupe(t, c.After, rt, handlers(rt, false)[0].event) != 1 {
				t.Fatalf("%s %q: install\n%q", rt, doc, c.After)
			}
			if back, err := uninstallDoc(c.After, rt); err != nil || doc != "\ufeff" && string(back) != doc {
				t.Errorf("%s %q: removal without the receipt: %v\n%q", rt, doc, err, back)
			}
			if _, err := r.uninstall(); err != nil {
				t.Fatal(err)
			}
			if got := read(t, r.path); got != doc {
				t.Errorf("%s: round trip %q, want %q", rt, got, doc)
			}
		}
	}
}

// The file changed between reading and writing: nothing is written.
func TestApplyRefusesAChangedFile(t *testing.T) {
	r := newRig(t, ClaudeCode)
	r.write(r.path, "{}", 0o644)
	c, err := Install(r.opt)
	if err != nil {
		t.Fatal(err)
	}
	r.write(r.path, `{"model": "saved in between"}`, 0o644)
	if _, err := r.store.Apply(c, true, time.Now()); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Fatalf("apply over a changed file: %v", err)
	}
	if read(t, r.path) != `{"model": "saved in between"}` {
		t.Fatal("the user's save was overwritten")
	}
}
