package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doc.go maps every rule family to its file: each source file of the
// package is named there, and every file it names exists, so the map stays
// true as files are split and added.
func TestDocMapNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	have := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		have[f] = true
		if !strings.Contains(string(doc), "\t"+f+" ") && !strings.Contains(string(doc), " "+f+" ") && !strings.Contains(string(doc), "\t"+f+",") {
			t.Errorf("doc.go does not say what %s holds", f)
		}
	}
	for _, w := range strings.Fields(string(doc)) {
		if strings.HasSuffix(w, ".go") && !strings.Contains(w, "/") && !strings.HasSuffix(w, "_test.go") && w != "doc.go" && !have[w] {
			t.Errorf("doc.go names %s, which is not a file of the package", w)
		}
	}
}
