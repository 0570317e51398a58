package opencode

import (
	"os"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// BenchmarkOpenDatabase: importing a session from opencode.db (the live
// fixture when ../shared is beside the checkout, else the test store).
func BenchmarkOpenDatabase(b *testing.B) {
	p := "../../../shared/fixtures/live/opencode-1.18.33/run3/opencode.db"
	if _, err := os.Stat(p); err != nil {
		p = "testdata/db/opencode.db#ses_first"
	}
	for b.Loop() {
		if _, err := Open(p, model.ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
