package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
)

// result is what one run of the command line produced.
type result struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

func (r result) expect(t *testing.T, code int, stderrHas ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range stderrHas {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr does not say %q:\n%s", s, r.stderr)
		}
	}
}

const usageHint = "Run 'loupe --help' for usage."

// hint is the line that follows a usage error in a command: it points to
// that command's help.
func hint(cmd string) string { return "Run 'loupe " + cmd + " --help' for usage." }

// tinyJSONL is a small loupe transcript in the writer's canonical form.
const tinyJSONL = "model/testdata/tiny.jsonl"

func readJSONL(t *testing.T, s string) *model.Transcript {
	t.Helper()
	tr, err := model.Read(strings.NewReader(s), model.ReadOptions{Name: "stdout"})
	if err != nil {
		t.Fatal(err)
	}
	if errs := tr.Problems.Errors(); len(errs) > 0 {
		t.Fatalf("output has errors: %v", errs)
	}
	return tr
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "-help", "help"} {
		r := runCLI(t, "", arg)
		r.expect(t, exitOK)
		for _, s := range []string{"Usage:", "loupe verify", "loupe convert", "loupe sample"} {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%s: help does not mention %q", arg, s)
			}
		}
		if r.stderr != "" {
			t.Errorf("%s: stderr %q", arg, r.stderr)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "-version", "version"} {
		r := runCLI(t, "", arg)
		r.expect(t, exitOK)
		if !strings.HasPrefix(r.stdout, "loupe ") || !strings.HasSuffix(r.stdout, "\n") || strings.Count(r.stdout, "\n") != 1 {
			t.Errorf("%s: %q, want one line \"loupe VERSION\"", arg, r.stdout)
		}
	}
	saved := version
	version = "v1.2.3"
	defer func() { version = saved }()
	if r := runCLI(t, "", "--version"); r.stdout != "loupe v1.2.3\n" {
		t.Errorf("with -ldflags version: %q", r.stdout)
	}
}

func TestSampleList(t *testing.T) {
	r := runCLI(t, "", "sample")
	r.expect(t, exitOK)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	all := sampledata.All()
	if len(lines) != len(all) {
		t.Fatalf("%d lines for %d samples:\n%s", len(lines), len(all), r.stdout)
	}
	for i, s := range all {
		if f := strings.Fields(lines[i]); len(f) < 2 || f[0] != s.Name {
			t.Errorf("line %q does not start with the name %q and a description", lines[i], s.Name)
		}
	}
	for _, want := range []string{"migration", "clean", "tiny"} {
		if !strings.Contains(r.stdout, want+" ") {
			t.Errorf("sample list lacks %s", want)
		}
	}
}

func TestSampleOne(t *testing.T) {
	r := runCLI(t, "", "sample", "tiny")
	r.expect(t, exitOK)
	tr := readJSONL(t, r.stdout)
	if tr.Meta.Format != model.Format || len(tr.Events) == 0 {
		t.Errorf("sample tiny: meta %+v, %d events", tr.Meta, len(tr.Events))
	}
	// The output is what sampledata embeds, uncompressed.
	f, err := sampledata.Open("tiny")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, _ := io.ReadAll(f)
	if r.stdout != string(want) {
		t.Error("sample tiny differs from the embedded sample")
	}
}

func TestSampleErrors(t *testing.T) {
	r := runCLI(t, "", "sample", "nope")
	r.expect(t, exitBadInput, `no sample named "nope"`, hint("sample"))
	for _, s := range sampledata.All() {
		if !strings.Contains(r.stderr, s.Name) {
			t.Errorf("the message does not name the sample %s:\n%s", s.Name, r.stderr)
		}
	}
	if r.stdout != "" {
		t.Errorf("stdout %q", r.stdout)
	}
	runCLI(t, "", "sample", "tiny", "clean").expect(t, exitBadInput, "at most one NAME", hint("sample"))
}

