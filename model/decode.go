package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// lineRef locates a physical line in the file.
type lineRef struct {
	n    int   // 1-based line number
	off  int64 // offset of the line's first byte
	size int   // length including the line ending
}

// decoder decodes one line at a time. fastjson leaves string values escaped
// until asked, so a multi-megabyte tool output that stays lazy is scanned but
// never copied.
type decoder struct {
	rd       *reader
	p        fastjson.Parser
	ref      lineRef
	typ      string
	prob     *Problem // the first error of the current line
	lastTurn int
	lastSeq  int
	sawMeta  bool
	// at is the path of the object being decoded within the line ("" for the
	// line itself, "items[2]", "self_report"...), so messages name the field
	// exactly.
	at   string
	sb   strBuf
	huge standIn // the stand-in of a huge line (hugeline.go)
	// names holds the roles and tool names seen (see name).
	names map[string]string
}

// path returns the full name of field for messages: "items[2].text".
func (d *decoder) path(field string) string {
	if d.at == "" {
		return field
	}
	return d.at + "." + field
}

// within decodes fields of a nested object: messages name them under at.
func (d *decoder) within(at string, fn func()) {
	saved := d.at
	d.at = d.path(at)
	fn()
	d.at = saved
}

func (d *decoder) problem(sev Severity, field, format string, args ...any) *Problem {
	if field != "" {
		field = d.path(field)
	}
	return &Problem{
		Severity: sev,
		File:     d.rd.opt.Name,
		Line:     d.ref.n,
		Type:     d.typ,
		Field:    field,
		Msg:      fmt.Sprintf(format, args...),
	}
}

// fail records the line's first error; the line then becomes a raw event.
func (d *decoder) fail(field, format string, args ...any) {
	if d.prob == nil {
		d.prob = d.problem(Error, field, format, args...)
	}
}

func (d *decoder) warn(field, format string, args ...any) {
	d.rd.t.Problems = append(d.rd.t.Problems, d.problem(Warning, field, format, args...))
}

func (d *decoder) decodeLine(b []byte, ref lineRef, last bool) {
	d.ref, d.typ, d.prob, d.at = ref, "", nil, ""
	defer d.sb.release()
	var v *fastjson.Value
	var err error
	if d.huge.make(b) {
		d.sb.in = &d.huge
		defer func() { d.sb.in = nil; d.huge.reset() }()
		if v, err = d.p.ParseBytes(d.huge.buf); err != nil {
			d.sb.in = nil
		}
	}
	if d.sb.in == nil {
		v, err = d.p.ParseBytes(b)
	}
	if err != nil {
		msg, col := syntaxError(b, err)
		p := d.problem(Error, "", "%s", msg)
		p.Column = col
		if last {
			p.Severity = Warning
			p.Msg = "truncated last line (no newline at end of file; was the writer interrupted?): " + p.Msg
		}
		d.addRaw(b, "", p)
		return
	}
	if v.Type() != fastjson.TypeObject {
		d.addRaw(b, "", d.problem(Error, "", "the line is %s, not a JSON object", jsonKind(v)))
		return
	}
	tv := v.Get("type")
	if tv == nil {
		d.addRaw(b, "", d.problem(Error, "type", `"type" is missing`))
		return
	}
	typ, ok := d.sb.bytes(tv)
	if !ok {
		d.addRaw(b, "", d.problem(Error, "type", `"type" must be a string, not %s`, describe(tv)))
		return
	}
	d.typ = validUTF8(typ)
	var e Event
	switch d.typ {
	case "meta":
		d.meta(v, b)
		return
	case "message":
		e = d.message(v)
	case "tool_call":
		e = d.toolCall(v)
	case "tool_result":
		e = d.toolResult(v)
	case "plan":
		e = d.plan(v)
	case "commitment":
		e = d.commitment(v)
	case "compaction":
		e = d.compaction(v)
	case "raw":
		e = d.wrappedRaw(v)
	default:
		d.addRaw(b, d.typ, nil)
		return
	}
	if d.prob != nil {
		d.addRaw(b, d.typ, d.prob)
		return
	}
	d.add(e)
}

