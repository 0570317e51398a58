package kit

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
)

// Builder accumulates the events of an imported transcript: it numbers them
// (Index), stamps their position (Line, Offset), keeps turns from going
// back, collects compactions and records problems and skipped records.
type Builder struct {
	T *model.Transcript
	// File names the file being read, for problems (several files may feed
	// one transcript).
	File string
	// Lazy is the current file's: RawLine and BadLine keep large lines on
	// disk with it. The zero Lazy holds them in memory.
	Lazy Lazy

	line    int
	off     int64
	turn    int
	seq     int
	skipped map[string]int
}

// NewBuilder starts a transcript read from path. name is used in problems
// (the path when empty).
func NewBuilder(path, name string) *Builder {
	if name == "" {
		name = path
	}
	return &Builder{
		T:       &model.Transcript{Path: name, Meta: model.Meta{Format: model.Format}},
		File:    name,
		skipped: map[string]int{},
	}
}

// At sets the position stamped on the events added next.
func (b *Builder) At(line int, off int64) { b.line, b.off = line, off }

// Line returns the current line.
func (b *Builder) Line() int { return b.line }

// NextTurn starts a new turn and returns it.
func (b *Builder) NextTurn() int {
	b.turn++
	return b.turn
}

// Turn is the current turn.
func (b *Builder) Turn() int { return b.turn }

// Last returns the last event added, or nil.
func (b *Builder) Last() model.Event {
	if n := len(b.T.Events); n > 0 {
		return b.T.Events[n-1]
	}
	return nil
}

// Add appends e at the current position and turn (an event that already
// has a turn keeps it, unless it would go back). A compaction gets the next
// seq unless it has one.
func (b *Builder) Add(e model.Event) {
	h := e.Header()
	if h.Turn < b.turn {
		h.Turn = b.turn
	}
	b.turn = h.Turn
	h.Index = len(b.T.Events)
	if h.Line == 0 {
		h.Line = b.line
		h.Offset = b.off
	}
	if c, ok := e.(*model.Compaction); ok {
		if c.Seq == 0 {
			b.seq++
			c.Seq = b.seq
		} else {
			b.seq = c.Seq
		}
		b.T.Compactions = append(b.T.Compactions, c)
	}
	b.T.Events = append(b.T.Events, e)
}

// Raw appends a record the importer could not map, with the reason. data is
// the record as written.
func (b *Builder) Raw(typ, reason string, data []byte) *model.Raw {
	r := &model.Raw{Type: typ, Reason: reason, JSON: model.NewText(ValidString(data))}
	b.Add(r)
	return r
}

// RawLine is Raw for a whole line l, which stays on disk when it is large
// (see Builder.Lazy).
func (b *Builder) RawLine(typ, reason string, l Line) *model.Raw {
	r := &model.Raw{Type: typ, Reason: reason, JSON: b.Lazy.Line(l)}
	b.Add(r)
	return r
}

// RawText is Raw for a record already held as a string (its invalid UTF-8
// replaced, as Raw does: a record read whole from a file may hold any
// bytes).
func (b *Builder) RawText(typ, reason, data string) *model.Raw {
	if !utf8.ValidString(data) {
		data = strings.ToValidUTF8(data, "\uFFFD")
	}
	r := &model.Raw{Type: typ, Reason: reason, JSON: model.NewText(data)}
	b.Add(r)
	return r
}

// BadLine records a line that is not JSON: a warning when it is the last
// line and has no newline (an interrupted writer), an error otherwise. The
// line is kept as a raw event either way.
func (b *Builder) BadLine(l Line, last bool) {
	msg, col := SyntaxError(l.B)
	p := &model.Problem{Severity: model.Error, File: b.File, Line: l.N, Column: col, Msg: msg}
	reason := "line is not JSON"
	if last && !l.Terminated {
		p.Severity = model.Warning
		p.Msg = "truncated last line (no newline at end of file; was the writer interrupted?): " + msg
		reason = "truncated last line"
	}
	b.T.Problems = append(b.T.Problems, p)
	b.At(l.N, l.Off)
	r := b.RawLine("", reason, l)
	r.Problem = p
}

// Problem records a problem at the current line.
func (b *Builder) Problem(sev model.Severity, typ, field, format string, args ...any) *model.Problem {
	p := &model.Problem{Severity: sev, File: b.File, Line: b.line, Type: typ, Field: field, Msg: fmt.Sprintf(format, args...)}
	b.T.Problems = append(b.T.Problems, p)
	return p
}

// Warn records a warning at the current line.
func (b *Builder) Warn(typ, format string, args ...any) *model.Problem {
	return b.Problem(model.Warning, typ, "", format, args...)
}

// Skip counts a record left out on purpose because it is not conversation (a
// UI progress line, a file-history snapshot, a reasoning block). The counts
// go into meta as "skipped", so nothing disappears unaccounted.
func (b *Builder) Skip(what string) { b.skipped[what]++ }

// Skipped returns the counts of skipped records.
func (b *Builder) Skipped() map[string]int { return b.skipped }

// SetExtra sets a meta field (ignored when v is empty).
func (b *Builder) SetExtra(k, v string) {
	if v == "" {
		return
	}
	if b.T.Meta.Extra == nil {
		b.T.Meta.Extra = map[string]string{}
	}
	b.T.Meta.Extra[k] = v
}

// Finish completes the transcript: the skipped counts go into meta, the
// consistency warnings the loupe reader gives are added, and problems are
// sorted by line.
func (b *Builder) Finish(bytes int64) *model.Transcript {
	t := b.T
	t.Bytes = bytes
	if len(b.skipped) > 0 {
		keys := make([]string, 0, len(b.skipped))
		for k := range b.skipped {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + strconv.Itoa(b.skipped[k])
		}
		b.SetExtra("skipped", strings.Join(parts, " "))
	}
	consistency(t, b.File)
	slices.SortStableFunc(t.Problems, func(x, y *model.Problem) int { return cmp.Compare(x.Line, y.Line) })
	return t
}

// consistency adds the warnings the loupe reader's own check gives for call
// ids: a call id used twice, a result with no call. A result that only
// reports on an asynchronous job (a notification, a poll) is not warned
// about.
func consistency(t *model.Transcript, file string) {
	seen := map[string]bool{}
	answered := map[string]bool{}
	for _, e := range t.Events {
		switch ev := e.(type) {
		case *model.ToolCall:
			if seen[ev.ID] {
				t.Problems = append(t.Problems, &model.Problem{Severity: model.Warning, File: file, Line: ev.Line, Type: "tool_call", Field: "id",
					Msg: fmt.Sprintf("call id %q is used again", ev.ID)})
			}
			seen[ev.ID] = true
			answered[ev.ID] = false
		case *model.ToolResult:
			if ev.Job != nil && answered[ev.ID] {
				continue
			}
			if !seen[ev.ID] && ev.Job == nil {
				t.Problems = append(t.Problems, &model.Problem{Severity: model.Warning, File: file, Line: ev.Line, Type: "tool_result", Field: "id",
					Msg: fmt.Sprintf("result for call %q, which is not in the transcript", ev.ID)})
			}
			answered[ev.ID] = true
		}
	}
}
