package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzSettingsEdit edits arbitrary settings bytes for each runtime: install
// never panics; when it succeeds, its result is a document the editor reads
// back with each of loupe's entries there exactly once (and valid JSON when
// the input was), a second install changes nothing, uninstall with the
// receipt gives the original bytes back, and uninstall without it does too
// unless the input held an empty hooks object or event list (which cannot
// be told from ones loupe made).
func FuzzSettingsEdit(f *testing.F) {
	for _, c := range settingsCases {
		f.Add([]byte(c.doc), uint8(0))
		f.Add([]byte(c.doc), uint8(5))
	}
	for _, doc := range []string{
		"\ufeff{\n  \"model\": \"opus\"\n}\n",
		`{"hooks": {}}`,
		`{"hooks":{"":0}}`,
		`{"hooks": {"enabled": true}}`,
		`{ "hooks": { "PreCompact": [ ] } }`,
		`{"hooks": {"Stop": []}, "hooks": {}}`,
		`{"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "loupe hook claude-code pre-compact"}]}]}}`,
		`{"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "my-wrapper loupe hook claude-code pre-compact"}]}]}}`,
		"{ /* c */ }",
		"{\"a\": [1, 2,], // x\n}",
		"[]",
		"{} x",
	} {
		for rt := range uint8(6) {
			f.Add([]byte(doc), rt)
		}
	}
	f.Fuzz(func(t *testing.T, doc []byte, sel uint8) {
		rts := []string{ClaudeCode, Codex, Gemini}
		opt := InstallOptions{Runtime: rts[int(sel)%3], Command: "/opt/loupe bin/loupe", Gate: sel&8 != 0}
		after, err := installDoc(doc, opt)
		if err != nil {
			return
		}
		checkInstalled(t, doc, after, opt)
		again, err := installDoc(after, opt)
		if err != nil || !bytes.Equal(again, after) {
			t.Fatalf("a second install: %v\n%q\nafter the first\n%q", err, again, after)
		}
		_, body := cutBOM(doc)
		if !ambiguous(body, opt.Runtime) {
			back, err := uninstallDoc(after, opt.Runtime)
			if err != nil || !bytes.Equal(back, doc) {
				t.Fatalf("uninstall without the receipt: %v\n%q\nwant\n%q", err, back, doc)
			}
		}
		// Through files (and fsync) for one selector in eight: slow, and
		// exact by the receipt, so the fuzzer's time goes to the editor.
		if sel&0x70 == 0 {
			roundTrip(t, doc, opt)
		}
	})
}

// checkInstalled checks an install's result.
func checkInstalled(t *testing.T, before, after []byte, opt InstallOptions) {
	t.Helper()
	_, body := cutBOM(after)
	root, err := parseJSONC(body)
	if err != nil {
		t.Fatalf("the editor cannot read its own result: %v\n%q", err, after)
	}
	if checkDups(body, root) != nil {
		t.Fatalf("the result holds a duplicate key:\n%q", after)
	}
	_, was := cutBOM(before)
	fresh := !hasAnyLoupe(was, opt.Runtime)
	for _, h := range handlers(opt.Runtime, opt.Gate) {
		if n := countLoupe(t, after, opt.Runtime, h.event); n == 0 || fresh && n != 1 {
			t.Fatalf("%d of loupe's entries for %s:\n%q", n, h.event, after)
		}
	}
	if !json.Valid(was) {
		return
	}
	// As a runtime reads it: the last of two keys wins, but there are
	// none, so loupe's command is where the editor put it.
	var doc struct {
		Hooks map[string]json.RawMessage
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("valid JSON in, not out: %v\n%q", err, after)
	}
	for _, h := range handlers(opt.Runtime, opt.Gate) {
		var groups []struct {
			Hooks []struct{ Command string }
		}
		if err := json.Unmarshal(doc.Hooks[h.event], &groups); err != nil {
			t.Fatalf("hooks.%s as a runtime reads it: %v\n%q", h.event, err, after)
		}
		found := false
		for _, g := range groups {
			for _, hd := range g.Hooks {
				found = found || isLoupeCommand(hd.Command, opt.Runtime, h.event)
			}
		}
		if !found {
			t.Fatalf("a JSON reader finds no loupe command for %s:\n%q", h.event, after)
		}
	}
}

// hasAnyLoupe reports whether a settings document already holds one of
// loupe's entries.
func hasAnyLoupe(doc []byte, runtime string) bool {
	if len(bytes.TrimSpace(doc)) == 0 {
		return false
	}
	root, err := parseJSONC(doc)
	if err != nil {
		return false
	}
	hooks := root.member("hooks")
	if hooks == nil {
		return false
	}
	for _, m := range hooks.members {
		if m.val.kind == '[' && hasLoupe(doc, m.val, runtime, m.key) {
			return true
		}
	}
	return false
}

// ambiguous reports whether uninstall without the receipt cannot give doc
// back: it is blank, holds loupe's entries already, or holds an empty
// container loupe fills (an empty hooks object or event list, which
// uninstall removes as it removes the ones it made).
func ambiguous(doc []byte, runtime string) bool {
	if len(bytes.TrimSpace(doc)) == 0 || hasAnyLoupe(doc, runtime) {
		return true
	}
	root, err := parseJSONC(doc)
	if err != nil {
		return true
	}
	hooks := root.member("hooks")
	if hooks == nil {
		return false
	}
	if len(hooks.members) == 0 {
		return true
	}
	for _, gate := range []bool{false, true} {
		for _, h := range handlers(runtime, gate) {
			if arr := hooks.member(h.event); arr != nil && len(arr.elems) == 0 {
				return true
			}
		}
	}
	return false
}

// roundTrip installs and uninstalls through files, as the command does:
// the file comes back byte for byte, and nothing is left beside it.
func roundTrip(t *testing.T, doc []byte, opt InstallOptions) {
	t.Helper()
	opt.Project = t.TempDir()
	store := &Store{Dir: t.TempDir()}
	path, _, _ := settingsPath(opt)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := Install(opt)
	if err != nil {
		t.Fatalf("install from the file: %v", err)
	}
	if _, err := store.Apply(in, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	out, err := Uninstall(opt)
	if err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	store.Restore(out)
	if _, err := store.Apply(out, false, time.Now()); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, doc) {
		t.Fatalf("round trip through files: %v\n%q\nwant\n%q", err, got, doc)
	}
	if left, _ := os.ReadDir(filepath.Dir(path)); len(left) != 1 {
		t.Fatalf("files beside the settings: %v", left)
	}
}
