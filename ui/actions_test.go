package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCopySaysWhereItWent: no terminal confirms an OSC 52 write, so y says
// it sent one and cannot confirm it, and keeps the text in a file it names.
func TestCopySaysWhereItWent(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	dir := t.TempDir()
	m.opt.ClipDir = dir
	press(m, "y")
	want := filepath.Join(dir, "clipboard.txt")
	for _, s := range []string{"OSC 52 sent (the terminal cannot confirm it)", "saved in " + want} {
		if !strings.Contains(m.status, s) {
			t.Errorf("y: the status lacks %q: %q", s, m.status)
		}
	}
	got, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "commitment · dropped · re-run migration\n") || !strings.Contains(string(got), "overclaim") {
		t.Fatalf("the saved copy is not the selected item:\n%s", got)
	}
	if fi, _ := os.Stat(want); fi.Mode().Perm() != 0o600 {
		t.Errorf("the saved copy is readable by others: %v", fi.Mode())
	}
	// A directory that cannot be made: the status says so, the OSC 52 copy
	// still went.
	m.opt.ClipDir = filepath.Join(want, "sub")
	press(m, "y")
	if !strings.Contains(m.status, "OSC 52 sent") || !strings.Contains(m.status, "could not save a copy") {
		t.Errorf("y with an unwritable directory: %q", m.status)
	}
}

func TestCopiedTextUnderTmux(t *testing.T) {
	for _, tc := range []struct {
		msg  copiedMsg
		want string
	}{
		{copiedMsg{n: 10, tmuxMode: "external", tmuxBuffer: true, path: "~/.cache/loupe/clipboard.txt"},
			"copied 10 B to tmux's paste buffer (prefix ] pastes) · saved in ~/.cache/loupe/clipboard.txt · tmux drops OSC 52 from programs (set-clipboard external)"},
		{copiedMsg{n: 10, tmuxMode: "on", path: "/c/clipboard.txt"},
			"copied 10 B: OSC 52 sent through tmux (cannot confirm) · saved in /c/clipboard.txt"},
	} {
		if got := copiedText(tc.msg); got != tc.want {
			t.Errorf("copiedText(%+v)\n got %q\nwant %q", tc.msg, got, tc.want)
		}
	}
}

func TestPagerWritesASanitizedFile(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	dir := t.TempDir()
	m.opt.TempDir = dir
	_, cmd := m.Update(keyMsg("p"))
	ready, ok := cmd().(pagerReadyMsg)
	if !ok || ready.err != nil {
		t.Fatalf("p: %#v", ready)
	}
	if !strings.HasPrefix(ready.path, dir) {
		t.Fatalf("pager file %q not in %q", ready.path, dir)
	}
	b, _ := os.ReadFile(ready.path)
	if !strings.HasPrefix(string(b), "turn 5 message assistant\n") {
		t.Fatalf("pager file:\n%s", b)
	}
}

func TestEditorSaysWhyItCannotOpen(t *testing.T) {
	m := newTestModel(t, fixtureResult(t), 160, 45, false)
	press(m, "e")
	if !strings.Contains(m.status, "did not come from a file") || !strings.Contains(m.status, "p shows the event in $PAGER") {
		t.Errorf("e without a file: %q", m.status)
	}
	m.opt.File = "runs/fixture.jsonl"
	press(m, "e")
	// The dropped commitment's origin is line 7 of the fixture (the meta
	// line is line 1).
	if !strings.Contains(m.status, "no $VISUAL or $EDITOR is set: the event is at line 7 of runs/fixture.jsonl") {
		t.Errorf("e without an editor: %q", m.status)
	}
	m.opt.Editor = []string{"vi"}
	m.opt.File = t.TempDir()
	_, cmd := m.Update(keyMsg("e"))
	m.Update(cmd())
	if !strings.Contains(m.status, "there is no single file to open") {
		t.Errorf("e on a directory: %q", m.status)
	}
}

func TestEditorArgs(t *testing.T) {
	for _, tc := range []struct {
		editor []string
		ln     int
		want   []string
	}{
		{[]string{"vim"}, 12, []string{"+12", "f.jsonl"}},
		{[]string{"/usr/bin/nvim", "-R"}, 12, []string{"-R", "+12", "f.jsonl"}},
		{[]string{"nano"}, 3, []string{"+3", "f.jsonl"}},
		{[]string{"emacsclient", "-t"}, 3, []string{"-t", "+3", "f.jsonl"}},
		{[]string{"code", "--wait"}, 7, []string{"--wait", "-g", "f.jsonl:7"}},
		{[]string{"hx"}, 7, []string{"f.jsonl:7"}},
		{[]string{"vim"}, 0, []string{"f.jsonl"}},
	} {
		if got := editorArgs(tc.editor, "f.jsonl", tc.ln); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("editorArgs(%v, %d) = %q, want %q", tc.editor, tc.ln, got, tc.want)
		}
	}
	if got := EditorFromEnv("", "code --wait"); !reflect.DeepEqual(got, []string{"code", "--wait"}) {
		t.Errorf("EditorFromEnv: %q", got)
	}
	if got := EditorFromEnv("nvim", "vi"); !reflect.DeepEqual(got, []string{"nvim"}) {
		t.Errorf("$VISUAL does not win: %q", got)
	}
}
