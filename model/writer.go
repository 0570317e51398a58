package model

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Writer writes loupe JSONL v1, one event per line.
type Writer struct {
	w   *bufio.Writer
	buf []byte
}

// NewWriter returns a Writer on w. Call Flush when done.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 1<<16)} }

// Write writes a whole transcript: its meta line, then every event.
func Write(w io.Writer, t *Transcript) error {
	lw := NewWriter(w)
	if err := lw.WriteMeta(t.Meta); err != nil {
		return err
	}
	for _, e := range t.Events {
		if err := lw.WriteEvent(e); err != nil {
			return err
		}
	}
	return lw.Flush()
}

// Flush writes any buffered data.
func (lw *Writer) Flush() error { return lw.w.Flush() }

// WriteMeta writes the meta line. The format is always loupe/v1.
func (lw *Writer) WriteMeta(m Meta) error {
	o := obj{b: lw.buf[:0]}
	o.str("type", "meta")
	o.str("format", Format)
	o.opt("run", m.Run)
	o.opt("agent", m.Agent)
	o.opt("source", m.Source)
	o.opt("ts", m.TS)
	if len(m.Consumers) > 0 {
		o.key("consumers")
		o.b = append(o.b, '[')
		for i, c := range m.Consumers {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			co := obj{b: o.b}
			co.str("name", c.Name)
			co.strs("requires", c.Requires, true)
			if c.Strict {
				co.bool("strict", true)
			}
			o.b = co.close()
		}
		o.b = append(o.b, ']')
	}
	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		o.str(k, m.Extra[k])
	}
	return lw.line(o.close())
}

// WriteEvent writes one event. Lazy texts are read back from disk.
func (lw *Writer) WriteEvent(e Event) error {
	o := obj{b: lw.buf[:0]}
	h := e.Header()
	head := func(typ string) {
		o.str("type", typ)
		o.int("turn", h.Turn)
		o.opt("ts", h.TS)
		o.opt("ref", h.Ref)
	}
	switch ev := e.(type) {
	case *Message:
		head("message")
		o.str("role", string(ev.Role))
		o.str("text", ev.Text)
		if ev.Commentary {
			o.str("phase", "commentary")
		}
	case *ToolCall:
		head("tool_call")
		o.str("id", ev.ID)
		o.str("name", ev.Name)
		if ev.Input.Len() > 0 {
			s, err := ev.Input.Load()
			if err != nil {
				return fmt.Errorf("tool call %s: %w", ev.ID, err)
			}
			o.key("input")
			o.b = append(o.b, s...)
		}
	case *ToolResult:
		head("tool_result")
		o.str("id", ev.ID)
		o.bool("is_error", ev.IsError)
		s, err := ev.Text.Load()
		if err != nil {
			return fmt.Errorf("tool result %s: %w", ev.ID, err)
		}
		o.str("text", s)
		if ev.Job != nil {
			o.key("job")
			jo := obj{b: o.b}
			jo.str("id", ev.Job.ID)
			jo.str("state", string(ev.Job.State))
			o.b = jo.close()
		}
	case *Plan:
		head("plan")
		o.key("items")
		o.b = append(o.b, '[')
		for i, it := range ev.Items {
			if i > 0 {
				o.b = append(o.b, ',')
			}
			po := obj{b: o.b}
			po.opt("id", it.ID)
			po.str("text", it.Text)
			po.str("status", string(it.Status))
			o.b = po.close()
		}
		o.b = append(o.b, ']')
	case *CommitmentEvent:
		head("commitment")
		o.opt("id", ev.ID)
		o.str("text", ev.Text)
		o.str("status", string(ev.Status))
	case *Compaction:
		head("compaction")
		o.int("seq", ev.Seq)
		o.opt("trigger", ev.Trigger)
		o.str("summary", ev.Summary)
		if ev.Opaque {
			o.bool("opaque", true)
		}
		if sr := ev.SelfReport; sr != nil {
			o.key("self_report")
			so := obj{b: o.b}
			so.strs("retained", sr.Retained, false)
			so.strs("dropped", sr.Dropped, false)
			so.opt("claim", sr.Claim)
			o.b = so.close()
		}
		if ev.TokensBefore != 0 {
			o.int("tokens_before", ev.TokensBefore)
		}
		if ev.TokensAfter != 0 {
			o.int("tokens_after", ev.TokensAfter)
		}
		o.strs("kept", ev.Kept, false)
	case *Raw:
		s, err := ev.JSON.Load()
		if err != nil {
			return fmt.Errorf("raw event at line %d: %w", h.Line, err)
		}
		if ev.Reason == "" {
			// A native line loupe does not know: written back as it was.
			return lw.line(append(o.b, s...))
		}
		// An importer's unmapped record: wrapped, so its own "type" can never
		// be mistaken for a loupe one.
		head("raw")
		o.str("reason", ev.Reason)
		o.opt("source_type", ev.Type)
		o.str("data", s)
	default:
		return fmt.Errorf("unknown event %T", e)
	}
	return lw.line(o.close())
}

func (lw *Writer) line(b []byte) error {
	lw.buf = b[:0]
	b = append(b, '\n')
	_, err := lw.w.Write(b)
	return err
}

// obj appends one JSON object's fields in a fixed order.
type obj struct {
	b []byte
	n int
}

func (o *obj) key(k string) {
	if o.n == 0 {
		o.b = append(o.b, '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = appendString(o.b, k)
	o.b = append(o.b, ':')
}

func (o *obj) str(k, v string) { o.key(k); o.b = appendString(o.b, v) }

func (o *obj) opt(k, v string) {
	if v != "" {
		o.str(k, v)
	}
}

func (o *obj) int(k string, v int) { o.key(k); o.b = strconv.AppendInt(o.b, int64(v), 10) }

func (o *obj) bool(k string, v bool) { o.key(k); o.b = strconv.AppendBool(o.b, v) }

func (o *obj) strs(k string, vs []string, always bool) {
	if len(vs) == 0 && !always {
		return
	}
	o.key(k)
	o.b = append(o.b, '[')
	for i, v := range vs {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = appendString(o.b, v)
	}
	o.b = append(o.b, ']')
}

func (o *obj) close() []byte {
	if o.n == 0 {
		return append(o.b, '{', '}')
	}
	return append(o.b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Unlike encoding/json it leaves <, >
// and & alone: transcripts are read by people and by jq, not by browsers.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
