package shapes

import (
	"bytes"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/verify"
)

// testSize is the size the tests generate each shape at: small, but large
// enough for the shape to show (several compactions, thousands of items).
var testSize = map[string]string{
	"mixed": "10MB", "sample-large": "20MB", "flaky": "1MB", "commitments": "300KB", "compactions": "500KB",
	"giant-summaries": "3MB", "rules": "150KB", "big-plan": "200KB", "plan-updates": "1.5MB",
	"tiny-events": "4MB", "huge-output": "8MB", "claude-code": "6MB", "dense-compactions": "100KB",
	"subagent-project": "150",
}

func TestEveryShapeHasATestSize(t *testing.T) {
	for _, s := range All() {
		if testSize[s.Name] == "" {
			t.Errorf("shape %s has no size in testSize", s.Name)
		}
		for _, z := range append(s.Sizes[:], s.Small) {
			if _, err := kittest.ParseSize(z); err != nil {
				t.Errorf("shape %s: size %q: %v", s.Name, z, err)
			}
		}
	}
	if _, ok := Lookup("no-such-shape"); ok {
		t.Error("Lookup found a shape that does not exist")
	}
}

// TestSeeded: the same seed gives the same bytes, another seed another run
// (but for mixed, which is the sample generator's own fixed run).
func TestSeeded(t *testing.T) {
	for _, s := range All() {
		if s.Name == "sample-large" || s.IsDir() {
			continue // slow, and documented to ignore the seed; a directory (TestSubagentProject)
		}
		t.Run(s.Name, func(t *testing.T) {
			gen := func(seed uint64) []byte {
				var b bytes.Buffer
				if err := s.Write(&b, 200<<10, Options{Seed: seed, Sessions: sessions}); err != nil {
					t.Fatal(err)
				}
				return b.Bytes()
			}
			a, b, c := gen(1), gen(1), gen(2)
			if !bytes.Equal(a, b) {
				t.Error("two runs with seed 1 differ")
			}
			if bytes.Equal(a, c) {
				t.Error("seeds 1 and 2 give the same run")
			}
		})
	}
}

// TestShapes generates each shape at its test size and checks that the file
// loads cleanly, has about the size asked for, and reaches the part of the
// verifier it is meant to stress.
func TestShapes(t *testing.T) {
	if testing.Short() || raceDetector {
		// Generators and verify are single goroutines: the race detector
		// finds nothing here, and makes the ~40 MB ten times slower.
		t.Skip("generates and verifies ~40 MB: run without -short and -race")
	}
	for _, s := range All() {
		if s.IsDir() {
			continue // TestSubagentProject
		}
		t.Run(s.Name, func(t *testing.T) {
			size, _ := kittest.ParseSize(testSize[s.Name])
			path := generate(t, s, testSize[s.Name])
			tr := open(t, path)
			st := fileSize(t, path)
			// Generators stop at the first event past the size; only the
			// last event (a summary, a copy of a session) overshoots. The
			// sample generator's large run estimates, and may fall short.
			if st < size*95/100 || st > size+size/2+(64<<10) {
				t.Errorf("asked for %d bytes, wrote %d", size, st)
			}
			wantFormat := "loupe"
			if s.Name == "claude-code" {
				wantFormat = "claude-code"
			}
			if got := format(tr); !strings.HasPrefix(got, wantFormat) {
				t.Errorf("read as %q, want %q", got, wantFormat)
			}
			res := verify.Run(tr, verify.Options{})
			if len(res.Compactions) == 0 {
				t.Fatal("no compaction: nothing for the verifier to check")
			}
			check := shapeChecks[s.Name]
			if check == nil {
				t.Fatalf("no check for shape %s", s.Name)
			}
			check(t, tr, res, st)
		})
	}
}

func format(tr *model.Transcript) string {
	if tr.Meta.Source != "" {
		return tr.Meta.Source
	}
	return "loupe"
}

// open counts the items of kind that are in the preservation set of c (not
// resurrected closed ones).
func openItems(c *verify.CompactionResult, kind verify.Kind) []*verify.Item {
	var out []*verify.Item
	for _, ir := range c.Items {
		if ir.Item.Kind == kind && ir.Status != verify.Resurrected {
			out = append(out, ir.Item)
		}
	}
	return out
}

func count[T any](tr *model.Transcript) int {
	n := 0
	for _, e := range tr.Events {
		if _, ok := e.(T); ok {
			n++
		}
	}
	return n
}

