package model

// The line loop shared by the loupe reader and every importer.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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
	// where to read it again.
	Size int
}

// ReadLines calls fn for every non-blank line of r. Lines may be long (a
// Codex compacted line can be 7 MB) up to Limits.MaxLine: a longer one stops
// the read with a *LineTooLongError, before it is held in memory. It returns
// the number of bytes read.
func ReadLines(r io.Reader, fn func(Line) error) (int64, error) {
	return readLines(r, nil, fn)
}

// readLines is ReadLines; at, when not nil, reads the same content by
// offset (a plain file): a line longer than the read buffer is measured
// there first, so that it is collected in one buffer of its size rather
// than in doubling ones (a 100 MB tool output on one line would otherwise
// hold 64 MB and 128 MB buffers at once).
func readLines(r io.Reader, at io.ReaderAt, fn func(Line) error) (int64, error) {
	// A small buffer first (16 KiB): most files of a project of sub-agents are a
	// few kilobytes, and zeroing a megabyte for each of their several
	// reads was a third of the time of verifying such a project. A file
	// that proves large gets the large buffer (fewer, longer reads; the
	// lines up to its size read in place).
	br := bufio.NewReaderSize(r, smallReadBuffer)
	grown := false
	limit := maxLine.Load()
	var (
		acc []byte
		off int64
		n   int
	)
	for {
		chunk, err := br.ReadSlice('\n')
		if int64(len(acc))+int64(len(chunk)) > limit+1 { // +1: the newline
			return off, fmt.Errorf("line %d: %w", n+1, &LineTooLongError{Line: n + 1, Limit: limit})
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(acc) == 0 && at != nil {
				if n, ok := lineLen(at, off+int64(len(chunk)), limit+1-int64(len(chunk))); ok && int64(cap(acc)) < int64(len(chunk))+n {
					acc = make([]byte, 0, int64(len(chunk))+n)
				}
			}
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
			if len(bytes.TrimSpace(t)) > 0 {
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
		if !grown && off >= largeReadBuffer {
			grown = true
			rest, _ := br.Peek(br.Buffered())
			br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(bytes.Clone(rest)), r), largeReadBuffer)
		}
	}
}

// The read buffer of the line loop: small until the input has given this
// much, then large.
const (
	smallReadBuffer = 16 << 10
	largeReadBuffer = 1 << 20
)

// lineLen returns how many bytes from offset from of at, up to and
// including the next newline (or the end), when that is at most max.
func lineLen(at io.ReaderAt, from, max int64) (int64, bool) {
	buf := make([]byte, 1<<20)
	var n int64
	for n <= max {
		k, err := at.ReadAt(buf, from+n)
		if i := bytes.IndexByte(buf[:k], '\n'); i >= 0 {
			n += int64(i) + 1
			return n, n <= max
		}
		n += int64(k)
		if err != nil {
			return n, errors.Is(err, io.EOF) && n <= max
		}
	}
	return 0, false
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

// TrimLine strips a line's ending (LF or CRLF) and, on the first line, a
// UTF-8 byte-order mark: what ReadLines gives as Line.B, for a line read
// again from its offset.
func TrimLine(b []byte, first bool) []byte { return trimLine(b, first) }
