package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// Merged is the report `loupe report` makes of result lines (JSONLine)
// written by many runs of `loupe verify --format jsonl`, one shard of the
// files each: the totals, the comparison of groups and the drop rates of
// one run over every file, from the same code.
type Merged struct {
	// GroupBy is the field to compare the runs by; "" takes the one the
	// lines were written with, if any.
	GroupBy string
	// OnlyViolations lists only the files with a violation or a finding
	// (the counts still cover every file).
	OnlyViolations bool
	// Entries keeps each file's entry for the JSON report; text and
	// Markdown need only the counts (50,000 entries are tens of MB).
	Entries bool
	// Duplicates are the paths that had more than one result line (a
	// shard run again): each is counted once, from its last line.
	Duplicates []string
	// Problems are the lines that could not be read, each naming its
	// file and line: the report does not cover them.
	Problems []string

	byPath  map[string]int
	entries []mergedEntry
	lineBy  string // the group_by the lines were written with
}

type mergedEntry struct {
	tally Tally
	// raw is the file's entry in the JSON report, without the line's own
	// members.
	raw        []byte
	unverified *Unverified
}

// lineIn is what a merger reads of a result line.
type lineIn struct {
	Path        string         `json:"path"`
	Parent      string         `json:"parent"`
	Error       string         `json:"error"`
	Runtime     string         `json:"runtime"`
	Source      string         `json:"source"`
	Turns       int            `json:"turns"`
	Meta        map[string]any `json:"meta"`
	LineVersion int            `json:"line_version"`
	Tally       *Tally         `json:"tally"`
	GroupBy     string         `json:"group_by"`
}

// maxResultLine bounds one result line: a file's entry with every
// compaction of a long run can be hundreds of megabytes.
const maxResultLine = 1 << 30

