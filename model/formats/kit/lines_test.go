package kit

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// zeros is a stream of NUL bytes with no newline (/dev/zero), up to n
// bytes, counting what was read of it.
type zeros struct{ n, read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.read >= z.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), z.n-z.read)
	clear(p[:k])
	z.read += k
	return int(k), nil
}

// A stream copied to $TMPDIR for an importer that reads its file twice
// stops at the first line over the line limit, and the copy is removed:
// /dev/zero used to fill the disk.
func TestReadByCopyCapped(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defer model.SetLimits(model.CurrentLimits())
	model.SetLimits(model.Limits{MaxLine: 1 << 20})
	opened := false
	open := func(string, model.ReadOptions) (*model.Transcript, error) {
		opened = true
		return &model.Transcript{}, nil
	}
	z := &zeros{n: 64 << 20}
	_, err := ReadByCopy(z, model.ReadOptions{Name: "zero"}, open)
	var long *model.LineTooLongError
	if !errors.As(err, &long) || long.Line != 1 || opened {
		t.Fatalf("err %v, opened %v", err, opened)
	}
	if z.read > 2<<20 {
		t.Fatalf("read %d bytes of a stream whose first line is over the 1 MiB limit", z.read)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Fatalf("left in $TMPDIR: %v", ents)
	}
	// Lines under the limit, however many, are copied whole.
	line := strings.Repeat("x", 1<<19) + "\n"
	var got int64
	_, err = ReadByCopy(strings.NewReader(strings.Repeat(line, 8)), model.ReadOptions{}, func(path string, _ model.ReadOptions) (*model.Transcript, error) {
		st, err := os.Stat(path)
		if err == nil {
			got = st.Size()
		}
		return &model.Transcript{}, err
	})
	if err != nil || got != int64(8*len(line)) {
		t.Fatalf("copied %d bytes of %d: %v", got, 8*len(line), err)
	}
}
