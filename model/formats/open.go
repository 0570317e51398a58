package formats

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// sniffSize is how much of the decompressed start of a file detection sees.
const sniffSize = 64 << 10

// ErrEmpty is wrapped by the error for a file with nothing in it.
var ErrEmpty = errors.New("empty file")

// Open opens the transcript at path, detecting its format unless opt.From
// names one. "-" is standard input. A path that is neither a regular file
// nor a directory (a named pipe, /dev/stdin, a process substitution) is
// opened once and read as a stream: detection looks at the start of the
// very stream that is then read. Every error names the file. An empty file,
// and one in which nothing reads as the format, are errors (ErrEmpty,
// *NothingReadError): a verifier that checked nothing must not pass.
func Open(path string, opt Options) (*model.Transcript, error) {
	return openEach(path, opt, nil)
}

func openEach(path string, opt Options, each func(*model.Transcript, model.Event)) (*model.Transcript, error) {
	if path == "-" {
		return readEach(os.Stdin, "-", opt, each)
	}
	name := opt.Read.Name
	if name == "" {
		name = path
	}
	file, st, err := stat(path)
	if err != nil {
		return nil, err // an *fs.PathError: it names the path
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readEach(f, name, opt, each)
	}
	var head []byte
	if !st.IsDir() {
		var complete bool
		if head, complete, err = sniffFile(file); err != nil {
			return nil, named(name, err)
		}
		if complete && len(bytes.TrimSpace(head)) == 0 {
			return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
		}
	}
	f, err := pick(file, opt.From, head, st.IsDir())
	if err != nil {
		return nil, named(name, err)
	}
	var seen content
	var t *model.Transcript
	if each != nil && f.Name == Native.Name {
		t, err = model.OpenEach(path, opt.Read, seen.passing(each))
	} else {
		t, err = f.Open(path, opt.Read)
	}
	if err != nil {
		return nil, named(name, err)
	}
	t.Runtime = f.Name
	return t, seen.finish(t, f, name, opt.From != "", each)
}

// Stat is os.Stat, and also accepts a path naming one session of a file
// that holds several (an opencode database) as file#session: it then
// describes the file.
func Stat(path string) (os.FileInfo, error) {
	_, st, err := stat(path)
	return st, err
}

// File is the file path reads: path itself, or the file of a
// file#session path (what to follow or open in an editor).
func File(path string) string {
	if f, _, err := stat(path); err == nil {
		return f
	}
	return path
}

func stat(path string) (file string, st os.FileInfo, err error) {
	st, err = os.Stat(path)
	if err == nil {
		return path, st, nil
	}
	i := strings.LastIndexByte(path, '#')
	if i <= 0 {
		return "", nil, err
	}
	st2, err2 := os.Stat(path[:i])
	if err2 != nil || !st2.Mode().IsRegular() {
		return "", nil, err
	}
	return path[:i], st2, nil
}

// OpenReader reads a transcript from r, a stream that can be read only once
// (standard input, a pipe): gzip and zstd are decompressed, the format is
// detected from the start of the content unless opt.From names one, and the
// same stream is handed to the format's reader. name names the stream in
// problems and errors. Formats that store a session as a directory cannot
// be read this way.
func OpenReader(r io.Reader, name string, opt Options) (*model.Transcript, error) {
	return readEach(r, name, opt, nil)
}

func readEach(r io.Reader, name string, opt Options, each func(*model.Transcript, model.Event)) (*model.Transcript, error) {
	dr, _, closeFn, err := model.Decompress(r)
	if err != nil {
		return nil, named(name, err)
	}
	defer closeFn()
	br := bufio.NewReaderSize(dr, sniffSize)
	head, err := br.Peek(sniffSize)
	complete := errors.Is(err, io.EOF)
	if err != nil && !complete && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, named(name, err)
	}
	if complete && len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	f, err := pick(name, opt.From, head, false)
	if err != nil {
		return nil, named(name, err)
	}
	if f.Read == nil {
		return nil, fmt.Errorf("%s: %s stores a session as a directory and cannot be read from a stream; give the directory's path", name, f.Name)
	}
	ro := opt.Read
	ro.Name = name
	var seen content
	var t *model.Transcript
	if each != nil && f.Name == Native.Name {
		t, err = model.ReadContentEach(br, ro, seen.passing(each))
	} else {
		t, err = f.Read(br, ro)
	}
	if err != nil {
		return nil, named(name, err)
	}
	t.Runtime = f.Name
	return t, seen.finish(t, f, name, opt.From != "", each)
}

// Detect returns the format of path (or the one named by from). Only
// regular files and directories are detected: reading the start of a pipe
// would consume it (Open reads one as a stream).
func Detect(path, from string) (Format, error) {
	if from != "" {
		return pick(path, from, nil, false)
	}
	if path == "-" {
		return Format{}, errors.New("standard input: its format is detected as it is read (formats.OpenReader)")
	}
	st, err := os.Stat(path)
	if err != nil {
		return Format{}, err
	}
	var head []byte
	switch {
	case st.IsDir():
	case st.Mode().IsRegular():
		if head, _, err = sniffFile(path); err != nil {
			return Format{}, named(path, err)
		}
	default:
		return Format{}, fmt.Errorf("%s: %s, not a regular file", path, model.FileKind(st.Mode()))
	}
	return pick(path, "", head, st.IsDir())
}

