package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run go test ./ui -update to create it)", err)
		return
	}
	if string(want) != got {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s differs at line %d (run go test ./ui -update if the change is intended):\n got %q\nwant %q", path, i+1, g, w)
				return
			}
		}
	}
}

// tinyResult is the built-in tiny sample, verified by the real verifier.
func tinyResult(t *testing.T) *verify.Result {
	t.Helper()
	r, err := sampledata.Open("tiny")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tr, err := model.Read(r, model.ReadOptions{Name: "tiny (built-in sample)"})
	if err != nil {
		t.Fatal(err)
	}
	return verify.Run(tr, verify.Options{})
}

// TestGoldenViews pins the first screen at 160×45 and 80×24, dark and light:
// for the built-in tiny sample as the verifier sees it, and for the
// hand-built fixture that has every status and finding. The .golden files
// hold View().Content with its SGR; the .txt files the same screens as plain
// text, for reading.
func TestGoldenViews(t *testing.T) {
	runs := []struct {
		name string
		res  func(*testing.T) *verify.Result
		keys []string
	}{
		{"tiny", tinyResult, nil},
		{"fixture", func(t *testing.T) *verify.Result { return fixtureResult(t) }, nil},
		{"fixture-finding", func(t *testing.T) *verify.Result { return fixtureResult(t) }, []string{"f", "enter"}},
	}
	for _, run := range runs {
		for _, size := range [][2]int{{160, 45}, {80, 24}} {
			for _, theme := range []string{"dark", "light", "txt"} {
				name := fmt.Sprintf("%s_%dx%d_%s", run.name, size[0], size[1], theme)
				t.Run(name, func(t *testing.T) {
					m := newTestModel(t, run.res(t), size[0], size[1], theme == "light")
					m.opt.Title = run.name + ".jsonl"
					press(m, run.keys...)
					content := m.View().Content
					if theme == "txt" {
						golden(t, fmt.Sprintf("%s_%dx%d.txt", run.name, size[0], size[1]), ansi.Strip(content))
						return
					}
					golden(t, name+".golden", content)
				})
			}
		}
	}
}
