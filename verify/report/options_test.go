package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

// variants are two runs of one task with two compaction prompts: v1's
// summary drops a commitment (violates), v2's keeps everything (degrades);
// a third run says nothing of its prompt.
func variants(t *testing.T) []*verify.Result {
	res := corpusResults(t, "f1_deploy_claude", "paraphrase_gemini", "synonyms")
	res[0].Transcript.Meta.Extra = map[string]string{"prompt": "v1"}
	res[1].Transcript.Meta.Extra = map[string]string{"prompt": "v2"}
	return res
}

func write(t *testing.T, rep *Report, format string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := rep.Write(&buf, format, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGroupsMean(t *testing.T) {
	a := corpusResults(t, "f1_deploy_claude", "synonyms")
	for _, r := range a {
		r.Transcript.Meta.Extra = map[string]string{"prompt": "same"}
	}
	var losses []float64
	for _, r := range a {
		for _, c := range r.Compactions {
			losses = append(losses, c.LossRatio)
		}
	}
	sum := 0.0
	for _, l := range losses {
		sum += l
	}
	g := Groups(a, "prompt")
	if len(g) != 1 || g[0].Compactions != len(losses) || g[0].Files != 2 || len(g[0].Results) != 2 {
		t.Fatalf("groups: %+v", g)
	}
	if g[0].MeanLoss != sum/float64(len(losses)) {
		t.Errorf("mean loss %v, want %v", g[0].MeanLoss, sum/float64(len(losses)))
	}
	// A run whose value is "(none)" is not the group of the runs without
	// the field.
	a[1].Transcript.Meta.Extra = map[string]string{"prompt": "(none)"}
	a[0].Transcript.Meta.Extra = nil
	if g := Groups(a, "prompt"); len(g) != 2 || !g[0].Missing || g[1].Missing || g[0].Violations != 1 {
		t.Errorf("groups: %+v", g)
	}
}

func TestJSONGroups(t *testing.T) {
	rep := &Report{Results: variants(t), GroupBy: "prompt"}
	var doc struct {
		Files []struct {
			Meta map[string]string `json:"meta"`
		} `json:"files"`
		GroupBy string `json:"group_by"`
		Groups  []struct {
			Value       *string  `json:"value"`
			Runs        int      `json:"runs"`
			Compactions int      `json:"compactions"`
			Violations  int      `json:"violations"`
			ViolateRate *float64 `json:"violate_rate"`
			MeanLoss    *float64 `json:"mean_loss_ratio"`
			MedianLoss  *float64 `json:"median_loss_ratio"`
			Kinds       map[string]struct {
				Items    int      `json:"items"`
				Lost     int      `json:"lost"`
				DropRate *float64 `json:"drop_rate"`
			} `json:"kinds"`
		} `json:"groups"`
	}
	out := write(t, rep, "json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.GroupBy != "prompt" || len(doc.Groups) != 3 {
		t.Fatalf("group_by %q, %d groups:\n%s", doc.GroupBy, len(doc.Groups), out)
	}
	v1, v2, none := doc.Groups[1], doc.Groups[2], doc.Groups[0] // "(none)" sorts first, as in the text table
	if v1.Value == nil || *v1.Value != "v1" || v2.Value == nil || *v2.Value != "v2" || none.Value != nil {
		t.Fatalf("values: %v %v %v", v1.Value, v2.Value, none.Value)
	}
	if v1.Runs != 1 || v1.Compactions != 1 || v1.Violations != 1 || *v1.ViolateRate != 1 || *v2.ViolateRate != 0 {
		t.Errorf("v1 %+v v2 %+v", v1, v2)
	}
	c := v1.Kinds["commitment"]
	if c.Items == 0 || c.Lost == 0 || c.DropRate == nil || *c.DropRate != round4(float64(c.Lost)/float64(c.Items)) {
		t.Errorf("v1 commitments: %+v", c)
	}
	if h := v1.Kinds["handle"]; h.Items != 0 || h.DropRate != nil {
		t.Errorf("v1 has no handle, yet %+v", h)
	}
	loss := rep.Results[0].Compactions[0].LossRatio
	if *v1.MeanLoss != round4(loss) || *v1.MedianLoss != round4(loss) {
		t.Errorf("v1 loss: mean %v median %v, want %v", *v1.MeanLoss, *v1.MedianLoss, loss)
	}
	// files[].meta carries every field --group-by can group on.
	m := doc.Files[0].Meta
	if m["prompt"] != "v1" || m["format"] != "loupe/v1" || m["run"] != "f1_deploy_claude" || m["agent"] != "corpus" {
		t.Errorf("meta %v", m)
	}
	// Without --group-by there is no groups key.
	if out := write(t, &Report{Results: variants(t)}, "json"); strings.Contains(out, `"groups"`) || strings.Contains(out, `"group_by"`) {
		t.Error("groups without --group-by")
	}
}

func TestMarkdownAndJUnitGroups(t *testing.T) {
	rep := &Report{Results: variants(t), GroupBy: "prompt"}
	md := write(t, rep, "markdown")
	for _, want := range []string{"# Comparison by `prompt`",
		"| prompt | runs | compactions | violate | commitment lost | handle lost | error lost | identifier lost | constraint lost | mean loss | median loss |",
		"| v1 | 1 | 1 | 100% (1) |", "| v2 | 1 | 1 | 0% (0) |", "| *(none)* | 1 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	var suites junitSuites
	if err := xml.Unmarshal([]byte(write(t, rep, "junit")), &suites); err != nil {
		t.Fatal(err)
	}
	if len(suites.Suites) != 3 || suites.Suites[1].Name != "prompt=v1" || suites.Suites[2].Name != "prompt=v2" || suites.Suites[0].Name != "prompt=(none)" {
		t.Fatalf("suites: %+v", suites.Suites)
	}
	v1 := suites.Suites[1]
	props := map[string]string{}
	for _, p := range v1.Properties.List {
		props[p.Name] = p.Value
	}
	if props["group_by"] != "prompt" || props["value"] != "v1" || props["runs"] != "1" || props["violate_rate"] != "1" || props["commitment_drop_rate"] == "" || props["mean_loss_ratio"] == "" {
		t.Errorf("v1 properties: %v", props)
	}
	if _, ok := props["handle_drop_rate"]; ok {
		t.Error("a drop rate for a kind v1 has no item of")
	}
	if v1.Failures != 2 || v1.Cases[0].Class != rep.Results[0].Path {
		t.Errorf("v1 suite: %+v", v1)
	}
	tests := 0
	for _, r := range rep.Results {
		tests += len(r.Compactions) + len(r.Findings)
	}
	if suites.Tests != tests || suites.Failures != 2 {
		t.Errorf("%d tests, %d failures; want %d, 2", suites.Tests, suites.Failures, tests)
	}
}

// TestOnlyViolations: every format leaves out what degrades and the runs
// with nothing to report, and keeps the counts of everything verified.
func TestOnlyViolations(t *testing.T) {
	res := corpusResults(t, "f1_deploy_claude", "paraphrase_gemini")
	degrading := res[1].Path
	q := &Report{Results: res, OnlyViolations: true}

	text := write(t, q, "text")
	if strings.Contains(text, degrading) || strings.Contains(text, "✓ degrade") || !strings.Contains(text, "✗ violate") {
		t.Errorf("text:\n%s", text)
	}
	if !strings.Contains(text, "2 files · 2 compactions · 1 violate") {
		t.Errorf("the totals do not count everything verified:\n%s", text)
	}
	md := write(t, q, "markdown")
	if strings.Contains(md, degrading) || strings.Contains(md, "✓ degrade") || !strings.Contains(md, "✗ violate") {
		t.Errorf("markdown:\n%s", md)
	}
	var doc JSONReport
	if err := json.Unmarshal([]byte(write(t, q, "json")), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 1 || doc.Files[0].Path != res[0].Path || len(doc.Files[0].Compactions) != 1 {
		t.Errorf("json: %+v", doc.Files)
	}
	var suites junitSuites
	if err := xml.Unmarshal([]byte(write(t, q, "junit")), &suites); err != nil {
		t.Fatal(err)
	}
	if len(suites.Suites) != 1 || suites.Tests != 2 || suites.Failures != 2 {
		t.Errorf("junit: %d suites, %d tests, %d failures", len(suites.Suites), suites.Tests, suites.Failures)
	}

	// A run with several compactions keeps only the violating ones.
	mixed := corpusResults(t, "flip_second")
	viol := mixed[0].Violations()
	if viol == 0 || viol == len(mixed[0].Compactions) {
		t.Fatalf("flip_second has %d of %d compactions violating: not a mixed run", viol, len(mixed[0].Compactions))
	}
	if err := json.Unmarshal([]byte(write(t, &Report{Results: mixed, OnlyViolations: true}, "json")), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files[0].Compactions) != viol {
		t.Errorf("%d compactions kept, want the %d that violate", len(doc.Files[0].Compactions), viol)
	}
}

// TestUnverifiedFilesAreListed: a file that could not be verified is in
// every format, with its error, so a dashboard cannot miss it.
func TestUnverifiedFilesAreListed(t *testing.T) {
	rep := &Report{Results: corpusResults(t, "paraphrase_gemini"),
		Unverified: []Unverified{{Path: "runs/broken.jsonl.gz", Error: "cannot be read: gzip: invalid checksum"}}}

	text := write(t, rep, "text")
	if !strings.Contains(text, "runs/broken.jsonl.gz · not verified: cannot be read: gzip: invalid checksum") ||
		!strings.Contains(text, "1 file · 1 compaction · 0 violate · 1 not verified") {
		t.Errorf("text:\n%s", text)
	}
	md := write(t, rep, "markdown")
	if !strings.Contains(md, "# Not verified\n\n- `runs/broken.jsonl.gz`: cannot be read: gzip: invalid checksum\n") {
		t.Errorf("markdown:\n%s", md)
	}

	out := write(t, rep, "json")
	var raw struct {
		Files []map[string]any `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Files) != 2 {
		t.Fatalf("%d files:\n%s", len(raw.Files), out)
	}
	bad := raw.Files[1]
	if len(bad) != 2 || bad["path"] != "runs/broken.jsonl.gz" || bad["error"] != "cannot be read: gzip: invalid checksum" {
		t.Errorf("the unverified entry is %v, want only its path and error", bad)
	}
	if _, ok := raw.Files[0]["error"]; ok {
		t.Error("a verified file has an error")
	}

	var suites junitSuites
	if err := xml.Unmarshal([]byte(write(t, rep, "junit")), &suites); err != nil {
		t.Fatal(err)
	}
	last := suites.Suites[len(suites.Suites)-1]
	if suites.Errors != 1 || last.Errors != 1 || last.Tests != 1 || last.Name != "runs/broken.jsonl.gz" ||
		last.Cases[0].Error == nil || last.Cases[0].Error.Message != "cannot be read: gzip: invalid checksum" {
		t.Errorf("junit: %+v", suites)
	}
	// Only-violations still lists them: they are a problem, not a pass.
	rep.OnlyViolations = true
	for _, f := range []string{"text", "markdown", "json", "junit"} {
		if !strings.Contains(write(t, rep, f), "runs/broken.jsonl.gz") {
			t.Errorf("%s with only-violations drops the unverified file", f)
		}
	}
}

// TestReportsUnchangedWithoutOptions: the writers of a plain list of
// results still write what they wrote before the options existed: no
// errors attribute, no properties, no groups.
func TestReportsUnchangedWithoutOptions(t *testing.T) {
	res := corpusResults(t, "f1_deploy_claude", "paraphrase_gemini")
	var ju bytes.Buffer
	if err := WriteJUnit(&ju, res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ju.String(), "errors=") || strings.Contains(ju.String(), "<properties") {
		t.Errorf("junit:\n%s", ju.String())
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, res); err != nil {
		t.Fatal(err)
	}
	// Two runs are one document (issue 22): a summary table on top, a
	// section per run, no "---" between separate documents.
	out := md.String()
	if strings.Contains(out, "\n---\n") || !strings.HasPrefix(out, "# loupe report\n") || strings.Count(out, "\n## `") != 2 ||
		!strings.Contains(out, "| file | runtime | compactions | violate | false completions | verdict |") || strings.Contains(out, "Not verified") {
		t.Errorf("markdown:\n%s", out)
	}
}
