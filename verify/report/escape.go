package report

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// invisible reports whether r is a character that a reader of raw JSON or
// XML (a terminal running cat or jq, a log viewer, a code review) would not
// see as itself: DEL and the C1 controls (some terminals honour U+009B as
// CSI), the bidi controls (Trojan Source), zero-width characters, the BOM,
// Unicode tag characters (ASCII smuggling), variation selectors and every
// other format or default-ignorable code point, and the line and paragraph
// separators.
func invisible(r rune) bool {
	switch {
	case r < 0x7f:
		return false
	case r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0xe0000 && r <= 0xe007f: // the tag block, unassigned ones too
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// escapeInvisible rewrites every invisible character in encoded JSON or XML
// as an escape of that format, written by esc. Both encodings keep such
// characters inside string values only (their syntax is ASCII), so the
// rewrite is lossless: a parser reads back exactly the original strings,
// while the bytes on disk and on a terminal hold none of them.
func escapeInvisible(b []byte, esc func(*bytes.Buffer, rune)) []byte {
	i := indexInvisible(b)
	if i < 0 {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b) + 64)
	for i >= 0 {
		out.Write(b[:i])
		r, size := utf8.DecodeRune(b[i:])
		esc(&out, r)
		b = b[i+size:]
		i = indexInvisible(b)
	}
	out.Write(b)
	return out.Bytes()
}

// indexInvisible is bytes.IndexFunc(b, invisible), skipping ASCII a byte at
// a time: a report is mostly ASCII, and decoding each of its runes was a
// large share of writing a big one.
func indexInvisible(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if invisible(r) {
			return i
		}
		i += size
	}
	return -1
}

// jsonEscape writes r as \uXXXX, or as a surrogate pair above U+FFFF, the
// way encoding/json writes the controls it escapes (lower-case hex).
func jsonEscape(b *bytes.Buffer, r rune) {
	if r > 0xffff {
		r1, r2 := utf16.EncodeRune(r)
		jsonEscape(b, r1)
		jsonEscape(b, r2)
		return
	}
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[r>>12&0xf])
	b.WriteByte(hex[r>>8&0xf])
	b.WriteByte(hex[r>>4&0xf])
	b.WriteByte(hex[r&0xf])
}

// xmlEscape writes r as a character reference, &#x202E;.
func xmlEscape(b *bytes.Buffer, r rune) {
	b.WriteString("&#x")
	b.WriteString(strconv.FormatInt(int64(r), 16))
	b.WriteByte(';')
}
