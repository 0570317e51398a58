package main

// The reports and flags of `loupe verify` end to end: flags after paths,
// --only-violations, --group-by in every format, the files that could not
// be verified in every format, hostile text in Markdown and JSON, and
// symbolic links to directories.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withMeta writes src with extra fields added to its meta line.
func withMeta(t *testing.T, path, src, fields string) string {
	t.Helper()
	head, rest, _ := strings.Cut(string(readFile(t, src)), "\n")
	return put(t, path, []byte(strings.TrimSuffix(head, "}")+","+fields+"}\n"+rest))
}

func TestFlagsAfterPaths(t *testing.T) {
	r := runCLI(t, "", "verify", violateRun, "--format", "json")
	r.expect(t, exitViolation)
	if !json.Valid([]byte(r.stdout)) {
		t.Errorf("verify PATH --format json is not JSON:\n%s%s", r.stdout, r.stderr)
	}
	r = runCLI(t, "", "verify", degradeRun, "-q", violateRun, "--format=markdown")
	r.expect(t, exitViolation)
	if !strings.HasPrefix(r.stdout, "# loupe report\n") || strings.Contains(r.stdout, "paraphrase_gemini") {
		t.Errorf("flags between and after paths:\n%s", r.stdout)
	}
	r = runCLI(t, "", "convert", tinyJSONL, "--from", "loupe")
	r.expect(t, exitOK)
	if r.stdout != string(readFile(t, tinyJSONL)) {
		t.Errorf("convert FILE --from:\n%s", r.stdout)
	}
	r = runCLI(t, "", "rehydrate", violateRun, "--format", "json")
	r.expect(t, exitOK)
	if !json.Valid([]byte(r.stdout)) {
		t.Errorf("rehydrate FILE --format json:\n%s", r.stdout)
	}
	r = runCLI(t, "", violateRun, "--follow=false") // not a terminal: the text report
	r.expect(t, exitViolation)
	r.stdoutHas(t, "✗ violate")

	// After --, a path may look like a flag.
	dir := t.TempDir()
	put(t, filepath.Join(dir, "-q"), readFile(t, degradeRun))
	t.Chdir(dir)
	r = runCLI(t, "", "verify", "--format", "json", "--", "-q")
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, `"path": "-q"`) {
		t.Errorf("verify -- -q did not verify the file -q:\n%s%s", r.stdout, r.stderr)
	}
}

func TestOnlyViolationsFlag(t *testing.T) {
	for _, flag := range []string{"-q", "--only-violations"} {
		r := runCLI(t, "", "verify", flag, degradeRun, violateRun)
		r.expect(t, exitViolation)
		if strings.Contains(r.stdout, "paraphrase_gemini") || strings.Contains(r.stdout, "✓ degrade") {
			t.Errorf("%s: a degrading run is in the report:\n%s", flag, r.stdout)
		}
		r.stdoutHas(t, "✗ violate", "commitment dropped", "false_completion", "2 files · 2 compactions · 1 violate")
	}
	// Nothing violates: nothing to say, and the exit status is still 0.
	r := runCLI(t, "", "verify", "-q", degradeRun)
	r.expect(t, exitOK)
	if r.stdout != "" {
		t.Errorf("-q on a run that degrades:\n%s", r.stdout)
	}
	for format, check := range map[string]func(string) bool{
		"json": func(s string) bool {
			var rep struct {
				Files []struct {
					Path        string `json:"path"`
					Compactions []struct {
						Verdict string `json:"verdict"`
					} `json:"compactions"`
				} `json:"files"`
			}
			return json.Unmarshal([]byte(s), &rep) == nil && len(rep.Files) == 1 && rep.Files[0].Path == violateRun &&
				len(rep.Files[0].Compactions) == 1 && rep.Files[0].Compactions[0].Verdict == "violate"
		},
		"junit": func(s string) bool {
			var su struct {
				Suites []struct {
					Name string `xml:"name,attr"`
				} `xml:"testsuite"`
			}
			return xml.Unmarshal([]byte(s), &su) == nil && len(su.Suites) == 1 && su.Suites[0].Name == violateRun
		},
		"markdown": func(s string) bool {
			return strings.Count(s, "\n## `") == 1 && strings.Contains(s, violateRun) && !strings.Contains(s, "✓ degrade")
		},
	} {
		r := runCLI(t, "", "verify", "-q", "--format", format, degradeRun, violateRun)
		r.expect(t, exitViolation)
		if !check(r.stdout) {
			t.Errorf("-q --format %s:\n%s", format, r.stdout)
		}
	}
}

