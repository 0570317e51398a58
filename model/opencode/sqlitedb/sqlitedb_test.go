package sqlitedb

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func rows(t *testing.T, db *DB) map[string]map[string]any {
	t.Helper()
	tb, ok := db.Table("t")
	if !ok {
		t.Fatal("table t not found")
	}
	if got := strings.Join(tb.Columns, ","); got != "id,n,f,data" {
		t.Fatalf("columns = %s, want id,n,f,data (the UNIQUE constraint is no column)", got)
	}
	out := map[string]map[string]any{}
	if err := db.Rows("t", func(r Row) error {
		m := tb.Map(r)
		out[m["id"].(string)] = m
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// The WAL's committed frames are part of the database: rows inserted and
// changed since the last checkpoint are read from it, an overflowing row
// included.
func TestWALCommittedFramesAreRead(t *testing.T) {
	db, err := Open("testdata/wal.db", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if db.WALFrames == 0 {
		t.Fatal("no WAL frame applied")
	}
	got := rows(t, db)
	if len(got) != 3 {
		t.Fatalf("rows = %v, want a, b, c", got)
	}
	if got["a"]["data"] != "changed in the log" {
		t.Errorf("a = %q, want the update in the WAL", got["a"]["data"])
	}
	if got["b"]["data"] != strings.Repeat("long ", 400) || got["b"]["n"] != int64(-300) || got["b"]["f"] != nil {
		t.Errorf("b (overflow pages) = %v", got["b"])
	}
	// SQLite stores a whole REAL as an integer on disk.
	if got["c"]["n"] != int64(1234567890123) || got["c"]["f"] != int64(2) || got["a"]["f"] != 1.5 {
		t.Errorf("c = %v", got["c"])
	}
}

// Without its WAL the file holds only what was checkpointed; a damaged last
// frame drops only the transaction it belongs to.
func TestWALTornFrameIsIgnored(t *testing.T) {
	file, _ := os.ReadFile("testdata/wal.db")
	wal, _ := os.ReadFile("testdata/wal.db-wal")
	db, err := Parse(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := rows(t, db); len(got) != 1 || got["a"]["data"] != "in the file" {
		t.Errorf("file alone = %v, want only a as first written", got)
	}
	torn := bytes.Clone(wal)
	torn[len(torn)-10] ^= 0xff
	db, err = Parse(file, torn)
	if err != nil {
		t.Fatal(err)
	}
	got := rows(t, db)
	if got["a"]["data"] != "in the file" || got["c"] == nil {
		t.Errorf("torn last commit: a = %q, c = %v; want the update dropped, the earlier insert kept", got["a"]["data"], got["c"])
	}
}

// Reading leaves the directory as it was: no -shm, no journal, no byte or
// modification time changed.
func TestOpenWritesNothing(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"wal.db", "wal.db-wal"} {
		b, _ := os.ReadFile(filepath.Join("testdata", f))
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o444); err != nil {
			t.Fatal(err)
		}
		old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
		os.Chtimes(filepath.Join(dir, f), old, old)
	}
	before := snapshot(t, dir)
	db, err := Open(filepath.Join(dir, "wal.db"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	rows(t, db)
	db.Close()
	if after := snapshot(t, dir); after != before {
		t.Errorf("directory changed:\nbefore %s\nafter  %s", before, after)
	}
}

func snapshot(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		info, _ := e.Info()
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		b.WriteString(e.Name() + " " + info.ModTime().String() + " " + string(data) + "\n")
	}
	return b.String()
}

func TestNotADatabase(t *testing.T) {
	for _, in := range [][]byte{nil, []byte("SQLite format 3\x00short"), []byte(`{"info":{}}`)} {
		if _, err := Parse(in, nil); err == nil {
			t.Errorf("Parse(%q) gave no error", in)
		}
	}
}

// FuzzParse: damaged databases and logs give errors, never a panic, and
// memory bounded by the input.
func FuzzParse(f *testing.F) {
	file, _ := os.ReadFile("testdata/wal.db")
	wal, _ := os.ReadFile("testdata/wal.db-wal")
	f.Add(file, wal)
	f.Add(file, []byte(nil))
	f.Fuzz(func(t *testing.T, file, wal []byte) {
		db, err := Parse(file, wal)
		if err != nil {
			return
		}
		for name := range db.tables {
			_ = db.Rows(name, func(Row) error { return nil })
		}
	})
}
