package kit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/valyala/fastjson"
)

// What listing sessions without importing them needs: an importer's Scan,
// and the search for a session's files (package formats and the importers
// both call these, so they live here and not in formats, which importers
// must not import).

// ScanPath lists the sessions at path: the one scan describes when path is
// a file; in a directory, those of the files list finds there, each
// described by scan. A file scan fails on is left out and its error joined
// to the one returned, as is the error of a list that found some files.
func ScanPath[S any](path string, list func(dir string) ([]string, error), scan func(path string) (S, error)) ([]S, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		s, err := scan(path)
		if err != nil {
			return nil, err
		}
		return []S{s}, nil
	}
	files, err := list(path)
	if err != nil && len(files) == 0 {
		return nil, err
	}
	var out []S
	var errs []error
	if err != nil {
		errs = append(errs, err) // some files could not be listed
	}
	for _, f := range files {
		s, err := scan(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// ScanJSONLines reads the file at path (plain or compressed) and calls fn
// with every line that parses as JSON, passing over those that do not. It
// returns the times (RFC 3339) of the first and the last top-level
// "timestamp" of those lines, zero when there is none or it does not parse.
// An error opening the file is returned as it is, one reading it with the
// path in front.
func ScanJSONLines(path string, fn func(v *fastjson.Value)) (first, last time.Time, err error) {
	r, _, closeFn, err := OpenFile(path, nil)
	if err != nil {
		return first, last, err
	}
	defer closeFn()
	var p fastjson.Parser
	var firstTS, lastTS string
	_, err = ReadLines(r, func(l Line) error {
		v, err := p.ParseBytes(l.B)
		if err != nil {
			return nil
		}
		if ts := string(v.GetStringBytes("timestamp")); ts != "" {
			if firstTS == "" {
				firstTS = ts
			}
			lastTS = ts
		}
		fn(v)
		return nil
	})
	if err != nil {
		return first, last, fmt.Errorf("%s: %w", path, err)
	}
	first, _ = time.Parse(time.RFC3339Nano, firstTS)
	last, _ = time.Parse(time.RFC3339Nano, lastTS)
	return first, last, nil
}

// ContainsAny reports whether the (decompressed) file at path holds one of
// the needles, reading it in chunks of a megabyte. A needle longer than 200
// bytes may be missed where it straddles two chunks.
func ContainsAny(path string, needles [][]byte) bool {
	r, _, closeFn, err := OpenFile(path, nil)
	if err != nil {
		return false
	}
	defer closeFn()
	const chunk = 1 << 20
	buf := make([]byte, chunk+256)
	keep := 0
	for {
		n, err := io.ReadFull(r, buf[keep:keep+chunk])
		data := buf[:keep+n]
		for _, nd := range needles {
			if bytes.Contains(data, nd) {
				return true
			}
		}
		if err != nil {
			return false
		}
		keep = min(200, len(data))
		copy(buf, data[len(data)-keep:])
	}
}
