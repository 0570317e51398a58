package hook

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// realSession is a real Claude Code session (one auto compaction, 700
// lines before it) on disk, grown line by line.
func realSession(t *testing.T, id string) *session {
	t.Helper()
	s := newSessionFrom(t, id, "../model/claudecode/testdata/real/8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl")
	s.recent()
	return s
}

// growTo appends the fixture's lines up to line n (1-based, excluded).
func (s *session) growTo(n int) {
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	for ; s.at < len(s.lines) && s.at < n-1; s.at++ {
		f.WriteString(s.lines[s.at])
	}
}

func (s *session) state() *Session {
	s.t.Helper()
	st, err := s.store.Load(ClaudeCode, s.id)
	if err != nil {
		s.t.Fatal(err)
	}
	return st
}

// A pre-compaction hook that finds a snapshot it can trust rolls it
// forward from the lines appended since, instead of reading the session
// whole: the rolled snapshot holds the same preservation set as one taken
// from the whole file, and the compaction after it gets the same verdict
// and the same items put back. A damaged snapshot is not rolled: the
// session is read whole.
func TestRolledSnapshotAgreesWithWholeRead(t *testing.T) {
	boundary := 0
	whole := realSession(t, "whole")
	for i, l := range whole.lines {
		if strings.Contains(l, `"subtype":"compact_boundary"`) {
			boundary = i + 1
		}
	}
	whole.growTo(boundary)
	whole.run("PreCompact", "")
	want := whole.state().Snapshot
	whole.growTo(len(whole.lines) + 1)
	whole.run("PostCompact", "")
	wantRec := whole.state().record(1)

	for _, damage := range []bool{false, true} {
		name := map[bool]string{false: "rolled", true: "damaged"}[damage]
		t.Run(name, func(t *testing.T) {
			s := realSession(t, name)
			for _, at := range []int{boundary / 3, 2 * boundary / 3} {
				s.growTo(at)
				s.run("PreCompact", "")
			}
			if damage {
				truncateHalf(t, filepath.Join(s.store.sessionsDir(), fileKey(ClaudeCode, s.id)+".source.jsonl"))
			}
			s.growTo(boundary)
			s.run("PreCompact", "")
			got := s.state().Snapshot
			if wantRolled := map[bool]int{false: 2, true: 0}[damage]; got.Rolled != wantRolled {
				t.Fatalf("rolled %d times, want %d\n%s", got.Rolled, wantRolled, s.log())
			}
			if !got.Fast || got.Size != want.Size || got.Compactions != want.Compactions || !slices.Equal(got.Keys, want.Keys) {
				t.Errorf("snapshot\n got fast %v size %d compactions %d keys %q\nwant fast %v size %d compactions %d keys %q",
					got.Fast, got.Size, got.Compactions, got.Keys, want.Fast, want.Size, want.Compactions, want.Keys)
			}
			s.growTo(len(s.lines) + 1)
			s.run("PostCompact", "")
			rec := s.state().record(1)
			if rec == nil || wantRec == nil || rec.Verdict != wantRec.Verdict || rec.Via != "snapshot" || !slices.Equal(rec.Lines, wantRec.Lines) {
				t.Errorf("record %+v, want %+v", rec, wantRec)
			}
		})
	}
}

// After a compaction verified from the snapshot, the next pre-compaction
// hook rolls that snapshot forward over the compaction and what followed
// it, and finds what a whole read of the session finds: the promise made
// since.
func TestRollAfterACompaction(t *testing.T) {
	s := realSession(t, "after")
	boundary := 0
	for i, l := range s.lines {
		if strings.Contains(l, `"subtype":"compact_boundary"`) {
			boundary = i + 1
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	line := func(parent, uuid, typ, content string) string {
		return `{"parentUuid":"` + parent + `","isSidechain":false,"userType":"external","cwd":"/w","sessionId":"8463c716-a2ea-4c14-9efa-87158ebd9f20","version":"2.1.39","type":"` + typ +
			`","message":{"role":"` + typ + `","content":` + content + `},"uuid":"` + uuid + `","timestamp":"` + now + `"}` + "\n"
	}
	s.lines = append(s.lines,
		line("56db2309-dc71-46ec-a73e-fd41dac53f51", "00000000-0000-4000-8000-000000000001", "user", `"Also add a footer link to the changelog page."`),
		line("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "assistant",
			`[{"type":"text","text":"I'll add the footer link to the changelog page once the header fix is reviewed."}]`))
	s.growTo(boundary)
	s.run("PreCompact", "")
	s.growTo(len(s.lines) - 1)
	s.run("PostCompact", "")
	if st := s.state(); !st.Snapshot.Used {
		t.Fatalf("the compaction was not verified from the snapshot: %+v", st.Snapshot)
	}
	s.growTo(len(s.lines) + 1)
	s.run("PreCompact", "")
	got := s.state().Snapshot
	whole := realSession(t, "after-whole")
	whole.lines = s.lines
	whole.growTo(len(whole.lines) + 1)
	whole.run("PreCompact", "")
	want := whole.state().Snapshot
	if got.Rolled != 1 || got.Used || got.Compactions != want.Compactions || !slices.Contains(got.Keys, "commitment\x00add footer link changelog page") {
		t.Errorf("rolled snapshot %+v\nwhole read %+v\n%s", got, want, s.log())
	}
	if !slices.Equal(got.Keys, want.Keys) {
		t.Errorf("keys\n got %q\nwant %q", got.Keys, want.Keys)
	}
}
