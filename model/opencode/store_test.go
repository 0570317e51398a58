package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// opencode 1.18 keeps its sessions in SQLite (opencode.db + WAL); `opencode
// export` prints one as JSON. Each reads as the same conversation and
// compaction as the storage tree did.
func TestImportDatabaseAndExport(t *testing.T) {
	tests := []struct {
		path, run, first, trigger string
		warnings                  int
	}{
		// the data directory and the database: the newest session, with a note
		{"testdata/db", "ses_second", "Prepare the orders-service database migration.", "manual", 1},
		{"testdata/db/opencode.db", "ses_second", "Prepare the orders-service database migration.", "manual", 1},
		// one session by id; its first prompt was changed in the WAL only
		{"testdata/db/opencode.db#ses_first", "ses_first", "Prepare the orders-service database migration (changed in the WAL).", "auto", 0},
		{"testdata/export/ses_first.json", "ses_first", "Prepare the orders-service database migration.", "auto", 0},
		// an export kept compressed, as a corpus keeps it
		{"testdata/export/ses_first.json.gz", "ses_first", "Prepare the orders-service database migration.", "auto", 0},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			tr, err := Open(tt.path, model.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := kittest.Counts{Events: 6, Messages: 3, Calls: 1, Results: 1, Compactions: 1}
			if got := kittest.Count(tr); got != want {
				t.Errorf("counts\n got %+v\nwant %+v", got, want)
			}
			if tr.Meta.Run != tt.run || tr.Meta.Source != "opencode 1.18.33" {
				t.Errorf("run %q source %q", tr.Meta.Run, tr.Meta.Source)
			}
			if m, ok := tr.Events[0].(*model.Message); !ok || m.Text != tt.first {
				t.Errorf("first event %+v, want the prompt %q", tr.Events[0], tt.first)
			}
			c := tr.Compactions[0]
			if c.Trigger != tt.trigger || !strings.HasPrefix(c.Summary, "## Goal\nPrepare the migration.") {
				t.Errorf("compaction trigger %q summary %q", c.Trigger, c.Summary)
			}
			// the request before the compaction, not the summarizer's call
			if c.TokensBefore != 190000 {
				t.Errorf("tokens_before %d, want 190000", c.TokensBefore)
			}
			if w := len(tr.Problems) - len(tr.Problems.Errors()); w != tt.warnings || len(tr.Problems.Errors()) > 0 {
				t.Errorf("problems %v", tr.Problems)
			}
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
		})
	}
}

func TestDetectDatabaseAndExport(t *testing.T) {
	db, _ := os.ReadFile("testdata/db/opencode.db")
	exp, _ := os.ReadFile("testdata/export/ses_first.json")
	other := filepath.Join(t.TempDir(), "other.db")
	os.WriteFile(other, db[:100], 0o644) // a SQLite header, no opencode tables
	for _, tt := range []struct {
		path string
		head []byte
		dir  bool
		want bool
	}{
		{"testdata/db", nil, true, true},
		{"testdata/db/opencode.db", db[:4096], false, true},
		{"testdata/export/ses_first.json", exp, false, true},
		{other, db[:100], false, false},
		{"testdata/export", nil, true, false},
	} {
		if got := Detect(tt.path, tt.head, tt.dir); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
	infos, err := Scan("testdata/db/opencode.db")
	if err != nil || len(infos) != 2 {
		t.Fatalf("scan: %v %+v", err, infos)
	}
	for _, si := range infos {
		if !strings.HasPrefix(si.Path, "testdata/db/opencode.db#ses_") || si.Compactions != 1 || si.Title == "" {
			t.Errorf("scan: %+v", si)
		}
	}
}

// Reading the store writes nothing beside it: no -shm, no journal, every
// file's bytes and modification time unchanged.
func TestDatabaseReadWritesNothing(t *testing.T) {
	dir := t.TempDir()
	old := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, f := range []string{"opencode.db", "opencode.db-wal"} {
		b, err := os.ReadFile(filepath.Join("testdata/db", f))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, f)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	before := listing(t, dir)
	for _, p := range []string{dir, filepath.Join(dir, "opencode.db"), filepath.Join(dir, "opencode.db") + "#ses_first"} {
		if _, err := Open(p, model.ReadOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := Scan(p); err != nil {
			t.Fatal(err)
		}
	}
	if after := listing(t, dir); after != before {
		t.Errorf("the directory changed:\nbefore %s\nafter  %s", before, after)
	}
}

func listing(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		info, _ := e.Info()
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		b.WriteString(e.Name() + " " + info.Mode().String() + " " + info.ModTime().String() + " " + string(data) + "\n")
	}
	return b.String()
}
