package opencode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// FuzzImportExport: any bytes in an `opencode export` file import without
// panic, keep the transcript's invariants and round-trip; or fail with an
// error.
func FuzzImportExport(f *testing.F) {
	b, _ := os.ReadFile("testdata/export/ses_first.json")
	f.Add(b)
	f.Add([]byte(`{"info":{"id":"ses_1"},"messages":[{"info":{"role":"user"},"parts":[{"type":"compaction"}]}]}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "export.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		kittest.ImportDir(t, Open, p, func(error) bool { return true })
	})
}

// FuzzImportDatabase: a damaged database or WAL gives an error or a
// transcript, never a panic; memory stays bounded by the files. The input
// is the database, then (after kittest.RecordSep) its WAL.
func FuzzImportDatabase(f *testing.F) {
	f.Add(kittest.JoinFiles(f, "testdata/db/opencode.db", "testdata/db/opencode.db-wal"))
	f.Add(kittest.JoinFiles(f, "testdata/db/opencode.db"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "opencode.db")
		os.Remove(p + "-wal")
		for i, r := range kittest.Records(data) {
			name := p
			if i == 1 {
				name = p + "-wal"
			} else if i > 1 {
				break
			}
			if err := os.WriteFile(name, r, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		kittest.ImportDir(t, Open, p, func(error) bool { return true })
		infos, _ := Scan(p)
		for _, si := range infos {
			kittest.ImportDir(t, Open, si.Path, func(error) bool { return true })
		}
	})
}
