package claudecode

import (
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// FuzzImport: any bytes as a Claude Code session file import without panic,
// keep the transcript's invariants, convert to loupe JSONL and back
// unchanged, and import the same lazily, in memory and from a stream.
func FuzzImport(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*/*.jsonl")
	paths = append(paths, "testdata/resume/cccccccc-0000-4000-8000-000000000003/subagents/agent-a1b2c3.jsonl")
	kittest.FuzzFile(f, Open, Read, kittest.Seeds(f, paths...))
}
