package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/sampledata/shapes"
)

// batchDir writes runs of the corpus with two prompt variants (one run
// without the field) into a directory, and returns it and the runs' paths
// in path order.
func batchDir(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i, name := range []string{"f1_deploy_claude", "paraphrase_gemini", "constraint_dropped", "error_flipped",
		"handle_retained", "identifiers_retained", "error_resurrected", "flip_second"} {
		src := filepath.Join("verify/testdata/corpus", name+".jsonl")
		dst := filepath.Join(dir, name+".jsonl")
		switch i % 3 {
		case 0:
			withMeta(t, dst, src, `"prompt":"v1"`)
		case 1:
			withMeta(t, dst, src, `"prompt":"v2"`)
		default:
			put(t, dst, readFile(t, src))
		}
		paths = append(paths, dst)
	}
	sort.Strings(paths)
	return dir, paths
}

// shardLines verifies each shard with --format jsonl into a result file,
// and returns the result files.
func shardLines(t *testing.T, shards [][]string, flags ...string) []string {
	t.Helper()
	out := t.TempDir()
	var files []string
	for i, shard := range shards {
		r := runCLI(t, "", append(append([]string{"verify", "--format", "jsonl"}, flags...), shard...)...)
		if r.code == exitBadInput {
			t.Fatalf("shard %d: exit 2: %s", i, r.stderr)
		}
		files = append(files, put(t, filepath.Join(out, "shard"+string(rune('a'+i))+".jsonl"), []byte(r.stdout)))
	}
	return files
}

// from returns s from the first line that starts with prefix.
func from(t *testing.T, s, prefix string) string {
	t.Helper()
	i := strings.Index("\n"+s, "\n"+prefix)
	if i < 0 {
		t.Fatalf("no line starting %q in:\n%s", prefix, s)
	}
	return s[i:]
}

// TestShardsMergeToTheSameTables: a directory verified at once with
// --group-by, and the same files verified in three shards as result lines
// then merged by loupe report, give the same totals, comparison and drop
// rates in text and Markdown, and the same JSON report.
func TestShardsMergeToTheSameTables(t *testing.T) {
	dir, paths := batchDir(t)
	// The shards out of order, the lines of each in completion order.
	files := shardLines(t, [][]string{paths[5:], paths[:2], paths[2:5]}, "--group-by", "prompt", "--jobs", "3")

	whole := runCLI(t, "", "verify", "--group-by", "prompt", dir)
	merged := runCLI(t, "", append([]string{"report"}, files...)...)
	whole.expect(t, exitViolation)
	merged.expect(t, exitViolation)
	if got, want := from(t, merged.stdout, "8 files"), from(t, whole.stdout, "8 files"); got != want {
		t.Errorf("text tables differ:\nmerged:\n%s\nverify:\n%s", got, want)
	}
	if !strings.Contains(merged.stdout, "f1_deploy_claude.jsonl · ") || !strings.Contains(merged.stdout, "(none)") {
		t.Errorf("the merged report lists no violating file, or no group of the runs without the field:\n%s", merged.stdout)
	}

	wholeJS := runCLI(t, "", "verify", "--group-by", "prompt", "--format", "json", dir)
	mergedJS := runCLI(t, "", append([]string{"report", "--format", "json"}, files...)...)
	if wholeJS.stdout != mergedJS.stdout {
		t.Errorf("JSON reports differ:\nmerged:\n%.3000s\nverify:\n%.3000s", mergedJS.stdout, wholeJS.stdout)
	}

	wholeMD := runCLI(t, "", "verify", "--group-by", "prompt", "--format", "markdown", dir)
	mergedMD := runCLI(t, "", append([]string{"report", "--format", "markdown"}, files...)...)
	if got, want := from(t, mergedMD.stdout, "## Comparison"), from(t, wholeMD.stdout, "## Comparison"); got != want {
		t.Errorf("Markdown tables differ:\nmerged:\n%s\nverify:\n%s", got, want)
	}
	head := func(s string) string { return s[:strings.Index(s, "\n\n## ")] }
	if got, want := head(mergedMD.stdout), head(wholeMD.stdout); got != want {
		t.Errorf("Markdown summaries differ:\nmerged:\n%s\nverify:\n%s", got, want)
	}

	// Another field than the lines were written with: any meta field.
	byRun := runCLI(t, "", append([]string{"report", "--group-by", "run"}, files...)...)
	wholeRun := runCLI(t, "", "verify", "--group-by", "run", dir)
	if got, want := from(t, byRun.stdout, "8 files"), from(t, wholeRun.stdout, "8 files"); got != want {
		t.Errorf("--group-by run differs:\nmerged:\n%s\nverify:\n%s", got, want)
	}
}