func (d *decoder) add(e Event) {
	rd := d.rd
	h := e.Header()
	h.Index = rd.n
	h.Line = d.ref.n
	h.Offset = d.ref.off
	rd.n++
	if c, ok := e.(*Compaction); ok {
		rd.t.Compactions = append(rd.t.Compactions, c)
	}
	if rd.each == nil {
		rd.t.Events = append(rd.t.Events, e)
		return
	}
	rd.check.event(e)
	rd.each(rd.t, e)
}

func (d *decoder) addRaw(b []byte, typ string, p *Problem) {
	r := &Raw{Type: typ, Problem: p}
	r.Turn = d.lastTurn
	r.JSON = d.textOf(validUTFView(b), "", false)
	if p != nil {
		d.rd.t.Problems = append(d.rd.t.Problems, p)
	}
	d.add(r)
}

// base decodes the fields every event has. A missing turn inherits the
// previous one: the event is still placed where the file put it.
func (d *decoder) base(v *fastjson.Value) Base {
	var b Base
	switch tv := v.Get("turn"); {
	case tv == nil:
		d.warn("turn", `"turn" is missing; using the previous turn (%d)`, d.lastTurn)
		b.Turn = d.lastTurn
	default:
		n, ok := d.count(tv, "turn")
		if !ok {
			// The line becomes a raw event; it keeps the previous turn, and
			// so do the lines after it that have none.
			n = d.lastTurn
		}
		b.Turn = n
	}
	b.TS = d.str(v, "ts", false)
	b.Ref = d.str(v, "ref", false)
	d.lastTurn = b.Turn
	return b
}

func (d *decoder) message(v *fastjson.Value) Event {
	m := &Message{Base: d.base(v)}
	m.Role = Role(d.name(v, "role", true))
	m.Text = d.str(v, "text", true)
	m.Commentary = d.str(v, "phase", false) == "commentary"
	switch m.Role {
	case RoleSystem, RoleUser, RoleAssistant, "":
	default:
		d.warn("role", "unknown role %q (expected system, user or assistant)", m.Role)
	}
	return m
}

func (d *decoder) toolCall(v *fastjson.Value) Event {
	c := &ToolCall{Base: d.base(v)}
	c.ID = d.str(v, "id", true)
	c.Name = d.name(v, "name", true)
	if iv := v.Get("input"); iv != nil {
		c.Input = d.textOf(validUTFView(iv.MarshalTo(nil)), "input", true)
	}
	return c
}

func (d *decoder) toolResult(v *fastjson.Value) Event {
	r := &ToolResult{Base: d.base(v)}
	r.ID = d.str(v, "id", true)
	r.IsError = d.boolean(v, "is_error")
	r.Text = d.text(v, "text")
	if jv := v.Get("job"); jv != nil && jv.Type() != fastjson.TypeNull {
		if jv.Type() != fastjson.TypeObject {
			d.fail("job", `"job" must be an object with "id" and "state", not %s`, describe(jv))
		} else {
			j := &Job{}
			d.within("job", func() {
				j.ID = d.str(jv, "id", true)
				j.State = JobState(d.str(jv, "state", true))
				switch j.State {
				case JobRunning, JobDone, JobKilled:
				default:
					if d.prob == nil {
						d.fail("state", "unknown job state %q (expected running, done or killed)", j.State)
					}
				}
			})
			r.Job = j
		}
	}
	return r
}

