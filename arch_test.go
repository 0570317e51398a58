package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The dependency rules of DESIGN.md ("Packages"): main → ui → verify → model.
//
//   - model and its subpackages (the codec, the importers) import only the
//     standard library, the named parsing helpers below, and each other;
//   - model and verify never import a terminal UI package (Charm);
//   - verify never imports ui;
//   - verify/lang, the language layer, imports nothing of loupe but model;
//   - verify/report reads verify's exported result, never the language
//     layer, and nothing that decides imports a report.
//
// Only non-test imports count: a test may use whatever it likes.

const module = "github.com/loupe-dev/loupe"

// modelAllowed are the third-party packages model may import (a prefix ending
// in "/..." allows the packages below it).
var modelAllowed = []string{
	"github.com/valyala/fastjson/...",
	"github.com/klauspost/compress/...",
}

// uiPrefixes are the terminal UI libraries.
var uiPrefixes = []string{"charm.land/", "github.com/charmbracelet/"}

// listPackage is the part of `go list -json` output the rules read.
type listPackage struct {
	ImportPath string
	Standard   bool
	DepOnly    bool
	Imports    []string
}

func TestArchitecture(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(goBin, "list", "-e", "-deps", "-json", "./model/...", "./verify/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs, err := decodeList(out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(pkgs, func(p listPackage) bool { return p.ImportPath == module+"/model" && !p.DepOnly }) {
		t.Fatalf("go list did not list %s/model", module)
	}
	for _, v := range checkArch(pkgs) {
		t.Error(v)
	}
}

func decodeList(out []byte) ([]listPackage, error) {
	var pkgs []listPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listPackage
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
}

// checkArch returns one message per broken rule, naming the import chain.
func checkArch(pkgs []listPackage) []string {
	byPath := map[string]listPackage{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	var out []string
	for _, root := range pkgs {
		if root.DepOnly {
			continue
		}
		isModel := under(root.ImportPath, module+"/model")
		isVerify := under(root.ImportPath, module+"/verify")
		isLang := under(root.ImportPath, module+"/verify/lang")
		isReport := under(root.ImportPath, module+"/verify/report")
		if !isModel && !isVerify {
			continue
		}
		// Walk the non-test import graph from root, remembering how each
		// package was reached.
		via := map[string]string{root.ImportPath: ""}
		queue := []string{root.ImportPath}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			p, ok := byPath[cur]
			if !ok {
				continue
			}
			for _, imp := range p.Imports {
				if _, seen := via[imp]; seen {
					continue
				}
				via[imp] = cur
				queue = append(queue, imp)
				dep := byPath[imp]
				var why string
				switch {
				case hasAnyPrefix(imp, uiPrefixes):
					why = "a terminal UI package"
				case isVerify && under(imp, module+"/ui"):
					why = "package ui (verify must not depend on the inspector)"
				case isModel && !dep.Standard && !under(imp, module+"/model") && !allowed(imp):
					why = "outside the standard library and model's allowed parsing helpers (" + strings.Join(modelAllowed, ", ") + ")"
				case isLang && under(imp, module) && !under(imp, module+"/model"):
					why = "the language layer knows nothing of items or verdicts (it may import only model)"
				case isReport && cur == root.ImportPath && under(imp, module+"/verify/lang"):
					why = "a report reads verify's exported result, not the language layer"
				case isVerify && !isReport && under(imp, module+"/verify/report"):
					why = "what decides never depends on a report"
				}
				if why != "" {
					out = append(out, fmt.Sprintf("%s imports %s: %s", chain(via, imp), imp, why))
				}
			}
		}
	}
	return out
}

// chain renders the import path from the root to pkg's importer.
func chain(via map[string]string, pkg string) string {
	var path []string
	for p := via[pkg]; p != ""; p = via[p] {
		path = append(path, strings.TrimPrefix(p, module+"/"))
	}
	slices.Reverse(path)
	return strings.Join(path, " → ")
}

func under(path, pkg string) bool { return path == pkg || strings.HasPrefix(path, pkg+"/") }

func allowed(path string) bool {
	for _, a := range modelAllowed {
		if base, ok := strings.CutSuffix(a, "/..."); ok {
			if under(path, base) {
				return true
			}
		} else if path == a {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// TestArchitectureRules checks that the checker catches each kind of
// violation, on a made-up import graph.
func TestArchitectureRules(t *testing.T) {
	m := module + "/"
	pkgs := []listPackage{
		{ImportPath: m + "model", Imports: []string{"fmt", "github.com/valyala/fastjson", "github.com/klauspost/compress/zstd"}},
		{ImportPath: m + "model/claudecode", Imports: []string{m + "model", m + "model/internal/x"}},
		{ImportPath: m + "model/internal/x", DepOnly: true, Imports: []string{"github.com/tidwall/gjson"}},
		{ImportPath: m + "model/codex", Imports: []string{m + "verify"}},
		{ImportPath: m + "verify", Imports: []string{m + "model", m + "ui"}},
		{ImportPath: m + "ui", DepOnly: true, Imports: []string{"charm.land/lipgloss/v2"}},
		{ImportPath: m + "verify/lang", Imports: []string{m + "model", m + "sampledata"}},
		{ImportPath: m + "verify/report", Imports: []string{m + "verify/lang"}},
		{ImportPath: m + "verify/gate", Imports: []string{m + "verify/report"}},
		{ImportPath: m + "sampledata", DepOnly: true},
		{ImportPath: "fmt", Standard: true, DepOnly: true},
		{ImportPath: "github.com/valyala/fastjson", DepOnly: true},
		{ImportPath: "github.com/klauspost/compress/zstd", DepOnly: true},
		{ImportPath: "github.com/tidwall/gjson", DepOnly: true},
		{ImportPath: "charm.land/lipgloss/v2", DepOnly: true, Imports: []string{"github.com/charmbracelet/x/ansi"}},
		{ImportPath: "github.com/charmbracelet/x/ansi", DepOnly: true},
	}
	got := checkArch(pkgs)
	want := []string{
		"model/claudecode → model/internal/x imports github.com/tidwall/gjson: outside the standard library and model's allowed parsing helpers (github.com/valyala/fastjson/..., github.com/klauspost/compress/...)",
		"model/codex imports " + m + "verify: outside the standard library and model's allowed parsing helpers (github.com/valyala/fastjson/..., github.com/klauspost/compress/...)",
		"model/codex → verify imports " + m + "ui: outside the standard library and model's allowed parsing helpers (github.com/valyala/fastjson/..., github.com/klauspost/compress/...)",
		"model/codex → verify → ui imports charm.land/lipgloss/v2: a terminal UI package",
		"model/codex → verify → ui → charm.land/lipgloss/v2 imports github.com/charmbracelet/x/ansi: a terminal UI package",
		"verify imports " + m + "ui: package ui (verify must not depend on the inspector)",
		"verify → ui imports charm.land/lipgloss/v2: a terminal UI package",
		"verify → ui → charm.land/lipgloss/v2 imports github.com/charmbracelet/x/ansi: a terminal UI package",
		"verify/lang imports " + m + "sampledata: the language layer knows nothing of items or verdicts (it may import only model)",
		"verify/report imports " + m + "verify/lang: a report reads verify's exported result, not the language layer",
		"verify/gate imports " + m + "verify/report: what decides never depends on a report",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
