package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
)

// transcript is where a runtime keeps a session: a JSONL file that only
// grows (Claude Code, Codex, Gemini CLI), or a directory (opencode).
type transcript struct {
	// path is what the importer opens; format the importer's name.
	path, format string
	// marker is a string every line recording a compaction holds, so that
	// the new part of a file can be searched for one without parsing it
	// ("" when the transcript is not an appended file).
	marker string
}

// errNoTail says the transcript cannot be read from an offset.
var errNoTail = errors.New("the transcript cannot be read from an offset")

// maxTail caps the new part of a transcript read into memory and copied to
// the spool: more than that since the snapshot, and the transcript is read
// whole, in place, instead. A variable for the tests.
var maxTail int64 = 64 << 20

// errTailTooLarge says the new part of the transcript is over maxTail.
var errTailTooLarge = errors.New("the new part of the transcript is over its cap")

// stat returns the size and modification time of the transcript, which
// must be a regular file (a directory for opencode's storage): a named
// pipe, a device (/dev/zero) or a socket handed as transcript_path would be
// read as an endless stream.
func (tr transcript) stat() (int64, time.Time, error) {
	st, err := os.Stat(tr.path)
	if err != nil {
		return 0, time.Time{}, err
	}
	if !st.Mode().IsRegular() && !(st.IsDir() && tr.marker == "") {
		return 0, time.Time{}, fmt.Errorf("%s is %s, not a regular file; a transcript is not read from it", tr.path, model.FileKind(st.Mode()))
	}
	return st.Size(), st.ModTime(), nil
}

// open reads the whole transcript, in place. The importers only read.
func (tr transcript) open() (*model.Transcript, error) {
	if _, _, err := tr.stat(); err != nil {
		return nil, err
	}
	t, err := formats.Open(tr.path, formats.Options{From: tr.format})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.path, err)
	}
	return t, nil
}

// completeLines is the offset just past the last newline of the file's
// first size bytes: a line being written when the snapshot was taken is
// read again with the tail.
func (tr transcript) completeLines(size int64) (int64, error) {
	if tr.marker == "" {
		return size, nil
	}
	f, err := os.Open(tr.path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	for end := size; end > 0; {
		start := max(0, end-chunk)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// tailBytes returns the bytes appended since offset (nil when none), or
// errNoTail when the file is not an appended one or was rewritten shorter.
func (tr transcript) tailBytes(offset int64) ([]byte, error) {
	if tr.marker == "" {
		return nil, errNoTail
	}
	f, err := os.Open(tr.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() < offset {
		return nil, errNoTail
	}
	if st.Size() == offset {
		return nil, nil
	}
	if !st.Mode().IsRegular() {
		return nil, errNoTail
	}
	if st.Size()-offset > maxTail {
		return nil, errTailTooLarge
	}
	b := make([]byte, st.Size()-offset)
	n, err := f.ReadAt(b, offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:n], nil
}

// importTail reads the lines of b (the file's new part, at most maxTail)
// with the runtime's importer, from a private copy in the call's spool
// (removed on return, and with the spool whatever happens): the importers
// read files, and the transcript itself is never touched. The tail's turns
// are shifted to follow lastTurn.
func (tr transcript) importTail(sp *spool, b []byte, lastTurn int) (*model.Transcript, error) {
	dir, err := sp.mkdir("tail-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, filepath.Base(tr.path))
	if err := os.WriteFile(p, b, 0o600); err != nil {
		return nil, err
	}
	if h := testSpooled.Load(); h != nil {
		(*h)()
	}
	t, err := formats.Open(p, formats.Options{From: tr.format, Read: model.ReadOptions{LazyAbove: -1}})
	if err != nil {
		return nil, fmt.Errorf("the new lines of %s: %w", tr.path, err)
	}
	for _, e := range t.Events {
		e.Header().Turn += lastTurn
	}
	return t, nil
}

// source returns the events of t that are source (every event but the
// compactions) before index end.
func source(t *model.Transcript, end int) []model.Event {
	out := make([]model.Event, 0, end)
	for _, e := range t.Events[:end] {
		if e.Kind() != model.KindCompaction {
			out = append(out, e)
		}
	}
	return out
}
