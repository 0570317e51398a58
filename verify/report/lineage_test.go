package report

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/verify"
)

func TestBar(t *testing.T) {
	for _, tt := range []struct {
		share float64
		full  int
	}{{0, 0}, {0.4, 8}, {0.18, 4}, {1, 20}, {1.5, 20}} {
		b := bar(tt.share)
		if strings.Count(b, "█") != tt.full || strings.Count(b, "█")+strings.Count(b, "░") != barWidth {
			t.Errorf("bar(%v) = %q, want %d full cells of %d", tt.share, b, tt.full, barWidth)
		}
	}
}

// TestLineageMapInReports: text and Markdown draw the run's map with the
// shared glyphs, lost items first, and the drop rates per kind as bars.
func TestLineageMapInReports(t *testing.T) {
	res := corpusResults(t, "f1_deploy_claude")
	rows := res[0].LineageMap()
	if len(rows) < 2 || !rows[0].Lost() || rows[len(rows)-1].Lost() {
		t.Fatalf("the sample should have lost items and a kept one: %d rows", len(rows))
	}
	text := write(t, &Report{Results: res}, "text")
	for _, want := range []string{
		"lineage map (items × compactions #1…#1; ✓ retained  · closed  ~ weak  ◌ intent only  ⇄ flipped  ✗ dropped  ↺ resurrected  ? review (lost, but only inferred: not counted))",
		"    ✗  commitment switch the DNS record",
		"… 1 item every summary kept (-v lists them)",
		"drop rate per kind",
		"  commitment ████████████████████ 100 % (1/1)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text: no %q in\n%s", want, text)
		}
	}
	if v := writeText(t, res, TextOptions{Verbose: true}); !strings.Contains(v, "    ✓  constraint") {
		t.Errorf("-v lists the kept items too:\n%s", v)
	}
	md := write(t, &Report{Results: res}, "markdown")
	lost := strings.Index(md, "| `✗` | commitment | switch the DNS record")
	kept := strings.Index(md, "| `✓` | constraint |")
	if !strings.Contains(md, "## Lineage map") || lost < 0 || kept < lost {
		t.Errorf("markdown map, lost first:\n%s", md)
	}
	if !strings.Contains(md, "## Drop rate per kind") || !strings.Contains(md, "commitment ████████████████████ 100 % (1/1)") {
		t.Errorf("markdown bars:\n%s", md)
	}
	// Per group with --group-by.
	g := write(t, &Report{Results: variants(t), GroupBy: "prompt"}, "markdown")
	if !strings.Contains(g, "`prompt` = v1:") || !strings.Contains(g, "`prompt` = v2:") {
		t.Errorf("markdown bars per group:\n%s", g)
	}
	for _, s := range verify.Statuses {
		if !strings.Contains(legend(), s.Glyph()+" "+statusName(s)) {
			t.Errorf("the legend lacks %s", s)
		}
	}
}

func writeText(t *testing.T, res []*verify.Result, opt TextOptions) string {
	t.Helper()
	var b strings.Builder
	if err := (&Report{Results: res}).Text(&b, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
