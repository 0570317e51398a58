package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	degradeRun = "verify/testdata/corpus/paraphrase_gemini.jsonl"
	violateRun = "verify/testdata/corpus/f1_deploy_claude.jsonl"
)

func TestVerifyExitCodes(t *testing.T) {
	runCLI(t, "", "verify", degradeRun).expect(t, exitOK)
	runCLI(t, "", "verify", violateRun).expect(t, exitViolation)
	runCLI(t, "", "verify", degradeRun, violateRun).expect(t, exitViolation)
	runCLI(t, "", "verify").expect(t, exitBadInput, "at least one PATH", hint("verify"))
	runCLI(t, "", "verify", "--format", "yaml", degradeRun).expect(t, exitBadInput, `unknown --format "yaml"`)
	runCLI(t, "", "verify", "no/such/file.jsonl").expect(t, exitBadInput, "no/such/file.jsonl")
	runCLI(t, "", "verify", "--consumer", "planner=commitment,wishes", degradeRun).expect(t, exitBadInput, `unknown item kind "wishes"`)
}

func TestVerifyBrokenLineNeedsLenient(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(degradeRun)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	broken := strings.Join(lines[:2], "") + "{\"type\":\"message\",\"turn\":\n" + strings.Join(lines[2:], "")
	path := filepath.Join(dir, "broken.jsonl")
	if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "", "verify", path).expect(t, exitBadInput, "broken.jsonl:3", "--lenient")
	runCLI(t, "", "verify", "--lenient", path).expect(t, exitOK)

	// A truncated last line (the writer crashed) is only a warning.
	truncated := strings.TrimSuffix(string(src), "\n") + "\n{\"type\":\"message\",\"tu"
	path = filepath.Join(dir, "truncated.jsonl")
	if err := os.WriteFile(path, []byte(truncated), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "verify", path)
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, "truncated last line") {
		t.Errorf("the warning is not in the report:\n%s", r.stdout)
	}
}

