// Package kit holds what every importer of an agent runtime's files needs: a
// line reader with no line-length limit, a builder that numbers events and
// records problems, JSON string decoding that loses nothing, and the small
// mappings several runtimes share (plan lists, kept refs, exit codes).
package kit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/loupe-dev/loupe/model"
)

// Line is one physical line of a file.
type Line struct {
	// B is the line without its line ending (and, on line 1, without a
	// UTF-8 byte-order mark). It is only valid during the callback.
	B []byte
	// N is the 1-based line number.
	N int
	// Off is the byte offset of the line's first byte.
	Off int64
	// Terminated is false for a last line with no newline: a writer that was
	// interrupted leaves one.
	Terminated bool
	// Size is the line's length in the file, line ending included: with Off,
	// where to read it again (see Lazy).
	Size int
}

// ReadLines calls fn for every non-blank line of r. It has no limit on line
// length (a Codex compacted line can be 7 MB). It returns the number of bytes
// read.
func ReadLines(r io.Reader, fn func(Line) error) (int64, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var (
		acc []byte
		off int64
		n   int
	)
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			acc = appendDoubling(acc, chunk)
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return off, fmt.Errorf("line %d: %w", n+1, err)
		}
		b := chunk
		if len(acc) > 0 {
			acc = appendDoubling(acc, chunk)
			b = acc
		}
		if len(b) > 0 {
			n++
			size := len(b)
			terminated := b[len(b)-1] == '\n'
			t := trimLine(b, n == 1)
			if !blank(t) {
				if ferr := fn(Line{B: t, N: n, Off: off, Terminated: terminated, Size: size}); ferr != nil {
					return off, ferr
				}
			}
			off += int64(size)
		}
		if cap(acc) > keepLine {
			acc = nil // do not pin a huge buffer for the rest of the file
		} else {
			acc = acc[:0]
		}
		if err != nil { // io.EOF
			return off, nil
		}
	}
}

// keepLine is the largest line buffer kept for the next long line: tool
// outputs of a few megabytes (twice that on a Claude Code line, which repeats
// them in toolUseResult) come back again and again in a long session, and
// growing a buffer for each costs more than reading them.
const keepLine = 16 << 20

// appendDoubling appends b to acc, at least doubling its capacity when it
// must grow: a line of many megabytes arrives one buffer at a time, and
// append's gentler growth for large slices copies it over and over.
func appendDoubling(acc, b []byte) []byte {
	if len(acc)+len(b) > cap(acc) {
		grown := make([]byte, len(acc), max(2*cap(acc), len(acc)+len(b)))
		copy(grown, acc)
		acc = grown
	}
	return append(acc, b...)
}

func trimLine(b []byte, first bool) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	if first && len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf {
		b = b[3:]
	}
	return b
}

func blank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

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
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, false, nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, 0, false, nil, fmt.Errorf("%s is a directory", path)
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
	buf := make([]byte, max)
	n, err := io.ReadFull(r, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:n], err
}
