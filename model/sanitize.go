package model

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize returns s made safe to write to a terminal, with everything that
// would be invisible made visible. Transcripts hold text written by models and
// tools — untrusted bytes — and a reviewer must see what the model saw, not
// what a terminal makes of it:
//
//   - invalid UTF-8 becomes U+FFFD;
//   - C0 controls other than tab and newline, ESC included, become their
//     Unicode control pictures (ESC is "␛", BEL "␇", a lone CR "␍"), and DEL
//     becomes "␡", so an escape sequence shows as inert text ("␛]52;c;…");
//     a CR directly before a newline is a line ending and is dropped;
//   - C1 controls (U+0080–U+009F, which some terminals honour as 8-bit CSI,
//     OSC…) are written as "⟨U+009B⟩";
//   - format characters and other default-ignorable code points — bidi
//     controls (Trojan Source), zero-width spaces and joiners, the BOM,
//     Unicode tag characters (ASCII smuggling), variation-selector runs,
//     Hangul fillers — and the line and paragraph separators are written as
//     "⟨U+202E⟩". Two legitimate uses stay: a zero-width joiner inside an
//     emoji sequence and a single emoji variation selector after a
//     non-ASCII character.
//
// Tab and newline are kept. Sanitize is idempotent, and returns s itself
// (no allocation) when there is nothing to change, which is the common case.
func Sanitize(s string) string {
	i := safePrefix(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	prev := rune(-1) // the previous rune of the input, -1 at the start
	if i > 0 {
		prev, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteRune(utf8.RuneError) // invalid byte
			prev = utf8.RuneError
			i++
			continue
		}
		next := rune(-1)
		if i+size < len(s) {
			next, _ = utf8.DecodeRuneInString(s[i+size:])
		}
		writeSafe(&b, r, prev, next)
		prev = r
		i += size
	}
	return b.String()
}

// IsSafe reports whether Sanitize would return s unchanged.
func IsSafe(s string) bool { return Sanitize(s) == s }

// safePrefix returns the length of the longest prefix of s made only of
// printable ASCII, tab and newline: bytes Sanitize leaves as they are.
func safePrefix(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f {
			return i
		}
	}
	return len(s)
}

// writeSafe writes r, or its visible form, given the runes around it in the
// input (-1 at either end).
func writeSafe(b *strings.Builder, r, prev, next rune) {
	switch {
	case r == '\n' || r == '\t':
		b.WriteRune(r)
	case r == '\r' && next == '\n':
		// CRLF line ending: the newline stays, the CR goes.
	case r < 0x20:
		b.WriteRune(0x2400 + r) // control pictures: ␀ … ␟, ␛ for ESC
	case r < 0x7f:
		b.WriteByte(byte(r))
	case r == 0x7f:
		b.WriteRune('␡')
	case r < 0xa0: // C1
		writeCodePoint(b, r)
	case hidden(r, prev, next):
		writeCodePoint(b, r)
	default:
		b.WriteRune(r)
	}
}

// writeCodePoint writes r as ⟨U+XXXX⟩.
func writeCodePoint(b *strings.Builder, r rune) {
	b.WriteString("⟨U+")
	h := strconv.FormatInt(int64(r), 16)
	for n := len(h); n < 4; n++ {
		b.WriteByte('0')
	}
	b.WriteString(strings.ToUpper(h))
	b.WriteString("⟩")
}

// hidden reports whether r (≥ U+00A0) is invisible or reorders text and must
// be shown as a code point.
func hidden(r, prev, next rune) bool {
	switch {
	case r == 0x200d: // zero-width joiner: fine inside an emoji sequence
		return !(prev >= 0xa0 && emojiLike(next))
	case r >= 0xfe00 && r <= 0xfe0f: // variation selectors
		// One selector after a non-ASCII character (❤️) is presentation;
		// runs of them, or one after ASCII, can encode hidden bytes.
		return prev < 0xa0 || (prev >= 0xfe00 && prev <= 0xfe0f)
	case r >= 0xe0100 && r <= 0xe01ef: // variation selectors supplement
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// emojiLike reports whether r is in a range where emoji ZWJ sequences live.
// None of these code points is ever rewritten by Sanitize, which keeps the
// zero-width-joiner rule idempotent.
func emojiLike(r rune) bool {
	return (r >= 0x1f000 && r < 0xe0000) || (r >= 0x2600 && r <= 0x27bf)
}

// Clip cuts s to at most n bytes at a rune boundary and marks the cut with
// "…" (which adds three bytes): for one-line excerpts of transcript text in
// reasons and reports.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}
