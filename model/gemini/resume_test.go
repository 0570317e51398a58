package gemini

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

const (
	resumeMain = "testdata/resume-0.61/session-2026-12-01T23-02-e8decc6d.jsonl"
	resumeStub = "testdata/resume-0.61/session-2026-12-01T23-03-e8decc6d.jsonl"
)

// Gemini CLI 0.61: the session start and each resume rewrite $set.messages
// without compacting; the compression's snapshot is the second message.
// Either file of the session reads as the one run.
func TestResumeAndSnapshotAfterContext(t *testing.T) {
	for _, path := range []string{resumeMain, resumeStub} {
		t.Run(path, func(t *testing.T) {
			tr := open(t, path)
			if len(tr.Compactions) != 1 {
				t.Fatalf("%d compactions, want the one compression", len(tr.Compactions))
			}
			c := tr.Compactions[0]
			if !strings.HasPrefix(c.Summary, "<state_snapshot>") || c.Trigger == "tool_output_masking" {
				t.Errorf("summary %.40q trigger %q: want the snapshot", c.Summary, c.Trigger)
			}
			if sk := tr.Meta.Extra["skipped"]; !strings.Contains(sk, "$set.messages (session start or resume)=2") {
				t.Errorf("skipped %q: want the start and the resume $set counted", sk)
			}
			if !strings.HasPrefix(tr.Meta.Run, "e8decc6d") {
				t.Errorf("run %q", tr.Meta.Run)
			}
			warned := false
			for _, p := range tr.Problems {
				warned = warned || p.Severity == model.Warning && strings.Contains(p.Msg, "only records a resume")
			}
			if warned != (path == resumeStub) {
				t.Errorf("problems %v", tr.Problems)
			}
			for _, e := range tr.Events {
				if _, ok := e.(*model.Raw); ok {
					t.Errorf("raw event %+v", e)
				}
			}
		})
	}
	if Owner(resumeMain) != "" || Owner(resumeStub) != resumeMain {
		t.Errorf("owner of main %q, of stub %q", Owner(resumeMain), Owner(resumeStub))
	}
	infos, err := Scan("testdata/resume-0.61")
	if err != nil || len(infos) != 1 || infos[0].Path != resumeMain {
		t.Errorf("scan: %v %+v", err, infos)
	}
}

// A session compressed twice and resumed after each: every resume writes
// the snapshot again (in another shape), which is no new compaction. The
// file is what Gemini CLI 0.61 wrote in loupe's end-to-end suite.
func TestResumedSnapshotIsNoCompaction(t *testing.T) {
	tr := open(t, "testdata/compressed-resumed-0.61/session-2026-12-02T02-17-d01a688f.jsonl")
	if len(tr.Compactions) != 2 {
		for _, c := range tr.Compactions {
			t.Logf("compaction %d at line %d: %.60q", c.Seq, c.Line, c.Summary)
		}
		t.Fatalf("%d compactions, want the two compressions", len(tr.Compactions))
	}
	for _, c := range tr.Compactions {
		if !strings.Contains(c.Summary, "<state_snapshot>") {
			t.Errorf("compaction %d: summary %.40q, want a snapshot", c.Seq, c.Summary)
		}
	}
}
