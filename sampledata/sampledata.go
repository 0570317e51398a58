// Package sampledata holds loupe's built-in runs, embedded in the binary.
//
// The runs are generated deterministically by the program in ./gen
// (go generate ./sampledata) and committed gzip-compressed; a test checks that
// regenerating gives the same bytes.
package sampledata

//go:generate go run ./gen -out .

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"sort"
	"strings"
)

//go:embed *.jsonl.gz
var files embed.FS

// Sample describes one built-in run.
type Sample struct {
	Name        string
	Description string
}

// samples lists the built-in runs in the order `loupe sample` shows them.
var samples = []Sample{
	{"migration", "the seed's incident: ~4,100 turns, 11 compactions; a dropped migration re-run, a lost in-flight handle, a false completion"},
	{"clean", "a later change in the same service: ~1,500 turns, 5 compactions, every one an honest degradation"},
	{"tiny", "the incident in miniature: about 30 events, one violating compaction and a false completion"},
}

// Default is the sample `loupe` opens with no arguments.
const Default = "migration"

// All returns the built-in samples.
func All() []Sample { return append([]Sample(nil), samples...) }

// Open returns the named sample as uncompressed loupe JSONL.
func Open(name string) (io.ReadCloser, error) {
	f, err := files.Open(name + ".jsonl.gz")
	if err != nil {
		names := make([]string, len(samples))
		for i, s := range samples {
			names[i] = s.Name
		}
		sort.Strings(names)
		return nil, fmt.Errorf("no sample named %q (samples: %s)", name, strings.Join(names, ", "))
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sample %s: %w", name, err)
	}
	return readCloser{zr, f}, nil
}

type readCloser struct {
	*gzip.Reader
	f io.Closer
}

func (r readCloser) Close() error {
	r.Reader.Close()
	return r.f.Close()
}