func (d *decoder) plan(v *fastjson.Value) Event {
	p := &Plan{Base: d.base(v)}
	iv := v.Get("items")
	if iv == nil {
		d.fail("items", `"items" is missing`)
		return p
	}
	arr, err := iv.Array()
	if err != nil {
		d.fail("items", `"items" must be an array, not %s`, describe(iv))
		return p
	}
	for i, it := range arr {
		field := fmt.Sprintf("items[%d]", i)
		if it.Type() != fastjson.TypeObject {
			d.fail(field, "%q must be an object, not %s", field, describe(it))
			continue
		}
		var item PlanItem
		d.within(field, func() {
			item = PlanItem{
				ID:     d.idLike(it, "id"),
				Text:   d.str(it, "text", true),
				Status: PlanStatus(d.str(it, "status", true)),
			}
			switch item.Status {
			case PlanPending, PlanInProgress, PlanCompleted, PlanCancelled, "":
			default:
				d.warn("status", "unknown status %q in %q (expected pending, in_progress, completed or cancelled)", item.Status, d.at)
			}
		})
		p.Items = append(p.Items, item)
	}
	return p
}

func (d *decoder) commitment(v *fastjson.Value) Event {
	c := &CommitmentEvent{Base: d.base(v)}
	c.ID = d.idLike(v, "id")
	c.Text = d.str(v, "text", true)
	c.Status = CommitmentStatus(d.str(v, "status", false))
	switch c.Status {
	case "":
		c.Status = CommitmentOpen
	case CommitmentOpen, CommitmentDone:
	default:
		d.warn("status", "unknown status %q (expected open or done)", c.Status)
	}
	return c
}

func (d *decoder) compaction(v *fastjson.Value) Event {
	c := &Compaction{Base: d.base(v)}
	if sv := v.Get("seq"); sv == nil && d.lastSeq >= MaxCount {
		d.fail("seq", `"seq" is missing, and the one before is %d, the largest allowed`, d.lastSeq)
		c.Seq = d.lastSeq
	} else if sv == nil {
		c.Seq = d.lastSeq + 1
		d.warn("seq", `"seq" is missing; numbered %d`, c.Seq)
	} else if n, ok := d.count(sv, "seq"); !ok {
		// The line becomes a raw event; the next compaction without a seq
		// is numbered after the last good one.
		c.Seq = d.lastSeq
	} else {
		c.Seq = n
	}
	d.lastSeq = c.Seq
	c.Trigger = d.str(v, "trigger", false)
	c.Opaque = d.boolean(v, "opaque")
	if v.Get("summary") == nil && !c.Opaque {
		d.warn("summary", `"summary" is missing; treated as empty`)
	}
	c.Summary = d.str(v, "summary", false)
	c.TokensBefore = d.integer(v, "tokens_before")
	c.TokensAfter = d.integer(v, "tokens_after")
	c.Kept = d.strs(v, "kept")
	if sr := v.Get("self_report"); sr != nil && sr.Type() != fastjson.TypeNull {
		if sr.Type() != fastjson.TypeObject {
			d.fail("self_report", `"self_report" must be an object, not %s`, describe(sr))
		} else {
			d.within("self_report", func() {
				c.SelfReport = &SelfReport{
					Retained: d.strs(sr, "retained"),
					Dropped:  d.strs(sr, "dropped"),
					Claim:    d.str(sr, "claim", false),
				}
			})
		}
	}
	return c
}

// wrappedRaw reads back an importer's unmapped record as the writer wrapped it.
func (d *decoder) wrappedRaw(v *fastjson.Value) Event {
	r := &Raw{Base: d.base(v)}
	r.Type = d.str(v, "source_type", false)
	r.Reason = d.str(v, "reason", true)
	if r.Reason == "" && d.prob == nil {
		// The writer tells a native line of an unknown type (written back
		// verbatim) from an importer's record (wrapped) by its reason: an
		// empty one would have data written out as a line of its own.
		d.fail("reason", `"reason" must not be empty`)
	}
	r.JSON = d.text(v, "data")
	return r
}

