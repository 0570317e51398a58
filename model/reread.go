package model

import (
	"fmt"
	"os"
)

// rereader reads an event of a plain loupe JSONL file again from its line
// (OpenEach keeps no event; a verifier that needs an old one back, rarely,
// asks the transcript: EventAt).
type rereader struct {
	path string
	opt  ReadOptions
}

func (r *rereader) at(off int64) (Event, error) {
	f, err := os.Open(r.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, ok := lineLen(f, off, maxLine.Load()+1)
	if !ok || n == 0 {
		return nil, fmt.Errorf("%s: no line at offset %d", r.opt.Name, off)
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, off); err != nil {
		return nil, fmt.Errorf("%s: %w", r.opt.Name, err)
	}
	line := 0 // unknown; only the first line's number matters (its BOM)
	if off == 0 {
		line = 1
	}
	rd := newReader(r.opt, &countingReader{})
	rd.lazyPath = r.path
	rd.dec.decodeLine(trimLine(buf, off == 0), lineRef{n: line, off: off, size: int(n)}, buf[n-1] != '\n')
	if len(rd.t.Events) != 1 {
		return nil, fmt.Errorf("%s: the line at offset %d is no event", r.opt.Name, off)
	}
	return rd.t.Events[0], nil
}

// EventAt returns the event at index, whose line starts at byte off of the
// file: from Events when the transcript keeps them, or read again from the
// file (a plain loupe JSONL file read by OpenEach). The event read again is
// a new one, numbered and turned as the line says alone: the caller keeps
// what the first reading said of them.
func (t *Transcript) EventAt(index int, off int64) (Event, error) {
	if index >= 0 && index < len(t.Events) {
		return t.Events[index], nil
	}
	if t.reread != nil {
		return t.reread.at(off)
	}
	return nil, fmt.Errorf("%s: event %d is neither kept nor read from a file that can be read again", t.Path, index)
}

// GivesEventsBack reports whether EventAt can give back the events: the
// transcript keeps them, or they can be read again from its file.
func (t *Transcript) GivesEventsBack() bool { return len(t.Events) > 0 || t.reread != nil }
