package model

import (
	"fmt"
	"strings"
)

// Severity says whether a Problem makes a transcript unusable for a strict
// caller (the verifier) or is only worth reporting.
type Severity uint8

// Problem severities.
const (
	// Warning: the transcript is usable as it is (a truncated last line, a
	// turn that went backwards, a result with no call).
	Warning Severity = iota
	// Error: a line could not be understood; it is kept as a raw event. The
	// verifier refuses such a file unless asked to be lenient; the inspector
	// shows it.
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Problem is something wrong with a transcript, with its position. It is an
// error value: fmt prints it as "run.jsonl:118: tool_result: "id" is missing".
type Problem struct {
	Severity Severity
	File     string
	Line     int    // 1-based; 0 when the problem concerns the whole file
	Column   int    // 1-based byte column within the line; 0 when unknown
	Type     string // the event type the line declares, when known
	Field    string // the field at fault, when there is one
	Msg      string
}

// Error formats the problem as file:line[:col]: type: message.
func (p *Problem) Error() string {
	var b strings.Builder
	switch {
	case p.File != "" && p.Line > 0:
		fmt.Fprintf(&b, "%s:%d", p.File, p.Line)
		if p.Column > 0 {
			fmt.Fprintf(&b, ":%d", p.Column)
		}
	case p.File != "":
		b.WriteString(p.File)
	case p.Line > 0:
		// No file name (a reader with no ReadOptions.Name): say what the
		// number is rather than print ":12:".
		fmt.Fprintf(&b, "line %d", p.Line)
		if p.Column > 0 {
			fmt.Fprintf(&b, ", column %d", p.Column)
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if p.Type != "" {
		b.WriteString(p.Type)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Problems is a list of problems; as an error it reports the first and the count.
type Problems []*Problem

// Error reports the first problem and how many more there are, so that a
// Problems value can be returned as an error.
func (ps Problems) Error() string {
	switch len(ps) {
	case 0:
		return "no problems"
	case 1:
		return ps[0].Error()
	}
	return fmt.Sprintf("%v (and %d more problems)", ps[0], len(ps)-1)
}

// Errors returns the problems of Error severity.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity == Error {
			out = append(out, p)
		}
	}
	return out
}
