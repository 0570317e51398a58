// Package formats opens a transcript in any format loupe reads: loupe JSONL
// itself and the session files of the agent runtimes that have an importer.
// The format is detected from the content, never from the file name.
package formats

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// Options tune how a transcript is opened.
type Options struct {
	// From forces a format by name ("" detects it).
	From string
	// Read is passed to the loupe JSONL reader (and to importers that stream).
	Read model.ReadOptions
}

// Format is one format loupe reads.
type Format struct {
	// Name is what --from takes ("loupe", "claude-code", "codex"...).
	Name string
	// Description is one line for help texts.
	Description string
	// Detect reports whether a file whose first bytes are head (decompressed,
	// up to 64 KiB), or a directory when dir is set, is in this format.
	Detect func(path string, head []byte, dir bool) bool
	// Open reads the transcript at path.
	Open func(path string, opt model.ReadOptions) (*model.Transcript, error)
}

var registry = []Format{{
	Name:        "loupe",
	Description: "loupe JSONL v1 (the native format)",
	Detect:      detectLoupe,
	Open:        model.Open,
}}

// Register adds an importer. Importers register from their package's init.
func Register(f Format) {
	registry = append(registry, f)
}

// All returns the formats loupe reads, native first.
func All() []Format { return slices.Clone(registry) }

// Names returns the names of the formats loupe reads.
func Names() []string {
	out := make([]string, len(registry))
	for i, f := range registry {
		out[i] = f.Name
	}
	return out
}

// Open opens the transcript at path, detecting its format unless opt.From
// names one. "-" reads standard input as loupe JSONL or, when detected, as
// another format that can be read from a stream.
func Open(path string, opt Options) (*model.Transcript, error) {
	f, err := Detect(path, opt.From)
	if err != nil {
		return nil, err
	}
	return f.Open(path, opt.Read)
}

// Detect returns the format of path (or the one named by from).
func Detect(path, from string) (Format, error) {
	if from != "" {
		for _, f := range registry {
			if f.Name == from {
				return f, nil
			}
		}
		return Format{}, fmt.Errorf("unknown format %q; loupe reads: %s", from, strings.Join(Names(), ", "))
	}
	if path == "-" {
		return registry[0], nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return Format{}, err
	}
	var head []byte
	if !st.IsDir() {
		if head, err = sniff(path); err != nil {
			return Format{}, err
		}
	}
	// Importers first: loupe's own detection is the loosest.
	for _, f := range registry[1:] {
		if f.Detect(path, head, st.IsDir()) {
			return f, nil
		}
	}
	if registry[0].Detect(path, head, st.IsDir()) {
		return registry[0], nil
	}
	return Format{}, fmt.Errorf("%s: not a transcript format loupe reads (%s); use --from to force one", path, strings.Join(Names(), ", "))
}

// sniff returns up to 64 KiB of the decompressed start of the file.
func sniff(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, _, closeFn, err := model.Decompress(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer closeFn()
	buf := make([]byte, 64<<10)
	n, _ := readFull(r, buf)
	return buf[:n], nil
}