func (d *decoder) meta(v *fastjson.Value, line []byte) {
	if d.sawMeta {
		d.warn("", "a second meta line is ignored (kept as a raw event)")
		d.addRaw(line, "meta", nil)
		return
	}
	d.sawMeta = true
	if d.rd.n > 0 {
		n := d.rd.n
		d.warn("", "the meta line comes after %d %s; it should be the first line", n, plural(n, "event", "events"))
	}
	m := Meta{
		Format: d.str(v, "format", false),
		Run:    d.str(v, "run", false),
		Agent:  d.str(v, "agent", false),
		Source: d.str(v, "source", false),
		TS:     d.str(v, "ts", false),
	}
	if m.Format != "" && m.Format != Format {
		d.warn("format", `format %q is not %q; reading it as %s`, m.Format, Format, Format)
	}
	if cv := v.Get("consumers"); cv != nil {
		arr, err := cv.Array()
		if err != nil {
			d.fail("consumers", `"consumers" must be an array, not %s`, describe(cv))
		}
		for i, c := range arr {
			field := fmt.Sprintf("consumers[%d]", i)
			if c.Type() != fastjson.TypeObject {
				d.fail(field, `%q must be an object with "name" and "requires", not %s`, field, describe(c))
				continue
			}
			d.within(field, func() {
				m.Consumers = append(m.Consumers, Consumer{
					Name:     d.str(c, "name", true),
					Requires: d.strs(c, "requires"),
					Strict:   d.boolean(c, "strict"),
				})
			})
		}
	}
	v.GetObject().Visit(func(k []byte, x *fastjson.Value) {
		switch string(k) {
		case "type", "format", "run", "agent", "source", "consumers", "ts":
			return
		}
		var s string
		if b, ok := d.sb.bytes(x); ok {
			s = validUTF8(b)
		} else {
			switch x.Type() {
			case fastjson.TypeNumber, fastjson.TypeTrue, fastjson.TypeFalse:
				s = string(x.MarshalTo(nil))
			default:
				return
			}
		}
		if m.Extra == nil {
			m.Extra = map[string]string{}
		}
		m.Extra[validUTF8(k)] = s
	})
	if d.prob != nil {
		d.rd.t.Problems = append(d.rd.t.Problems, d.prob)
	}
	d.rd.t.Meta = m
}

// str returns a string field, copied out of the parser's buffer.
func (d *decoder) str(v *fastjson.Value, field string, required bool) string {
	x := v.Get(field)
	if x == nil {
		if required {
			d.fail(field, "%q is missing", d.path(field))
		}
		return ""
	}
	b, ok := d.sb.bytes(x)
	if !ok {
		if x.Type() == fastjson.TypeNull && !required {
			return ""
		}
		d.fail(field, "%q must be a string, not %s", d.path(field), describe(x))
		return ""
	}
	return validUTF8(b)
}

// name is str for a field with few distinct values (a role, a tool name):
// one string per value, not one per event.
func (d *decoder) name(v *fastjson.Value, field string, required bool) string {
	x := v.Get(field)
	if x == nil {
		return d.str(v, field, required)
	}
	b, ok := d.sb.bytes(x)
	if !ok || len(b) > 64 || !utf8.Valid(b) {
		return d.str(v, field, required)
	}
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	if d.names == nil || len(d.names) >= 4096 {
		d.names = map[string]string{}
	}
	d.names[s] = s
	return s
}

// idLike returns an id that runtimes write as a string or a number.
func (d *decoder) idLike(v *fastjson.Value, field string) string {
	// Not x.Type(): asking a string its type makes fastjson unescape it
	// with its own lossy rules before d.str decodes it (see strBuf); the
	// first byte of its JSON tells a number all the same.
	if x := v.Get(field); x != nil {
		if raw := x.MarshalTo(nil); len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
			return string(raw)
		}
	}
	return d.str(v, field, false)
}

// strs returns an array of strings; nil when it is missing, null or empty, so
// that what the writer omits reads back the same.
func (d *decoder) strs(v *fastjson.Value, field string) []string {
	x := v.Get(field)
	if x == nil || x.Type() == fastjson.TypeNull {
		return nil
	}
	arr, err := x.Array()
	if err != nil {
		d.fail(field, "%q must be an array of strings, not %s", d.path(field), describe(x))
		return nil
	}
	if len(arr) == 0 {
		return nil
	}
	out := make([]string, 0, len(arr))
	for i, s := range arr {
		b, ok := d.sb.bytes(s)
		if !ok {
			d.fail(field, "%q must be a string, not %s", fmt.Sprintf("%s[%d]", d.path(field), i), describe(s))
			continue
		}
		out = append(out, validUTF8(b))
	}
	return out
}

