package verify_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
	"github.com/loupe-dev/loupe/verify/report"
)

// FuzzRun feeds any loupe JSONL to the whole decision path and every
// report writer: nothing may panic, every compaction gets a verdict, and a
// compaction whose check hit an internal error says so and violates.
//
//	go test ./verify -run '^$' -fuzz FuzzRun -fuzztime 5m
func FuzzRun(f *testing.F) {
	for _, dir := range []string{"corpus", "heldout", "heldout3"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.jsonl"))
		for i, p := range files {
			if i%4 != 0 {
				continue // a sample of each set keeps the seed corpus small
			}
			if b, err := os.ReadFile(p); err == nil && len(b) < 32<<10 {
				f.Add(b)
			}
		}
	}
	for _, s := range []string{
		`{"type":"tool_call","turn":1,"id":"  ","name":"bash","input":{"command":"make"}}` + "\n" +
			`{"type":"compaction","turn":2,"seq":1,"summary":"If you need specific details from before compaction, read the transcript."}`,
		`{"type":"message","turn":1,"role":"assistant","text":"**Next steps:**\n- WP1: (x)\n- #2 ` + "```" + `"}` + "\n" +
			`{"type":"compaction","turn":2,"seq":1,"summary":"- **Task #1** [pending]: ( — RESOLVED"}`,
		`{"type":"message","turn":1,"role":"user","text":"can you, but don't; - never — only"}` + "\n" +
			`{"type":"compaction","turn":2,"seq":1,"summary":"\"never\" but don't"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := model.Read(bytes.NewReader(data), model.ReadOptions{})
		if err != nil {
			return
		}
		res := verify.Run(tr, verify.Options{})
		if len(res.Compactions) != len(tr.Compactions) {
			t.Fatalf("%d compactions checked of %d", len(res.Compactions), len(tr.Compactions))
		}
		for _, c := range res.Compactions {
			if c.Verdict != verify.Degrade && c.Verdict != verify.Violate {
				t.Fatalf("compaction %d: verdict %q", c.Seq, c.Verdict)
			}
			for _, r := range c.Reasons {
				if strings.Contains(r, "internal error") && c.Verdict != verify.Violate {
					t.Fatalf("an internal error that does not violate: %v", c.Reasons)
				}
			}
		}
		results := []*verify.Result{res}
		for _, w := range []func(io.Writer) error{
			func(w io.Writer) error { return report.WriteText(w, results, report.TextOptions{Verbose: true}) },
			func(w io.Writer) error { return report.WriteJSON(w, results) },
			func(w io.Writer) error { return report.WriteMarkdown(w, results) },
			func(w io.Writer) error { return report.WriteJUnit(w, results) },
			func(w io.Writer) error { return report.WriteGroups(w, results, "prompt") },
		} {
			if err := w(io.Discard); err != nil {
				t.Fatalf("report: %v", err)
			}
		}
	})
}
