package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A settings file is the user's: loupe edits it as text, inserting its
// entries after the last member or element at each level and removing them
// by the same spans, so that every other byte (order, spacing, comments in
// Gemini CLI's JSONC) stays as the user wrote it, and install followed by
// uninstall gives the file back byte for byte.

// jnode is a JSON value with its byte span in the document.
type jnode struct {
	kind       byte // '{', '[', '"', or 'v' for numbers, true, false, null
	start, end int
	members    []jmember // objects
	elems      []*jnode  // arrays
	// dup is the first member name an object holds twice: readers keep the
	// last, an edit would go to the first, so such an object is refused.
	dup   string
	dupAt int
}

type jmember struct {
	key      string
	keyStart int
	val      *jnode
}

func (n *jnode) member(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

type jscanner struct {
	b     []byte
	i     int
	depth int
}

// maxDepth bounds nesting: no settings file nests this deep, and the
// parser recurses once per level.
const maxDepth = 200

// parseJSONC parses a JSON document that may hold // and /* */ comments.
func parseJSONC(b []byte) (*jnode, error) {
	s := &jscanner{b: b}
	n, err := s.value()
	if err != nil {
		return nil, err
	}
	s.space()
	if s.i != len(b) {
		return nil, s.errf("unexpected %q after the document", b[s.i])
	}
	return n, nil
}

func (s *jscanner) errf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", lineAt(s.b, s.i), fmt.Sprintf(format, args...))
}

// lineAt is the line (from 1) of byte offset i in b.
func lineAt(b []byte, i int) int {
	return bytes.Count(b[:min(i, len(b))], []byte("\n")) + 1
}

// memberPath names member key of where for a message (a key is the user's
// text: quoted unless plain).
func memberPath(where, key string) string {
	for _, c := range []byte(key) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return where + "[" + strconv.Quote(key) + "]"
		}
	}
	if key == "" {
		return where + `[""]`
	}
	return where + "." + key
}

// checkDups refuses a document with a member name twice in an object on
// the way to loupe's entries (the top level, and everything under
// "hooks"): runtimes read the last of the two, loupe's edit would land in
// the first.
func checkDups(doc []byte, root *jnode) error {
	if root.dup != "" {
		return fmt.Errorf("line %d: %q appears twice at the top level: the runtime reads only the last one; merge them, then run loupe again", lineAt(doc, root.dupAt), root.dup)
	}
	var walk func(n *jnode, where string) error
	walk = func(n *jnode, where string) error {
		if n.dup != "" {
			return fmt.Errorf("line %d: %q appears twice in %s: the runtime reads only the last one; merge them, then run loupe again", lineAt(doc, n.dupAt), n.dup, where)
		}
		for _, m := range n.members {
			if err := walk(m.val, memberPath(where, m.key)); err != nil {
				return err
			}
		}
		for i, e := range n.elems {
			if err := walk(e, fmt.Sprintf("%s[%d]", where, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if h := root.member("hooks"); h != nil {
		return walk(h, "hooks")
	}
	return nil
}

func (s *jscanner) space() {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.i++
		case c == '/' && s.i+1 < len(s.b) && s.b[s.i+1] == '/':
			for s.i < len(s.b) && s.b[s.i] != '\n' {
				s.i++
			}
		case c == '/' && s.i+1 < len(s.b) && s.b[s.i+1] == '*':
			end := bytes.Index(s.b[s.i+2:], []byte("*/"))
			if end < 0 {
				s.i = len(s.b)
				return
			}
			s.i += end + 4
		default:
			return
		}
	}
}

func (s *jscanner) value() (*jnode, error) {
	s.space()
	if s.i >= len(s.b) {
		return nil, s.errf("unexpected end of the document")
	}
	n := &jnode{start: s.i}
	switch c := s.b[s.i]; c {
	case '{', '[':
		if s.depth++; s.depth > maxDepth {
			return nil, s.errf("nested more than %d levels deep", maxDepth)
		}
		defer func() { s.depth-- }()
	}
	switch c := s.b[s.i]; c {
	case '{':
		n.kind = '{'
		return n, s.object(n)
	case '[':
		n.kind = '['
		return n, s.array(n)
	case '"':
		n.kind = '"'
		if _, err := s.str(); err != nil {
			return nil, err
		}
	default:
		n.kind = 'v'
		for s.i < len(s.b) && !strings.ContainsRune(" \t\r\n,]}/", rune(s.b[s.i])) {
			s.i++
		}
		if !json.Valid(s.b[n.start:s.i]) {
			return nil, s.errf("not a JSON value: %q", s.b[n.start:s.i])
		}
	}
	n.end = s.i
	return n, nil
}

func (s *jscanner) str() (string, error) {
	start := s.i
	s.i++
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
			continue
		case '"':
			s.i++
			var out string
			if err := json.Unmarshal(s.b[start:s.i], &out); err != nil {
				return "", s.errf("bad string: %v", err)
			}
			return out, nil
		}
		s.i++
	}
	return "", s.errf("unterminated string")
}

func (s *jscanner) object(n *jnode) error {
	s.i++
	var seen map[string]bool
	for first := true; ; first = false {
		s.space()
		if s.i < len(s.b) && s.b[s.i] == '}' {
			s.i++
			n.end = s.i
			return nil
		}
		if !first {
			if s.i >= len(s.b) || s.b[s.i] != ',' {
				return s.errf("expected , or } in an object")
			}
			s.i++
			s.space()
			if s.i < len(s.b) && s.b[s.i] == '}' { // a trailing comma (JSONC)
				s.i++
				n.end = s.i
				return nil
			}
		}
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.errf("expected a member name")
		}
		m := jmember{keyStart: s.i}
		key, err := s.str()
		if err != nil {
			return err
		}
		m.key = key
		if n.dup == "" {
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[key] {
				n.dup, n.dupAt = key, m.keyStart
			}
			seen[key] = true
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.errf("expected : after %q", key)
		}
		s.i++
		if m.val, err = s.value(); err != nil {
			return err
		}
		n.members = append(n.members, m)
	}
}

