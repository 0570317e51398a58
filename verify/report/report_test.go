package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

func corpusResults(t *testing.T, names ...string) []*verify.Result {
	t.Helper()
	var out []*verify.Result
	for _, n := range names {
		tr, err := model.Open(filepath.Join("..", "testdata", "corpus", n+".jsonl"), model.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, verify.Run(tr, verify.Options{}))
	}
	return out
}

// TestJSONContract checks the report against the contract documented in the
// README: every documented key present with its type, lists never null.
func TestJSONContract(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, corpusResults(t, "f1_deploy_claude", "handles_prefix_openhands", "resurrect_opencode")); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	type spec map[string]string // key -> "string", "number", "bool", "list", "object", "object|null", "number|null"
	check := func(where string, obj map[string]any, s spec) {
		t.Helper()
		for k, want := range s {
			v, ok := obj[k]
			if !ok {
				t.Errorf("%s: key %q missing", where, k)
				continue
			}
			got := "null"
			switch v.(type) {
			case string:
				got = "string"
			case float64:
				got = "number"
			case bool:
				got = "bool"
			case []any:
				got = "list"
			case map[string]any:
				got = "object"
			}
			if !strings.Contains(want, got) {
				t.Errorf("%s.%s is %s, want %s", where, k, got, want)
			}
		}
	}
	check("report", doc, spec{"version": "number", "verdict": "string", "files": "list"})
	if doc["version"] != float64(ReportVersion) || doc["verdict"] != "violate" {
		t.Errorf("version %v, verdict %v: want %d and violate (f1_deploy_claude violates)", doc["version"], doc["verdict"], ReportVersion)
	}
	files := doc["files"].([]any)
	if len(files) != 3 {
		t.Fatalf("%d files", len(files))
	}
	sawEvidence, sawFinding := false, false
	for _, f := range files {
		fm := f.(map[string]any)
		check("file", fm, spec{"path": "string", "format": "string", "runtime": "string", "verdict": "string", "turns": "number", "compactions": "list", "findings": "list", "lineage": "list", "warnings": "list"})
		if fm["format"] != model.Format || fm["runtime"] != "loupe" {
			t.Errorf("%v: format %v runtime %v, want loupe/v1 and loupe (a file in loupe's own format)", fm["path"], fm["format"], fm["runtime"])
		}
		fileViolates := false
		for _, c := range fm["compactions"].([]any) {
			cm := c.(map[string]any)
			fileViolates = fileViolates || cm["verdict"] == "violate"
			check("compaction", cm, spec{"seq": "number", "turn": "number", "verdict": "string", "loss_ratio": "number",
				"loss_ratio_tokens": "number", "source_bytes": "number", "summary_bytes": "number", "unverifiable": "bool",
				"attested": "bool", "reasons": "list", "items": "list", "unsourced_claims": "list", "consumers": "list", "warnings": "list",
				"review": "number"})
			if v := cm["verdict"]; v != "degrade" && v != "violate" {
				t.Errorf("verdict %v", v)
			}
			for _, it := range cm["items"].([]any) {
				im := it.(map[string]any)
				if _, full := im["id"]; !full {
					// A reference to the item's full entry in an earlier compaction.
					check("item reference", im, spec{"ref": "number", "kind": "string", "key": "string", "turn": "number",
						"status": "string", "score": "number", "self_report": "string|null"})
					continue
				}
				check("item", im, spec{"ref": "number", "id": "string", "kind": "string", "key": "string", "text": "string", "turn": "number",
					"origin": "string", "open": "bool", "status": "string", "score": "number", "evidence": "object|null",
					"self_report": "string|null", "why": "string", "basis": "string", "cue": "string"})
				switch im["basis"] {
				case "recorded", "stated", "inferred":
				default:
					t.Errorf("item basis %v", im["basis"])
				}
				if im["cue"] == "" {
					t.Errorf("item %v has no cue", im["id"])
				}
				if e, ok := im["evidence"].(map[string]any); ok {
					sawEvidence = true
					check("evidence", e, spec{"start": "number", "end": "number", "text": "string", "polarity": "string"})
				}
			}
			for _, cs := range cm["consumers"].([]any) {
				check("consumer", cs.(map[string]any), spec{"name": "string", "requires": "list", "allowed": "bool", "why": "list"})
			}
		}
		if want := map[bool]string{true: "violate", false: "degrade"}[fileViolates]; fm["verdict"] != want {
			t.Errorf("%v: verdict %v, want %s", fm["path"], fm["verdict"], want)
		}
		for _, fd := range fm["findings"].([]any) {
			sawFinding = true
			check("finding", fd.(map[string]any), spec{"kind": "string", "turn": "number", "item": "string", "lost_at": "number|null", "origin_turn": "number", "text": "string", "why": "string"})
		}
		for _, lg := range fm["lineage"].([]any) {
			check("lineage", lg.(map[string]any), spec{"id": "string", "kind": "string", "key": "string", "turn": "number", "steps": "list", "first_loss": "number|null", "closed_turn": "number|null"})
		}
	}
	if !sawEvidence || !sawFinding {
		t.Errorf("the sample should exercise evidence (%v) and findings (%v)", sawEvidence, sawFinding)
	}
}

