package verify_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/sampledata/shapes"
	"github.com/loupe-dev/loupe/verify"
	"github.com/loupe-dev/loupe/verify/report"
)

// streamRuns are the runs TestStreamSameAsRun reads: the labelled sets
// (the project's own, and the shared evaluation's when it is there), every
// built-in sample and every generated shape at a small size.
func streamRuns(t *testing.T) []string {
	var paths []string
	for _, dir := range []string{"testdata/real", "testdata/realtest", "testdata/corpus"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".jsonl.gz")) {
				paths = append(paths, p)
			}
			return nil
		})
	}
	shared, _ := filepath.Glob("/work/shared/eval/*/*.jsonl")
	paths = append(paths, shared...)
	tmp := t.TempDir()
	for _, s := range sampledata.All() {
		r, err := sampledata.Open(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, "sample-"+s.Name+".jsonl")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if testing.Short() {
		return paths
	}
	for _, s := range shapes.All() {
		if s.IsDir() {
			// A project of files: a few of them, each a run of its own.
			dir := filepath.Join(tmp, "shape-"+s.Name)
			if err := s.WriteDir(dir, 10, shapes.Options{Seed: 1}); err != nil {
				t.Fatal(err)
			}
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					paths = append(paths, p)
				}
				return nil
			})
			continue
		}
		// Small enough to keep the test short, large enough for several
		// compactions of each shape.
		size := "400KB"
		if n, _ := kittest.ParseSize(s.Small); n < 400<<10 {
			size = s.Small
		}
		n, err := kittest.ParseSize(size)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := s.Write(&buf, n, shapes.Options{Seed: 1, Sessions: filepath.Join("..", shapes.DefaultSessions)}); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(tmp, "shape-"+s.Name)
		os.Mkdir(dir, 0o755)
		p := filepath.Join(dir, s.File)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// streamed verifies path as `loupe verify` does: each event goes to the
// stream as it is decoded and none is kept. It returns the result and the
// compaction results the stream handed out before Finish.
func streamed(t *testing.T, path string) (*verify.Result, []*verify.CompactionResult, error) {
	var s *verify.Stream
	var handed []*verify.CompactionResult
	start := func(tr *model.Transcript) {
		s = verify.NewStream(tr, verify.Options{}, func(cr *verify.CompactionResult) { handed = append(handed, cr) })
	}
	tr, err := formats.OpenEach(path, formats.Options{}, func(tr *model.Transcript, e model.Event) {
		if s == nil {
			start(tr)
		}
		s.Push(e)
	})
	if err != nil {
		if s != nil {
			s.Finish()
		}
		return nil, nil, err
	}
	if s == nil {
		start(tr)
	}
	if len(tr.Events) != 0 {
		t.Errorf("%s: the streamed transcript kept %d events", path, len(tr.Events))
	}
	// handed is appended by the stream's goroutine until Finish returns.
	res := s.Finish()
	return res, handed, nil
}

// fed streams the events of a transcript read whole into a stream that is
// given only its header.
func fed(whole *model.Transcript) (*verify.Result, []*verify.CompactionResult) {
	head := *whole
	head.Events = nil
	var handed []*verify.CompactionResult
	s := verify.NewStream(&head, verify.Options{}, func(cr *verify.CompactionResult) { handed = append(handed, cr) })
	for _, e := range whole.Events {
		s.Push(e)
	}
	return s.Finish(), handed
}