func (d *decoder) boolean(v *fastjson.Value, field string) bool {
	x := v.Get(field)
	if x == nil || x.Type() == fastjson.TypeNull {
		return false
	}
	b, err := x.Bool()
	if err != nil {
		d.fail(field, "%q must be true or false, not %s", d.path(field), describe(x))
	}
	return b
}

func (d *decoder) integer(v *fastjson.Value, field string) int {
	x := v.Get(field)
	if x == nil || x.Type() == fastjson.TypeNull {
		return 0
	}
	n, _ := d.count(x, field)
	return n
}

// MaxCount is the largest turn, seq or token count accepted: the largest
// integer a JSON number holds exactly in every reader of loupe's reports
// (2^53-1), far beyond any real run, and far enough from the int64 limit
// that counting on from it (the next seq, the next turn) never wraps.
const MaxCount = 1<<53 - 1

// count reads a non-negative integer field no larger than MaxCount; anything
// else fails the line, naming the field and the range.
func (d *decoder) count(x *fastjson.Value, field string) (int, bool) {
	n, err := x.Int64()
	switch {
	case err != nil && x.Type() == fastjson.TypeNumber && isIntLiteral(x.MarshalTo(nil)):
		d.fail(field, "%q is %s, out of range (0 to %d)", d.path(field), x.MarshalTo(nil), MaxCount)
	case err != nil:
		d.fail(field, "%q must be an integer, not %s", d.path(field), describe(x))
	case n < 0 || n > MaxCount:
		d.fail(field, "%q is %d, out of range (0 to %d)", d.path(field), n, MaxCount)
	default:
		return int(n), true
	}
	return 0, false
}

// isIntLiteral reports whether b is a JSON number with no fraction or
// exponent: one that is an integer, however large.
func isIntLiteral(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("-"))
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// text returns a string field as a Text, lazy when it is large.
func (d *decoder) text(v *fastjson.Value, field string) Text {
	x := v.Get(field)
	if x == nil {
		return Text{}
	}
	if t, ok := d.lazyString(x, field); ok {
		return t
	}
	b, ok := d.sb.bytes(x)
	if !ok {
		if x.Type() != fastjson.TypeNull {
			d.fail(field, "%q must be a string, not %s", d.path(field), describe(x))
		}
		return Text{}
	}
	if !d.lazy(len(b)) {
		return NewText(validUTF8(b))
	}
	return d.textOf(validUTFView(b), field, false)
}

// lazyString makes a lazy Text of a large string value without decoding it
// whole: only its head and tail are unescaped, and its length is counted.
// Decoding a 5 MB tool output in full costs more than parsing its line.
// Strings with invalid UTF-8 (rare) take the full path, where the bad bytes
// are replaced, so that Len always equals what Load returns.
func (d *decoder) lazyString(x *fastjson.Value, field string) (Text, bool) {
	// x.Type() must not be asked first: it makes fastjson unescape the
	// whole string. A null or non-string marshals without a quote.
	body, ok := d.sb.rawBody(x)
	if !ok || !d.lazy(len(body)) || !utf8.Valid(body) {
		return Text{}, false
	}
	n := unescapedLen(body)
	if n <= d.rd.opt.LazyAbove || n <= HeadBytes+TailBytes {
		return Text{}, false
	}
	ref, path, first := d.ref, d.rd.lazyPath, d.ref.n == 1
	return newLazyParts(unescapeHead(body, HeadBytes+4), unescapeTail(body, TailBytes+4), n, func() (string, error) {
		return reload(path, ref, first, field, false, n)
	}), true
}