func TestMarkdownAndJUnit(t *testing.T) {
	res := corpusResults(t, "f1_deploy_claude")
	var md bytes.Buffer
	if err := WriteMarkdown(&md, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Timeline", "✗ violate", "## Findings", "**False completion** at turn 19", "## Lost items", "switch the DNS record", "consumer `planner`"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var ju bytes.Buffer
	if err := WriteJUnit(&ju, res); err != nil {
		t.Fatal(err)
	}
	var suites junitSuites
	if err := xml.Unmarshal(ju.Bytes(), &suites); err != nil {
		t.Fatalf("junit is not XML: %v", err)
	}
	if suites.Tests != 2 || suites.Failures != 2 || suites.Suites[0].Cases[0].Failure == nil {
		t.Errorf("junit: %d tests %d failures", suites.Tests, suites.Failures)
	}
}

func TestTextReportIsSanitized(t *testing.T) {
	tr := &model.Transcript{Path: "evil\x1b]0;pwned\x07.jsonl"}
	tr.Events = []model.Event{
		&model.Message{Base: model.Base{Turn: 1, Index: 0}, Role: model.RoleAssistant, Text: "I'll fix the \x1b[2J\x1b[31mbuild\x1b[0m after review."},
		&model.Compaction{Base: model.Base{Turn: 2, Index: 1}, Seq: 1, Summary: "nothing"},
	}
	tr.Compactions = []*model.Compaction{tr.Events[1].(*model.Compaction)}
	var buf bytes.Buffer
	if err := WriteText(&buf, []*verify.Result{verify.Run(tr, verify.Options{})}, TextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(buf.String(), "\x1b\x07") {
		t.Errorf("control bytes reached the report: %q", buf.String())
	}
}

func TestGroups(t *testing.T) {
	a := corpusResults(t, "f1_deploy_claude", "paraphrase_gemini")
	a[0].Transcript.Meta.Extra = map[string]string{"prompt": "v1"}
	a[1].Transcript.Meta.Extra = map[string]string{"prompt": "v2"}
	gs := Groups(a, "prompt")
	if len(gs) != 2 || gs[0].Value != "v1" || gs[0].Violations != 1 || gs[1].Violations != 0 {
		t.Errorf("groups: %+v", gs)
	}
	var buf bytes.Buffer
	if err := WriteGroups(&buf, a, "prompt"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "commitment lost") || !strings.Contains(buf.String(), "v2") {
		t.Errorf("table:\n%s", buf.String())
	}
}

// TestReportIsDeterministic: the same transcript gives the same report,
// byte for byte, even when a summary says the same sentence twice.
func TestReportIsDeterministic(t *testing.T) {
	var first string
	for i := 0; i < 5; i++ {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, corpusResults(t, "f1_deploy_claude", "synonyms", "openhands_tasks")); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.String()
		} else if buf.String() != first {
			t.Fatal("two runs gave different reports")
		}
	}
}

// A compaction with nothing open, and a run without a compaction, say so in
// every format rather than showing a bare zero.
func TestNothingOpenIsSaid(t *testing.T) {
	run := func(events ...model.Event) *verify.Result {
		tr := &model.Transcript{Path: "r.jsonl"}
		for i, e := range events {
			e.Header().Index = i
			tr.Events = append(tr.Events, e)
			if c, ok := e.(*model.Compaction); ok {
				tr.Compactions = append(tr.Compactions, c)
			}
		}
		return verify.Run(tr, verify.Options{})
	}
	empty := run(&model.Message{Base: model.Base{Turn: 1}, Role: model.RoleUser, Text: "hello"},
		&model.Compaction{Base: model.Base{Turn: 2}, Seq: 1, Summary: "The user said hello."})
	none := run(&model.Message{Base: model.Base{Turn: 1}, Role: model.RoleUser, Text: "hello"})
	writers := map[string]func(*bytes.Buffer, []*verify.Result) error{
		"text":     func(b *bytes.Buffer, r []*verify.Result) error { return WriteText(b, r, TextOptions{}) },
		"markdown": func(b *bytes.Buffer, r []*verify.Result) error { return WriteMarkdown(b, r) },
		"junit":    func(b *bytes.Buffer, r []*verify.Result) error { return WriteJUnit(b, r) },
		"json":     func(b *bytes.Buffer, r []*verify.Result) error { return WriteJSON(b, r) },
	}
	for name, w := range writers {
		for _, c := range []struct {
			res  *verify.Result
			want string
		}{{empty, "nothing was open: nothing to keep"}, {none, "no compaction in this run"}} {
			var b bytes.Buffer
			if err := w(&b, []*verify.Result{c.res}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.ToLower(b.String()), c.want) {
				t.Errorf("%s report lacks %q:\n%s", name, c.want, b.String())
			}
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, []*verify.Result{empty}, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "1 compactions") || strings.Contains(b.String(), "0 items") {
		t.Errorf("text report:\n%s", b.String())
	}
}
