package report

// Result lines (`loupe verify --format jsonl`): one line per file, written
// as the file is verified, that `loupe report` merges from many shards
// into the tables of one report. A line is the file's entry in the JSON
// report (files[], written by the same code, so a change there is a change
// here) on one line, plus what a merger needs that the entry does not
// carry in full: the run's tally (counts per kind, every loss ratio
// unrounded), and with --group-by the field and the run's value of it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/loupe-dev/loupe/verify"
)

// LineVersion is the result line's version: a merger refuses lines of a
// version it does not know rather than miscount them.
const LineVersion = 1

// lineExtra are the members a result line adds to a file's entry.
type lineExtra struct {
	LineVersion int     `json:"line_version"`
	Tally       *Tally  `json:"tally,omitempty"`
	GroupBy     string  `json:"group_by,omitempty"`
	Group       *string `json:"group,omitempty"`
}

// JSONLine writes run r's result line: its files[] entry as the JSON
// report writes it (OnlyViolations and Parents apply), then its tally and
// group.
func (rep *Report) JSONLine(w io.Writer, r *verify.Result) error {
	var entry bytes.Buffer
	if err := fileJSON(&entry, rep.fileEntry(r), ""); err != nil {
		return err
	}
	t := rep.tallyOf(r)
	x := lineExtra{LineVersion: LineVersion, Tally: &t}
	if rep.GroupBy != "" {
		x.GroupBy = rep.GroupBy
		if v := t.field(rep.GroupBy); v != "" {
			x.Group = &v
		}
	}
	return writeLine(w, entry.Bytes(), x)
}

// JSONLineUnverified writes the result line of a file that could not be
// verified: its path and error, as in the JSON report.
func (rep *Report) JSONLineUnverified(w io.Writer, u Unverified) error {
	entry, err := indentJSON(JSONFile{Path: u.Path, Error: u.Error}, "")
	if err != nil {
		return err
	}
	return writeLine(w, entry, lineExtra{LineVersion: LineVersion})
}

// tallyOf is r's tally, with its session when it is a sub-agent's.
func (rep *Report) tallyOf(r *verify.Result) Tally {
	t := TallyOf(r)
	t.Parent = rep.Parents[r.Path]
	return t
}

// writeLine writes the object entry with the members of x added at its
// end, on one line.
func writeLine(w io.Writer, entry []byte, x lineExtra) error {
	var line bytes.Buffer
	if err := json.Compact(&line, entry); err != nil {
		return fmt.Errorf("report: a file's entry: %w", err)
	}
	extra, err := compactJSON(x)
	if err != nil {
		return err
	}
	b := line.Bytes()
	if len(b) < 2 || b[len(b)-1] != '}' || len(extra) < 2 {
		return fmt.Errorf("report: a file's entry is not an object")
	}
	b = b[:len(b)-1]
	if len(b) > 1 { // not {}
		b = append(b, ',')
	}
	b = append(b, extra[1:]...)
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// compactJSON encodes v on one line as the report encodes it: <, > and &
// as they are, every invisible character escaped.
func compactJSON(v any) ([]byte, error) {
	b, err := plainJSON(v)
	if err != nil {
		return nil, err
	}
	return escapeInvisible(b, jsonEscape), nil
}
