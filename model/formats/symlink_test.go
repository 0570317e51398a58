package formats

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestListFollowsSymlinks: a symbolic link to a directory (a
// ~/.claude/projects kept elsewhere, a project linked into a folder of
// runs) is searched like the directory itself, and a link that would go
// round a loop or list a directory twice is named, not followed.
func TestListFollowsSymlinks(t *testing.T) {
	real := t.TempDir()
	proj := filepath.Join(real, "projects", "-w")
	copyFile(t, claudeSynth, filepath.Join(proj, filepath.Base(claudeSynth)))
	runs := t.TempDir()
	copyFile(t, piV1, filepath.Join(runs, "pi.jsonl"))
	mustLink := func(target, link string) string {
		t.Helper()
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		return link
	}
	linked := mustLink(filepath.Join(real, "projects"), filepath.Join(runs, "claude"))
	twice := mustLink(proj, filepath.Join(runs, "again"))
	mustLink("..", filepath.Join(proj, "up"))
	self := mustLink(".", filepath.Join(runs, "self"))

	l, err := List(runs, false)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range l.Sessions {
		paths = append(paths, s.Path)
	}
	// "again" sorts before "claude": the project is listed through it, once.
	want := []string{filepath.Join(twice, filepath.Base(claudeSynth)), filepath.Join(runs, "pi.jsonl")}
	if !slices.Equal(paths, want) {
		t.Errorf("sessions %q, want %q", paths, want)
	}
	reasons := map[string]string{}
	for _, s := range l.Skipped {
		reasons[s.Path] = s.Reason
		if s.Unreadable {
			t.Errorf("%s counts as unreadable: %s", s.Path, s.Reason)
		}
	}
	for path, want := range map[string]string{
		filepath.Join(linked, "-w"): "the directory " + twice + " again",
		self:                        "a symbolic link to a directory above it",
		filepath.Join(twice, "up"):  "a symbolic link to a directory above it",
	} {
		if !strings.HasPrefix(reasons[path], want) {
			t.Errorf("%s: skipped as %q, want %q", path, reasons[path], want)
		}
	}

	// The root itself may be a link.
	l, err = List(linked, false)
	if err != nil || len(l.Sessions) != 1 || l.Sessions[0].Path != filepath.Join(linked, "-w", filepath.Base(claudeSynth)) {
		t.Errorf("a linked root: %+v (%v)", l, err)
	}
}

// TestLatestFollowsALinkedHome: ~/.claude/projects may be a symbolic link.
func TestLatestFollowsALinkedHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", filepath.Join(home, "nowhere"))
	t.Setenv("PI_CODING_AGENT_DIR", filepath.Join(home, "nowhere"))
	config := filepath.Join(home, "claude-config")
	t.Setenv("CLAUDE_CONFIG_DIR", config)
	elsewhere := t.TempDir()
	session := copyFile(t, claudeSynth, filepath.Join(elsewhere, "-w", filepath.Base(claudeSynth)))
	if err := os.MkdirAll(config, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(config, "projects")); err != nil {
		t.Fatal(err)
	}
	got, err := Latest()
	want := filepath.Join(config, "projects", "-w", filepath.Base(session))
	if err != nil || got != want {
		t.Errorf("latest %q (%v), want %q", got, err, want)
	}
}
