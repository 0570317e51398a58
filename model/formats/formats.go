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

	"github.com/loupe-dev/loupe/model"
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
	Read:        model.ReadContent,
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
