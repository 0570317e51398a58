package kit

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
)

// Lazy tells an importer which texts of a file stay on disk (the loupe
// reader's ReadOptions.LazyAbove) and reads them back. A text larger than the
// threshold keeps its head and tail in memory and remembers its line's offset
// and size; Load reads that line again and extracts the text from it with
// the importer's own code, so that it is byte for byte what an import held in
// memory would have made. The zero Lazy keeps everything in memory.
type Lazy struct {
	path  string
	above int
}

// NewLazy returns the Lazy of the file at path. plain is false for a
// compressed file, whose texts stay in memory; lazyAbove is
// ReadOptions.LazyAbove (0 means model.DefaultLazyAbove, negative never).
func NewLazy(path string, plain bool, lazyAbove int) Lazy {
	if !plain || lazyAbove < 0 || path == "" {
		return Lazy{}
	}
	if lazyAbove == 0 {
		lazyAbove = model.DefaultLazyAbove
	}
	return Lazy{path: path, above: lazyAbove}
}

// On reports whether any text of the file may stay on disk.
func (z Lazy) On() bool { return z.path != "" }

// Want reports whether a text of n bytes stays on disk.
func (z Lazy) Want(n int) bool {
	return z.path != "" && n > z.above && n > model.HeadBytes+model.TailBytes
}

// InputLazyAbove is the least size above which a tool call's input stays on
// disk, whatever the threshold for outputs: the verifier reads an input's
// JSON (the command, the file) from its head, which a lazy input cuts, so
// only inputs too large to be read that way (a whole file written) are
// left out of memory.
const InputLazyAbove = 256 << 10

// WantInput reports whether a tool input of n bytes stays on disk.
func (z Lazy) WantInput(n int) bool { return z.Want(n) && n > InputLazyAbove }

// InputText is Text for a tool input (see WantInput).
func (z Lazy) InputText(l Line, s string, x Extract) model.Text {
	if !z.WantInput(len(s)) {
		return model.NewText(s)
	}
	return model.LazyText(s, s, len(s), z.loader(l, x))
}

// Extract makes a text again from its line (without the line ending), the
// way the importer made it the first time.
type Extract func(line []byte) (string, error)

// Text returns s as a Text of line l: on disk when Want(len(s)), else held.
// x must give s again from the line.
func (z Lazy) Text(l Line, s string, x Extract) model.Text {
	if !z.Want(len(s)) {
		return model.NewText(s)
	}
	return model.LazyText(s, s, len(s), z.loader(l, x))
}

// Parts returns a text of n bytes of line l known by its ends: head holds at
// least its first model.HeadBytes bytes, tail its last model.TailBytes. x
// must give the whole text again from the line.
func (z Lazy) Parts(l Line, head, tail string, n int, x Extract) model.Text {
	if z.path == "" {
		panic("kit: Lazy.Parts on a file whose texts stay in memory")
	}
	return model.LazyText(head, tail, n, z.loader(l, x))
}

// Line returns the whole line l, with invalid UTF-8 replaced, as a Text (the
// JSON of a raw event).
func (z Lazy) Line(l Line) model.Text {
	if !z.Want(len(l.B)) {
		return model.NewText(ValidString(l.B))
	}
	x := func(line []byte) (string, error) { return ValidString(line), nil }
	if !utf8.Valid(l.B) {
		return z.Text(l, ValidString(l.B), x)
	}
	head := string(l.B[:model.HeadBytes+utf8.UTFMax])
	tail := string(l.B[len(l.B)-model.TailBytes-utf8.UTFMax:])
	return z.Parts(l, head, tail, len(l.B), x)
}

func (z Lazy) loader(l Line, x Extract) func() (string, error) {
	path, off, size, n := z.path, l.Off, l.Size, l.N
	return func() (string, error) {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		buf := make([]byte, size)
		if _, err := f.ReadAt(buf, off); err != nil {
			return "", fmt.Errorf("%s:%d: %w", path, n, err)
		}
		s, err := x(model.TrimLine(buf, n == 1))
		if err != nil {
			return "", fmt.Errorf("%s:%d: %w", path, n, err)
		}
		return s, nil
	}
}

