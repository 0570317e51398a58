package gemini

import (
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// FuzzImport: any bytes as a Gemini CLI session (JSONL or the legacy JSON)
// import without panic, keep the transcript's invariants, convert to loupe
// JSONL and back unchanged, and import the same lazily, in memory and from
// a stream.
func FuzzImport(f *testing.F) {
	paths, _ := filepath.Glob("testdata/session-*")
	more, _ := filepath.Glob("testdata/resume-0.61/session-*") // 0.61: resume $sets, snapshot second
	kittest.FuzzFile(f, Open, Read, kittest.Seeds(f, append(paths, more...)...))
}
