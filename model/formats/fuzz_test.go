package formats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// fileSeeds are the single-file fixtures of every format.
var fileSeeds = []string{claudeReal, claudeSynth, codexRemote, codexLocal, geminiJSONL, geminiLegacy, opencodeFile, "../pi/testdata/v3-tree.jsonl", "../testdata/tiny.jsonl", "../testdata/tiny.jsonl.gz", "../testdata/tiny.jsonl.zst",
	"../opencode/testdata/export/ses_first.json", "../gemini/testdata/resume-0.61/session-2026-12-01T23-02-e8decc6d.jsonl",
	"../codex/testdata/live-0.171/rollout-2026-12-01T23-17-02-01a233e5-b6f6-7631-b79b-9c742d1218cf.jsonl",
	"../claudecode/testdata/synthetic/live_2_1_332_hooks.jsonl"}

// FuzzDetect: detection never panics; a stream is detected as the file
// with the same bytes is; what opens from the file opens the same from the
// stream; and an open fails only for the reasons it may (a broken
// compressed stream, an empty file, nothing that reads as the format).
func FuzzDetect(f *testing.F) {
	for _, s := range kittest.Seeds(f, fileSeeds...) {
		f.Add(s)
	}
	f.Add([]byte{})
	f.Add([]byte(" \n\t\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "in")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ff, ferr := Detect(path, "")
		fromFile, oerr := Open(path, Options{Read: model.ReadOptions{Name: "in"}})
		fromStream, serr := OpenReader(bytes.NewReader(data), "in", Options{})
		if ferr == nil && oerr == nil && fromFile.Meta.Source != "" && !strings.HasPrefix(fromFile.Meta.Source, ff.Name) {
			t.Fatalf("detected %s, opened as %q", ff.Name, fromFile.Meta.Source)
		}
		for what, err := range map[string]error{"Open": oerr, "OpenReader": serr} {
			var nr *NothingReadError
			switch {
			case err == nil, errors.Is(err, ErrEmpty), errors.As(err, &nr), ferr != nil && strings.Contains(err.Error(), "not a transcript format"):
			case kittest.Compressed(data):
			default:
				t.Fatalf("%s: %v (detected %s, %v)", what, err, ff.Name, ferr)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "in: ") && !strings.HasPrefix(err.Error(), path) {
				t.Fatalf("%s: the error does not name the file: %v", what, err)
			}
		}
		if (oerr == nil) != (serr == nil) {
			// An opencode session file is detected beside its storage
			// only; nothing else may tell a file from its stream.
			if ff.Name != "opencode" {
				t.Fatalf("the file opens (%v) but not the stream (%v), or the other way round", oerr, serr)
			}
			return
		}
		if oerr == nil {
			if fromFile.Meta.Source != fromStream.Meta.Source || len(fromFile.Events) != len(fromStream.Events) || len(fromFile.Compactions) != len(fromStream.Compactions) {
				t.Fatalf("file: %q, %d events, %d compactions; stream: %q, %d, %d", fromFile.Meta.Source, len(fromFile.Events), len(fromFile.Compactions),
					fromStream.Meta.Source, len(fromStream.Events), len(fromStream.Compactions))
			}
		}
	})
}

// treeSlots are where FuzzSessions puts its files: the places each format
// keeps sessions, and a few where none does.
var treeSlots = []string{
	"a.jsonl", "b.jsonl.gz", "notes.txt",
	"proj/s1.jsonl", "proj/s2.jsonl", "proj/s1/subagents/agent-1.jsonl", "proj/s1/subagents/agent-acompact-1.jsonl",
	"codex/2026/01/01/rollout-1.jsonl", "gemini/chats/session-1.json",
	"oh/sid/events/0.json", "oh/sid/events/1.json", "oh/sid/events/2.json", "oh/deep/er/sid/events/event-00000-a.json",
	"st/storage/session/prj/ses_1.json", "st/storage/message/ses_1/msg_1.json", "st/storage/part/msg_1/prt_1.json",
	"1/2/3/4/5/6/7/8/9/deep.jsonl",
}

// FuzzSessions: whatever a directory holds, listing it never panics, every
// session listed opens as the format listed without panic, every path
// skipped lies in the directory and says why, and the picker's listing
// finds nothing the plain one does not.
func FuzzSessions(f *testing.F) {
	for _, seeds := range [][]string{{claudeSynth, codexLocal, geminiLegacy}, {"../testdata/tiny.jsonl", ohV0 + "/events/0.json", ohV0 + "/events/4.json"}} {
		var parts [][]byte
		for i, p := range seeds {
			b, _ := os.ReadFile(p)
			parts = append(parts, append([]byte{byte(i * 5)}, b...))
		}
		f.Add(bytes.Join(parts, []byte(kittest.RecordSep)))
	}
	base := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, data []byte) {
		n++
		root := filepath.Join(base, fmt.Sprint(n))
		defer os.RemoveAll(root)
		for _, r := range kittest.Records(data) {
			if len(r) == 0 {
				continue
			}
			p := filepath.Join(root, treeSlots[int(r[0])%len(treeSlots)])
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, r[1:], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.MkdirAll(root, 0o755)
		plain, err := List(root, false)
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, s := range plain.Sessions {
			if !strings.HasPrefix(s.Path, root) || s.Format == "" {
				t.Fatalf("session %+v", s)
			}
			found[s.Path] = true
			Open(s.Path, Options{From: s.Format}) // must not panic; may fail
		}
		for _, s := range plain.Skipped {
			if !strings.HasPrefix(s.Path, root) || s.Reason == "" {
				t.Fatalf("skipped %+v", s)
			}
		}
		described, _ := Sessions(root)
		for _, s := range described {
			if !found[s.Path] && !found[filepath.Dir(s.Path)] {
				// A storage's sessions are listed by the storage.
				if !strings.Contains(s.Path, string(filepath.Separator)+"storage"+string(filepath.Separator)) {
					t.Fatalf("the picker lists %s, which List does not", s.Path)
				}
			}
			if s.Turns < 0 || s.Compactions < 0 {
				t.Fatalf("session %+v", s)
			}
		}
	})
}
