package model

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
)

// DefaultLazyAbove is the size above which the reader keeps a tool output or
// input on disk and only its head and tail in memory.
const DefaultLazyAbove = 16 << 10

// ReadOptions tune how a transcript is read.
type ReadOptions struct {
	// Name is the file name used in problems; Open defaults it to the path.
	Name string
	// LazyAbove is the size in bytes above which tool outputs and inputs stay
	// on disk (0 means DefaultLazyAbove, a negative value keeps everything in
	// memory). Only plain files can be lazy; standard input and compressed
	// files are held in memory.
	LazyAbove int
	// Progress, when set, is called as the file is read with the bytes read
	// so far and the total (0 when unknown, as for standard input).
	Progress func(read, total int64)
}

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Open reads a loupe JSONL transcript from path ("-" is standard input).
// Compressed files (gzip, zstd) are recognised by their content, not their
// name. The returned error is an I/O failure; what is wrong inside the file is
// in Transcript.Problems.
func Open(path string, opt ReadOptions) (*Transcript, error) {
	return open(path, opt, nil)
}

// OpenEach reads the transcript at path as Open does, but hands each event
// to fn as soon as it is decoded, in file order, and does not keep it: the
// Transcript it returns (the one fn is handed, filled in as the file is
// read) has the meta, the problems, the compactions and the size, and no
// Events. Memory is then bounded by what fn keeps, not by the file. The
// consistency warnings that need the whole file (a result whose call
// never came) are among the problems once it returns. An event's Index is
// its place among the events, as in Events.
func OpenEach(path string, opt ReadOptions, fn func(*Transcript, Event)) (*Transcript, error) {
	return open(path, opt, fn)
}

func open(path string, opt ReadOptions, each func(*Transcript, Event)) (*Transcript, error) {
	if opt.Name == "" {
		opt.Name = path
	}
	if path == "-" {
		return readStream(os.Stdin, 0, opt, each)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	// Progress counts the file's own bytes, compressed or not, so that read
	// and total are in the same unit.
	cr := &countingReader{r: f, total: st.Size(), fn: opt.Progress}
	r, compressed, closeFn, err := Decompress(cr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opt.Name, err)
	}
	defer closeFn()
	rd := newReader(opt, cr)
	rd.each = each
	if !compressed {
		// Offsets in a plain file are offsets in the content: large strings
		// can be read back from it.
		rd.lazyPath = path
		rd.at = f
		if each != nil && st.Mode().IsRegular() {
			rd.t.reread = &rereader{path: path, opt: rd.opt}
		}
	}
	t, err := rd.read(r)
	if err != nil || compressed || !st.Mode().IsRegular() {
		return t, err
	}
	if err := Unchanged(path, opt.Name, st, t.Bytes); err != nil {
		return nil, err
	}
	return t, nil
}

// ErrChanged is wrapped by the error for a file that shrank or was
// replaced while it was read: what was read of it is not the file.
var ErrChanged = errors.New("changed while it was read")

// Unchanged checks that the regular file at path, which was before when it
// was opened, is still that file and no shorter, and (when read is not
// negative) that read bytes of it were read: a file cut short mid-read ends
// early. A file that grew (a live transcript being appended to) is
// unchanged. name names the file in the error.
func Unchanged(path, name string, before os.FileInfo, read int64) error {
	if !before.Mode().IsRegular() {
		return nil // a pipe or a device is read as a stream
	}
	if read >= 0 && read < before.Size() {
		return fmt.Errorf("%s: %w: it was %d bytes when opened, and ended after %d", name, ErrChanged, before.Size(), read)
	}
	after, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w: %v", name, ErrChanged, err)
	case !os.SameFile(before, after):
		return fmt.Errorf("%s: %w: another file was put in its place", name, ErrChanged)
	case after.Size() < before.Size():
		return fmt.Errorf("%s: %w: it shrank from %d to %d bytes", name, ErrChanged, before.Size(), after.Size())
	case after.Size() == before.Size() && !after.ModTime().Equal(before.ModTime()):
		return fmt.Errorf("%s: %w: it was rewritten", name, ErrChanged)
	}
	return nil
}

// Read reads a loupe JSONL transcript from r, holding every string in memory.
// gzip and zstd streams are decompressed.
func Read(r io.Reader, opt ReadOptions) (*Transcript, error) {
	return readStream(r, 0, opt, nil)
}

