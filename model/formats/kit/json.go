package kit

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
	"github.com/valyala/fastjson"
)

// Str returns the string value of v at keys, or "" when it is missing or not a
// string. It decodes escapes itself: fastjson loses text around lone
// surrogates ("\ud800"), which real tool output contains; here every lone
// surrogate becomes U+FFFD and nothing else is lost. Invalid UTF-8 becomes
// U+FFFD too. The result is a copy.
//
// Call it before anything else asks the value for its type or string: that
// makes fastjson unescape it in place.
func Str(v *fastjson.Value, keys ...string) string {
	if v == nil {
		return ""
	}
	x := v
	if len(keys) > 0 {
		x = v.Get(keys...)
	}
	if x == nil {
		return ""
	}
	var buf [256]byte
	raw := x.MarshalTo(buf[:0])
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') >= 0 {
		body = unescapeJSON(make([]byte, 0, len(body)), body)
	}
	return ValidString(body)
}

// IsString reports whether v at keys is a JSON string (without unescaping it).
func IsString(v *fastjson.Value, keys ...string) bool {
	if v == nil {
		return false
	}
	x := v.Get(keys...)
	if x == nil || isContainer(x) {
		// An array or object is not marshalled just to see its first byte:
		// a tool result's content can be megabytes.
		return false
	}
	var buf [8]byte
	raw := x.MarshalTo(buf[:0])
	return len(raw) > 0 && raw[0] == '"'
}

// ValidString copies b into a string, replacing invalid UTF-8 with U+FFFD.
func ValidString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// JSON returns the compact JSON of v at keys ("" when missing), with invalid
// UTF-8 replaced.
func JSON(v *fastjson.Value, keys ...string) string {
	if v == nil {
		return ""
	}
	x := v
	if len(keys) > 0 {
		x = v.Get(keys...)
	}
	if x == nil {
		return ""
	}
	return ValidString(x.MarshalTo(nil))
}

// Int returns the integer at keys, or 0.
func Int(v *fastjson.Value, keys ...string) int {
	if v == nil {
		return 0
	}
	x := v.Get(keys...)
	if x == nil {
		return 0
	}
	switch x.Type() {
	case fastjson.TypeNumber:
		if n, err := x.Int(); err == nil {
			return n
		}
		if f, err := x.Float64(); err == nil {
			return int(f)
		}
	}
	return 0
}

// Bool returns the boolean at keys, or false.
func Bool(v *fastjson.Value, keys ...string) bool {
	if v == nil {
		return false
	}
	x := v.Get(keys...)
	return x != nil && x.Type() == fastjson.TypeTrue
}

// Has reports whether v has keys (even null).
func Has(v *fastjson.Value, keys ...string) bool {
	return v != nil && v.Exists(keys...)
}

// Array returns the array at keys, or nil.
func Array(v *fastjson.Value, keys ...string) []*fastjson.Value {
	if v == nil {
		return nil
	}
	x := v.Get(keys...)
	if x == nil || x.Type() != fastjson.TypeArray {
		return nil
	}
	a, _ := x.Array()
	return a
}

// ID returns an id written as a string or a number.
func ID(v *fastjson.Value, keys ...string) string {
	if v == nil {
		return ""
	}
	x := v.Get(keys...)
	if x == nil {
		return ""
	}
	var buf [8]byte
	raw := x.MarshalTo(buf[:0])
	if len(raw) > 0 && raw[0] == '"' {
		return Str(x)
	}
	if x.Type() == fastjson.TypeNumber {
		return string(x.MarshalTo(nil))
	}
	return ""
}

// SyntaxError explains why b is not JSON, in encoding/json's words, and the
// 1-based column of the fault (0 when unknown): the native reader's wording.
func SyntaxError(b []byte) (msg string, col int) { return model.SyntaxError(b) }

// unescapeJSON decodes a JSON string body by the loupe reader's rules.
func unescapeJSON(dst, s []byte) []byte { return model.UnescapeJSON(dst, s) }

// hex4 reads four hex digits.
func hex4(s []byte) (rune, bool) { return model.Hex4(s) }

// lowSurrogate reads a low-surrogate escape at the start of s.
func lowSurrogate(s []byte) (rune, bool) { return model.LowSurrogate(s) }

// AppendJSONString appends s to b as a JSON string, as the loupe writer
// does. (fastjson's own encoder falls back to Go quoting, which writes
// "\x1b": not JSON.)
func AppendJSONString(b []byte, s string) []byte { return model.AppendJSONString(b, s) }

// CompactJSON returns s, a JSON text, re-encoded without insignificant
// spaces (as loupe JSONL stores tool inputs), and whether s was JSON. Only
// strict JSON counts: fastjson also accepts raw control characters in
// strings and keeps them, and a newline in a tool input written as JSON
// would split its loupe JSONL line in two.
func CompactJSON(s string) (string, bool) {
	if !json.Valid([]byte(s)) {
		return s, false
	}
	var p fastjson.Parser
	v, err := p.Parse(s)
	if err != nil {
		return s, false
	}
	return ValidString(v.MarshalTo(nil)), true
}
