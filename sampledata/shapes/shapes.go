// Package shapes generates the run shapes that loupe's verifier must handle
// in time linear in the run's length: each is a deterministic, seeded run of
// a requested size, written as loupe JSONL (or Claude Code session JSONL for
// the importer shape) and built to reach one costly path of verify. The
// command scripts/shapes writes them; scripts/bench.sh times loupe on them
// beside jq and cat; the benchmarks beside this file run each at a small
// size. Generated files are never committed.
package shapes

import (
	"fmt"
	"io"
)

// Options tune a generator.
type Options struct {
	// Seed selects the run; the same seed and size give the same bytes.
	Seed uint64
	// Sessions is the Claude Code session file, or the directory of them,
	// that the claude-code shape replays (default DefaultSessions, relative
	// to the module root).
	Sessions string
}

// DefaultSessions are the real Claude Code sessions of the importer's
// testdata, relative to the module root.
const DefaultSessions = "model/claudecode/testdata/real"

// Shape is one kind of run.
type Shape struct {
	// Name is what -shape and SHAPES= take.
	Name string
	// Doc says what the run is and which path of verify it stresses.
	Doc string
	// Sizes are the three sizes scripts/bench.sh runs by default: the
	// largest finishes in reasonable time on the project's 2-core machine.
	Sizes [3]string
	// Small is the size of the go test benchmark.
	Small string
	// File is the name the generated file should have: the importer needs
	// nothing special, but a Claude Code session is named after its id.
	File string
	gen  func(w io.Writer, size int64, opt Options) error
	// dir, set instead of gen, writes a directory (File names it), and
	// the sizes are its number of files, not bytes.
	dir func(dir string, n int64, opt Options) error
}

// IsDir reports whether the shape is a directory of files (WriteDir)
// rather than one file (Write); its sizes are then file counts.
func (s Shape) IsDir() bool { return s.dir != nil }

// WriteDir writes a directory shape into dir: n files.
func (s Shape) WriteDir(dir string, n int64, opt Options) (err error) {
	if s.dir == nil {
		return fmt.Errorf("shape %s writes one file, not a directory", s.Name)
	}
	if n <= 0 {
		return fmt.Errorf("shape %s: the number of files must be positive", s.Name)
	}
	return s.dir(dir, n, opt)
}

// Write writes a run of about size bytes to w.
func (s Shape) Write(w io.Writer, size int64, opt Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("shape %s: %v", s.Name, r)
		}
	}()
	if s.gen == nil {
		return fmt.Errorf("shape %s writes a directory: use WriteDir", s.Name)
	}
	if size <= 0 {
		return fmt.Errorf("shape %s: size must be positive", s.Name)
	}
	return s.gen(w, size, opt)
}

// shapes are in the order of the scale issue's table.
var shapes = []Shape{
	{Name: "mixed", Sizes: [3]string{"50MB", "100MB", "200MB"}, Small: "10MB", gen: mixed,
		Doc: "research/perf.md's mix: messages, 5-50 KB tool outputs, 1-5 MB logs, some promises, one shell result in eight failing and most staying open (succeeded → covers over the open errors)"},
	{Name: "flaky", Sizes: [3]string{"10MB", "20MB", "40MB"}, Small: "1MB", gen: flaky,
		Doc: "a flaky test failing every few turns with different messages, each failure an error that stays open (newError's error lines and tokens; every success walks the open errors)"},
	{Name: "commitments", Sizes: [3]string{"300KB", "600KB", "1.2MB"}, Small: "200KB", gen: commitments,
		Doc: "many open commitments \"I'll X after Y\" naming tickets and PRs (claims: every assistant message matched against every open commitment; every call against them)"},
	{Name: "compactions", Sizes: [3]string{"1.5MB", "3MB", "6MB"}, Small: "500KB", gen: compactions,
		Doc: "a compaction every ~50 events whose summary restates the open items and the history so far (evaluate: items and summary lines both grow per compaction)"},
	{Name: "giant-summaries", Sizes: [3]string{"5MB", "10MB", "20MB"}, Small: "3MB", gen: giantSummaries,
		Doc: "compactions with 1-5 MB summaries pasting whole files and logs (doc.match over huge summaries, resurrection candidates)"},
	{Name: "dense-compactions", Sizes: [3]string{"1.25MB", "2.5MB", "5MB"}, Small: "250KB", gen: denseCompactions,
		Doc: "a compaction every five events under one standing rule, each summary naming the last few closed steps (about 950 compactions a megabyte, 10,000 in 10.5MB: per-compaction cost, resurrection candidates among the closed steps)"},
	{Name: "rules", Sizes: [3]string{"700KB", "1.4MB", "2.8MB"}, Small: "150KB", gen: rules,
		Doc: "N × (a user rule, then a compaction restating every rule so far) (constraint matching: rules × summary units per compaction)"},
	{Name: "big-plan", Sizes: [3]string{"300KB", "600KB", "1.2MB"}, Small: "200KB", gen: bigPlan,
		Doc: "one plan event with ~size/66 items, then work and a compaction (plan → sameOpenCommitment per new item; claims and calls against every item)"},
	{Name: "plan-updates", Sizes: [3]string{"3MB", "6MB", "12MB"}, Small: "1.5MB", gen: planUpdates,
		Doc: "a plan of 5,000 items written whole on every update, items completing and new ones added, compactions listing the plan (plan, claims, resurrection of completed steps)"},
	{Name: "tiny-events", Sizes: [3]string{"25MB", "50MB", "100MB"}, Small: "5MB", gen: tinyEvents,
		Doc: "millions of tiny events (~65 bytes each): calls, results, one-word messages (per-event overhead, every handle kept: RSS)"},
	{Name: "huge-output", Sizes: [3]string{"50MB", "100MB", "200MB"}, Small: "20MB", gen: hugeOutput,
		Doc: "one tool output of almost the whole size (a single line collected whole)"},
	{Name: "sample-large", Sizes: [3]string{"50MB", "100MB", "200MB"}, Small: "20MB", gen: sampleLarge,
		Doc: "the sample generator's large run (go run ./sampledata/gen -size, the old bench.sh input): the migration run continued, errors resolved soon after"},
	{Name: "claude-code", Sizes: [3]string{"50MB", "100MB", "200MB"}, Small: "6MB", gen: claudeCode, File: "0b8e7c1a-5d2f-4e3b-9a6c-1f2e3d4c5b6a.jsonl",
		Doc: "real Claude Code sessions replayed to size as one session, a compaction per copy (the importer path, then verify)"},
	{Name: "subagent-project", Sizes: [3]string{"5000", "20000", "50000"}, Small: "300", dir: subagentProject, File: "project",
		Doc: "a Claude Code project directory of N small sub-agent files (sizes are file counts), 100 per session, each session compacting once and one sub-agent in ten (per-file cost: listing, opening, verifying, reporting)"},
}

// All returns every shape, in the order of the scale issue's table.
func All() []Shape {
	out := make([]Shape, len(shapes))
	for i, s := range shapes {
		if s.File == "" {
			s.File = "run.jsonl"
		}
		out[i] = s
	}
	return out
}

// Lookup returns the shape called name.
func Lookup(name string) (Shape, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Shape{}, false
}