// ReadContent reads a loupe JSONL transcript from r, content that is already
// decompressed (formats.OpenReader sniffs a stream and hands it on), holding
// every string in memory.
func ReadContent(r io.Reader, opt ReadOptions) (*Transcript, error) {
	return ReadContentEach(r, opt, nil)
}

// ReadContentEach is ReadContent handing each event to fn as OpenEach does
// (fn nil keeps them, as ReadContent).
func ReadContentEach(r io.Reader, opt ReadOptions, fn func(*Transcript, Event)) (*Transcript, error) {
	cr := &countingReader{r: r, fn: opt.Progress}
	rd := newReader(opt, cr)
	rd.each = fn
	return rd.read(cr)
}

func readStream(r io.Reader, total int64, opt ReadOptions, each func(*Transcript, Event)) (*Transcript, error) {
	cr := &countingReader{r: r, total: total, fn: opt.Progress}
	dr, _, closeFn, err := Decompress(cr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opt.Name, err)
	}
	defer closeFn()
	rd := newReader(opt, cr)
	rd.each = each
	return rd.read(dr)
}

// Decompress sniffs r and returns a reader of its uncompressed content: gzip
// and zstd are recognised by their magic bytes. compressed reports whether it
// was; closeFn releases the decompressor. A compressed stream that grows past
// Limits.MaxRatio times its size fails with a *BombError.
func Decompress(r io.Reader) (out io.Reader, compressed bool, closeFn func(), err error) {
	in := &byteCounter{r: r}
	br := bufio.NewReaderSize(in, 8<<10) // to peek at the magic; a large read passes it by
	head, err := br.Peek(4)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, nil, err
	}
	guard := func(zr io.Reader, label string) io.Reader {
		return &bombGuard{r: zr, in: in, ratio: maxRatio.Load(), label: label}
	}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, false, nil, fmt.Errorf("gzip: %w", err)
		}
		return guard(zr, ""), true, func() { zr.Close() }, nil
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, false, nil, fmt.Errorf("zstd: %w", err)
		}
		return guard(zr, "zstd: "), true, zr.Close, nil
	}
	return br, false, func() {}, nil
}

// countingReader counts the bytes of the input (before decompression) for
// progress reports.
type countingReader struct {
	r        io.Reader
	n        int64
	total    int64
	next     int64
	reported int64
	fn       func(read, total int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.fn != nil && (c.n >= c.next || err == io.EOF) {
		c.report()
		c.next = c.n + 1<<20
	}
	return n, err
}

func (c *countingReader) report() {
	c.fn(c.n, c.total)
	c.reported = c.n
}

// done makes sure the last count was reported: a decompressor may stop
// reading before its input's EOF.
func (c *countingReader) done() {
	if c.fn != nil && c.reported != c.n {
		c.report()
	}
}

// reader turns lines into events.
type reader struct {
	opt      ReadOptions
	progress *countingReader
	lazyPath string      // set when strings can be reloaded from this file
	at       io.ReaderAt // the same content by offset, when it is a plain file
	t        *Transcript
	dec      decoder
	// each, when set, takes every event instead of t.Events (OpenEach);
	// n counts the events decoded and check follows them.
	each  func(*Transcript, Event)
	n     int
	check checker
}

func newReader(opt ReadOptions, progress *countingReader) *reader {
	if opt.LazyAbove == 0 {
		opt.LazyAbove = DefaultLazyAbove
	}
	rd := &reader{opt: opt, progress: progress, t: &Transcript{Path: opt.Name}}
	rd.dec.rd = rd
	return rd
}

func (rd *reader) read(r io.Reader) (*Transcript, error) {
	off, err := readLines(r, rd.at, func(l Line) error {
		rd.dec.decodeLine(l.B, lineRef{n: l.N, off: l.Off, size: l.Size}, !l.Terminated)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rd.opt.Name, err)
	}
	rd.t.Bytes = off
	rd.progress.done()
	if rd.each == nil {
		for _, e := range rd.t.Events {
			rd.check.event(e)
		}
	}
	rd.check.finish(rd.t)
	return rd.t, nil
}

// trimLine strips the line ending (LF or CRLF) and, on the first line, a
// UTF-8 byte-order mark some editors add.
func trimLine(b []byte, first bool) []byte {
	b = bytes.TrimRight(b, "\r\n")
	if first {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	return b
}
