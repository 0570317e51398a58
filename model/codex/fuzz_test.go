package codex

import (
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// FuzzImport: any bytes as a Codex rollout import without panic, keep the
// transcript's invariants, convert to loupe JSONL and back unchanged, and
// import the same lazily, in memory and from a stream.
func FuzzImport(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.jsonl")
	more, _ := filepath.Glob("testdata/*/*.jsonl")
	kittest.FuzzFile(f, Open, Read, kittest.Seeds(f, append(paths, more...)...))
}
