package hook

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The live gate sits beside the inspector: main → hook → verify → model and
// main → ui → verify → model, and neither of hook and ui imports the
// other (the inspector gets the gate's state from main, as plain data).
func TestHookAndUIStayApart(t *testing.T) {
	const mod = "github.com/loupe-dev/loupe/"
	for _, c := range []struct{ dir, banned string }{{".", mod + "ui"}, {"../ui", mod + "hook"}} {
		files, _ := filepath.Glob(filepath.Join(c.dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if p == c.banned || strings.HasPrefix(p, c.banned+"/") {
					t.Errorf("%s imports %s", f, p)
				}
			}
		}
	}
}
