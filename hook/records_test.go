package hook

import (
	"os"
	"path/filepath"
	"testing"
)

// The inspector finds a session's records by its transcript's path, as the
// user types it (relative, through a symlink) or as the runtime sent it.
func TestRecordsByTranscript(t *testing.T) {
	s := newSession(t, "inspect")
	s.compact()
	s.run("PostToolUse", "")
	link := filepath.Join(t.TempDir(), "link.jsonl")
	if err := os.Symlink(s.path, link); err != nil {
		t.Skip("no symlinks here")
	}
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, s.path)
	for _, p := range []string{s.path, link, rel} {
		recs, err := s.store.Records(p)
		if err != nil || len(recs) != 1 || recs[0].State != stateInjected || recs[0].Seq != 1 || len(recs[0].Lines) == 0 {
			t.Errorf("%s: %+v %v", p, recs, err)
		}
	}
	if recs, err := s.store.Records(filepath.Join(t.TempDir(), "other.jsonl")); recs != nil || err != nil {
		t.Errorf("another transcript: %+v %v", recs, err)
	}
	if recs, err := (&Store{Dir: filepath.Join(t.TempDir(), "none")}).Records(s.path); recs != nil || err != nil {
		t.Errorf("no state at all: %+v %v", recs, err)
	}
}
