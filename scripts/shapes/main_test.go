package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/sampledata/shapes"
)

func TestList(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-list"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(shapes.All()) {
		t.Fatalf("-list printed %d lines for %d shapes:\n%s", len(lines), len(shapes.All()), out.String())
	}
	for i, s := range shapes.All() {
		// scripts/bench.sh reads the fields by position.
		f := strings.Split(lines[i], "\t")
		if len(f) != 5 || f[0] != s.Name || f[1] != strings.Join(s.Sizes[:], ",") || f[3] != s.File {
			t.Errorf("line %d: %q, want name, sizes, small size, file and doc of %s", i, lines[i], s.Name)
		}
	}
}

// TestWritesTheShape: -o writes what the package generates for the shape,
// size and seed, and standard output gets the same bytes.
func TestWritesTheShape(t *testing.T) {
	s, _ := shapes.Lookup("flaky")
	var want bytes.Buffer
	if err := s.Write(&want, 100<<10, shapes.Options{Seed: 7}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-shape", "flaky", "-size", "100KB", "-seed", "7", "-o", path}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) || stdout.Len() != 0 {
		t.Errorf("-o wrote %d bytes (stdout %d), want the shape's %d", len(got), stdout.Len(), want.Len())
	}
	if err := run([]string{"-shape", "flaky", "-size", "100KB", "-seed", "7"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stdout.Bytes(), want.Bytes()) {
		t.Errorf("standard output got %d bytes, want the shape's %d", stdout.Len(), want.Len())
	}
}

func TestBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-shape", "nope", "-size", "1MB"}, `unknown -shape "nope"`},
		{[]string{"-shape", "flaky"}, "-size"},
		{[]string{"-shape", "flaky", "-size", "lots"}, "bad size"},
	} {
		var out bytes.Buffer
		err := run(tc.args, &out, &out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}

// TestWritesADirectoryShape: a directory shape takes a number of files as
// -size and needs -o.
func TestWritesADirectoryShape(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-shape", "subagent-project", "-size", "10"}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "-o") {
		t.Errorf("no -o: %v, want an error asking for it", err)
	}
	if err := run([]string{"-shape", "subagent-project", "-size", "10", "-o", dir}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	agents, _ := filepath.Glob(filepath.Join(dir, "*", "subagents", "agent-a0*.jsonl"))
	if len(agents) != 10 || stdout.Len() != 0 {
		t.Errorf("%d sub-agent files (stdout %d bytes), want 10", len(agents), stdout.Len())
	}
}