func (d *decoder) lazy(n int) bool {
	return d.rd.lazyPath != "" && d.rd.opt.LazyAbove > 0 && n > d.rd.opt.LazyAbove
}

// textOf wraps s (which may alias the parser's buffer when large) in a Text.
// field names what to reload: a string field, a JSON field (asJSON), or the
// whole line ("").
func (d *decoder) textOf(s string, field string, asJSON bool) Text {
	if !d.lazy(len(s)) {
		return NewText(strings.Clone(s))
	}
	ref, path, first, n := d.ref, d.rd.lazyPath, d.ref.n == 1, len(s)
	return newLazyText(s, func() (string, error) {
		return reload(path, ref, first, field, asJSON, n)
	})
}

// reload reads a field of one line back from the file.
func reload(path string, ref lineRef, first bool, field string, asJSON bool, n int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrTextUnavailable, err)
	}
	defer f.Close()
	buf := make([]byte, ref.size)
	if _, err := f.ReadAt(buf, ref.off); err != nil {
		return "", fmt.Errorf("%w: %s:%d: %v", ErrTextUnavailable, path, ref.n, err)
	}
	line := trimLine(buf, first)
	var s string
	if field == "" {
		s = validUTF8(line)
	} else {
		var p fastjson.Parser
		v, err := p.ParseBytes(line)
		if err != nil {
			return "", fmt.Errorf("%w: %s:%d: %v", ErrTextUnavailable, path, ref.n, err)
		}
		x := v.Get(field)
		switch {
		case x == nil:
		case asJSON:
			s = validUTF8(x.MarshalTo(nil))
		default:
			var sb strBuf
			b, _ := sb.bytes(x)
			s = validUTF8(b)
		}
	}
	if len(s) != n {
		return "", fmt.Errorf("%w: %s:%d changed since it was loaded", ErrTextUnavailable, path, ref.n)
	}
	return s, nil
}

// validUTF8 copies b into a string, replacing invalid bytes (which real tool
// output contains) with U+FFFD.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// validUTFView is validUTF8 without the copy when b is already valid: the
// result aliases b and must not outlive the line unless copied.
func validUTFView(b []byte) string {
	if utf8.Valid(b) {
		return unsafeString(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func describe(v *fastjson.Value) string {
	switch v.Type() {
	case fastjson.TypeString:
		s := string(v.GetStringBytes())
		if len(s) > 20 {
			s = s[:cutUTF8(s, 20)] + "…"
		}
		return "the string " + strconv.Quote(s)
	case fastjson.TypeNumber:
		return "the number " + string(v.MarshalTo(nil))
	case fastjson.TypeObject:
		return "an object"
	case fastjson.TypeArray:
		return "an array"
	case fastjson.TypeTrue, fastjson.TypeFalse:
		return string(v.MarshalTo(nil))
	}
	return "null"
}

// syntaxError explains why a line is not JSON, using encoding/json's wording
// (which names the offending character), and gives the 1-based byte column
// of the fault (0 when unknown).
func syntaxError(b []byte, fallback error) (msg string, col int) {
	// Unmarshalling into a RawMessage only runs the syntax check: no values
	// are built, so a 50 MB broken line costs one scan.
	var x json.RawMessage
	err := json.Unmarshal(b, &x)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return "not valid JSON: " + se.Error(), int(se.Offset)
	case err != nil:
		return "not valid JSON: " + err.Error(), 0
	}
	if fallback == nil {
		return "not valid JSON", 0
	}
	return "not valid JSON: " + fallback.Error(), 0
}

// jsonKind names the JSON type of v with its article, for messages.
func jsonKind(v *fastjson.Value) string {
	switch v.Type() {
	case fastjson.TypeArray:
		return "an array"
	case fastjson.TypeString:
		return "a string"
	case fastjson.TypeNumber:
		return "a number"
	case fastjson.TypeTrue, fastjson.TypeFalse:
		return "a boolean"
	case fastjson.TypeObject:
		return "an object"
	}
	return "null"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
