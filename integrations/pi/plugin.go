// Package pi holds loupe's pi extension (loupe.ts beside this file): pi
// runs extensions in process, so the live gate reaches it through a small
// TypeScript module that calls `loupe hook pi EVENT`. `loupe hook install
// pi` writes it with the command and gate filled in.
package pi

import (
	_ "embed" // the extension's source
	"encoding/json"
	"strings"
)

//go:embed loupe.ts
var source string

// Marker is in the first line of the extension, so that uninstall removes
// only loupe's file.
const Marker = "loupe-pi-extension"

// Extension returns the extension's source, running command (how pi starts
// loupe) and asking pi to stop the agent after a violating compaction when
// gate is set.
//
// decide, when set and not "stated", is passed as loupe hook --decide.
func Extension(command string, gate bool, decide string) string {
	q, _ := json.Marshal(command)
	s := strings.Replace(source, `const LOUPE: string = "loupe"`, "const LOUPE: string = "+string(q), 1)
	if gate {
		s = strings.Replace(s, "const GATE: boolean = false", "const GATE: boolean = true", 1)
	}
	if decide != "" && decide != "stated" {
		d, _ := json.Marshal([]string{"--decide", decide})
		s = strings.Replace(s, "const DECIDE: string[] = []", "const DECIDE: string[] = "+string(d), 1)
	}
	return s
}