// pick returns the format named by from, or the first whose detection
// accepts head (or the directory): importers first, since loupe's own
// detection is the loosest.
func pick(path, from string, head []byte, dir bool) (Format, error) {
	all := All()
	if from != "" {
		for _, f := range all {
			if f.Name == from {
				return f, nil
			}
		}
		return Format{}, fmt.Errorf("unknown format %q; loupe reads: %s", from, strings.Join(Names(), ", "))
	}
	for _, f := range all[1:] {
		if f.Detect(path, head, dir) {
			return f, nil
		}
	}
	if Native.Detect(path, head, dir) {
		return Native, nil
	}
	return Format{}, fmt.Errorf("not a transcript format loupe reads (%s); use --from to force one", strings.Join(Names(), ", "))
}

// sniffFile returns up to sniffSize bytes of the decompressed start of the
// file, and whether that is the whole of it.
func sniffFile(path string) (head []byte, complete bool, err error) {
	r, _, closeFn, err := openPlainOrCompressed(path)
	if err != nil {
		return nil, false, err
	}
	defer closeFn()
	head, err = readHead(r, sniffSize)
	switch {
	case err == io.EOF:
		return head, true, nil
	case err != nil:
		return nil, false, err
	}
	return head, false, nil
}

// readHead reads up to n bytes of r (kit.ReadHead).
func readHead(r io.Reader, n int) ([]byte, error) { return kit.ReadHead(r, n) }

// openPlainOrCompressed opens a regular file for reading its content.
func openPlainOrCompressed(path string) (io.Reader, int64, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, err
	}
	r, _, dclose, err := model.Decompress(f)
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return r, 0, func() { dclose(); f.Close() }, nil
}

// NothingReadError is the error for a file in which nothing reads as the
// format it was opened as: every record raw (another runtime's file forced
// with --from, or lines that do not parse, read with --lenient), or none at
// all. A verifier that checked nothing must not pass.
type NothingReadError struct {
	Name, Format string
	Records      int            // raw records (lines, for the JSONL formats)
	Broken       int            // of which have an error (do not parse, lack a field)
	First        *model.Problem // the first of those errors
	Forced       bool           // the format was named with --from
}

func (e *NothingReadError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: nothing in it reads as %s", e.Name, e.Format)
	switch {
	case e.Records > 0 && e.Broken == e.Records:
		fmt.Fprintf(&b, " (every one of its %d records has an error; the first: %v)", e.Records, e.First)
	case e.Records > 0:
		fmt.Fprintf(&b, " (none of its %d records is a %s record)", e.Records, e.Format)
	}
	if e.Forced {
		b.WriteString("; is it another runtime's file? Without --from, loupe detects the format")
	}
	return b.String()
}

// content follows what of a transcript was read as its format, for the
// check that something was (see finish).
type content struct {
	read     bool // an event that is not raw
	records  int  // raw events
	broken   int  // of which have an error
	first    *model.Problem
	streamed bool // the events went to each as they were read
}

func (c *content) add(e model.Event) {
	r, ok := e.(*model.Raw)
	if !ok {
		c.read = true
		return
	}
	c.records++
	if p := r.Problem; p != nil && p.Severity == model.Error {
		if c.broken++; c.first == nil {
			c.first = p
		}
	}
}

// passing returns each, counting the events on their way.
func (c *content) passing(each func(*model.Transcript, model.Event)) func(*model.Transcript, model.Event) {
	c.streamed = true
	return func(t *model.Transcript, e model.Event) {
		c.add(e)
		each(t, e)
	}
}

// finish hands the events of a transcript read whole to each (nil keeps
// them: Open), then returns a *NothingReadError when nothing of t was read
// as f. A record the importer left out on purpose (a title, a snapshot)
// was read, and so was a loupe meta line.
func (c *content) finish(t *model.Transcript, f Format, name string, forced bool, each func(*model.Transcript, model.Event)) error {
	if !c.streamed {
		events := t.Events
		if each != nil {
			t.Events = nil
		}
		for i, e := range events {
			c.add(e)
			if each != nil {
				each(t, e)
				events[i] = nil // the caller keeps what it needs
			}
		}
	}
	if c.read {
		return nil
	}
	if t.Meta.Extra["skipped"] != "" || f.Name == Native.Name && !isZeroMeta(t.Meta) {
		return nil
	}
	return &NothingReadError{Name: name, Format: f.Name, Records: c.records, Broken: c.broken, First: c.first, Forced: forced}
}

func isZeroMeta(m model.Meta) bool {
	return m.Format == "" && m.Run == "" && m.Agent == "" && m.Source == "" && m.TS == "" && len(m.Consumers) == 0 && len(m.Extra) == 0
}

// named puts name in front of err unless err already names it ("name: …",
// "open name: …", "name is a directory"): every error of Open and
// OpenReader names the file.
func named(name string, err error) error {
	if err == nil {
		return nil
	}
	if msg := err.Error(); strings.HasPrefix(msg, name+" ") || strings.Contains(msg, name+": ") {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}
