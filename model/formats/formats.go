// Package formats opens a transcript in any format loupe reads: loupe JSONL
// itself and the session files of the agent runtimes that have an importer.
// The format is detected from the content, never from the file name.
//
// Importers live in their own packages (model/claudecode, model/codex...)
// and register with package registry from their init; this package imports
// them all (all.go), so importing formats is enough to read every format.
package formats

import (
	"fmt"
	"os"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Options tune how a transcript is opened.
type Options struct {
	// From forces a format by name ("" detects it).
	From string
	// Read is passed to the loupe JSONL reader (and to importers that stream).
	Read model.ReadOptions
}

// Format is one format loupe reads.
type Format = registry.Format

// SessionInfo describes one session a directory holds (see Sessions).
type SessionInfo = registry.SessionInfo

// Native is loupe's own format.
var Native = Format{
	Name:        "loupe",
	Description: "loupe JSONL v1 (the native format)",
	Detect:      detectLoupe,
	Open:        model.Open,
}

// Register adds an importer. Importers register from their package's init
// (through package registry, which this calls).
func Register(f Format) { registry.Register(f) }

// All returns the formats loupe reads, native first, then the importers by
// name.
func All() []Format { return append([]Format{Native}, registry.All()...) }

// Names returns the names of the formats loupe reads.
func Names() []string {
	all := All()
	out := make([]string, len(all))
	for i, f := range all {
		out[i] = f.Name
	}
	return out
}

// Open opens the transcript at path, detecting its format unless opt.From
// names one. "-" reads standard input as loupe JSONL.
func Open(path string, opt Options) (*model.Transcript, error) {
	f, err := Detect(path, opt.From)
	if err != nil {
		return nil, err
	}
	if path == "-" && f.Name != Native.Name {
		return nil, fmt.Errorf("standard input can only be read as loupe JSONL, not %s: give the file's path", f.Name)
	}
	return f.Open(path, opt.Read)
}

// Detect returns the format of path (or the one named by from).
func Detect(path, from string) (Format, error) {
	all := All()
	if from != "" {
		for _, f := range all {
			if f.Name == from {
				return f, nil
			}
		}
		return Format{}, fmt.Errorf("unknown format %q; loupe reads: %s", from, strings.Join(Names(), ", "))
	}
	if path == "-" {
		return Native, nil
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
	for _, f := range all[1:] {
		if f.Detect(path, head, st.IsDir()) {
			return f, nil
		}
	}
	if Native.Detect(path, head, st.IsDir()) {
		return Native, nil
	}
	return Format{}, fmt.Errorf("%s: not a transcript format loupe reads (%s); use --from to force one", path, strings.Join(Names(), ", "))
}

// sniff returns up to 64 KiB of the decompressed start of the file.
func sniff(path string) ([]byte, error) { return kit.Sniff(path, 64<<10) }

// RawCount returns how many events of t are raw: lines or records that could
// not be mapped onto loupe's events (each has a reason), and lines that do
// not parse.
func RawCount(t *model.Transcript) int {
	n := 0
	for _, e := range t.Events {
		if e.Kind() == model.KindRaw {
			n++
		}
	}
	return n
}

// RawReasons counts the raw events of t by reason ("unknown line type" for a
// native line of an unknown type, the parse error's kind for a broken line).
func RawReasons(t *model.Transcript) map[string]int {
	out := map[string]int{}
	for _, e := range t.Events {
		r, ok := e.(*model.Raw)
		if !ok {
			continue
		}
		reason := r.Reason
		switch {
		case reason != "":
		case r.Problem != nil:
			reason = "line does not parse"
		default:
			reason = fmt.Sprintf("unknown type %q", r.Type)
		}
		out[reason]++
	}
	return out
}