// TestGroupByEveryFormat: two prompt variants compared in every format.
func TestGroupByEveryFormat(t *testing.T) {
	dir := t.TempDir()
	a := withMeta(t, filepath.Join(dir, "a.jsonl"), violateRun, `"prompt":"v1"`)
	b := withMeta(t, filepath.Join(dir, "b.jsonl"), degradeRun, `"prompt":"v2"`)

	r := runCLI(t, "", "verify", "--group-by", "prompt", "--format", "json", a, b)
	r.expect(t, exitViolation)
	var rep struct {
		Files []struct {
			Meta map[string]string `json:"meta"`
		} `json:"files"`
		GroupBy string `json:"group_by"`
		Groups  []struct {
			Value       string  `json:"value"`
			Runs        int     `json:"runs"`
			ViolateRate float64 `json:"violate_rate"`
			MeanLoss    float64 `json:"mean_loss_ratio"`
			Kinds       map[string]struct {
				DropRate *float64 `json:"drop_rate"`
			} `json:"kinds"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.GroupBy != "prompt" || len(rep.Groups) != 2 || rep.Groups[0].Value != "v1" || rep.Groups[0].ViolateRate != 1 ||
		rep.Groups[1].ViolateRate != 0 || rep.Groups[0].MeanLoss == 0 || rep.Groups[0].Kinds["commitment"].DropRate == nil {
		t.Errorf("groups: %+v", rep.Groups)
	}
	if rep.Files[0].Meta["prompt"] != "v1" || rep.Files[1].Meta["prompt"] != "v2" || rep.Files[0].Meta["run"] == "" {
		t.Errorf("meta: %v %v", rep.Files[0].Meta, rep.Files[1].Meta)
	}
	r = runCLI(t, "", "verify", "--group-by", "prompt", "--format", "markdown", a, b)
	r.stdoutHas(t, "# Comparison by `prompt`", "| v1 | 1 | 1 | 100% (1) |", "| v2 | 1 | 1 | 0% (0) |")
	r = runCLI(t, "", "verify", "--group-by", "prompt", "--format", "junit", a, b)
	r.stdoutHas(t, `<testsuite name="prompt=v1" tests="2" failures="2">`, `<property name="violate_rate" value="1">`,
		`<testsuite name="prompt=v2" tests="1" failures="0">`)
	// Any meta field, a built-in one too.
	r = runCLI(t, "", "verify", "--group-by", "run", a, b)
	r.stdoutHas(t, "run  ", "f1_deploy_claude", "paraphrase_gemini")
}

// TestUnverifiedFilesInEveryFormat: a file that could not be verified — a
// missing path, a broken gzip in a directory, a line that does not parse —
// is listed with its error in every format, and the run exits 2.
func TestUnverifiedFilesInEveryFormat(t *testing.T) {
	dir := t.TempDir()
	put(t, filepath.Join(dir, "good.jsonl"), readFile(t, violateRun))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(readFile(t, degradeRun))
	zw.Close()
	bad := gz.Bytes()
	bad[len(bad)-8] ^= 0xff
	crc := put(t, filepath.Join(dir, "crc.jsonl.gz"), bad)
	lines := strings.SplitAfter(string(readFile(t, degradeRun)), "\n")
	broken := put(t, filepath.Join(t.TempDir(), "broken.jsonl"), []byte(lines[0]+"{\"type\":\"message\",\"turn\":\n"+strings.Join(lines[1:], "")))
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	args := []string{"verify", dir, broken, missing}
	want := map[string]string{
		crc:     "cannot be read: gzip: invalid checksum",
		broken:  "1 line(s) do not parse (fix them or pass --lenient); the first: " + broken + ":2:",
		missing: "no such file or directory",
	}

	r := runWithin(t, "", append(args, "--format", "json")...)
	r.expect(t, exitBadInput)
	var rep struct {
		Files []map[string]any `json:"files"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	errs := map[string]string{}
	for _, f := range rep.Files {
		if e, ok := f["error"].(string); ok {
			errs[f["path"].(string)] = e
			if _, has := f["compactions"]; has {
				t.Errorf("%s: an unverified file with compactions", f["path"])
			}
		}
	}
	if len(rep.Files) != 4 || len(errs) != 3 {
		t.Errorf("%d files, %d with an error:\n%s", len(rep.Files), len(errs), r.stdout)
	}
	for p, msg := range want {
		if !strings.HasPrefix(errs[p], msg) {
			t.Errorf("%s: error %q, want %q", p, errs[p], msg)
		}
	}

	r = runWithin(t, "", append(args, "--format", "junit")...)
	r.expect(t, exitBadInput)
	var su struct {
		Errors int `xml:"errors,attr"`
		Suites []struct {
			Name   string `xml:"name,attr"`
			Errors int    `xml:"errors,attr"`
			Cases  []struct {
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(r.stdout), &su); err != nil {
		t.Fatal(err)
	}
	if su.Errors != 3 || len(su.Suites) != 4 {
		t.Errorf("junit: %d errors, %d suites\n%s", su.Errors, len(su.Suites), r.stdout)
	}
	for _, s := range su.Suites[1:] {
		if s.Errors != 1 || s.Cases[0].Error == nil || !strings.HasPrefix(s.Cases[0].Error.Message, want[s.Name]) {
			t.Errorf("junit suite %s: %+v", s.Name, s)
		}
	}

	r = runWithin(t, "", append(args, "--format", "markdown")...)
	r.stdoutHas(t, "# Not verified", "- `"+crc+"`: cannot be read: gzip: invalid checksum", "- `"+missing+"`: no such file or directory")
	r = runWithin(t, "", args...)
	r.stdoutHas(t, crc+" · not verified: cannot be read: gzip: invalid checksum", missing+" · not verified: no such file or directory",
		"1 file · 1 compaction · 1 violate · 3 not verified")
}

// TestHostileTextInReports: text a transcript controls (here its consumer
// name, trigger, prompt and commitment) reaches a Markdown renderer inert
// and the JSON with its invisible characters escaped.
func TestHostileTextInReports(t *testing.T) {
	p := put(t, filepath.Join(t.TempDir(), "evil.jsonl"), []byte(strings.Join([]string{
		`{"type":"meta","format":"loupe/v1","run":"r1","prompt":"<img src=x onerror=alert(1)>","consumers":[{"name":"<script>alert(1)</script>\u001b]0;pwned\u0007\u202e","requires":["commitment"]}]}`,
		`{"type":"message","turn":1,"role":"assistant","text":"I will deploy the [x](javascript:alert(1)) build </details> to <javascript:alert(1)> after the <!-- review --> passes\u009b\u200b\udb40\udc41."}`,
		`{"type":"compaction","turn":2,"seq":1,"trigger":"<b>t</b>","summary":"Nothing here."}`, ""}, "\n")))

	md := runCLI(t, "", "verify", "--format", "markdown", "--group-by", "prompt", p)
	md.expect(t, exitViolation)
	md.stdoutHas(t,
		"| 1 | 2 | &lt;b&gt;t&lt;/b&gt; |",
		`commitment dropped: deploy the \[x\](javascript:alert(1)) build &lt;/details&gt; to &lt;javascript:alert(1)&gt;`,
		"- consumer `<script>alert(1)</script>␛]0;pwned␇⟨U+202E⟩` (commitment): **refused**",
		"| &lt;img src=x onerror=alert(1)&gt; | 1 |")
	for _, line := range strings.Split(md.stdout, "\n") {
		if !strings.HasPrefix(line, "- consumer `") && strings.ContainsAny(line, "<\x1b\x07\u202e\u009b\u200b") {
			t.Errorf("raw markup or control in %q", line)
		}
	}

	js := runCLI(t, "", "verify", "--format", "json", p)
	if strings.ContainsAny(js.stdout, "\x1b\x07\u202e\u009b\u200b\U000E0041") {
		t.Errorf("raw invisible characters in the JSON:\n%s", js.stdout)
	}
	for _, esc := range []string{`\u202e`, `\u009b`, `\u200b`, `\udb40\udc41`, `\u001b]0;pwned\u0007`} {
		if !strings.Contains(js.stdout, esc) {
			t.Errorf("the JSON lacks %s", esc)
		}
	}
	var rep struct {
		Files []struct {
			Compactions []struct {
				Consumers []struct {
					Name string `json:"name"`
				} `json:"consumers"`
			} `json:"compactions"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	cs := rep.Files[0].Compactions[0].Consumers
	if name := cs[len(cs)-1].Name; name != "<script>alert(1)</script>\x1b]0;pwned\x07\u202e" {
		t.Errorf("the consumer's name decodes to %q", name)
	}
}

// TestSymlinkedDirectories: a directory given through a symbolic link, or
// holding links to directories, is verified and opened like any other.
func TestSymlinkedDirectories(t *testing.T) {
	real := t.TempDir()
	put(t, filepath.Join(real, "proj", "a.jsonl"), readFile(t, violateRun))
	put(t, filepath.Join(real, "proj", "b.jsonl"), readFile(t, degradeRun))
	top := t.TempDir()
	link := filepath.Join(top, "projects")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	r := runWithin(t, "", "verify", link)
	r.expect(t, exitViolation)
	r.stdoutHas(t, "2 files", filepath.Join(link, "proj", "a.jsonl"))
	r = runWithin(t, "", link) // not a terminal: the picker's sessions as a text report
	r.expect(t, exitViolation)
	r.stdoutHas(t, "2 files")

	// Links inside a directory are followed, once, and never round a loop.
	if err := os.Symlink(filepath.Join(real, "proj"), filepath.Join(real, "again")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(real, "proj", "up")); err != nil {
		t.Fatal(err)
	}
	r = runWithin(t, "", "verify", top)
	r.expect(t, exitViolation, "the directory "+filepath.Join(link, "again")+" again", "a symbolic link to a directory above it")
	r.stdoutHas(t, "2 files")
}

// TestHelpDocumentsFlags: --latest and the verifier's report flags are in
// the help.
func TestHelpDocumentsFlags(t *testing.T) {
	r := runCLI(t, "", "--help")
	for _, want := range []string{"loupe --latest", "--group-by", "--only-violations", "before or after the paths"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("loupe --help lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, "", "-h")
	if !strings.Contains(r.stdout, "--latest") {
		t.Error("-h lacks --latest")
	}
	r = runCLI(t, "", "x.jsonl", "--help") // the inspector's own flags
	if !strings.Contains(r.stderr, "-latest") {
		t.Errorf("the inspector's help lacks --latest:\n%s", r.stderr)
	}
}
