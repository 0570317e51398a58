package main

import (
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifySplitSessionOnce: a Claude Code session continued in a second
// file (bbbbbbbb forks from aaaaaaaa at a compaction) is one run in
// directory mode: verified once, counted once in the totals, the JSON and
// the JUnit report.
func TestVerifySplitSessionOnce(t *testing.T) {
	const dir = "model/claudecode/testdata/resume"
	r := runCLI(t, "", "verify", dir)
	r.expect(t, exitViolation)
	if strings.Contains(r.stdout, "\n"+dir+"/aaaaaaaa-") || strings.HasPrefix(r.stdout, dir+"/aaaaaaaa-") {
		t.Errorf("the continued file is reported apart:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "3 files (1 sub-agent under their sessions) · 1 compaction · 1 violate") {
		t.Errorf("totals count the run twice:\n%s", r.stdout)
	}
	var doc struct {
		Files []struct {
			Path, Runtime string
		}
	}
	js := runCLI(t, "", "verify", "--format", "json", dir)
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 3 {
		t.Errorf("%d files in the JSON report, want 3", len(doc.Files))
	}
	for _, f := range doc.Files {
		if f.Runtime != "claude-code" {
			t.Errorf("%s: runtime %q, want claude-code", f.Path, f.Runtime)
		}
	}
	var suites struct {
		Suites []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	ju := runCLI(t, "", "verify", "--format", "junit", dir)
	if err := xml.Unmarshal([]byte(ju.stdout), &suites); err != nil {
		t.Fatal(err)
	}
	// Two suites: the split run once, and the session whose sub-agent
	// (no compaction) is counted under it, not a suite of its own.
	if len(suites.Suites) != 2 || strings.Contains(ju.stdout, `name="`+dir+`/aaaaaaaa-`) || !strings.Contains(ju.stdout, `sub-agents: 1 file`) {
		t.Errorf("JUnit has %d suites, want 2 (the split run once, the sub-agent under its session):\n%s", len(suites.Suites), ju.stdout)
	}
}

// TestVerifyJSONRuntimeAndSkipped: runtime names the format the file was
// read as (loupe's own, or an importer's), format stays loupe's, and
// meta.skipped counts the records an importer left out, per type.
func TestVerifyJSONRuntimeAndSkipped(t *testing.T) {
	type file struct {
		Format, Runtime, Verdict string
		Meta                     map[string]any
	}
	var doc struct {
		Version int
		Verdict string
		Files   []file
	}
	r := runCLI(t, "", "verify", "--lenient", "--format", "json", tinyJSONL, "model/claudecode/testdata/synthetic")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if doc.Version != 3 || doc.Verdict == "" || len(doc.Files) < 2 {
		t.Fatalf("version %d verdict %q, %d files", doc.Version, doc.Verdict, len(doc.Files))
	}
	if f := doc.Files[0]; f.Runtime != "loupe" || f.Format != "loupe/v1" {
		t.Errorf("tiny.jsonl: runtime %q format %q", f.Runtime, f.Format)
	}
	sawSkipped := false
	for _, f := range doc.Files[1:] {
		if f.Runtime != "claude-code" || f.Format != "loupe/v1" || f.Verdict == "" {
			t.Errorf("a Claude Code file: runtime %q format %q verdict %q", f.Runtime, f.Format, f.Verdict)
		}
		if sk, ok := f.Meta["skipped"]; ok {
			counts, isObj := sk.(map[string]any)
			if !isObj || len(counts) == 0 {
				t.Errorf("meta.skipped is %T %v, want an object of counts", sk, sk)
			}
			for k, n := range counts {
				if v, isNum := n.(float64); !isNum || v < 1 {
					t.Errorf("skipped %s: %v", k, n)
				}
			}
			sawSkipped = true
		}
	}
	if !sawSkipped {
		t.Error("no Claude Code sample skipped a record: the test covers nothing")
	}
}

// TestGroupByUnknownFieldWarns: --group-by on a field no run has says so
// on standard error, naming the fields the runs have; on one they have it
// says nothing. Text and Markdown tables have the same columns.
func TestGroupByUnknownFieldWarns(t *testing.T) {
	dir := t.TempDir()
	a := withMeta(t, filepath.Join(dir, "a.jsonl"), violateRun, `"prompt":"v1"`)
	b := withMeta(t, filepath.Join(dir, "b.jsonl"), degradeRun, `"prompt":"v2"`)
	r := runCLI(t, "", "verify", "--group-by", "promt", a, b)
	r.expect(t, exitViolation, "--group-by promt: no run has this meta field", "the fields the runs have: agent, format, prompt, run")
	ok := runCLI(t, "", "verify", "--group-by", "prompt", a, b)
	if strings.Contains(ok.stderr, "no run has") {
		t.Errorf("a warning for a field the runs have:\n%s", ok.stderr)
	}
	md := runCLI(t, "", "verify", "--format", "markdown", "--group-by", "prompt", a, b)
	head := "prompt runs compactions violate commitment lost handle lost error lost identifier lost constraint lost mean loss median loss"
	found := false
	for _, l := range strings.Split(ok.stdout, "\n") {
		found = found || strings.Join(strings.Fields(l), " ") == head
	}
	if !found {
		t.Errorf("text group table: no %q in\n%s", head, ok.stdout)
	}
	mdHead := "| prompt | runs | compactions | violate | commitment lost | handle lost | error lost | identifier lost | constraint lost | mean loss | median loss |"
	if !strings.Contains(md.stdout, mdHead) {
		t.Errorf("markdown group table:\n%s", md.stdout)
	}
}
