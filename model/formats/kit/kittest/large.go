package kittest

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// What the importers' generators of large sessions share: a counting
// writer and the loop that spreads large outputs and compactions through a
// session (Gen), deterministic tool-output-like text (Filler), the benchmark
// that imports a generated file, and the environment variables that ask a
// test to write a large file for measuring `loupe verify` (never committed):
//
//	LOUPE_GEN_LARGE=/tmp/cc/0b8e…jsonl LOUPE_GEN_SIZE=100MB \
//	    go test ./model/claudecode -run TestGenerateLarge -count=1

// LargeFile returns the file and size that LOUPE_GEN_LARGE and LOUPE_GEN_SIZE
// (default 100MB) ask for, and skips t when LOUPE_GEN_LARGE is not set.
func LargeFile(t testing.TB) (string, int64) {
	path := os.Getenv("LOUPE_GEN_LARGE")
	if path == "" {
		t.Skip("set LOUPE_GEN_LARGE=FILE (and LOUPE_GEN_SIZE=100MB) to write a large generated session")
	}
	size := int64(100 << 20)
	if s := os.Getenv("LOUPE_GEN_SIZE"); s != "" {
		n, err := ParseSize(s)
		if err != nil {
			t.Fatal(err)
		}
		size = n
	}
	return path, size
}

// BenchSize is the size of the session a large-file benchmark generates:
// LOUPE_BENCH_SIZE, default 100MB.
func BenchSize(b testing.TB) int64 {
	if s := os.Getenv("LOUPE_BENCH_SIZE"); s != "" {
		n, err := ParseSize(s)
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	return 100 << 20
}

// Generate writes the session gen makes of about size bytes to the file
// path.
func Generate(tb testing.TB, path string, size int64, gen func(w io.Writer, size int64) error) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := gen(f, size); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// GenerateLarge writes the session gen makes to the file LargeFile asks
// for; it skips t when none is asked for.
func GenerateLarge(t *testing.T, gen func(w io.Writer, size int64) error) {
	path, size := LargeFile(t)
	Generate(t, path, size, gen)
}

// BenchOpenLarge imports, with open in every round of b, the file name of
// BenchSize bytes that gen writes in a temporary directory. It reports the
// heap the transcript keeps after a collection (retained-MB) besides time,
// bytes and allocations.
func BenchOpenLarge(b *testing.B, name string, gen func(w io.Writer, size int64) error, open Opener) {
	path := filepath.Join(b.TempDir(), name)
	Generate(b, path, BenchSize(b), gen)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	var retained uint64
	for b.Loop() {
		tr, err := open(path, model.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		retained = max(retained, liveHeap())
		runtime.KeepAlive(tr)
		b.StartTimer()
	}
	b.ReportMetric(float64(retained)/(1<<20), "retained-MB")
}

// liveHeap returns the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Gen is what the generators of large sessions share: a buffered writer
// that counts the bytes written and keeps the first error (nothing is
// written after it), and the filler.
type Gen struct {
	W       *bufio.Writer
	F       *Filler
	Err     error
	Written int64
}

// Write writes s unless an earlier write failed.
func (g *Gen) Write(s string) {
	if g.Err != nil {
		return
	}
	n, err := g.W.WriteString(s)
	g.Written += int64(n)
	g.Err = err
}

// Drive writes the body of a session of about size bytes and flushes it:
// 15 large outputs spread evenly through it (big(i) writes the i-th), a
// compaction every ~size/13 bytes, a user turn every 14 steps, and routine
// steps between them. It stops at the first write error.
func (g *Gen) Drive(size int64, big func(i int), compact, user func(), routine func(step int)) error {
	bigDone, comps := 0, 0
	for step := 0; g.Written < size || bigDone < 15; step++ {
		switch {
		case bigDone < 15 && (g.Written >= int64(bigDone+1)*size/16 || g.Written >= size):
			big(bigDone)
			bigDone++
		case g.Written >= int64(comps+1)*size/13 && g.Written < size:
			compact()
			comps++
		case step%14 == 0:
			user()
		default:
			routine(step)
		}
		if g.Err != nil {
			return g.Err
		}
	}
	return g.W.Flush()
}

// ParseSize reads a size such as 100MB, 1.5GB, 64KiB or 1048576.
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("bad size %q (want e.g. 100MB)", s)
	}
	return int64(f * float64(mult)), nil
}

// Filler makes deterministic text that looks like what agents read and
// write: test runs, source listings, logs with ANSI colours, non-ASCII.
type Filler struct {
	Rng   *rand.Rand
	Clock time.Time
}

// NewFiller returns a filler seeded with seed.
func NewFiller(seed uint64) *Filler {
	return &Filler{Rng: rand.New(rand.NewPCG(seed, 0x10c5e)), Clock: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
}

// Hex returns n random hex digits.
func (f *Filler) Hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[f.Rng.IntN(16)]
	}
	return string(b)
}

// UUID returns a random version-4 UUID.
func (f *Filler) UUID() string {
	h := f.Hex(32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:]
}

// Tick advances the clock by up to max and returns it as JSON writers do.
func (f *Filler) Tick(max time.Duration) string {
	f.Clock = f.Clock.Add(time.Duration(1+f.Rng.Int64N(int64(max))) + time.Millisecond)
	return f.Clock.Format("2006-01-02T15:04:05.000Z")
}

