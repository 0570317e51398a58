package kit

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadHead: up to n bytes, io.EOF when the input ended within them,
// nil when there may be more, and a stream that breaks off is an error.
func TestReadHead(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	for _, c := range []struct {
		name string
		r    io.Reader
		n    int
		want int
		err  error
	}{
		{"small file", strings.NewReader("abc"), 64 << 10, 3, io.EOF},
		{"larger than n", strings.NewReader(long), 64 << 10, 64 << 10, nil},
		{"exactly n", strings.NewReader(long[:20<<10]), 20 << 10, 20 << 10, nil},
		{"a byte at a time", iotest.OneByteReader(strings.NewReader(long[:30000])), 64 << 10, 30000, io.EOF},
		{"breaks off", io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(io.ErrUnexpectedEOF)), 64 << 10, 3, io.ErrUnexpectedEOF},
	} {
		got, err := ReadHead(c.r, c.n)
		if len(got) != c.want || !errors.Is(err, c.err) && !(err == nil && c.err == nil) {
			t.Errorf("%s: %d bytes, %v; want %d, %v", c.name, len(got), err, c.want, c.err)
		}
		if !bytes.Equal(got, []byte(long[:len(got)])) && c.name != "small file" && c.name != "breaks off" {
			t.Errorf("%s: the bytes read are not the input's", c.name)
		}
	}
}