var shapeChecks = map[string]func(t *testing.T, tr *model.Transcript, res *verify.Result, size int64){
	"mixed": func(t *testing.T, tr *model.Transcript, res *verify.Result, _ int64) {
		first, last := res.Compactions[0], res.Compactions[len(res.Compactions)-1]
		if n := len(openItems(last, verify.Error)); n < 20 || n <= len(openItems(first, verify.Error)) {
			t.Errorf("open errors: %d at the first compaction, %d at the last; want them to pile up", len(openItems(first, verify.Error)), n)
		}
		// Four steps in five are messages; a tool step is two events.
		msgs := count[*model.Message](tr)
		if msgs < len(tr.Events)*55/100 || msgs > len(tr.Events)*75/100 {
			t.Errorf("%d messages of %d events, want ~2/3", msgs, len(tr.Events))
		}
	},
	"sample-large": func(t *testing.T, tr *model.Transcript, res *verify.Result, _ int64) {
		big := 0
		for _, e := range tr.Events {
			if r, ok := e.(*model.ToolResult); ok && r.Text.Len() >= 1<<20 {
				big++
			}
		}
		if big < 15 || len(res.Compactions) < 5 {
			t.Errorf("%d outputs of 1 MB or more and %d compactions, want 15 and 5 or more", big, len(res.Compactions))
		}
	},
	"flaky": func(t *testing.T, _ *model.Transcript, res *verify.Result, _ int64) {
		first, last := res.Compactions[0], res.Compactions[len(res.Compactions)-1]
		errs := openItems(last, verify.Error)
		keys := map[string]bool{}
		for _, it := range errs {
			keys[it.Text] = true
		}
		// Errors that stay open, each with its own message.
		if len(errs) < 30 || len(keys) < len(errs)*9/10 || len(openItems(first, verify.Error)) >= len(errs) {
			t.Errorf("open errors: %d at the first compaction, %d at the last with %d distinct lines; want them to pile up, nearly all different",
				len(openItems(first, verify.Error)), len(errs), len(keys))
		}
	},
	"commitments": func(t *testing.T, _ *model.Transcript, res *verify.Result, _ int64) {
		cs := openItems(res.Compactions[len(res.Compactions)-1], verify.Commitment)
		cond := 0
		for _, it := range cs {
			if it.Condition != "" {
				cond++
			}
		}
		if len(cs) < 150 || cond < len(cs)*9/10 {
			t.Errorf("%d open commitments at the last compaction, %d with a condition; want 150 or more, nearly all conditional", len(cs), cond)
		}
	},
	"compactions": func(t *testing.T, tr *model.Transcript, res *verify.Result, _ int64) {
		per := len(tr.Events) / len(res.Compactions)
		first, last := res.Compactions[0], res.Compactions[len(res.Compactions)-1]
		if per < 40 || per > 60 {
			t.Errorf("a compaction every %d events, want ~50", per)
		}
		if len(last.Items) < 3*len(first.Items) || last.SummaryBytes < 3*first.SummaryBytes {
			t.Errorf("items %d → %d, summary %d → %d bytes: both should grow with the compactions", len(first.Items), len(last.Items), first.SummaryBytes, last.SummaryBytes)
		}
	},
	"giant-summaries": func(t *testing.T, _ *model.Transcript, res *verify.Result, _ int64) {
		for _, c := range res.Compactions {
			if c.SummaryBytes < 1<<20 || c.SummaryBytes > 5<<20+64<<10 {
				t.Errorf("compaction %d: summary of %d bytes, want 1–5 MB", c.Seq, c.SummaryBytes)
			}
		}
	},
	"dense-compactions": func(t *testing.T, tr *model.Transcript, res *verify.Result, _ int64) {
		// A compaction every five events, each keeping the one rule and
		// degrading: the cost is in how many compactions there are.
		if n := len(tr.Events); len(res.Compactions) < n/6 {
			t.Errorf("%d compactions in %d events, want one every five", len(res.Compactions), n)
		}
		for _, c := range res.Compactions {
			rules := openItems(c, verify.Constraint)
			if len(rules) != 1 || c.Verdict != verify.Degrade {
				t.Errorf("compaction %d: %d rules open, verdict %s; want the one rule kept and a degrade", c.Seq, len(rules), c.Verdict)
				break
			}
		}
	},
	"rules": func(t *testing.T, _ *model.Transcript, res *verify.Result, _ int64) {
		for _, c := range res.Compactions {
			rules := openItems(c, verify.Constraint)
			retained := 0
			for _, ir := range c.Items {
				if ir.Item.Kind == verify.Constraint && ir.Status == verify.Retained {
					retained++
				}
			}
			// Compaction k follows the k-th rule and restates all k.
			if len(rules) < c.Seq*9/10 || retained < len(rules)*9/10 {
				t.Errorf("compaction %d: %d rules open, %d retained; want about %d, all retained", c.Seq, len(rules), retained, c.Seq)
				break
			}
		}
	},
	"big-plan": func(t *testing.T, tr *model.Transcript, res *verify.Result, size int64) {
		var plans []*model.Plan
		for _, e := range tr.Events {
			if p, ok := e.(*model.Plan); ok {
				plans = append(plans, p)
			}
		}
		if len(plans) != 1 || len(plans[0].Items) < int(size/planItemBytes)/2 {
			t.Fatalf("%d plan events, want one with about %d items", len(plans), size/planItemBytes)
		}
		// Each item is its own obligation, none a restatement of another.
		if n := len(openItems(res.Compactions[0], verify.Commitment)); n < len(plans[0].Items)*9/10 {
			t.Errorf("%d open commitments for a plan of %d items: items were merged", n, len(plans[0].Items))
		}
	},
	"plan-updates": func(t *testing.T, tr *model.Transcript, res *verify.Result, _ int64) {
		plans := 0
		for _, e := range tr.Events {
			if p, ok := e.(*model.Plan); ok {
				plans++
				if len(p.Items) < 5000 {
					t.Fatalf("a plan event with %d items, want the whole list of 5,000", len(p.Items))
				}
			}
		}
		if plans < 4 || len(openItems(res.Compactions[0], verify.Commitment)) < 4500 {
			t.Errorf("%d plan events, %d open commitments at the first compaction; want several updates of ~5,000 open items", plans, len(openItems(res.Compactions[0], verify.Commitment)))
		}
	},
	"tiny-events": func(t *testing.T, tr *model.Transcript, _ *verify.Result, size int64) {
		if per := size / int64(len(tr.Events)); per > 80 {
			t.Errorf("%d bytes per event, want tiny ones (≤ 80)", per)
		}
		if n := count[*model.ToolCall](tr); n < len(tr.Events)/3 {
			t.Errorf("%d calls of %d events: most events should be calls and results (handles)", n, len(tr.Events))
		}
	},
	"huge-output": func(t *testing.T, tr *model.Transcript, _ *verify.Result, size int64) {
		var biggest int
		for _, e := range tr.Events {
			if r, ok := e.(*model.ToolResult); ok {
				biggest = max(biggest, r.Text.Len())
			}
		}
		if int64(biggest) < size*8/10 {
			t.Errorf("largest output %d bytes of a %d-byte file", biggest, size)
		}
	},
	"claude-code": func(t *testing.T, tr *model.Transcript, res *verify.Result, size int64) {
		// A compaction per replayed session (each ~3 MB, one compaction).
		if want := int(size / (4 << 20)); len(res.Compactions) < max(want, 2) {
			t.Errorf("%d compactions in %d bytes of replayed sessions", len(res.Compactions), size)
		}
		calls := map[string]bool{}
		for _, e := range tr.Events {
			if c, ok := e.(*model.ToolCall); ok {
				if calls[c.ID] {
					t.Fatalf("call id %s appears twice: copies must get their own ids", c.ID)
				}
				calls[c.ID] = true
			}
		}
	},
}

