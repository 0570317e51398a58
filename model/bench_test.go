package model_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
)

// BenchmarkLoadMigration loads the built-in migration run (about 4,100 turns)
// from memory, as `loupe` does at start. The target is well under 100 ms.
//
//	go test ./model -run '^$' -bench LoadMigration -benchmem
func BenchmarkLoadMigration(b *testing.B) {
	r, err := sampledata.Open("migration")
	if err != nil {
		b.Skipf("no migration sample embedded yet: %v", err)
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var tr *model.Transcript
	for b.Loop() {
		tr, err = model.Read(bytes.NewReader(data), model.ReadOptions{Name: "migration"})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tr.Turns()), "turns")
	b.ReportMetric(float64(len(tr.Events)), "events")
}

// BenchmarkRead4100Turns reads a generated coding-agent run of 4,100 turns
// (the migration sample's scale) from memory: the same measure as
// BenchmarkLoadMigration, independent of the sample's current content.
func BenchmarkRead4100Turns(b *testing.B) {
	data := genTranscript(4100, 0)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var tr *model.Transcript
	for b.Loop() {
		var err error
		tr, err = model.Read(bytes.NewReader(data), model.ReadOptions{Name: "bench"})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tr.Turns()), "turns")
	b.ReportMetric(float64(len(tr.Events)), "events")
}

// BenchmarkLoadMigrationCompressed includes decompressing the embedded gzip.
func BenchmarkLoadMigrationCompressed(b *testing.B) {
	if _, err := sampledata.Open("migration"); err != nil {
		b.Skipf("no migration sample embedded yet: %v", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, _ := sampledata.Open("migration")
		if _, err := model.Read(r, model.ReadOptions{Name: "migration"}); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

// BenchmarkOpenLarge opens a generated ~10 MB transcript from a file: the
// lazy path, where tool outputs above 16 KiB stay on disk.
//
//	go test ./model -run '^$' -bench OpenLarge -benchmem
func BenchmarkOpenLarge(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.jsonl")
	size := writeTranscript(b, path, 10<<20)
	b.SetBytes(size)
	b.ReportAllocs()
	var tr *model.Transcript
	for b.Loop() {
		var err error
		tr, err = model.Open(path, model.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
	}
	lazy := 0
	for _, e := range tr.Events {
		if r, ok := e.(*model.ToolResult); ok && !r.Text.Complete() {
			lazy++
		}
	}
	b.ReportMetric(float64(len(tr.Events)), "events")
	b.ReportMetric(float64(lazy), "lazy-outputs")
}

// BenchmarkWrite writes the generated transcript back (convert's path),
// loading the lazy outputs from disk.
func BenchmarkWrite(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.jsonl")
	size := writeTranscript(b, path, 10<<20)
	tr, err := model.Open(path, model.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if err := model.Write(io.Discard, tr); err != nil {
			b.Fatal(err)
		}
	}
}

// writeTranscript writes genTranscript(0, size) to path and returns its size.
func writeTranscript(tb testing.TB, path string, size int64) int64 {
	tb.Helper()
	data := genTranscript(0, size)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return int64(len(data))
}

// genTranscript makes a deterministic coding-agent-like run of the given
// number of turns, or of about size bytes when turns is 0: messages, plans,
// tool calls with outputs from a few hundred bytes to 64 KiB, and a
// compaction every 400 turns.
func genTranscript(turns int, size int64) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"type":"meta","format":"loupe/v1","run":"bench","agent":"bench-agent"}` + "\n")
	logLine := `ok  \tgithub.com/acme/orders/internal/store\t0.041s\ncoverage: 81.2% of statements\n`
	seq := 0
	for turn := 1; turns > 0 && turn <= turns || turns == 0 && int64(buf.Len()) < size; turn++ {
		switch turn % 7 {
		case 0:
			fmt.Fprintf(&buf, `{"type":"message","turn":%d,"role":"user","text":"Run the tests again and never push to main; use pnpm for the web package."}`+"\n", turn)
		case 1:
			fmt.Fprintf(&buf, `{"type":"message","turn":%d,"role":"assistant","text":"I'll re-run the migration after the schema diff for orders_%d is reviewed, then update the PR #%d."}`+"\n", turn, turn, turn%900)
		case 2:
			fmt.Fprintf(&buf, `{"type":"plan","turn":%d,"items":[{"id":"t%d","text":"Re-run the migration","status":"pending"},{"id":"t%d","text":"Fix orders_test.go","status":"completed"}]}`+"\n", turn, turn, turn-1)
		default:
			id := fmt.Sprintf("call_%x", turn*2654435761%(1<<32))
			fmt.Fprintf(&buf, `{"type":"tool_call","turn":%d,"id":"%s","name":"bash","input":{"command":"go test ./internal/... -run TestOrders%d -count=1","timeout":600}}`+"\n", turn, id, turn)
			n := 3 + (turn*7919)%40
			if turn%37 == 0 {
				n = 900 // about 64 KiB: stays on disk when opened from a file
			}
			fmt.Fprintf(&buf, `{"type":"tool_result","turn":%d,"id":"%s","is_error":%v,"text":"%s"}`+"\n", turn, id, turn%11 == 0, strings.Repeat(logLine, n))
		}
		if turn%400 == 0 {
			seq++
			fmt.Fprintf(&buf, `{"type":"compaction","turn":%d,"seq":%d,"trigger":"token_budget","summary":"## Pending Tasks\n- re-run the migration\n## Current Work\nfixing orders tests","tokens_before":180000,"tokens_after":9000}`+"\n", turn, seq)
		}
	}
	return buf.Bytes()
}
