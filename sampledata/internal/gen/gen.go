// Package gen generates loupe's built-in sample runs: a long coding-agent run
// on a fake Go service with compactions, some honest and some planted wrong,
// and the ground truth of what was planted.
//
// Everything is deterministic: one fixed-seed PCG source per run, no map
// iteration, no clock. The same code always writes the same bytes.
package gen

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/loupe-dev/loupe/model"
)

// Run is one generated transcript and its ground truth.
type Run struct {
	Name    string
	Meta    model.Meta
	Events  []model.Event
	Planted *Planted
}

// Names lists the built-in runs.
func Names() []string { return []string{"migration", "clean", "tiny"} }

// Build generates the named run.
func Build(name string) (run *Run, err error) {
	defer func() {
		// The generator panics when a run breaks its own invariants (an open
		// item missing from an honest summary, a stray commitment cue...).
		if r := recover(); r != nil {
			err = fmt.Errorf("generate %s: %v", name, r)
		}
	}()
	var e *emitter
	switch name {
	case "migration":
		e = migrationRun()
	case "clean":
		e = cleanRun()
	case "tiny":
		e = tinyRun()
	default:
		return nil, fmt.Errorf("no run named %q", name)
	}
	return &Run{
		Name:    name,
		Meta:    model.Meta{Run: name, Agent: "demo-agent", Extra: map[string]string{"generator": "loupe sampledata/gen"}},
		Events:  e.events,
		Planted: e.finish(),
	}, nil
}

// Encode writes r as loupe JSONL.
func Encode(w io.Writer, r *Run) error {
	lw := model.NewWriter(w)
	if err := lw.WriteMeta(r.Meta); err != nil {
		return err
	}
	for _, ev := range r.Events {
		if err := lw.WriteEvent(ev); err != nil {
			return err
		}
	}
	return lw.Flush()
}

// EncodeGzip writes r as gzip-compressed loupe JSONL with a zero header (no
// name, no modification time) and a fixed level, so the bytes are
// reproducible.
func EncodeGzip(w io.Writer, r *Run) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := Encode(zw, r); err != nil {
		return err
	}
	return zw.Close()
}

// File is one generated file, by its path relative to the sampledata
// directory.
type File struct {
	Path string
	Data []byte
}

// Files generates every built-in run: <name>.jsonl.gz and
// testdata/<name>.planted.json.
func Files() ([]File, error) {
	var out []File
	for _, name := range Names() {
		r, err := Build(name)
		if err != nil {
			return nil, err
		}
		var gz bytes.Buffer
		if err := EncodeGzip(&gz, r); err != nil {
			return nil, err
		}
		truth, err := json.MarshalIndent(r.Planted, "", "  ")
		if err != nil {
			return nil, err
		}
		out = append(out,
			File{name + ".jsonl.gz", gz.Bytes()},
			File{filepath.Join("testdata", name+".planted.json"), append(truth, '\n')})
	}
	return out, nil
}

// WriteAll writes Files under dir.
func WriteAll(dir string) error {
	files, err := Files()
	if err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(dir, f.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