// A Composer builds a text out of literal strings and JSON string values,
// joined the way an importer flattens content blocks, and tells its length,
// head and tail without decoding the values: their raw (still escaped) form
// is measured, and only the ends are decoded. String gives the whole text,
// exactly what concatenating the literals and Str of each value gives.
//
// A value with invalid UTF-8 (which Str replaces) cannot be measured without
// decoding it: Valid is then false, and Len is not exact.
type Composer struct {
	buf      []byte // the raw bodies of the values, one after another
	parts    []cpart
	n        int  // the length of the literals and the values measured
	upper    int  // n plus the raw length of the values not measured yet
	measured bool // every value is measured: n is the length
	invalid  bool
	scratch  []byte
}

type cpart struct {
	lit        string
	raw        bool
	start, end int // the body in buf
	n          int // decoded length, -1 until measured
	from       int // a token boundary of the body at least tailRaw bytes before its end
}

// tailRaw is how much of a body's end decodes to at least model.TailBytes
// plus a character: an escape is at most 6 bytes for 1 decoded byte.
const tailRaw = 6*(model.TailBytes+utf8.UTFMax) + 12

// Reset empties c, keeping its buffers.
func (c *Composer) Reset() {
	c.parts = c.parts[:0]
	c.buf = c.buf[:0]
	c.n, c.upper = 0, 0
	c.measured = true
	c.invalid = false
}

// Lit appends s.
func (c *Composer) Lit(s string) {
	if s != "" {
		c.parts = append(c.parts, cpart{lit: s, n: len(s)})
		c.n += len(s)
		c.upper += len(s)
	}
}

// Str appends the value of v when it is a JSON string and reports whether it
// was (a missing value or another type appends nothing). Like Str, it must
// be called before anything asks v for its type.
func (c *Composer) Str(v *fastjson.Value) bool {
	if v == nil || isContainer(v) {
		return false
	}
	start := len(c.buf)
	c.buf = v.MarshalTo(c.buf)
	raw := c.buf[start:]
	if len(raw) < 2 || raw[0] != '"' {
		c.buf = c.buf[:start]
		return false
	}
	body := raw[1 : len(raw)-1]
	p := cpart{raw: true, start: start + 1, end: len(c.buf) - 1}
	if len(body) == 0 {
		c.buf = c.buf[:start]
		return true
	}
	// A valid body is measured when its length is asked for: a small text
	// is only ever decoded. Decoding never lengthens a valid body.
	p.n = -1
	c.measured = false
	if !utf8.Valid(body) {
		p.n = len(body) // a guess: Valid reports it
		c.n += p.n
		c.invalid = true
	}
	c.upper += len(body)
	c.parts = append(c.parts, p)
	return true
}

// measure decodes the length of the values not measured yet.
func (c *Composer) measure() {
	if c.measured {
		return
	}
	for i := range c.parts {
		if p := &c.parts[i]; p.raw && p.n < 0 {
			body := c.buf[p.start:p.end]
			p.n, p.from = scanBody(body, len(body)-tailRaw)
			c.n += p.n
		}
	}
	c.measured = true
}

// Upper is at least Len when Valid, known without measuring the values: a
// text whose Upper is small needs no measuring to know it is small.
func (c *Composer) Upper() int { return c.upper }

// Empty reports whether nothing (or only empty strings) was appended.
func (c *Composer) Empty() bool { return len(c.parts) == 0 }

// Len is the length of the text; exact when Valid.
func (c *Composer) Len() int {
	c.measure()
	return c.n
}

// Valid reports whether every value was valid UTF-8, so that Len, Head and
// Tail are exact without decoding.
func (c *Composer) Valid() bool { return !c.invalid }

