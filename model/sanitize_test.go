package model

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// hostile holds escape-sequence payloads from the terminal threat table
// (research/tui.md §5.1): each must come out inert and visible.
var hostile = map[string]string{
	"osc52 clipboard":   "A\x1b]52;c;ZWNobyBwd25lZA==\x07B",
	"osc0 title":        "A\x1b]0;pwned\x07B",
	"osc8 hyperlink":    "A\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\B",
	"csi erase":         "A\x1b[2J\x1b[10AB",
	"csi title report":  "A\x1b[21tB",
	"dsr query":         "A\x1b[6nB",
	"ris":               "A\x1bcB",
	"dcs tmux":          "A\x1bPtmux;\x1b\x1b]52;c;ZXZpbA==\x07\x1b\\B",
	"apc kitty":         "A\x1b_Gf=100;AAAA\x1b\\B",
	"pm":                "A\x1b^secret\x1b\\B",
	"c1 csi utf8":       "A\u009b2JB",
	"c1 raw byte":       "A\x9b2JB",
	"c1 osc utf8":       "A\u009d0;t\u009cB",
	"unterminated osc":  "A\x1b]52;c;AAAA",
	"cr bs":             "SAFE\rEVIL\b\b",
	"bel":               "A\aB",
	"nul del":           "A\x00\x7fB",
	"bidi rlo":          "A\u202eB",
	"bidi isolates":     "A\u2066\u2067\u2068\u2069B",
	"zero width":        "A\u200b\u200c\u2060\ufeffB",
	"tags smuggling":    "hi\U000E0049\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065",
	"variation run":     "x\ufe01\ufe02\U000E0100",
	"line separator":    "A\u2028B\u2029C",
	"hangul filler":     "A\u3164B",
	"invalid utf8":      "A\xff\xfeB\xed\xa0\x80C", // includes an encoded surrogate
	"lone surrogate hi": "\xed\xa0\xbd",
}

// unsafeRune reports a rune that must never reach the terminal.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x200d, r >= 0xfe00 && r <= 0xfe0f:
		return false // allowed in context; checked by the tests below
	}
	return unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 ||
		(r >= 0xe0000 && r <= 0xe0fff) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

func checkSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Sanitize(%q) = %q: invalid UTF-8", in, out)
	}
	for i, r := range out {
		if unsafeRune(r) {
			t.Fatalf("Sanitize(%q) = %q: unsafe rune %U at byte %d", in, out, r, i)
		}
	}
	if strings.Contains(out, "\r") {
		t.Fatalf("Sanitize(%q) = %q: CR left", in, out)
	}
	if again := Sanitize(out); again != out {
		t.Fatalf("not idempotent:\n in   %q\n once %q\n twice %q", in, out, again)
	}
}

func TestSanitizeHostile(t *testing.T) {
	for name, in := range hostile {
		t.Run(name, func(t *testing.T) {
			checkSafe(t, in, Sanitize(in))
		})
	}
}

func TestSanitizeExact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\n\twith tab", "plain text\n\twith tab"},
		{"A\x1b]52;c;ZWNo\x07B", "A␛]52;c;ZWNo␇B"},
		{"SAFE\rEVIL", "SAFE␍EVIL"},
		{"line\r\nnext\r\n", "line\nnext\n"},
		{"A\u202eB", "A⟨U+202E⟩B"},
		{"hi\U000E006F\U000E006B\u202e!", "hi⟨U+E006F⟩⟨U+E006B⟩⟨U+202E⟩!"},
		{"A\u009bB", "A⟨U+009B⟩B"},
		{"A\x9bB", "A\uFFFDB"},
		{"\x7f", "␡"},
		{"zw\u200bsp", "zw⟨U+200B⟩sp"},
		{"\ufeffBOM", "⟨U+FEFF⟩BOM"},
		{"soft\u00adhyphen", "soft⟨U+00AD⟩hyphen"},
		{"👨‍👩‍👧", "👨‍👩‍👧"},         // ZWJ emoji sequence kept
		{"❤️ love", "❤️ love"},     // emoji presentation selector kept
		{"a\u200db", "a⟨U+200D⟩b"}, // a ZWJ between letters hides nothing useful
		{"x\ufe0f", "x⟨U+FE0F⟩"},
		{"日本語 ünïcödé", "日本語 ünïcödé"},
	} {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		checkSafe(t, tc.in, Sanitize(tc.in))
	}
}

func TestSanitizeNoAllocWhenSafe(t *testing.T) {
	s := strings.Repeat("an ordinary line of tool output\n", 100)
	if n := testing.AllocsPerRun(10, func() { _ = Sanitize(s) }); n != 0 {
		t.Fatalf("Sanitize of safe text allocated %v times", n)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("👨‍👩‍👧 ❤️ \u200d\ufe0f\ufe0f é\u200d\U000E0041 \u0085\u200d😀 a\ufe0f\u200d😀")
	f.Add("line\r\r\n\r")
	f.Fuzz(func(t *testing.T, in string) {
		checkSafe(t, in, Sanitize(in))
	})
}

func BenchmarkSanitize(b *testing.B) {
	ascii := strings.Repeat("PASS ok  github.com/x/y 0.012s\n", 4096)
	mixed := strings.Repeat("résumé — 日本語 \x1b[31mFAIL\x1b[0m\r\n", 4096)
	for _, c := range []struct {
		name string
		s    string
	}{{"ascii", ascii}, {"mixed", mixed}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				_ = Sanitize(c.s)
			}
		})
	}
}