func jsonReport(t *testing.T, res *verify.Result) string {
	var b bytes.Buffer
	if err := (&report.Report{Results: []*verify.Result{res}}).Write(&b, "json", report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestStreamSameAsRun: verifying a run while it is decoded, keeping no
// event, gives the report Run gives on the whole transcript, and the
// stream hands out every compaction's result once, in order.
func TestStreamSameAsRun(t *testing.T) {
	paths := streamRuns(t)
	if len(paths) < 20 {
		t.Fatalf("only %d runs found", len(paths))
	}
	compactions := 0
	for _, p := range paths {
		whole, err := formats.Open(p, formats.Options{})
		if err != nil {
			continue // not a transcript of its own (a fragment, a fixture of the importer)
		}
		want := verify.Run(whole, verify.Options{})
		var got *verify.Result
		var handed []*verify.CompactionResult
		if whole.Runtime == formats.Native.Name {
			got, handed, err = streamed(t, p)
		} else {
			// An importer reads its file whole (formats.OpenEach hands the
			// events on after): the stream is fed the same way, without
			// reading the file twice.
			got, handed = fed(whole)
		}
		if err != nil {
			t.Errorf("%s: Open read it, OpenEach: %v", p, err)
			continue
		}
		if g, w := jsonReport(t, got), jsonReport(t, want); g != w {
			t.Errorf("%s: the streamed report differs from Run's:\n%s", p, firstDiff(g, w))
		}
		if len(handed) != len(got.Compactions) {
			t.Errorf("%s: %d compaction results handed out, %d in the result", p, len(handed), len(got.Compactions))
		}
		for i := range min(len(handed), len(got.Compactions)) {
			if handed[i] != got.Compactions[i] {
				t.Errorf("%s: compaction result %d handed out is not the result's", p, i)
			}
		}
		samePacked(t, p, whole, want)
		compactions += len(want.Compactions)
	}
	if compactions == 0 {
		t.Fatal("no compaction was compared")
	}
}

// samePacked: a result packed as it is made (as `loupe verify --format
// json` packs it) gives back the same item results and lineage steps, and
// the same JSON report, as want, which is not.
func samePacked(t *testing.T, path string, whole *model.Transcript, want *verify.Result) {
	packed := verify.Run(whole, verify.Options{Packer: verify.NewPacker()})
	for _, c := range packed.Compactions {
		if c.Items != nil {
			t.Fatalf("%s: compaction %d keeps its items once packed", path, c.Seq)
		}
	}
	for i, c := range packed.Compactions {
		w := want.Compactions[i]
		if got := c.ItemResults(); c.ItemCount() != len(w.Items) || len(got) != len(w.Items) || len(got) > 0 && !reflect.DeepEqual(got, w.Items) {
			t.Errorf("%s: compaction %d: the packed items differ from the results", path, c.Seq)
		}
	}
	for i, lg := range packed.Lineage {
		if lg.Steps != nil || !reflect.DeepEqual(lg.StepList(), want.Lineage[i].Steps) {
			t.Errorf("%s: lineage %s: the packed steps differ", path, lg.ID)
		}
	}
	for _, format := range []string{"json", "text", "markdown", "junit"} {
		if g, w := writeReport(t, packed, format), writeReport(t, want, format); g != w {
			t.Errorf("%s: the packed %s report differs:\n%s", path, format, firstDiff(g, w))
		}
	}
}

// writeReport writes res's report in format (text with every item, -v).
func writeReport(t *testing.T, res *verify.Result, format string) string {
	var b bytes.Buffer
	if err := (&report.Report{Results: []*verify.Result{res}}).Write(&b, format, report.TextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// firstDiff shows where two reports part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-200, 0)
	return "stream: …" + got[lo:min(i+200, len(got))] + "\nRun:    …" + want[lo:min(i+200, len(want))]
}

// TestStreamRereadsAnsweredCall: a call answered before any compaction is
// kept as its place in the file only; a summary that presents it as still
// running brings it back, read again from its line, and it is the same
// resurrected handle Run finds with every event in memory.
func TestStreamRereadsAnsweredCall(t *testing.T) {
	const run = `{"type":"meta","format":"loupe/v1","run":"rr"}
{"type":"message","turn":1,"role":"user","text":"Deploy the api service."}
{"type":"tool_call","turn":2,"id":"call_deploy_7","name":"bash","input":{"command":"kubectl rollout restart deploy/api"}}
{"type":"tool_result","turn":2,"id":"call_deploy_7","text":"deployment.apps/api restarted"}
{"type":"tool_call","turn":3,"id":"call_ls_8","name":"bash","input":{"command":"ls"}}
{"type":"tool_result","turn":3,"id":"call_ls_8","text":"a b"}
{"type":"compaction","turn":4,"seq":1,"trigger":"auto","summary":"## Pending\n- call_deploy_7 (kubectl rollout restart deploy/api) is still running; wait for its result."}
`
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(run), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, err := streamed(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Compactions) != 1 {
		t.Fatalf("%d compactions", len(got.Compactions))
	}
	var found *verify.ItemResult
	for i, ir := range got.Compactions[0].Items {
		if ir.Item.Key == "call_deploy_7" {
			found = &got.Compactions[0].Items[i]
		}
	}
	if found == nil || found.Status != verify.Resurrected || !strings.Contains(found.Item.Text, "kubectl rollout restart") || found.Item.Turn != 2 {
		t.Fatalf("the answered call is not brought back as it was: %+v", found)
	}
	whole, err := formats.Open(path, formats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := jsonReport(t, got), jsonReport(t, verify.Run(whole, verify.Options{})); g != w {
		t.Errorf("the streamed report differs from Run's:\n%s", firstDiff(g, w))
	}
}
