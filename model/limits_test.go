package model_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/loupe-dev/loupe/model"
)

// GzipBomb returns a small gzip stream that decompresses to prefix followed
// by n MiB of 'a' and suffix: gzip members concatenate, so one compressed
// MiB repeated n times makes the bomb without compressing gigabytes.
func gzipBomb(t testing.TB, prefix string, n int, suffix string) []byte {
	member := func(data []byte) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		return b.Bytes()
	}
	mib := member(bytes.Repeat([]byte("a"), 1<<20))
	out := member([]byte(prefix))
	for range n {
		out = append(out, mib...)
	}
	return append(out, member([]byte(suffix))...)
}

// zstdBomb is gzipBomb for zstd, whose frames concatenate too.
func zstdBomb(t testing.TB, prefix string, n int) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	mib := enc.EncodeAll(bytes.Repeat([]byte("a"), 1<<20), nil)
	out := enc.EncodeAll([]byte(prefix), nil)
	for range n {
		out = append(out, mib...)
	}
	return out
}

func setLimits(t *testing.T, l model.Limits) {
	t.Helper()
	saved := model.CurrentLimits()
	model.SetLimits(l)
	t.Cleanup(func() { model.SetLimits(saved) })
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const bombPrefix = `{"type":"meta","format":"loupe/v1"}` + "\n" + `{"type":"message","turn":1,"role":"user","text":"`

// TestDecompressionBombsFail: a compressed file that would expand to
// gigabytes stops at the ratio limit with an error naming the file and the
// line, instead of running out of memory.
func TestDecompressionBombsFail(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		// 10 GiB of one JSON string in about 10 MB of gzip.
		{"bomb.jsonl.gz", gzipBomb(t, bombPrefix, 10<<10, `"}`+"\n")},
		// Many gigabytes of zstd in a few hundred kilobytes.
		{"bomb.jsonl.zst", zstdBomb(t, bombPrefix, 10<<10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.name, tc.data)
			_, err := model.Open(path, model.ReadOptions{})
			var be *model.BombError
			if !errors.As(err, &be) || !errors.Is(err, model.ErrLimit) {
				t.Fatalf("Open of a %d KiB bomb: %v, want a BombError", len(tc.data)>>10, err)
			}
			for _, want := range []string{path + ": line 2: ", "more than 250 times its compressed size", "LOUPE_MAX_RATIO"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}

// TestRatioLimitSparesRealFiles: a compressed file below the floor, or one
// that compresses like real JSONL, reads whatever its ratio.
func TestRatioLimitSparesRealFiles(t *testing.T) {
	// 8 MiB of 'a' compresses a thousand times, but stays below the floor.
	path := writeFile(t, "small.jsonl.gz", gzipBomb(t, bombPrefix, 8, `"}`+"\n"))
	tr, err := model.Open(path, model.ReadOptions{})
	if err != nil || len(tr.Events) != 1 || tr.Bytes < 8<<20 {
		t.Fatalf("8 MiB line: %v", err)
	}
	// Raising the ratio lets a larger one through.
	setLimits(t, model.Limits{MaxRatio: 1 << 20})
	path = writeFile(t, "large.jsonl.gz", gzipBomb(t, bombPrefix, 80, `"}`+"\n"))
	if _, err := model.Open(path, model.ReadOptions{}); err != nil {
		t.Fatalf("80 MiB line with the ratio raised: %v", err)
	}
}

// TestLineLimit: a line longer than the limit fails the read with the file,
// the line and the way to raise it; a line at the limit reads.
func TestLineLimit(t *testing.T) {
	if got := model.CurrentLimits().MaxLine; got != 256<<20 {
		t.Errorf("default line limit %d, want 256 MiB", got)
	}
	setLimits(t, model.Limits{MaxLine: 1 << 20})
	long := func(n int) string {
		return bombPrefix + strings.Repeat("a", n-len(`{"type":"message","turn":1,"role":"user","text":""}`)) + `"}` + "\n"
	}
	atLimit := writeFile(t, "ok.jsonl", []byte(long(1<<20)))
	if tr, err := model.Open(atLimit, model.ReadOptions{}); err != nil || len(tr.Events) != 1 {
		t.Fatalf("a line of exactly the limit: %v", err)
	}
	over := writeFile(t, "long.jsonl", []byte(long(1<<20+1)))
	for name, read := range map[string]func() error{
		"Open": func() error { _, err := model.Open(over, model.ReadOptions{}); return err },
		"Read": func() error {
			data, _ := os.ReadFile(over)
			_, err := model.Read(bytes.NewReader(data), model.ReadOptions{Name: over})
			return err
		},
	} {
		err := read()
		var le *model.LineTooLongError
		if !errors.As(err, &le) || le.Line != 2 {
			t.Fatalf("%s: %v, want a LineTooLongError at line 2", name, err)
		}
		for _, want := range []string{over + ": line 2: ", "longer than 1 MiB", "--max-line", "LOUPE_MAX_LINE"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not say %q", name, err, want)
			}
		}
	}
	// A whole-file JSON document has the same limit.
	doc := writeFile(t, "doc.json", bytes.Repeat([]byte(" "), 1<<20+1))
	if _, err := model.ReadWhole(doc); !errors.Is(err, model.ErrLimit) || !strings.Contains(err.Error(), doc) {
		t.Errorf("ReadWhole of a document over the limit: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"256MiB": 256 << 20, "1g": 1 << 30, "4096": 4096, "1.5K": 1536, "10 MB": 10 << 20} {
		if got, err := model.ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-1M", "lots", "0", "99999999999G"} {
		if _, err := model.ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) did not fail", bad)
		}
	}
}