// TestReportCountsAShardRunAgainOnce: the lines of a shard read twice are
// counted once, and the report says so.
func TestReportCountsAShardRunAgainOnce(t *testing.T) {
	dir, paths := batchDir(t)
	files := shardLines(t, [][]string{paths[:4], paths[4:]}, "--group-by", "prompt")
	again := shardLines(t, [][]string{paths[:2]}, "--group-by", "prompt")
	whole := runCLI(t, "", "verify", "--group-by", "prompt", dir)
	r := runCLI(t, "", "report", files[0], files[1], again[0])
	r.expect(t, exitViolation, "2 result line(s) for a file already read")
	if got, want := from(t, r.stdout, "8 files"), from(t, whole.stdout, "8 files"); got != want {
		t.Errorf("a shard run again changed the tables:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(r.stdout, "2 result lines for a file already read") || !strings.Contains(r.stdout, filepath.Base(paths[0])) {
		t.Errorf("the report does not name the files read twice:\n%s", r.stdout)
	}
	js := runCLI(t, "", "report", "--format", "json", files[0], files[1], again[0])
	var rep struct {
		Files      []json.RawMessage `json:"files"`
		Duplicates []string          `json:"duplicates"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 8 || len(rep.Duplicates) != 2 {
		t.Errorf("%d files and duplicates %v, want 8 and the 2 paths read twice", len(rep.Files), rep.Duplicates)
	}
}

// TestReportRejectsWhatIsNotAResultLine: a line that is not a result line
// is named with its file and line, the others are still merged, and the
// exit status is 2.
func TestReportRejectsWhatIsNotAResultLine(t *testing.T) {
	_, paths := batchDir(t)
	files := shardLines(t, [][]string{paths[:3]})
	lines := readFile(t, files[0])
	bad := put(t, filepath.Join(t.TempDir(), "mixed.jsonl"), append(append([]byte(`{"path":"x.jsonl","turns":3}`+"\n"), lines...), "not json\n"...))
	r := runCLI(t, "", "report", bad)
	r.expect(t, exitBadInput, bad+":1: no line_version", bad+":5: not a result line")
	if !strings.Contains(r.stdout, "3 files") {
		t.Errorf("the good lines were not merged:\n%s", r.stdout)
	}
	r = runCLI(t, string(lines), "report", "-", filepath.Join(t.TempDir(), "missing.jsonl"))
	r.expect(t, exitBadInput, "missing.jsonl: no such file or directory")
	r = runCLI(t, "", "report")
	r.expect(t, exitBadInput, "report needs at least one FILE")
}

// TestVerifyJSONLLines: one complete line per file, in completion order or,
// with --ordered, in the files' order whatever the jobs; a file that
// cannot be verified is a line naming it and its error, the others are
// still written, and the exit status is 2.
func TestVerifyJSONLLines(t *testing.T) {
	dir, paths := batchDir(t)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(readFile(t, violateRun))
	zw.Close()
	broken := put(t, filepath.Join(dir, "broken.jsonl.gz"), gz.Bytes()[:gz.Len()/2])

	r := runCLI(t, "", "verify", "--format", "jsonl", "--ordered", "--jobs", "4", dir)
	r.expect(t, exitBadInput, "broken.jsonl.gz")
	type line struct {
		Path    string          `json:"path"`
		Error   string          `json:"error"`
		Verdict string          `json:"verdict"`
		Runtime string          `json:"runtime"`
		Version int             `json:"line_version"`
		Tally   json.RawMessage `json:"tally"`
	}
	var got []line
	for _, l := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		var x line
		if err := json.Unmarshal([]byte(l), &x); err != nil {
			t.Fatalf("not a JSON line: %v\n%s", err, l)
		}
		got = append(got, x)
	}
	if len(got) != len(paths)+1 {
		t.Fatalf("%d lines for %d files:\n%s", len(got), len(paths)+1, r.stdout)
	}
	if got[0].Path != broken || got[0].Error == "" || got[0].Tally != nil {
		t.Errorf("first line %+v, want the broken file and its error", got[0])
	}
	for i, p := range paths {
		g := got[i+1]
		if g.Path != p || g.Verdict == "" || g.Runtime != "loupe" || g.Version != 1 || len(g.Tally) == 0 {
			t.Errorf("line %d: %+v, want %s verified", i+2, g, p)
		}
	}
	// Without --ordered: the same lines, in some order; one job, the same.
	for _, jobs := range []string{"1", "3"} {
		u := runCLI(t, "", "verify", "--format", "jsonl", "--jobs", jobs, dir)
		a := strings.Split(strings.TrimSuffix(u.stdout, "\n"), "\n")
		b := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		sort.Strings(a)
		sort.Strings(b)
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Errorf("--jobs %s without --ordered: other lines than with it", jobs)
		}
	}
	if r := runCLI(t, "", "verify", "--jobs", "0", dir); r.code != exitBadInput || !strings.Contains(r.stderr, "--jobs 0") {
		t.Errorf("--jobs 0: exit %d, %s", r.code, r.stderr)
	}
}

// TestVerifyParallelKeepsTheReport: the text and JSON reports are the same
// whatever the number of jobs.
func TestVerifyParallelKeepsTheReport(t *testing.T) {
	dir, _ := batchDir(t)
	for _, format := range []string{"text", "json"} {
		one := runCLI(t, "", "verify", "--format", format, "--jobs", "1", dir)
		many := runCLI(t, "", "verify", "--format", format, "--jobs", "4", dir)
		if one.stdout != many.stdout || one.code != many.code {
			t.Errorf("--format %s: --jobs 4 gives another report than --jobs 1", format)
		}
	}
}

// TestSubagentsUnderTheirSession: in a Claude Code project, a sub-agent's
// file is reported under its session: counted on the session's
// sub-agents line, listed only when it has a compaction, its header naming
// the session; JSON and result lines keep every file, with parent.
func TestSubagentsUnderTheirSession(t *testing.T) {
	sh, ok := shapes.Lookup("subagent-project")
	if !ok {
		t.Fatal("no subagent-project shape")
	}
	dir := filepath.Join(t.TempDir(), "project")
	if err := sh.WriteDir(dir, 120, shapes.Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	sessions, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	all, _ := filepath.Glob(filepath.Join(dir, "*", "subagents", "agent-*.jsonl"))
	var subs []string
	for _, p := range all {
		if !strings.Contains(p, "agent-acompact") {
			subs = append(subs, p)
		}
	}
	if len(sessions) != 2 || len(subs) != 120 {
		t.Fatalf("%d sessions and %d sub-agents, want 2 and 120", len(sessions), len(subs))
	}
	r := runCLI(t, "", "verify", dir)
	if r.code == exitBadInput {
		t.Fatalf("exit 2: %s", r.stderr)
	}
	if !strings.Contains(r.stdout, "122 files (120 sub-agents under their sessions)") {
		t.Errorf("totals do not count the sub-agents under their sessions:\n%s", from(t, r.stdout, "122 files"))
	}
	if n := strings.Count(r.stdout, "  sub-agents: "); n != 2 {
		t.Errorf("%d sub-agents lines, want one per session", n)
	}
	listed := strings.Count(r.stdout, "· sub-agent of ")
	if listed == 0 || listed >= 120 {
		t.Errorf("%d sub-agents listed: want those with a compaction only", listed)
	}
	for _, p := range subs {
		if strings.Contains(r.stdout, p+" · ") && !strings.Contains(r.stdout, p+" · claude-code 2.1.39 · sub-agent of ") {
			t.Errorf("%s is listed as a transcript of its own", p)
		}
	}
	js := runCLI(t, "", "verify", "--format", "json", dir)
	var rep struct {
		Files []struct {
			Path, Parent string
		}
	}
	if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	parents := 0
	for _, f := range rep.Files {
		if f.Parent != "" {
			parents++
			if want := filepath.Dir(filepath.Dir(filepath.Dir(f.Path))) + "/" + filepath.Base(filepath.Dir(filepath.Dir(f.Path))) + ".jsonl"; f.Parent != want {
				t.Errorf("%s: parent %s, want %s", f.Path, f.Parent, want)
			}
		}
	}
	if len(rep.Files) != 122 || parents != 120 {
		t.Errorf("JSON: %d files, %d with a parent; want 122 and 120", len(rep.Files), parents)
	}
	// JUnit: a suite per session, its sub-agents' compactions as cases
	// of it, and no case for a sub-agent with nothing to report.
	ju := runCLI(t, "", "verify", "--format", "junit", dir)
	var x struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Props []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Class string `xml:"classname,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(ju.stdout), &x); err != nil {
		t.Fatal(err)
	}
	if len(x.Suites) != 2 {
		t.Errorf("JUnit: %d suites, want one per session", len(x.Suites))
	}
	subCases := 0
	for _, su := range x.Suites {
		if len(su.Props) != 1 || su.Props[0].Name != "subagents" || !strings.HasPrefix(su.Props[0].Value, "sub-agents: ") {
			t.Errorf("JUnit suite %s: properties %v, want its sub-agents counted", su.Name, su.Props)
		}
		for _, c := range su.Cases {
			if strings.Contains(c.Class, "/subagents/") {
				subCases++
			}
		}
	}
	if subCases == 0 || subCases >= 120 {
		t.Errorf("JUnit: %d sub-agent cases, want those with a compaction only", subCases)
	}
	// HTML: the listed sub-agents follow their session, marked, and each
	// session's section counts its sub-agents.
	h := runCLI(t, "", "verify", "--format", "html", dir)
	if n := strings.Count(h.stdout, "<section class=\"run\""); n != 2+listed {
		t.Errorf("HTML: %d run sections, want 2 sessions and %d listed sub-agents", n, listed)
	}
	if n := strings.Count(h.stdout, "sub-agents: "); n != 2 {
		t.Errorf("HTML: %d sub-agents lines, want one per session", n)
	}
	if strings.Count(h.stdout, "↳ ") != listed {
		t.Errorf("HTML: %d sub-agent rows marked, want %d", strings.Count(h.stdout, "↳ "), listed)
	}
	// The merged report nests them the same way.
	lines := shardLines(t, [][]string{{dir}})
	m := runCLI(t, "", "report", "--format", "markdown", lines[0])
	md := runCLI(t, "", "verify", "--format", "markdown", dir)
	head := func(s string) string { return s[:strings.Index(s, "\n\n## ")] }
	if head(m.stdout) != head(md.stdout) || !strings.Contains(m.stdout, "| ↳ ") {
		t.Errorf("merged Markdown summary:\n%s\nverify's:\n%s", head(m.stdout), head(md.stdout))
	}
	// A sub-agents directory alone: its files are their own.
	alone := runCLI(t, "", "verify", filepath.Dir(subs[0]))
	if strings.Contains(alone.stdout, "sub-agent of") || strings.Contains(alone.stdout, "under their sessions") {
		t.Errorf("sub-agents without their session are put under it:\n%.2000s", alone.stdout)
	}
}

// TestResultLinesKeepTranscriptTextInert: a meta value with an escape
// sequence and a bidi control reaches the result line escaped, and the
// merged text and Markdown reports sanitized, as verify's own.
func TestResultLinesKeepTranscriptTextInert(t *testing.T) {
	dir := t.TempDir()
	a := withMeta(t, filepath.Join(dir, "a.jsonl"), violateRun, `"prompt":"v1\u001b]0;pwned\u0007\u202e"`)
	r := runCLI(t, "", "verify", "--format", "jsonl", "--group-by", "prompt", a)
	if strings.ContainsAny(r.stdout, "\x1b\x07\u202e") || !strings.Contains(r.stdout, `\u001b]0;pwned\u0007\u202e`) {
		t.Errorf("the result line carries raw controls:\n%q", r.stdout)
	}
	lines := put(t, filepath.Join(dir, "lines.jsonl"), []byte(r.stdout))
	for _, format := range []string{"text", "markdown"} {
		m := runCLI(t, "", "report", "--format", format, lines)
		if strings.ContainsAny(m.stdout, "\x1b\x07\u202e") || !strings.Contains(m.stdout, "pwned") {
			t.Errorf("report --format %s lets controls through:\n%q", format, m.stdout)
		}
	}
}
