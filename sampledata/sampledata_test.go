package sampledata_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/sampledata/internal/gen"
)

// TestGeneratedUpToDate regenerates every sample and compares it with the
// committed files.
func TestGeneratedUpToDate(t *testing.T) {
	files, err := gen.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(f.Path)
		if err != nil {
			t.Errorf("%s: %v; run go generate ./sampledata", f.Path, err)
			continue
		}
		if bytes.Equal(got, f.Data) {
			continue
		}
		if strings.HasSuffix(f.Path, ".gz") && bytes.Equal(gunzip(t, got), gunzip(t, f.Data)) {
			t.Errorf("%s: same content, different compressed bytes (did compress/flate change?); run go generate ./sampledata", f.Path)
			continue
		}
		t.Errorf("%s is out of date with the generator; run go generate ./sampledata", f.Path)
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGeneratorDeterministic builds the tiny run twice.
func TestGeneratorDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		r, err := gen.Build("tiny")
		if err != nil {
			t.Fatal(err)
		}
		if err := gen.EncodeGzip(buf, r); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two builds of the tiny run differ")
	}
}

func load(t *testing.T, name string) *model.Transcript {
	t.Helper()
	r, err := sampledata.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tr, err := model.Read(r, model.ReadOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func planted(t *testing.T, name string) *gen.Planted {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".planted.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p gen.Planted
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func TestSamplesLoad(t *testing.T) {
	for _, s := range sampledata.All() {
		tr := load(t, s.Name)
		if errs := tr.Problems.Errors(); len(errs) > 0 {
			t.Errorf("%s: %d problems of Error severity, first: %v", s.Name, len(errs), errs[0])
		}
		for _, p := range tr.Problems {
			t.Errorf("%s: %v", s.Name, p)
		}
		if tr.Meta.Run != s.Name || tr.Meta.Format != model.Format {
			t.Errorf("%s: meta = %+v", s.Name, tr.Meta)
		}
		p := planted(t, s.Name)
		if p.Turns != tr.Turns() || p.Events != len(tr.Events) || len(p.Compactions) != len(tr.Compactions) {
			t.Errorf("%s: planted.json says %d turns, %d events, %d compactions; the run has %d, %d, %d",
				s.Name, p.Turns, p.Events, len(p.Compactions), tr.Turns(), len(tr.Events), len(tr.Compactions))
		}
		for i, c := range tr.Compactions {
			if i < len(p.Compactions) && (p.Compactions[i].Seq != c.Seq || p.Compactions[i].Turn != c.Turn) {
				t.Errorf("%s: compaction %d at turn %d, planted.json says seq %d at turn %d", s.Name, c.Seq, c.Turn, p.Compactions[i].Seq, p.Compactions[i].Turn)
			}
		}
	}
}

func TestSampleSizes(t *testing.T) {
	m := load(t, "migration")
	if n := m.Turns(); n < 4000 || n > 4200 {
		t.Errorf("migration has %d turns, want 4,000–4,200", n)
	}
	if n := len(m.Compactions); n != 11 {
		t.Errorf("migration has %d compactions, want 11", n)
	}
	if n := len(load(t, "tiny").Events); n < 25 || n > 40 {
		t.Errorf("tiny has %d events, want 25–40", n)
	}
	c := load(t, "clean")
	if n := len(c.Compactions); n != 5 {
		t.Errorf("clean has %d compactions, want 5", n)
	}
	for _, name := range []string{"migration", "clean", "tiny"} {
		st, err := os.Stat(name + ".jsonl.gz")
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > 700<<10 {
			t.Errorf("%s.jsonl.gz is %d bytes; keep the samples small", name, st.Size())
		}
	}
}

// TestCallIDs checks that call ids are unique and none is a prefix of
// another.
func TestCallIDs(t *testing.T) {
	for _, s := range sampledata.All() {
		var ids []string
		for _, e := range load(t, s.Name).Events {
			if c, ok := e.(*model.ToolCall); ok {
				ids = append(ids, c.ID)
			}
		}
		slices.Sort(ids)
		for i := 1; i < len(ids); i++ {
			if strings.HasPrefix(ids[i], ids[i-1]) {
				t.Errorf("%s: call id %s is a prefix of (or equal to) %s", s.Name, ids[i-1], ids[i])
			}
		}
	}
}

// TestLarge checks the -size hook: a loadable run with 15 outputs of 1–5 MB.
func TestLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("writes ~20 MB")
	}
	var b bytes.Buffer
	if err := gen.Large(&b, 12<<20); err != nil {
		t.Fatal(err)
	}
	tr, err := model.Read(&b, model.ReadOptions{Name: "large"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Problems) > 0 {
		t.Errorf("large run: %v", tr.Problems[0])
	}
	big := 0
	for _, e := range tr.Events {
		if r, ok := e.(*model.ToolResult); ok && r.Text.Len() >= 1<<20 && r.Text.Len() <= 5<<20 {
			big++
		}
	}
	if big != 15 || tr.Turns() <= 4100 {
		t.Errorf("large run: %d outputs of 1–5 MB, %d turns", big, tr.Turns())
	}
}