func TestVerifyStdinAndFormats(t *testing.T) {
	src, err := os.ReadFile(violateRun)
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, string(src), "verify", "--format", "json", "-")
	r.expect(t, exitViolation)
	var rep struct {
		Files []struct {
			Path        string `json:"path"`
			Compactions []struct {
				Verdict string `json:"verdict"`
			} `json:"compactions"`
			Findings []struct {
				Kind string `json:"kind"`
				Turn int    `json:"turn"`
			} `json:"findings"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if len(rep.Files) != 1 || rep.Files[0].Compactions[0].Verdict != "violate" || len(rep.Files[0].Findings) != 1 || rep.Files[0].Findings[0].Turn != 19 {
		t.Errorf("report: %+v", rep)
	}
	md := runCLI(t, "", "verify", "--format", "markdown", violateRun)
	if !strings.Contains(md.stdout, "# loupe report") || !strings.Contains(md.stdout, "False completion") {
		t.Errorf("markdown:\n%s", md.stdout)
	}
	ju := runCLI(t, "", "verify", "--format", "junit", violateRun)
	if err := xml.Unmarshal([]byte(ju.stdout), new(struct{})); err != nil {
		t.Errorf("junit is not XML: %v", err)
	}
	text := runCLI(t, "", "verify", violateRun)
	if strings.Contains(text.stdout, "\x1b[") {
		t.Errorf("colour on a non-terminal:\n%q", text.stdout)
	}
	for _, want := range []string{"✗ violate", "commitment dropped: switch the DNS record", "false_completion"} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, text.stdout)
		}
	}
}

func TestVerifyConsumerFlag(t *testing.T) {
	// A router that declares it needs commitments is refused too.
	r := runCLI(t, "", "verify", "--format", "json", "--consumer", "router=commitment", violateRun)
	if !strings.Contains(r.stdout, `"name": "router"`) {
		t.Fatal(r.stdout)
	}
	var rep struct {
		Files []struct {
			Compactions []struct {
				Consumers []struct {
					Name    string `json:"name"`
					Allowed bool   `json:"allowed"`
				} `json:"consumers"`
			} `json:"compactions"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Files[0].Compactions[0].Consumers {
		if c.Name == "router" && c.Allowed {
			t.Error("router=commitment is allowed a summary that dropped a commitment")
		}
	}
}

func TestVerifyDirectoryAndGroupBy(t *testing.T) {
	dir := t.TempDir()
	for name, meta := range map[string]string{"a.jsonl": "v1", "b.jsonl": "v2"} {
		src, err := os.ReadFile(map[string]string{"a.jsonl": violateRun, "b.jsonl": degradeRun}[name])
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(src), "\n", 2)
		withVariant := strings.TrimSuffix(lines[0], "}") + `,"prompt":"` + meta + `"}` + "\n" + lines[1]
		if err := os.WriteFile(filepath.Join(dir, name), []byte(withVariant), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a transcript\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "verify", "--group-by", "prompt", dir)
	r.expect(t, exitViolation)
	for _, want := range []string{"2 files", "prompt", "v1", "v2", "commitment lost"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "notes.txt") {
		t.Errorf("a non-transcript was verified:\n%s", r.stdout)
	}
}

// TestVerifyStrict: a run whose only loss is inferred (a hypothetical
// promise, a one-off request) degrades and lists it for review; --strict,
// or a consumer marked strict in the meta line, counts it; rehydrate puts
// it back only with --strict.
func TestVerifyStrict(t *testing.T) {
	dir := t.TempDir()
	write := func(name, meta string) string {
		src := meta + "\n" +
			`{"type":"message","turn":1,"role":"user","text":"Make sure to add a changelog entry for the header fix."}` + "\n" +
			`{"type":"message","turn":2,"role":"assistant","text":"If the cache is still stale, we'll need to rebuild the CDN manifest."}` + "\n" +
			`{"type":"compaction","turn":3,"seq":1,"trigger":"token_budget","summary":"Fixed the header."}` + "\n"
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	plain := write("review.jsonl", `{"type":"meta","format":"loupe/v1"}`)
	r := runCLI(t, "", "verify", plain)
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, "2 review (1 commitment, 1 constraint)") || !strings.Contains(r.stdout, "review (not counted): constraint dropped") {
		t.Errorf("the review items are not listed:\n%s", r.stdout)
	}
	runCLI(t, "", "verify", "--strict", plain).expect(t, exitViolation)
	strictMeta := write("strict.jsonl", `{"type":"meta","format":"loupe/v1","consumers":[{"name":"planner","requires":["commitment","constraint"],"strict":true}]}`)
	r = runCLI(t, "", "verify", strictMeta)
	r.expect(t, exitViolation)
	if !strings.Contains(r.stdout, "consumer planner refused") {
		t.Errorf("the strict planner is not refused:\n%s", r.stdout)
	}
	if r := runCLI(t, "", "rehydrate", plain); strings.Contains(r.stdout, "manifest") {
		t.Errorf("rehydrate put a review item back:\n%s", r.stdout)
	}
	if r := runCLI(t, "", "rehydrate", "--strict", plain); !strings.Contains(r.stdout, "manifest") {
		t.Errorf("rehydrate --strict left the inferred promise out:\n%s", r.stdout)
	}
}

// --decide recorded lets only what the runtime recorded violate: a stated
// promise the summary dropped is listed for review and not put back, while
// a pending plan step still violates. --decide with an unknown basis is a
// usage error.
func TestVerifyDecideRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	src := `{"type":"meta","format":"loupe/v1"}` + "\n" +
		`{"type":"message","turn":1,"role":"assistant","text":"I'll re-run the migration after the schema diff is reviewed."}` + "\n" +
		`{"type":"compaction","turn":2,"seq":1,"trigger":"token_budget","summary":"Fixed the header."}` + "\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "", "verify", path).expect(t, exitViolation)
	r := runCLI(t, "", "verify", "--decide", "recorded", path)
	r.expect(t, exitOK)
	if !strings.Contains(r.stdout, "review (not counted): commitment dropped") {
		t.Errorf("the stated promise is not listed for review:\n%s", r.stdout)
	}
	if r := runCLI(t, "", "rehydrate", "--decide", "recorded", path); strings.Contains(r.stdout, "migration") {
		t.Errorf("rehydrate --decide recorded put a stated promise back:\n%s", r.stdout)
	}
	plan := `{"type":"plan","turn":1,"items":[{"id":"1","text":"Re-run the migration","status":"pending"}]}`
	if err := os.WriteFile(path, []byte(strings.Replace(src, `{"type":"message"`, plan+"\n"+`{"type":"message"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "", "verify", "--decide", "recorded", path).expect(t, exitViolation)
	if r := runCLI(t, "", "verify", "--decide", "sure", path); r.code != exitBadInput || !strings.Contains(r.stderr, "--decide") {
		t.Errorf("--decide sure: exit %d, stderr %q", r.code, r.stderr)
	}
}

// A file that shrinks or is replaced while verify reads it (here, between
// the read and the check after it, where a lazily read text would see it)
// exits 2 with a message naming it, never a verdict on what was read.
func TestVerifyFileChangedWhileRead(t *testing.T) {
	src := "model/claudecode/testdata/synthetic/pending_tool_use_at_boundary.jsonl"
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(path string){
		"truncated": func(path string) { os.Truncate(path, int64(len(orig)/2)) },
		"replaced": func(path string) {
			os.WriteFile(path+".new", orig, 0o600)
			os.Rename(path+".new", path)
		},
		"rewritten": func(path string) {
			b := []byte(strings.Replace(string(orig), "Check both files.", "Check both FILES.", 1))
			os.WriteFile(path, b, 0o600)
			os.Chtimes(path, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "session.jsonl")
			os.WriteFile(path, orig, 0o600)
			verifyReadHook = change
			defer func() { verifyReadHook = nil }()
			r := runCLI(t, "", "verify", path)
			r.expect(t, exitBadInput, path, "changed while it was read")
		})
	}
	// Standard input is a stream: nothing to look at again.
	verifyReadHook = func(string) {}
	defer func() { verifyReadHook = nil }()
	runCLI(t, string(orig), "verify", "-").expect(t, exitViolation)
}
