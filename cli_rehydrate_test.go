package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/verify"
	"github.com/loupe-dev/loupe/verify/report"
)

// migrationFile writes the built-in migration run to a file.
func migrationFile(t *testing.T) string {
	t.Helper()
	r := runCLI(t, "", "sample", "migration")
	r.expect(t, exitOK)
	p := filepath.Join(t.TempDir(), "migration.jsonl")
	if err := os.WriteFile(p, []byte(r.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRehydrateCommand(t *testing.T) {
	p := migrationFile(t)
	r := runCLI(t, "", "rehydrate", "--compaction", "4", p)
	r.expect(t, exitOK)
	if !hasLostPromise(t, strings.TrimSuffix(r.stdout, "\n"), 210) {
		t.Fatalf("block lacks the lost promise:\n%s", r.stdout)
	}
	// The last compaction of the run degrades: nothing to put back, said on
	// stderr so that a pipe gets an empty block.
	r = runCLI(t, "", "rehydrate", p)
	r.expect(t, exitOK, "compaction 11 degrades", "nothing to put back")
	if r.stdout != "" {
		t.Fatalf("a degrading compaction printed a block:\n%s", r.stdout)
	}
}

func TestRehydrateJSON(t *testing.T) {
	p := migrationFile(t)
	r := runCLI(t, "", "rehydrate", "--format", "json", "--compaction", "6", "--max-chars", strconv.Itoa(verify.MinRehydrateChars), p)
	r.expect(t, exitOK)
	var got report.JSONRehydration
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if got.Seq != 6 || got.Verdict != "violate" || got.Chars > verify.MinRehydrateChars || got.Chars == 0 {
		t.Fatalf("seq %d verdict %s chars %d (cap %d)", got.Seq, got.Verdict, got.Chars, verify.MinRehydrateChars)
	}
	if len(got.Items)+len(got.Omitted) != 2 || got.Items[0].Turn != 210 || got.Items[0].Kind != "commitment" {
		t.Fatalf("items %+v omitted %+v", got.Items, got.Omitted)
	}
}

func TestRehydrateErrors(t *testing.T) {
	p := migrationFile(t)
	noComp := filepath.Join(t.TempDir(), "none.jsonl")
	os.WriteFile(noComp, []byte(`{"type":"meta","format":"loupe/v1"}`+"\n"+`{"type":"message","turn":1,"role":"user","text":"hi"}`+"\n"), 0o600)
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"rehydrate"}, "rehydrate takes one FILE"},
		{[]string{"rehydrate", "--compaction", "12", p}, "has no compaction 12"},
		{[]string{"rehydrate", "--format", "xml", p}, "unknown --format"},
		{[]string{"rehydrate", "--max-chars", "10", p}, "too small"},
		{[]string{"rehydrate", noComp}, "no compaction in this run"},
		{[]string{"rehydrate", filepath.Join(t.TempDir(), "missing.jsonl")}, "no such file"},
	}
	for _, c := range cases {
		runCLI(t, "", c.args...).expect(t, exitBadInput, c.err)
	}
}
