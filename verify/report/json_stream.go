package report

// The JSON report of a long run can be tens of megabytes (thousands of
// compactions, an item in each for every open error). Encoded whole it was
// held four or five times over: encoding/json's compact bytes, its indented
// copy, the invisible-character escape's copy, and each file's MarshalJSON.
// streamJSON writes the same bytes one list element at a time: the report's
// skeleton is encoded with its long lists left null, and each list is
// written in its place element by element, indented as encoding/json would
// indent it at that depth.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/loupe-dev/loupe/verify"
)

const jsonIndent = "  "

// lazyFile is a file's entry whose compactions and lineage are converted
// to the schema as they are written.
type lazyFile struct {
	JSONFile // without Compactions and Lineage when verified
	comps    []*verify.CompactionResult
	lineage  []*verify.Lineage
	// refs decides each item entry's form as the compactions are
	// written, in order; order places a seq in the run (lineageJSON).
	refs  *itemRefs
	order map[int]int
}

// streamJSON writes what writeJSON(w, rep.jsonReport()) writes, but for
// the item references, each on one line (writeCompaction).
func streamJSON(w io.Writer, rep *Report) error {
	var files []lazyFile
	for _, r := range rep.Results {
		if rep.shows(r) {
			files = append(files, rep.fileEntry(r))
		}
	}
	for _, u := range rep.Unverified {
		files = append(files, lazyFile{JSONFile: JSONFile{Path: u.Path, Error: u.Error}})
	}
	out := JSONReport{Version: ReportVersion, Verdict: rep.OverallVerdict()}
	if rep.GroupBy != "" {
		out.GroupBy = rep.GroupBy
		out.Groups = groupsJSON(groupTallies(rep.tallies(), rep.GroupBy))
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	skel, err := indentJSON(out, "")
	if err != nil {
		return err
	}
	err = splice(bw, skel, "", "files", true, len(files), func(w io.Writer, i int, prefix string) error {
		return fileJSON(w, files[i], prefix)
	})
	if err != nil {
		return err
	}
	if _, err := bw.Write([]byte("\n")); err != nil {
		return err
	}
	return bw.Flush()
}

// fileEntry is a run's entry in files[], to be written by fileJSON.
func (rep *Report) fileEntry(r *verify.Result) lazyFile {
	lf := lazyFile{JSONFile: fileHead(r), lineage: r.Lineage, refs: newItemRefs(rep.EvidenceAll), order: compactionOrder(r)}
	lf.Parent = rep.Parents[r.Path]
	for _, c := range r.Compactions {
		if rep.showsCompaction(c) {
			lf.comps = append(lf.comps, c)
		}
	}
	return lf
}

// fileJSON writes one file's entry, as JSONFile.MarshalJSON then
// indentation at prefix make it, list by list.
func fileJSON(w io.Writer, lf lazyFile, prefix string) error {
	f := lf.JSONFile
	if f.Error != "" {
		return writeIndented(w, f, prefix)
	}
	type plain JSONFile
	comps, finds, lin, warns := lf.comps, f.Findings, lf.lineage, f.Warnings
	var full fullEntries // the file's item entries written in full lately
	f.Compactions, f.Findings, f.Lineage, f.Warnings = nil, nil, nil, nil
	skel, err := indentJSON(plain(f), prefix)
	if err != nil {
		return err
	}
	lists := []struct {
		key  string
		set  bool
		n    int
		elem func(io.Writer, int, string) error
	}{
		{"compactions", true, len(comps), func(w io.Writer, i int, p string) error {
			return writeCompaction(w, lf.refs.compaction(comps[i]), p, &full)
		}},
		{"findings", finds != nil, len(finds), func(w io.Writer, i int, p string) error { return writeIndented(w, finds[i], p) }},
		{"lineage", true, len(lin), func(w io.Writer, i int, p string) error { return writeIndented(w, lineageJSON(lin[i], lf.order), p) }},
		{"warnings", warns != nil, len(warns), func(w io.Writer, i int, p string) error { return writeIndented(w, warns[i], p) }},
	}
	for _, l := range lists {
		head, rest, ok := cutList(skel, prefix+jsonIndent, l.key)
		if !ok {
			return fmt.Errorf("report: no %q in a file's JSON", l.key)
		}
		if _, err := w.Write(head); err != nil {
			return err
		}
		if err := writeList(w, prefix+jsonIndent, l.set, l.n, l.elem); err != nil {
			return err
		}
		skel = rest
	}
	_, err = w.Write(skel)
	return err
}

// writeCompaction writes a compaction's entry with each item reference
// on one line: a run keeps the same items open through many compactions,
// and a reference spread over nine indented lines was most of the report.
// The full entries are indented as the rest.
func writeCompaction(w io.Writer, c JSONCompaction, prefix string, full *fullEntries) error {
	items := c.Items
	c.Items = nil
	full.next()
	return withIndented(c, prefix, func(skel []byte) error {
		return splice(w, skel, prefix, "items", true, len(items), func(w io.Writer, i int, p string) error {
			if !items[i].reference {
				b, err := full.bytes(&items[i], p)
				if err != nil {
					return err
				}
				_, err = w.Write(b)
				return err
			}
			b, err := items[i].MarshalJSON()
			if err != nil {
				return err
			}
			_, err = w.Write(escapeInvisible(b, jsonEscape))
			return err
		})
	})
}

// writeIndented writes v as indentJSON encodes it.
func writeIndented(w io.Writer, v any, prefix string) error {
	return withIndented(v, prefix, func(b []byte) error {
		_, err := w.Write(b)
		return err
	})
}

// indenter is a buffer and an encoder writing into it, reused by the
// report's many small encodings (a skeleton per compaction, an entry per
// item): a new encoder grew its own buffers each time, a tenth of what
// verifying a run of many compactions allocated.
type indenter struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var indenters = sync.Pool{New: func() any {
	x := &indenter{}
	x.enc = json.NewEncoder(&x.buf)
	x.enc.SetEscapeHTML(false)
	return x
}}

// maxIndenter is the largest buffer an indenter goes back to the pool
// with: one that encoded a huge entry is left to the collector.
const maxIndenter = 1 << 20

// withIndented calls f with v as indentJSON encodes it. The bytes are the
// indenter's: valid only until f returns.
func withIndented(v any, prefix string, f func([]byte) error) error {
	x := indenters.Get().(*indenter)
	x.buf.Reset()
	x.enc.SetIndent(prefix, jsonIndent)
	if err := x.enc.Encode(v); err != nil {
		return err // the indenter is not reused after an error
	}
	err := f(escapeInvisible(bytes.TrimSuffix(x.buf.Bytes(), []byte("\n")), jsonEscape))
	if x.buf.Cap() <= maxIndenter {
		x.buf.Reset()
		indenters.Put(x)
	}
	return err
}

// splice writes skel with the null value of key (at the depth of prefix's
// members) replaced by a list of n elements.
func splice(w io.Writer, skel []byte, prefix, key string, set bool, n int, elem func(io.Writer, int, string) error) error {
	head, rest, ok := cutList(skel, prefix+jsonIndent, key)
	if !ok {
		return fmt.Errorf("report: no %q in the report's JSON", key)
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	if err := writeList(w, prefix+jsonIndent, set, n, elem); err != nil {
		return err
	}
	_, err := w.Write(rest)
	return err
}

// cutList splits skel around the null of `"key": null`, a member written at
// indentation memberPrefix. Strings in JSON hold no raw newline, so the
// newline and indentation before the key find the member itself.
func cutList(skel []byte, memberPrefix, key string) (head, rest []byte, ok bool) {
	mark := []byte("\n" + memberPrefix + `"` + key + `": null`)
	i := bytes.Index(skel, mark)
	if i < 0 {
		return nil, nil, false
	}
	j := i + len(mark) - len("null")
	return skel[:j], skel[j+len("null"):], true
}

// writeList writes a list value whose key is at memberPrefix: null when it
// is not set, [] when empty, else each element on its own line one level
// deeper, as encoding/json indents them.
func writeList(w io.Writer, memberPrefix string, set bool, n int, elem func(io.Writer, int, string) error) error {
	switch {
	case !set:
		_, err := io.WriteString(w, "null")
		return err
	case n == 0:
		_, err := io.WriteString(w, "[]")
		return err
	}
	ep := memberPrefix + jsonIndent
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		sep := "\n" + ep
		if i > 0 {
			sep = "," + sep
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if err := elem(w, i, ep); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n"+memberPrefix+"]")
	return err
}

// indentJSON encodes v as writeJSON does, its lines after the first
// starting with prefix, without the final newline.
func indentJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, jsonIndent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeInvisible(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), jsonEscape), nil
}
