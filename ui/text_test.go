package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/verify"
)

func TestWrapPlain(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want []string
	}{
		{"", 10, []string{""}},
		{"hello world", 20, []string{"hello world"}},
		{"hello world", 5, []string{"hello", "world"}},
		{"hello   world", 7, []string{"hello", "world"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"a verylongword b", 6, []string{"a", "verylo", "ngword", "b"}},
		{"日本語のテキスト", 6, []string{"日本語", "のテキ", "スト"}},
		{"x 日本", 3, []string{"x", "日", "本"}},
		{"trailing   ", 8, []string{"trailing"}},
	} {
		var got []string
		for _, sp := range wrapPlain(tc.in, tc.w, 0) {
			got = append(got, tc.in[sp.a:sp.b])
			if sp.w > tc.w {
				t.Errorf("wrapPlain(%q, %d): row %q is %d wide", tc.in, tc.w, tc.in[sp.a:sp.b], sp.w)
			}
			if w := ansi.StringWidth(tc.in[sp.a:sp.b]); w != sp.w && strings.TrimRight(tc.in[sp.a:sp.b], " ") == tc.in[sp.a:sp.b] {
				t.Errorf("wrapPlain(%q, %d): row %q width %d, measured %d", tc.in, tc.w, tc.in[sp.a:sp.b], sp.w, w)
			}
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapPlain(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}

func TestWrapLineHangsIndentAndKeepsStyles(t *testing.T) {
	l := lineOf("  ", stPlain, "status: ", stSubtle, "overclaim claimed retained", stBad)
	rows := wrapLine(l, 14)
	var got []string
	for _, r := range rows {
		got = append(got, r.plain)
		if r.w > 14 {
			t.Errorf("row %q is %d wide", r.plain, r.w)
		}
	}
	want := []string{"  status:", "  overclaim", "  claimed", "  retained"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("rows %q, want %q", got, want)
	}
	if rows[1].segs[1].st != stBad || rows[0].segs[1].st != stSubtle {
		t.Fatalf("styles lost: %+v", rows)
	}
}

func TestCutLineAppliesTheDisplayLimit(t *testing.T) {
	ls, _ := textLines(strings.Repeat("x", 3*maxLineBytes)+"\nshort", stPlain, 0)
	if len(ls) != 2 || len(ls[0][0].text) != maxLineBytes || !strings.Contains(ls[0][1].text, "8,192 more bytes") {
		t.Fatalf("cut line: %d lines, %q", len(ls), plainOf(ls[0])[maxLineBytes:])
	}
}

// TestPaneScrollRoundTrips checks the virtual pane on random blocks: every
// frame has h rows of exactly w cells; Down then Up returns to the same row.
func TestPaneScrollRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	v := &listView{sel: -1}
	words := []string{"alpha", "βeta", "日本", "emoji😀", "a", "longerwordhere", ""}
	for range 200 {
		var lines []line
		for range 1 + rng.IntN(4) {
			var sb strings.Builder
			for range rng.IntN(30) {
				sb.WriteString(words[rng.IntN(len(words))] + " ")
			}
			lines = append(lines, lineOf(sb.String(), stPlain))
		}
		v.add(-1, lines...)
	}
	th := newTheme(true, false)
	p := newPane(v)
	p.w, p.h = 23, 9
	for range 500 {
		n := rng.IntN(15)
		before := p.top
		p.Down(n)
		after := p.top
		p.Up(n)
		if p.top != before && after != p.end() {
			// A clamped Down moves less than n; only then may Up differ.
			q := before
			for range n {
				q, _ = p.next(q)
			}
			if q == after {
				t.Fatalf("Down(%d) then Up(%d): %v → %v → %v", n, n, before, after, p.top)
			}
		}
		p.Down(rng.IntN(40))
		rows := p.View(th)
		if len(rows) != p.h {
			t.Fatalf("%d rows", len(rows))
		}
		for _, r := range rows {
			if w := ansi.StringWidth(r); w != p.w {
				t.Fatalf("row %q is %d wide", ansi.Strip(r), w)
			}
		}
	}
}

func TestTimelineFitsAnyWidth(t *testing.T) {
	var cs []*verify.CompactionResult
	for i := range 150 {
		v := verify.Degrade
		if i%7 == 3 {
			v = verify.Violate
		}
		cs = append(cs, &verify.CompactionResult{Seq: i + 1, Turn: 100 * i, Trigger: "token_budget", Verdict: v, LossRatio: 0.9})
	}
	th := newTheme(true, false)
	for _, w := range []int{60, 80, 160, 400} {
		for _, sel := range []int{0, 75, 149} {
			row := timelineRow(th, cs, nil, sel, w)
			if got := ansi.StringWidth(row); got != w {
				t.Errorf("w=%d sel=%d: %d wide", w, sel, got)
			}
			if want := chipText(cs[sel], chipLevels-1); !strings.Contains(ansi.Strip(row), "#"+want[:len(want)-len("✓")]) && !strings.Contains(ansi.Strip(row), want) {
				t.Errorf("w=%d sel=%d: selected chip %q not shown: %q", w, sel, want, ansi.Strip(row))
			}
		}
	}
}

func TestWideScriptsKeepRowsExact(t *testing.T) {
	jsonl := `{"type":"message","turn":1,"role":"user","text":"注文テーブルを追加してください。mainには絶対にプッシュしないこと。 नमस्ते दुनिया 👨‍👩‍👧 ❤️ combining e\u0301"}
{"type":"compaction","turn":2,"seq":1,"trigger":"token_budget","summary":"注文テーブル 👨‍👩‍👧 नमस्ते"}
`
	res := verify.Run(loadFixture(t, jsonl), verify.Options{})
	for _, size := range [][2]int{{160, 45}, {81, 24}, {60, 16}} {
		m := newTestModel(t, res, size[0], size[1], false)
		press(m, "1")
		for i, l := range strings.Split(m.View().Content, "\n") {
			if w := ansi.StringWidth(l); w != size[0] {
				t.Errorf("%v row %d is %d cells: %q", size, i, w, ansi.Strip(l))
			}
		}
		m.Update(tea.WindowSizeMsg{Width: size[0] + 7, Height: size[1]})
	}
}
