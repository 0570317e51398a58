package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/sampledata"
)

// repeated returns the migration sample repeated n times as one run: turns,
// seqs and ids are shifted so every copy is a later stretch of the same run.
func repeated(b *testing.B, n int) *model.Transcript {
	b.Helper()
	r, err := sampledata.Open("migration")
	if err != nil {
		b.Fatal(err)
	}
	raw, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		b.Fatal(err)
	}
	var lines []map[string]any
	maxTurn, maxSeq := 0.0, 0.0
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			b.Fatal(err)
		}
		if t, ok := m["turn"].(float64); ok && t > maxTurn {
			maxTurn = t
		}
		if s, ok := m["seq"].(float64); ok && s > maxSeq {
			maxSeq = s
		}
		lines = append(lines, m)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	for k := 0; k < n; k++ {
		for _, m := range lines {
			if m["type"] == "meta" {
				if k == 0 {
					enc.Encode(m)
				}
				continue
			}
			c := map[string]any{}
			for key, v := range m {
				c[key] = v
			}
			if t, ok := c["turn"].(float64); ok {
				c["turn"] = t + float64(k)*maxTurn
			}
			if s, ok := c["seq"].(float64); ok {
				c["seq"] = s + float64(k)*maxSeq
			}
			if id, ok := c["id"].(string); ok && k > 0 {
				c["id"] = fmt.Sprintf("%s_r%d", id, k)
			}
			enc.Encode(c)
		}
	}
	t, err := model.Read(&out, model.ReadOptions{Name: "repeated"})
	if err != nil {
		b.Fatal(err)
	}
	return t
}

func benchmarkVerify(b *testing.B, n int) {
	t := repeated(b, n)
	b.ReportMetric(float64(len(t.Events)), "events")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Run(t, Options{})
	}
}

// BenchmarkVerifyMigration verifies the built-in migration run (about 4,100
// turns and 11 compactions); the target is well under 100 ms.
func BenchmarkVerifyMigration(b *testing.B) { benchmarkVerify(b, 1) }

// BenchmarkVerifyMigration10x and 100x show how verification grows with the
// run's length: it must stay linear (extraction is one sweep; matching per
// compaction costs the summary's size and the open items, not the run's).
func BenchmarkVerifyMigration10x(b *testing.B)  { benchmarkVerify(b, 10) }
func BenchmarkVerifyMigration100x(b *testing.B) { benchmarkVerify(b, 100) }