// TestSubagentProject: the project shape writes the number of sub-agent
// files asked for, the same bytes for the same seed, each file a Claude
// Code session loupe opens cleanly, each session with its compaction and
// its compaction run.
func TestSubagentProject(t *testing.T) {
	s, ok := Lookup("subagent-project")
	if !ok || !s.IsDir() {
		t.Fatal("no directory shape subagent-project")
	}
	if err := s.Write(io.Discard, 100, Options{}); err == nil {
		t.Error("Write of a directory shape did not fail")
	}
	write := func(seed uint64) (string, map[string]string) {
		dir := filepath.Join(t.TempDir(), "project")
		if err := s.WriteDir(dir, 150, Options{Seed: seed}); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			files[rel] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return dir, files
	}
	dir, a := write(1)
	_, b := write(1)
	_, c := write(2)
	if !maps.Equal(a, b) {
		t.Error("two projects with seed 1 differ")
	}
	if maps.Equal(a, c) {
		t.Error("seeds 1 and 2 give the same project")
	}
	agents, runs, sessions := 0, 0, 0
	for rel := range a {
		path := filepath.Join(dir, rel)
		switch base := filepath.Base(rel); {
		case strings.HasPrefix(base, "agent-acompact-"):
			runs++
			continue
		case strings.HasPrefix(base, "agent-"):
			agents++
		default:
			sessions++
			if tr := open(t, path); len(tr.Compactions) != 1 {
				t.Errorf("%s: %d compactions, want 1", rel, len(tr.Compactions))
			}
			continue
		}
		open(t, path) // fails the test on a line that does not parse
	}
	if agents != 150 || sessions != 2 || runs != 2 {
		t.Errorf("%d sub-agents, %d sessions, %d compaction runs; want 150, 2, 2", agents, sessions, runs)
	}
}
