package shapes

import (
	"io"

	"github.com/loupe-dev/loupe/sampledata/internal/gen"
)

// mixed is the sample generator's large run (go run ./sampledata/gen -size):
// the migration run continued with routine work, honest compactions every
// ~1,800 turns and 15 service logs of 1–5 MB. It has its own fixed seed, so
// Options.Seed does not change it; below ~20 MB it is ~20 MB anyway (the 15
// logs are at least 1 MB each).
func mixed(w io.Writer, size int64, _ Options) error { return gen.Large(w, size) }
