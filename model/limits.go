package model

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Limits bound what reading one transcript may cost, so that a hostile or
// broken file fails with an error instead of exhausting memory: a 10 MB gzip
// can hold a 10 GB line, a few hundred kilobytes of zstd many gigabytes.
type Limits struct {
	// MaxLine is the longest line (or whole-file JSON document) read, in
	// bytes.
	MaxLine int64
	// MaxRatio is how many times its compressed size a compressed file may
	// grow to once it is past RatioFloor bytes.
	MaxRatio int64
}

// Default limits. Real lines reach a few tens of megabytes (a Codex
// compacted line, a Claude Code line repeating a large tool output); real
// JSONL compresses 5 to 50 times.
const (
	DefaultMaxLine  = 256 << 20
	DefaultMaxRatio = 250
	// RatioFloor is the decompressed size below which the ratio is not
	// checked: a small file of repetitive text may compress very well and
	// costs nothing.
	RatioFloor = 64 << 20
)

// DefaultLimits returns the limits used unless SetLimits says otherwise.
func DefaultLimits() Limits { return Limits{MaxLine: DefaultMaxLine, MaxRatio: DefaultMaxRatio} }

var maxLine, maxRatio atomic.Int64

func init() { SetLimits(DefaultLimits()) }

// SetLimits sets the limits for every read that follows, in this process: the
// command line sets them once from its flags and environment. A zero field
// takes its default.
func SetLimits(l Limits) {
	if l.MaxLine <= 0 {
		l.MaxLine = DefaultMaxLine
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = DefaultMaxRatio
	}
	maxLine.Store(l.MaxLine)
	maxRatio.Store(l.MaxRatio)
}

// CurrentLimits returns the limits in force.
func CurrentLimits() Limits { return Limits{MaxLine: maxLine.Load(), MaxRatio: maxRatio.Load()} }

// ErrLimit is wrapped by every error that reports a limit reached.
var ErrLimit = errors.New("limit reached")

// LineTooLongError reports a line longer than Limits.MaxLine.
type LineTooLongError struct {
	Line  int // 1-based; 0 for a whole-file document
	Limit int64
}

func (e *LineTooLongError) Error() string {
	what := "the line"
	if e.Line == 0 {
		what = "the file's JSON document"
	}
	return fmt.Sprintf("%s is longer than %s, the limit on one line (raise it with --max-line or LOUPE_MAX_LINE)", what, FormatSize(e.Limit))
}

// Unwrap makes errors.Is(err, ErrLimit) true.
func (e *LineTooLongError) Unwrap() error { return ErrLimit }

// BombError reports a compressed stream that grows past Limits.MaxRatio.
type BombError struct {
	In, Out int64 // bytes read and written so far
	Ratio   int64
}

func (e *BombError) Error() string {
	return fmt.Sprintf("decompressed data grows to more than %d times its compressed size (%s from %s; a decompression bomb?); raise the limit with LOUPE_MAX_RATIO",
		e.Ratio, FormatSize(e.Out), FormatSize(e.In))
}

// Unwrap makes errors.Is(err, ErrLimit) true.
func (e *BombError) Unwrap() error { return ErrLimit }

// bombGuard fails a decompressed stream that outgrows its input.
type bombGuard struct {
	r     io.Reader
	in    *byteCounter
	out   int64
	ratio int64
	err   error
	// label goes in front of the decompressor's errors that do not say
	// what failed ("zstd: "); io.EOF is never wrapped (callers compare it).
	label string
}

func (g *bombGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	g.out += int64(n)
	if g.out > RatioFloor && g.out/g.ratio > g.in.n {
		g.err = &BombError{In: g.in.n, Out: g.out, Ratio: g.ratio}
		return 0, g.err
	}
	if err != nil && err != io.EOF && g.label != "" && !strings.HasPrefix(err.Error(), g.label) {
		err = fmt.Errorf("%s%w", g.label, err)
	}
	return n, err
}

type byteCounter struct {
	r io.Reader
	n int64
}

func (c *byteCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ReadWhole reads a file that holds one JSON document (an OpenHands event,
// an opencode record, a legacy Gemini session), refusing one longer than
// Limits.MaxLine. Only regular files are read: a named pipe in a session
// directory would block.
func ReadWhole(path string) ([]byte, error) {
	// Stat first: opening a named pipe blocks until something writes to it.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s, not a regular file", path, FileKind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A whole-file format (an opencode export, an OpenHands event) kept
	// gzip- or zstd-compressed reads as the line formats do.
	r, _, closeFn, err := Decompress(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer closeFn()
	data, err := ReadAllLimited(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// ReadAllLimited reads r to its end, refusing more than Limits.MaxLine bytes.
func ReadAllLimited(r io.Reader) ([]byte, error) {
	limit := maxLine.Load()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &LineTooLongError{Limit: limit}
	}
	return data, nil
}

// FileKind names what a file that is not a regular file is.
func FileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// ParseSize reads a size such as "256MiB", "1G", "4096" (bytes); K, M and G
// are powers of 1024 with or without "iB" or "B".
func ParseSize(s string) (int64, error) {
	u := strings.TrimSpace(strings.ToUpper(s))
	mult := int64(1)
	for _, x := range []struct {
		suffix string
		mult   int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, x.suffix) {
			u, mult = strings.TrimSuffix(u, x.suffix), x.mult
			break
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || f <= 0 || f*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("bad size %q (want e.g. 256MiB)", s)
	}
	return int64(f * float64(mult)), nil
}

// FormatSize writes n bytes for a message: "256 MiB", "1.5 GiB", "512 B".
func FormatSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size {
			s := strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64)
			return strings.TrimSuffix(s, ".0") + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}
