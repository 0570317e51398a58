// Package opencode holds loupe's opencode plugin (loupe.ts beside this
// file): opencode runs plugins in process, so the live gate reaches it
// through a small TypeScript module that calls `loupe hook opencode EVENT`.
// `loupe hook install opencode` writes it with the command and gate filled
// in.
package opencode

import (
	_ "embed" // the plugin's source
	"encoding/json"
	"strings"
)

//go:embed loupe.ts
var source string

// Marker is in the first line of the plugin, so that uninstall removes only
// loupe's file.
const Marker = "loupe-opencode-plugin"

// Plugin returns the plugin's source, running command (how opencode starts
// loupe) and stopping the auto-continue after a violating compaction when
// gate is set.
//
// decide, when set and not "stated", is passed as loupe hook --decide.
func Plugin(command string, gate bool, decide string) string {
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
