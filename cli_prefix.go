package main

import (
	"bytes"
	"io"
	"os"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
)

// The inspector's first screen on a large file: reading a run of millions
// of events takes seconds, so the beginning of the file is read on its own
// first and shown while the whole file is read (and then verified).
var (
	// prefixFrom is the size from which a file's beginning is shown first.
	prefixFrom int64 = 24 << 20
	// prefixSize is how much of it is read for that first screen.
	prefixSize = 4 << 20
)

// prefixOf reads the first whole lines of a large, uncompressed regular
// file (up to prefixSize) as a transcript of their own, or returns nil: a
// small file, a directory, a compressed or unreadable one, a first line
// longer than the prefix, or a beginning that does not parse.
func prefixOf(path, from string) *model.Transcript {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < prefixFrom {
		return nil
	}
	buf := make([]byte, prefixSize)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil
	}
	buf = buf[:n]
	if bytes.HasPrefix(buf, []byte{0x1f, 0x8b}) || bytes.HasPrefix(buf, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		return nil // compressed: a cut stream is no prefix of the run
	}
	end := bytes.LastIndexByte(buf, '\n')
	if end < 0 {
		return nil
	}
	t, err := formats.OpenReader(bytes.NewReader(buf[:end+1]), path, formats.Options{From: from})
	if err != nil {
		return nil
	}
	return t
}
