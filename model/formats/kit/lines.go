// Package kit holds what every importer of an agent runtime's files needs: a
// line reader with no line-length limit, a builder that numbers events and
// records problems, JSON string decoding that loses nothing, and the small
// mappings several runtimes share (plan lists, kept refs, exit codes).
package kit

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/loupe-dev/loupe/model"
)

// Line is one physical line of a file (see model.Line).
type Line = model.Line

// ReadLines calls fn for every non-blank line of r, with no limit on line
// length (a Codex compacted line can be 7 MB), and returns the number of
// bytes read: the loupe reader's own line loop.
func ReadLines(r io.Reader, fn func(Line) error) (int64, error) { return model.ReadLines(r, fn) }

// OpenFile opens path for reading, decompressing gzip or zstd (recognised by
// content). progress, when set, is called with the bytes of the file read so
// far and its size. close releases everything.
func OpenFile(path string, progress func(read, total int64)) (r io.Reader, size int64, closeFn func(), err error) {
	r, size, _, closeFn, err = openFile(path, progress)
	return r, size, closeFn, err
}

// OpenLazy is OpenFile for an importer that keeps the large texts of the file
// on disk: it returns as well the file's Lazy, which holds everything in
// memory when the file is compressed (offsets in it are not offsets in the
// file) or when lazyAbove is negative. lazyAbove is ReadOptions.LazyAbove.
func OpenLazy(path string, lazyAbove int, progress func(read, total int64)) (r io.Reader, z Lazy, closeFn func(), err error) {
	r, _, compressed, closeFn, err := openFile(path, progress)
	if err != nil {
		return nil, Lazy{}, nil, err
	}
	return r, NewLazy(path, !compressed, lazyAbove), closeFn, nil
}

func openFile(path string, progress func(read, total int64)) (r io.Reader, size int64, compressed bool, closeFn func(), err error) {
	// Before opening: opening a named pipe blocks until something writes
	// to it, and an importer reads its files more than once (a listing, two
	// passes, a sibling's lines), which a pipe cannot give. formats.Open
	// reads a pipe given by name once, as a stream.
	if st, err := os.Stat(path); err != nil {
		return nil, 0, false, nil, err
	} else if !st.Mode().IsRegular() {
		return nil, 0, false, nil, fmt.Errorf("%s: %s, not a regular file", path, model.FileKind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, false, nil, err
	}
	var src io.Reader = f
	var cr *countingReader
	if progress != nil {
		cr = &countingReader{r: f, total: st.Size(), fn: progress}
		src = cr
	}
	dr, compressed, dclose, err := model.Decompress(src)
	if err != nil {
		f.Close()
		return nil, 0, false, nil, fmt.Errorf("%s: %w", path, err)
	}
	return dr, st.Size(), compressed, func() {
		dclose()
		if cr != nil {
			cr.fn(cr.n, cr.total)
		}
		f.Close()
	}, nil
}

type countingReader struct {
	r     io.Reader
	n     int64
	total int64
	next  int64
	fn    func(read, total int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n >= c.next {
		c.fn(c.n, c.total)
		c.next = c.n + 1<<20
	}
	return n, err
}

// Sniff returns up to max bytes of the decompressed start of the file.
func Sniff(path string, max int) ([]byte, error) {
	r, _, closeFn, err := OpenFile(path, nil)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	buf, err := ReadHead(r, max)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf, nil
}

// ReadHead reads up to n bytes of r. Its error is io.EOF when r ended
// within them, nil when there may be more: unlike io.ReadFull, it tells a
// stream that ends from one that breaks off (a truncated gzip reports
// io.ErrUnexpectedEOF, which is a failure). The buffer grows as it is
// filled: the head of a file of a few kilobytes (most of a project's
// sub-agents) does not cost the n bytes zeroed.
func ReadHead(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, 8<<10))
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(n, 2*cap(buf))-len(buf))
		}
		k, err := r.Read(buf[len(buf):min(n, cap(buf))])
		buf = buf[:len(buf)+k]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// ReadByCopy is the Read of an importer that reads its file more than once
// (Claude Code indexes the tree before it makes the events; pi imports a
// branched session twice): the stream, which can be read only once, is
// copied to a temporary file, which open imports and which is removed
// once it has, whatever happens. Nothing is left to be read again from it
// later: no text stays lazy. The copy stops at the first line longer than
// Limits.MaxLine, the error the reader would give for it: an endless stream
// with no newline (/dev/zero) does not fill the disk.
func ReadByCopy(r io.Reader, opt model.ReadOptions, open func(path string, opt model.ReadOptions) (*model.Transcript, error)) (*model.Transcript, error) {
	if opt.Name == "" {
		opt.Name = "-"
	}
	dir, err := os.MkdirTemp("", "loupe-stream-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(&lineCapped{w: f, max: model.CurrentLimits().MaxLine}, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opt.Name, err)
	}
	opt.LazyAbove = -1
	return open(path, opt)
}

// lineCapped writes to w until one line is longer than max.
type lineCapped struct {
	w         io.Writer
	max       int64
	line, run int64 // the line being written (0-based), and its length so far
}

func (l *lineCapped) Write(p []byte) (int, error) {
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			l.run += int64(len(rest))
			break
		}
		l.run += int64(i)
		if l.run > l.max {
			break
		}
		l.line++
		l.run = 0
		rest = rest[i+1:]
	}
	if l.run > l.max {
		return 0, &model.LineTooLongError{Line: int(l.line) + 1, Limit: l.max}
	}
	return l.w.Write(p)
}