// Read adds the result lines of r, named name in what it reports. A line
// that is not a result line is a problem (file and line named); the others
// are still read. The error is one reading r.
func (m *Merged) Read(r io.Reader, name string) error {
	if m.byPath == nil {
		m.byPath = map[string]int{}
	}
	_, err := model.ReadLines(r, func(l model.Line) error {
		if msg := m.add(l.B); msg != "" {
			m.Problems = append(m.Problems, fmt.Sprintf("%s:%d: %s", name, l.N, msg))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// add reads one line; it returns why it is not a result line, or "".
func (m *Merged) add(b []byte) string {
	var in lineIn
	if err := json.Unmarshal(b, &in); err != nil {
		return "not a result line of loupe verify --format jsonl: " + err.Error()
	}
	switch {
	case in.LineVersion == 0:
		return "no line_version: not a result line of loupe verify --format jsonl"
	case in.LineVersion > LineVersion:
		return fmt.Sprintf("line_version %d: written by a newer loupe (this one reads %d)", in.LineVersion, LineVersion)
	case in.Path == "":
		return "no path"
	case in.Error == "" && in.Tally == nil:
		return "no tally"
	}
	var e mergedEntry
	if m.Entries {
		e.raw = entryOf(b)
	}
	if in.Error != "" {
		e.unverified = &Unverified{Path: in.Path, Error: in.Error}
	} else {
		t := *in.Tally
		t.Path, t.Parent, t.Runtime, t.Source, t.Turns = in.Path, in.Parent, in.Runtime, in.Source, in.Turns
		// Only the field the report groups by is kept: a run's meta is a
		// dozen strings, and there may be 50,000 runs.
		field := m.GroupBy
		if field == "" {
			field = in.GroupBy
		}
		if s, ok := in.Meta[field].(string); ok && field != "" && field != "skipped" {
			t.Fields = map[string]string{field: s}
		}
		e.tally = t
	}
	if in.GroupBy != "" {
		m.lineBy = in.GroupBy
	}
	if i, ok := m.byPath[in.Path]; ok {
		m.Duplicates = append(m.Duplicates, in.Path)
		m.entries[i] = e // the last wins: a shard run again
		return ""
	}
	m.byPath[in.Path] = len(m.entries)
	m.entries = append(m.entries, e)
	return ""
}

// entryOf is a result line without the members JSONLine added (they come
// last, from "line_version" on).
func entryOf(line []byte) []byte {
	i := bytes.LastIndex(line, []byte(`,"line_version":`))
	if i < 0 {
		return bytes.Clone(line)
	}
	return append(bytes.Clone(line[:i]), '}')
}

// field is the field the report compares by.
func (m *Merged) field() string {
	if m.GroupBy != "" {
		return m.GroupBy
	}
	return m.lineBy
}

// parts are the verified runs' tallies and the unverified files, each
// sorted by path, and the entries in the same order.
func (m *Merged) parts() (ts []Tally, un []Unverified, raw [][]byte) {
	idx := make([]int, len(m.entries))
	for i := range idx {
		idx[i] = i
	}
	path := func(e mergedEntry) string {
		if e.unverified != nil {
			return e.unverified.Path
		}
		return e.tally.Path
	}
	sort.SliceStable(idx, func(a, b int) bool { return path(m.entries[idx[a]]) < path(m.entries[idx[b]]) })
	var rawUn [][]byte
	for _, i := range idx {
		e := m.entries[i]
		if e.unverified != nil {
			un = append(un, *e.unverified)
			rawUn = append(rawUn, e.raw)
			continue
		}
		ts = append(ts, e.tally)
		raw = append(raw, e.raw)
	}
	return ts, un, append(raw, rawUn...)
}

// Verdict is the merged report's verdict (Report.OverallVerdict).
func (m *Merged) Verdict() string {
	ts, un, _ := m.parts()
	return overallVerdict(ts, len(un))
}

// Unverified counts the files that could not be verified.
func (m *Merged) Unverified() int {
	_, un, _ := m.parts()
	return len(un)
}

// shows reports whether a run is listed (OnlyViolations).
func (m *Merged) shows(t Tally) bool {
	return !m.OnlyViolations || t.Violations > 0 || t.findings() > 0
}

// Write writes the merged report: text, markdown or json.
func (m *Merged) Write(w io.Writer, format string, opt TextOptions) error {
	switch format {
	case "json":
		return m.json(w)
	case "markdown":
		return m.markdown(w)
	}
	return m.text(w, opt)
}

// text writes a line per run with a violation or a finding (the first
// line of its section in verify's text report), the files not verified,
// the duplicates, then the totals, groups and drop rates.
func (m *Merged) text(w io.Writer, opt TextOptions) error {
	ts, un, _ := m.parts()
	p := &printer{w: w, color: opt.Color}
	blocks := 0
	sep := func() {
		if blocks > 0 {
			p.line("")
		}
		blocks++
	}
	listed := false
	for _, t := range ts {
		if t.Violations == 0 && t.findings() == 0 {
			continue
		}
		if !listed {
			sep()
			listed = true
		}
		p.line("%s", p.header(t))
	}
	for _, u := range un {
		sep()
		p.line("%s · %s: %s", p.paint(ansiBold, safe(u.Path)), p.paint(ansiRed, "not verified"), safe(u.Error))
	}
	if len(m.Duplicates) > 0 {
		sep()
		p.line("%s", duplicatesNote(m.Duplicates))
	}
	p.tables(ts, len(un), m.field(), blocks > 0, sep)
	return p.err
}

// duplicatesNote says which files had more than one result line.
func duplicatesNote(paths []string) string {
	const most = 5
	names := ""
	for i, p := range paths {
		if i == most {
			names += fmt.Sprintf(", and %d more", len(paths)-most)
			break
		}
		if i > 0 {
			names += ", "
		}
		names += safe(p)
	}
	return fmt.Sprintf("%s for a file already read (a shard run again?), each file counted once from its last line: %s",
		verify.Plural(len(paths), "result line"), names)
}

// markdown writes the summary table, the files not verified, the
// duplicates, the comparison and the drop rates.
func (m *Merged) markdown(w io.Writer) error {
	ts, un, _ := m.parts()
	p := &printer{w: w}
	summaryMarkdown(p, ts, un, func(t Tally) bool { return m.shows(t) && !folded(t) })
	p.hd = 1
	if len(un) > 0 {
		notVerifiedMarkdown(p, un)
	}
	if len(m.Duplicates) > 0 {
		p.line("")
		p.line("%s", md(duplicatesNote(m.Duplicates)))
	}
	if f := m.field(); f != "" {
		p.line("")
		markdownGroups(p, ts, f)
	}
	barsMarkdown(p, ts, m.field())
	return p.err
}

// json writes the JSON report of every file: the entries as the lines
// carry them (verified first, then the files not verified, each sorted by
// path), the verdict, the groups, and the duplicates.
func (m *Merged) json(w io.Writer) error {
	if !m.Entries {
		return fmt.Errorf("report: the entries were not kept for JSON (Merged.Entries)")
	}
	ts, un, raw := m.parts()
	out := JSONReport{Version: ReportVersion, Verdict: overallVerdict(ts, len(un))}
	if f := m.field(); f != "" {
		out.GroupBy = f
		out.Groups = groupsJSON(groupTallies(ts, f))
	}
	var files [][]byte
	for i, b := range raw {
		if i >= len(ts) || m.shows(ts[i]) {
			files = append(files, b)
		}
	}
	skel, err := indentJSON(mergedJSON{JSONReport: out, Duplicates: m.Duplicates}, "")
	if err != nil {
		return err
	}
	err = splice(w, skel, "", "files", true, len(files), func(w io.Writer, i int, prefix string) error {
		var buf bytes.Buffer
		if err := json.Indent(&buf, files[i], prefix, jsonIndent); err != nil {
			return err
		}
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// mergedJSON is the JSON report with the paths that had several result
// lines.
type mergedJSON struct {
	JSONReport
	Duplicates []string `json:"duplicates,omitempty"`
}