func TestConvertFile(t *testing.T) {
	want, err := os.ReadFile(tinyJSONL)
	if err != nil {
		t.Fatal(err)
	}
	// The testdata file is already in the writer's canonical form, so
	// converting it changes nothing.
	r := runCLI(t, "", "convert", tinyJSONL)
	r.expect(t, exitOK)
	if r.stdout != string(want) {
		t.Errorf("convert changed a canonical file:\ngot:\n%s\nwant:\n%s", r.stdout, want)
	}
	if r.stderr != "" {
		t.Errorf("stderr %q", r.stderr)
	}

	// Compressed input, and a file with problems: they go to stderr with
	// their position and the output is still written.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(want)
	zw.Close()
	dir := t.TempDir()
	gzPath := filepath.Join(dir, "run.jsonl.gz")
	os.WriteFile(gzPath, gz.Bytes(), 0o644)
	if r := runCLI(t, "", "convert", gzPath); r.code != exitOK || r.stdout != string(want) {
		t.Errorf("convert of a .gz: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	broken := filepath.Join(dir, "broken.jsonl")
	os.WriteFile(broken, []byte(string(want)+`{"type":"tool_result","turn":9,"text":"x"}`+"\n"), 0o644)
	r = runCLI(t, "", "convert", broken)
	r.expect(t, exitBadInput, `loupe: error: `+broken+`:8: tool_result: "id" is missing`)
	if !strings.HasPrefix(r.stdout, string(want)) {
		t.Errorf("convert of a file with a broken line:\n%s", r.stdout)
	}
}

func TestConvertStdin(t *testing.T) {
	want, err := os.ReadFile(tinyJSONL)
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, string(want), "convert", "-")
	r.expect(t, exitOK)
	if r.stdout != string(want) {
		t.Errorf("convert - :\n%s", r.stdout)
	}
	// Problems in standard input are named "-"; a line that does not parse
	// makes the conversion fail (its output is still written).
	r = runCLI(t, `{"type":"message","turn":1,"role":"user","text":"hi"}`+"\n"+`{"type":"message","turn":1}`+"\n", "convert", "-")
	r.expect(t, exitBadInput, `-:2: message: "role" is missing`)
	if !strings.Contains(r.stdout, `"text":"hi"`) {
		t.Errorf("convert - wrote nothing of a file with a broken line:\n%s", r.stdout)
	}
	// A stream in which nothing parses is refused, with the first error.
	r = runCLI(t, `{"type":"message","turn":1}`+"\n", "convert", "-")
	r.expect(t, exitBadInput, `-: nothing in it reads as loupe (every one of its 1 records has an error; the first: -:1: message: "role" is missing)`)
}

func TestConvertErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	r := runCLI(t, "", "convert", missing)
	r.expect(t, exitBadInput, missing)
	if r.stdout != "" {
		t.Errorf("stdout %q", r.stdout)
	}
	runCLI(t, "", "convert").expect(t, exitBadInput, "convert takes one FILE, got 0", hint("convert"))
	runCLI(t, "", "convert", "a.jsonl", "b.jsonl").expect(t, exitBadInput, "convert takes one FILE, got 2", hint("convert"))
	runCLI(t, "", "convert", "--from", "nosuchruntime", tinyJSONL).expect(t, exitBadInput, `unknown format "nosuchruntime"`)
	if r := runCLI(t, "", "convert", "--help"); r.code != exitOK || !strings.Contains(r.stdout+r.stderr, "Usage: loupe convert") {
		t.Errorf("convert --help: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestUnknownFlags: a flag no command defines is a usage error (exit 2):
// one line that names it, then the hint to run that command's --help, not
// the whole usage. A value a flag refuses is one line too.
func TestUnknownFlags(t *testing.T) {
	for _, c := range []struct {
		args       []string
		line, hint string
	}{
		{[]string{"--bogus"}, "loupe: flag provided but not defined: -bogus", usageHint},
		{[]string{"-x", tinyJSONL}, "loupe: flag provided but not defined: -x", usageHint},
		{[]string{"sample", "--bogus"}, "loupe: flag provided but not defined: -bogus", hint("sample")},
		{[]string{"convert", "--bogus", tinyJSONL}, "loupe: flag provided but not defined: -bogus", hint("convert")},
		{[]string{"verify", degradeRun, "--bogus"}, "loupe: flag provided but not defined: -bogus", hint("verify")},
		{[]string{"verify", "--format"}, "loupe: flag needs an argument: -format", hint("verify")},
		{[]string{"verify", "--consumer", "planner=wishes", degradeRun}, `loupe: invalid value "planner=wishes" for flag -consumer: consumer planner: unknown item kind "wishes"`, hint("verify")},
		{[]string{"rehydrate", "--bogus", degradeRun}, "loupe: flag provided but not defined: -bogus", hint("rehydrate")},
		{[]string{"hook", "install", "--bogus", "codex"}, "loupe: flag provided but not defined: -bogus", hint("hook install")},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := runCLI(t, "", c.args...)
			if r.code != exitBadInput {
				t.Errorf("exit %d, want %d\n%s", r.code, exitBadInput, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q", r.stdout)
			}
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], c.line) || lines[1] != c.hint {
				t.Errorf("stderr is not the one line %q and the hint %q:\n%s", c.line, c.hint, r.stderr)
			}
		})
	}
}