// String returns the whole text.
func (c *Composer) String() string {
	out := c.scratch[:0]
	for _, p := range c.parts {
		if !p.raw {
			out = append(out, p.lit...)
			continue
		}
		body := c.buf[p.start:p.end]
		from := len(out)
		if bytes.IndexByte(body, '\\') >= 0 {
			out = unescapeJSON(out, body)
		} else {
			out = append(out, body...)
		}
		if !utf8.Valid(out[from:]) {
			// As Str: each value's invalid bytes are replaced on their own.
			fixed := strings.ToValidUTF8(string(out[from:]), "\uFFFD")
			out = append(out[:from], fixed...)
		}
	}
	s := string(out)
	if cap(out) > 1<<20 {
		out = nil
	}
	c.scratch = out
	return s
}

// Head returns the start of the text: at least its first want bytes, or all
// of it when shorter. It needs Valid.
func (c *Composer) Head(want int) string {
	var b strings.Builder
	for _, p := range c.parts {
		if b.Len() >= want {
			break
		}
		if !p.raw {
			b.WriteString(p.lit)
			continue
		}
		b.Write(decodedHead(c.buf[p.start:p.end], want-b.Len()))
	}
	return b.String()
}

// Tail returns the end of the text: at least its last want bytes (want at
// most model.TailBytes+utf8.UTFMax), or all of it when shorter. It needs
// Valid.
func (c *Composer) Tail(want int) string {
	if want > model.TailBytes+utf8.UTFMax {
		panic("kit: Composer.Tail beyond the tail it measures")
	}
	c.measure()
	var rev []string
	got := 0
	for i := len(c.parts) - 1; i >= 0 && got < want; i-- {
		p := c.parts[i]
		s := p.lit
		if p.raw {
			s = string(unescapeJSON(nil, c.buf[p.start+p.from:p.end]))
		}
		rev = append(rev, s)
		got += len(s)
	}
	var b strings.Builder
	for i := len(rev) - 1; i >= 0; i-- {
		b.WriteString(rev[i])
	}
	return b.String()
}

// HasPrefix reports whether the text starts with s. It needs Valid.
func (c *Composer) HasPrefix(s string) bool {
	return strings.HasPrefix(c.Head(len(s)), s)
}

// MayContain reports whether the text may contain lit; false means it
// certainly does not, which is known without decoding when the text is one
// value or literal. A match across parts is not looked for: the answer is
// then true.
func (c *Composer) MayContain(lit string) bool {
	switch {
	case len(c.parts) == 0:
		return lit == ""
	case len(c.parts) > 1 || c.invalid:
		return true
	case !c.parts[0].raw:
		return strings.Contains(c.parts[0].lit, lit)
	}
	return rawMayContain(c.buf[c.parts[0].start:c.parts[0].end], lit)
}

// Text returns the text as a Text of line l: on disk without being decoded
// when it is large and Valid, decoded and then kept on disk when it is large
// but not Valid, held otherwise. x must give the whole text again from the
// line.
func (c *Composer) Text(z Lazy, l Line, x Extract) model.Text {
	if c.invalid || !z.Want(c.Upper()) || !z.Want(c.Len()) {
		return z.Text(l, c.String(), x)
	}
	return z.Parts(l, c.Head(model.HeadBytes+utf8.UTFMax), c.Tail(model.TailBytes+utf8.UTFMax), c.n, x)
}

// Release drops buffers grown by a very large value.
func (c *Composer) Release() {
	if cap(c.buf) > 8<<20 {
		c.buf = nil
	}
}

// isContainer reports whether v is an array or an object, without asking v
// for its type (which unescapes a string in place).
func isContainer(v *fastjson.Value) bool {
	return v.GetArray() != nil || v.GetObject() != nil
}

