package pi

import (
	"fmt"

	"github.com/valyala/fastjson"
)

// Some pi session files hold two records on one line, with no newline
// between them ("…}}{"type":"compaction",…"): pi's own loader, which parses
// line by line, drops such a line, but the records are whole and are the
// session's. A line is therefore read as a sequence of JSON objects.

// segment is one part of a line: a record (the bytes of one JSON object) or
// a run of bytes that is not one.
type segment struct {
	start, end int // byte range in the line
	bad        bool
}

// splitLine cuts a line into records and bad runs. Whitespace between
// records is dropped. An object is found by matching its braces outside
// strings; whether it is valid JSON is the parser's to say. Bytes before an
// object that do not start one are a bad run up to the next '{'; an object
// whose braces never close takes the rest of the line (a truncated write).
func splitLine(b []byte) []segment {
	var out []segment
	i := skipSpace(b, 0)
	for i < len(b) {
		if b[i] != '{' {
			j := i + 1
			for j < len(b) && b[j] != '{' {
				j++
			}
			out = append(out, segment{start: i, end: trimRight(b, i, j), bad: true})
			i = j
			continue
		}
		end := objectEnd(b, i)
		if end < 0 {
			out = append(out, segment{start: i, end: trimRight(b, i, len(b)), bad: true})
			break
		}
		out = append(out, segment{start: i, end: end})
		i = skipSpace(b, end)
	}
	return out
}

// objectEnd returns the index just past the brace that closes the object
// starting at b[i], or -1 when the line ends first.
func objectEnd(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			i++
			for i < len(b) && b[i] != '"' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(b) {
				return -1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func trimRight(b []byte, start, end int) int {
	for end > start && (b[end-1] == ' ' || b[end-1] == '\t' || b[end-1] == '\r') {
		end--
	}
	return end
}

// recordAt parses the n-th record (0-based, bad runs not counted) of a line:
// what a text left on disk is extracted from again.
func recordAt(p *fastjson.Parser, line []byte, n int) (*fastjson.Value, error) {
	if n == 0 {
		if v, err := p.ParseBytes(line); err == nil {
			return v, nil
		}
	}
	// Counted as the import counts them: only the objects that parse.
	k := 0
	for _, s := range splitLine(line) {
		if s.bad {
			continue
		}
		v, err := p.ParseBytes(line[s.start:s.end])
		if err != nil {
			continue
		}
		if k == n {
			return v, nil
		}
		k++
	}
	return nil, fmt.Errorf("record %d of the line is gone", n+1)
}