// TestHelpOfCommands: -h and --help print a command's whole usage, flags
// included, and succeed.
func TestHelpOfCommands(t *testing.T) {
	for _, cmd := range [][]string{{"verify"}, {"convert"}, {"sample"}, {"rehydrate"}, {"hook"}, {"hook", "install"}} {
		for _, h := range []string{"-h", "--help"} {
			r := runCLI(t, "", append(cmd, h)...)
			r.expect(t, exitOK, "Usage: loupe "+strings.Join(cmd, " "))
			if cmd[0] != "sample" && !strings.Contains(r.stderr, "Flags:") {
				t.Errorf("%s %s: no flags in the help:\n%s", cmd, h, r.stderr)
			}
		}
	}
	r := runCLI(t, "", "verify", "--help")
	for _, f := range []string{"-only-violations", "-q", "-group-by FIELD", "-format"} {
		if !strings.Contains(r.stderr, f) {
			t.Errorf("verify --help does not list %s:\n%s", f, r.stderr)
		}
	}
}

// TestMistypedCommand: a word that is neither a file nor a command, but
// close to one, is an unknown command with the nearest one, not a file the
// inspector cannot open. A file of that name is still opened.
func TestMistypedCommand(t *testing.T) {
	for typo, want := range map[string]string{"verfy": "verify", "verfiy": "verify", "conver": "convert", "sampel": "sample", "rehydarte": "rehydrate", "hok": "hook", "Verify": "verify"} {
		r := runCLI(t, "", typo, degradeRun)
		r.expect(t, exitBadInput, `loupe: unknown command "`+typo+`"; did you mean "`+want+`"?`, usageHint)
		if r.stdout != "" {
			t.Errorf("%s: stdout %q", typo, r.stdout)
		}
	}
	// Far from every command: a file that does not exist.
	runCLI(t, "", "frobnicate").expect(t, exitBadInput, "frobnicate: no such file or directory")
	// A file named like a typo is a file.
	dir := t.TempDir()
	put(t, filepath.Join(dir, "verfy"), readFile(t, violateRun))
	t.Chdir(dir)
	r := runCLI(t, "", "verfy")
	r.expect(t, exitViolation)
	r.stdoutHas(t, "verfy · 19 turns")
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"verify", "verify", 0}, {"verfy", "verify", 1}, {"verfiy", "verify", 1}, {"", "hook", 4}, {"hook", "help", 3}, {"conver", "convert", 1}, {"kitten", "sitting", 3}} {
		if d := editDistance(c.a, c.b); d != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}