// scanBody returns the decoded length of a JSON string body (as
// unescapeJSON decodes it), and the largest token boundary at or before at
// (0 when at ≤ 0): decoding from there is in step with decoding from the
// start, even inside a long run of escaped backslashes.
func scanBody(s []byte, at int) (n, from int) {
	n, from = len(s), max(at, 0)
	synced := at <= 0
	for i := 0; i < len(s); {
		// Escapes come close together in JSON-heavy output: look for the
		// next one by hand for a few bytes before asking IndexByte.
		j, end := i, min(len(s), i+24)
		for j < end && s[j] != '\\' {
			j++
		}
		if j == end {
			k := bytes.IndexByte(s[j:], '\\')
			if k < 0 {
				break
			}
			j += k
		}
		l, d := 2, 2
		switch {
		case j+1 >= len(s) || s[j+1] == 'u':
			l, d = escape(s[j:])
		case s[j+1] == '"', s[j+1] == '\\', s[j+1] == '/', s[j+1] == 'b', s[j+1] == 'f', s[j+1] == 'n', s[j+1] == 'r', s[j+1] == 't':
			d = 1
		}
		if !synced && j+l > at {
			// at is inside this escape, or in the literal run before it
			// (then it is a boundary itself).
			if j < at {
				from = j
			}
			synced = true
		}
		n -= l - d
		i = j + l
	}
	return n, from
}

// escape returns the raw length of the escape at the start of s and the
// length of what unescapeJSON decodes it to.
func escape(s []byte) (raw, decoded int) {
	if len(s) < 2 {
		return len(s), len(s)
	}
	switch s[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, 1
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 2, 2
		}
		if r >= 0xD800 && r < 0xE000 {
			if r2, ok := lowSurrogate(s[6:]); ok && r < 0xDC00 {
				return 12, utf8.RuneLen(0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00))
			}
			return 6, utf8.RuneLen(utf8.RuneError)
		}
		return 6, utf8.RuneLen(r)
	}
	return 2, 2
}

// decodedHead decodes at least the first want bytes of a body (all of it
// when shorter), cutting the raw text at a token boundary so that nothing is
// garbled.
func decodedHead(s []byte, want int) []byte {
	// Most text has few escapes: try want raw bytes (and a token) first,
	// then twice as many, up to six per decoded byte, the most an escape
	// takes.
	var out []byte
	for at := want + 12; ; at *= 2 {
		if at+12 >= len(s) {
			return unescapeJSON(out[:0], s)
		}
		_, end := scanBody(s[:at+12], at)
		if out = unescapeJSON(out[:0], s[:end]); len(out) >= want {
			return out
		}
	}
}

// rawMayContain reports whether the decoded form of body may contain lit:
// it does only if body contains lit as written, or has an escape that
// decodes to one of lit's characters (an escape always decodes to a
// character of its own, so a match cannot straddle one otherwise).
func rawMayContain(body []byte, lit string) bool {
	if bytes.Contains(body, []byte(lit)) {
		return true
	}
	if !strings.ContainsAny(lit, "\"\\/\b\f\n\r\t") {
		// Only a \u escape can decode to one of lit's characters: look at
		// those alone, each where a backslash starts an escape (the run of
		// backslashes ending there is odd).
		for i := 0; ; {
			j := bytes.Index(body[i:], []byte(`\u`))
			if j < 0 {
				return false
			}
			i += j
			k := 1
			for k <= i && body[i-k] == '\\' {
				k++
			}
			if k%2 == 1 {
				if r, ok := escapeRune(body[i:]); ok && strings.ContainsRune(lit, r) {
					return true
				}
			}
			i += 2
		}
	}
	for i := 0; ; {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 {
			return false
		}
		i += j
		if r, ok := escapeRune(body[i:]); ok && strings.ContainsRune(lit, r) {
			return true
		}
		l, _ := escape(body[i:])
		i += l
	}
}

// escapeRune returns the character the escape at the start of s decodes to;
// false for an escape unescapeJSON keeps as written.
func escapeRune(s []byte) (rune, bool) {
	if len(s) < 2 {
		return 0, false
	}
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, false
		}
		if r >= 0xD800 && r < 0xE000 {
			if r2, ok := lowSurrogate(s[6:]); ok && r < 0xDC00 {
				return 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00), true
			}
			return utf8.RuneError, true
		}
		return r, true
	}
	return 0, false
}