var (
	pkgs   = []string{"orders", "orders/store", "orders/api", "orders/idem", "billing", "billing/ledger", "internal/pgtest", "cmd/ordersd"}
	words  = strings.Fields("the order store migration schema diff request handler retry budget cancel refund ledger idempotency key replay worker queue index column constraint default backfill review config timeout deadline context trace span")
	source = []string{
		"func (s *Store) Cancel(ctx context.Context, id int64) error {",
		"\tif err := s.db.QueryRowContext(ctx, q, id).Scan(&o.Status); err != nil {",
		"\t\treturn fmt.Errorf(\"cancel order %d: %w\", id, err)",
		"\t}",
		"\t// Refunds go through the ledger so that a retry never pays twice.",
		"\treturn s.ledger.Refund(ctx, o.ID, o.Total)",
		"}",
		"type Order struct {",
		"\tID     int64     `json:\"id\"`",
		"\tStatus string    `json:\"status\"`",
		"\tTotal  Money     `json:\"total\"`",
		"\tAt     time.Time `json:\"at\"`",
		"// Prüfsumme über alle Positionen — 注文の合計 ✓",
	}
)

// Sentence returns a sentence of about n words.
func (f *Filler) Sentence(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[f.Rng.IntN(len(words))])
	}
	b.WriteByte('.')
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// Prose returns about n bytes of an assistant's words; some sentences are
// commitments ("I'll …", "Next I need to …").
func (f *Filler) Prose(n int) string {
	var b strings.Builder
	for b.Len() < n {
		switch f.Rng.IntN(10) {
		case 0:
			b.WriteString("I'll re-run the " + pkgs[f.Rng.IntN(len(pkgs))] + " tests after the schema diff is reviewed. ")
		case 1:
			b.WriteString("Next I need to check `" + pkgs[f.Rng.IntN(len(pkgs))] + "/store.go` for the same bug. ")
		default:
			b.WriteString(f.Sentence(6+f.Rng.IntN(14)) + " ")
		}
	}
	return strings.TrimSpace(b.String())
}

// Prompt returns a user's request of 8 to 27 words; one in four adds a
// standing instruction.
func (f *Filler) Prompt() string {
	text := "Please " + strings.ToLower(f.Sentence(8+f.Rng.IntN(20)))
	if f.Rng.IntN(4) == 0 {
		text += " Never push to main; open a PR instead."
	}
	return text
}

// OutputSize returns the size of a routine tool output: mostly 200 B–3 KB,
// one in eight 5–40 KB.
func (f *Filler) OutputSize() int {
	size := 200 + f.Rng.IntN(3000)
	if f.Rng.IntN(8) == 0 {
		size = 5<<10 + f.Rng.IntN(35<<10)
	}
	return size
}

// PlanStatus is the status of item i of the four in the n-th plan a
// generator writes: the items before n%4 completed, item n%4 in progress,
// the rest pending.
func PlanStatus(i, n int) string {
	switch {
	case i < n%4:
		return "completed"
	case i == n%4:
		return "in_progress"
	}
	return "pending"
}

// Output returns about n bytes of tool output: a test run, a source listing
// with tabs (cat -n), or coloured build logs, with a little non-ASCII.
func (f *Filler) Output(n int) string {
	var b strings.Builder
	b.Grow(n + 200)
	switch f.Rng.IntN(3) {
	case 0:
		for b.Len() < n {
			p := pkgs[f.Rng.IntN(len(pkgs))]
			fmt.Fprintf(&b, "=== RUN   Test%s%d\n--- PASS: Test%s%d (%.2fs)\nok  \tgithub.com/acme/%s\t%.3fs\n",
				strings.ToUpper(p[:1]), f.Rng.IntN(90), strings.ToUpper(p[:1]), f.Rng.IntN(90), float64(f.Rng.IntN(300))/100, p, float64(f.Rng.IntN(3000))/1000)
		}
	case 1:
		for i := 1; b.Len() < n; i++ {
			fmt.Fprintf(&b, "%6d\t%s\n", i, source[f.Rng.IntN(len(source))])
		}
	default:
		for b.Len() < n {
			fmt.Fprintf(&b, "\x1b[2m%s\x1b[0m \x1b[32mINFO\x1b[0m compiled %s (%d files) \"%s\"\n",
				f.Tick(time.Second), pkgs[f.Rng.IntN(len(pkgs))], 1+f.Rng.IntN(40), f.Hex(8))
		}
	}
	return b.String()
}

// Logs returns about n bytes of JSON log lines, as a `kubectl logs` of a
// service prints them: every line is full of quotes to escape.
func (f *Filler) Logs(n int) string {
	var b strings.Builder
	b.Grow(n + 256)
	paths := []string{"/v1/orders", "/v1/orders/%d", "/v1/customers/%d/orders", "/v1/orders/%d/cancel", "/healthz"}
	for b.Len() < n {
		p := paths[f.Rng.IntN(len(paths))]
		if strings.Contains(p, "%d") {
			p = fmt.Sprintf(p, 1+f.Rng.IntN(90000))
		}
		fmt.Fprintf(&b, `{"time":"%s","level":"INFO","msg":"request","method":"%s","path":"%s","status":%d,"duration_ms":%.1f,"request_id":"%s"}`+"\n",
			f.Tick(400*time.Millisecond), []string{"GET", "POST"}[f.Rng.IntN(2)], p,
			[]int{200, 200, 200, 201, 404, 409}[f.Rng.IntN(6)], float64(f.Rng.IntN(4000))/10, f.Hex(16))
	}
	return b.String()
}

// Quote returns s as a JSON string the way JavaScript's JSON.stringify and
// serde_json write it: only quotes, backslashes and control characters are
// escaped; everything else, non-ASCII included, is written as is.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8 + 2)
	AppendQuoted(&b, s)
	return b.String()
}

// AppendQuoted writes s to b as Quote does.
func AppendQuoted(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
