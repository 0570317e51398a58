// Command gen writes loupe's built-in sample runs (go generate ./sampledata).
//
//	go run ./gen -out .
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/loupe-dev/loupe/sampledata/internal/gen"
)

func main() {
	out := flag.String("out", ".", "directory to write the samples and testdata/ into")
	flag.Parse()
	if err := gen.WriteAll(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
