package model

// Huge lines. fastjson copies a line into its own buffer before parsing it,
// and a string is copied again to be read raw: a line holding one 100 MB
// tool output was held three times. A line above hugeLine is parsed as a
// stand-in instead: a copy in which the body of each large string value of
// the line's own object under a text-like key is replaced by a short
// placeholder; strBuf hands back the original body, which stays in the line,
// wherever the placeholder is read. The structure outside those strings is
// the same bytes, so the stand-in parses exactly when the line does; a
// stand-in that does not parse falls back to the line itself, so errors
// read as before.

import (
	"bytes"
	"strconv"
)

// Lines at least hugeLine long are parsed as a stand-in, in which string
// bodies at least hugeString long are replaced (variables for the tests).
var (
	hugeLine   = 1 << 20
	hugeString = 64 << 10
)

// hugeKeys are the top-level fields whose large string values are replaced:
// those read only through strBuf (a string anywhere else may be
// re-marshalled or described, which would show the placeholder).
var hugeKeys = [...]string{"text", "summary", "data"}

// placeholder is the prefix of a stand-in's bodies; a line that contains it
// is parsed as it is, so a placeholder in a stand-in is always one of ours.
// It needs no escaping, so it reads the same however fastjson has it.
const placeholder = "loupe/huge-line-body#"

// standIn is a huge line's stand-in: bodies[i] is the original body of the
// placeholder numbered i.
type standIn struct {
	line   []byte
	bodies [][2]int
	buf    []byte
}

// make builds the stand-in of line, or reports false when nothing in it is
// replaced (or it cannot be read the simple way).
func (s *standIn) make(line []byte) bool {
	s.line, s.bodies, s.buf = line, s.bodies[:0], s.buf[:0]
	if len(line) < hugeLine || bytes.Contains(line, []byte(placeholder)) {
		return false
	}
	depth, last := 0, 0
	var prev byte           // the last byte outside strings that is not white space
	var lastStr, key []byte // a depth-1 string that may be a key; the key a ':' follows
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			end, ok := stringEnd(line, i+1)
			if !ok {
				return false
			}
			if depth == 1 && prev == ':' && key != nil {
				if end-(i+1) >= hugeString && isHugeKey(key) {
					s.buf = append(s.buf, line[last:i+1]...)
					s.buf = append(s.buf, placeholder...)
					s.buf = strconv.AppendInt(s.buf, int64(len(s.bodies)), 10)
					s.bodies = append(s.bodies, [2]int{i + 1, end})
					last = end
				}
				lastStr = nil
			} else if depth == 1 {
				lastStr = line[i+1 : end]
			}
			key, prev, i = nil, '"', end
			continue
		case ':':
			key = nil
			if depth == 1 && prev == '"' {
				key = lastStr
			}
			lastStr, prev = nil, c
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		key, lastStr, prev = nil, nil, c
	}
	if len(s.bodies) == 0 {
		return false
	}
	s.buf = append(s.buf, line[last:]...)
	return true
}

// isHugeKey reports whether a raw key is one of hugeKeys (written without
// escapes).
func isHugeKey(raw []byte) bool {
	for _, h := range hugeKeys {
		if string(raw) == h {
			return true
		}
	}
	return false
}

// stringEnd returns the index of the quote closing a string whose body
// starts at from: the first quote not escaped by an odd run of backslashes,
// as fastjson reads it.
func stringEnd(b []byte, from int) (int, bool) {
	for i := from; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return 0, false
		}
		q := i + j
		n := 0
		for k := q - 1; k >= from && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q, true
		}
		i = q + 1
	}
	return 0, false
}

// body returns the original body a placeholder stands for.
func (s *standIn) body(raw []byte) ([]byte, bool) {
	if s == nil || len(s.bodies) == 0 || !bytes.HasPrefix(raw, []byte(placeholder)) {
		return nil, false
	}
	n, err := strconv.Atoi(string(raw[len(placeholder):]))
	if err != nil || n < 0 || n >= len(s.bodies) {
		return nil, false
	}
	sp := s.bodies[n]
	return s.line[sp[0]:sp[1]], true
}

// reset forgets the line (and drops a large buffer).
func (s *standIn) reset() {
	s.line, s.bodies = nil, s.bodies[:0]
	if cap(s.buf) > hugeLine {
		s.buf = nil
	}
}