func (s *jscanner) array(n *jnode) error {
	s.i++
	for first := true; ; first = false {
		s.space()
		if s.i < len(s.b) && s.b[s.i] == ']' {
			s.i++
			n.end = s.i
			return nil
		}
		if !first {
			if s.i >= len(s.b) || s.b[s.i] != ',' {
				return s.errf("expected , or ] in an array")
			}
			s.i++
			s.space()
			if s.i < len(s.b) && s.b[s.i] == ']' {
				s.i++
				n.end = s.i
				return nil
			}
		}
		e, err := s.value()
		if err != nil {
			return err
		}
		n.elems = append(n.elems, e)
	}
}

// edit is one splice of a document.
type edit struct {
	at, end int // bytes [at, end) are replaced
	text    string
}

// apply splices edits (which must not overlap) into b, in one pass.
func apply(b []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at < edits[j].at })
	out := make([]byte, 0, len(b))
	at := 0
	for _, e := range edits {
		out = append(out, b[at:e.at]...)
		out = append(out, e.text...)
		at = e.end
	}
	return append(out, b[at:]...)
}

// indentUnit is the document's indentation step (two spaces when it has
// none to copy).
func indentUnit(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && len(trimmed) > 0 && trimmed[0] == '"' {
			return string(line[:n])
		}
	}
	return "  "
}

// render writes v as JSON indented for depth.
func render(v any, unit string, depth int) (string, error) {
	b, err := json.MarshalIndent(v, strings.Repeat(unit, depth), unit)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// insertLast adds text (a member "k": v or an element) as the last entry of
// container c at depth (the container's own), the way removeEntries takes
// it out again: after the last entry, or in an empty container on lines of
// its own just before the closing bracket, after whatever space or comment
// the container held.
func insertLast(c *jnode, last int, text, unit string, depth int) edit {
	in := strings.Repeat(unit, depth+1)
	if last < 0 {
		return edit{at: c.end - 1, end: c.end - 1, text: "\n" + in + text + "\n" + strings.Repeat(unit, depth)}
	}
	return edit{at: last, end: last, text: ",\n" + in + text}
}

// lastEnd is where c's last entry ends (-1 when c is empty).
func lastEnd(c *jnode) int {
	switch {
	case c.kind == '{' && len(c.members) > 0:
		return c.members[len(c.members)-1].val.end
	case c.kind == '[' && len(c.elems) > 0:
		return c.elems[len(c.elems)-1].end
	}
	return -1
}

// entrySpans are the spans of a container's entries: [start of the member
// name or element, end of its value).
func entrySpans(c *jnode) [][2]int {
	var out [][2]int
	for _, m := range c.members {
		out = append(out, [2]int{m.keyStart, m.val.end})
	}
	for _, e := range c.elems {
		out = append(out, [2]int{e.start, e.end})
	}
	return out
}

// removeEntries takes the entries of c whose index drop reports out,
// mirroring insertLast: an entry after another goes with the separator
// before it; a first entry goes up to the next entry kept; when every entry
// goes, so do the lines they were on, up to the closing bracket.
func removeEntries(doc []byte, c *jnode, drop func(i int) bool) []edit {
	spans := entrySpans(c)
	firstKept := -1
	for i := range spans {
		if !drop(i) && firstKept < 0 {
			firstKept = i
		}
	}
	if firstKept < 0 {
		if len(spans) == 0 {
			return nil
		}
		return []edit{emptied(doc, c, spans[0][0], spans[len(spans)-1][1])}
	}
	var edits []edit
	for i, sp := range spans {
		switch {
		case !drop(i):
		case i < firstKept:
			edits = append(edits, edit{at: sp[0], end: spans[firstKept][0]})
		default:
			edits = append(edits, edit{at: spans[i-1][1], end: sp[1]})
		}
	}
	return mergeEdits(edits)
}

// emptied is the deletion that empties container c, whose entries span
// [first, last): the entries' own lines when they stand alone before the
// closing bracket (as insertLast writes them), else everything inside the
// brackets.
func emptied(doc []byte, c *jnode, first, last int) edit {
	whole := edit{at: c.start + 1, end: c.end - 1}
	at := first
	for at > c.start+1 && (doc[at-1] == ' ' || doc[at-1] == '\t') {
		at--
	}
	if at <= c.start+1 || doc[at-1] != '\n' {
		return whole
	}
	tail := doc[last : c.end-1]
	if len(tail) == 0 || tail[0] != '\n' || len(bytes.Trim(tail[1:], " \t")) != 0 {
		return whole
	}
	return edit{at: at - 1, end: c.end - 1}
}

// mergeEdits joins touching or overlapping deletions.
func mergeEdits(edits []edit) []edit {
	sort.Slice(edits, func(i, j int) bool { return edits[i].at < edits[j].at })
	var out []edit
	for _, e := range edits {
		if n := len(out); n > 0 && e.at <= out[n-1].end && out[n-1].text == "" && e.text == "" {
			out[n-1].end = max(out[n-1].end, e.end)
			continue
		}
		out = append(out, e)
	}
	return out
}
