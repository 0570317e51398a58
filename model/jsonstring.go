package model

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// strBuf decodes JSON string values with encoding/json's rules.
//
// fastjson unescapes strings on a best-effort basis that loses text: a lone
// surrogate escape ("\ud800") is kept as the six characters `\ud800`, and a
// high surrogate followed by an escape that is not a low surrogate
// ("\ud83d\u0041") becomes one U+FFFD, swallowing the "A". Tool output
// contains such strings (a truncated UTF-16 buffer, binary data dumped as
// JSON), so loupe unescapes them itself: every lone surrogate becomes U+FFFD
// and nothing else is lost. Escapes JSON does not define ("\q"), which
// fastjson accepts, are kept as written.
//
// The returned bytes alias the buffer and are valid until the next call.
type strBuf struct {
	raw, out []byte
	// in is the stand-in of the huge line being decoded (hugeline.go):
	// its placeholders read as the line's own bodies.
	in *standIn
}

// bytes returns the decoded value of x when it is a string. It must be called
// before anything asks x for its Type: that makes fastjson unescape it.
func (sb *strBuf) bytes(x *fastjson.Value) ([]byte, bool) {
	// MarshalTo writes a string that fastjson has not unescaped yet as it
	// appeared in the line, quotes included.
	sb.raw = x.MarshalTo(sb.raw[:0])
	if len(sb.raw) < 2 || sb.raw[0] != '"' {
		return nil, false
	}
	body := sb.raw[1 : len(sb.raw)-1]
	if orig, ok := sb.in.body(body); ok {
		body = orig
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return body, true
	}
	sb.out = unescapeJSON(sb.out[:0], body)
	return sb.out, true
}

// raw returns the still-escaped body of x when it is a string (quotes
// removed). It aliases the buffer and is valid until the next call.
func (sb *strBuf) rawBody(x *fastjson.Value) ([]byte, bool) {
	sb.raw = x.MarshalTo(sb.raw[:0])
	if len(sb.raw) < 2 || sb.raw[0] != '"' {
		return nil, false
	}
	if orig, ok := sb.in.body(sb.raw[1 : len(sb.raw)-1]); ok {
		return orig, true
	}
	return sb.raw[1 : len(sb.raw)-1], true
}

// release drops buffers grown by a very large string, so that one 50 MB tool
// output does not pin 100 MB for the rest of the read.
func (sb *strBuf) release() {
	const keep = 1 << 20
	if cap(sb.raw) > keep {
		sb.raw = nil
	}
	if cap(sb.out) > keep {
		sb.out = nil
	}
}

// unescapeJSON appends the unescaped body of a JSON string (without its
// quotes) to dst.
func unescapeJSON(dst, s []byte) []byte {
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		s = s[i:]
		if len(s) < 2 {
			return append(dst, s...)
		}
		c := s[1]
		switch c {
		case '"', '\\', '/':
			dst = append(dst, c)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(s[2:])
			if !ok {
				dst = append(dst, s[:2]...)
				s = s[2:]
				continue
			}
			s = s[6:]
			if utf16.IsSurrogate(r) {
				// A high surrogate followed by a low one is one character;
				// anything else is a lone surrogate, and only it is replaced.
				if r2, ok := lowSurrogate(s); ok && r < 0xDC00 {
					dst = utf8.AppendRune(dst, utf16.DecodeRune(r, r2))
					s = s[6:]
				} else {
					dst = utf8.AppendRune(dst, utf8.RuneError)
				}
				continue
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default:
			// Not a JSON escape: keep it as written.
			dst = append(dst, s[:2]...)
		}
		s = s[2:]
	}
	return dst
}

// unescapedLen returns len(unescapeJSON(nil, s)) without building it: the
// length of a lazy text is known without decoding its megabytes.
func unescapedLen(s []byte) int {
	n := 0
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			return n + len(s)
		}
		n += i
		s = s[i:]
		if len(s) < 2 {
			return n + len(s)
		}
		switch s[1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			n++
		case 'u':
			r, ok := hex4(s[2:])
			if !ok {
				n += 2
				s = s[2:]
				continue
			}
			s = s[6:]
			if utf16.IsSurrogate(r) {
				if r2, ok := lowSurrogate(s); ok && r < 0xDC00 {
					n += utf8.RuneLen(utf16.DecodeRune(r, r2))
					s = s[6:]
				} else {
					n += utf8.RuneLen(utf8.RuneError)
				}
				continue
			}
			n += utf8.RuneLen(r)
			continue
		default:
			n += 2
		}
		s = s[2:]
	}
	return n
}

// escapeSlack bounds how far a cut inside an escape can garble decoding: a
// surrogate pair is 12 bytes.
const escapeSlack = 16

// unescapeHead decodes enough of the start of s to give its first
// want bytes exactly (an escape is at most 6 bytes for 1 decoded byte).
func unescapeHead(s []byte, want int) []byte {
	raw := s[:min(len(s), 6*(want+escapeSlack))]
	out := unescapeJSON(nil, raw)
	if len(raw) < len(s) {
		out = out[:max(0, len(out)-escapeSlack)] // the cut may have split an escape
	}
	return out
}

// unescapeTail decodes enough of the end of s to give its last want bytes
// exactly; a start inside an escape garbles at most its first bytes.
func unescapeTail(s []byte, want int) []byte {
	from := max(0, len(s)-6*(want+escapeSlack))
	// Start at the beginning of a run of backslashes: inside one, every
	// pair would be misread ("\\n" as a newline) all along the run.
	for from > 0 && s[from-1] == '\\' {
		from--
	}
	out := unescapeJSON(nil, s[from:])
	if from > 0 {
		out = out[min(len(out), escapeSlack):]
	}
	return out
}

// lowSurrogate reads a "\uDC00"-"\uDFFF" escape at the start of s.
func lowSurrogate(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	r, ok := hex4(s[2:])
	return r, ok && r >= 0xDC00 && r <= 0xDFFF
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
