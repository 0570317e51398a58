package formats

import (
	"bytes"
	"encoding/json"
)

// detectLoupe accepts a file whose first non-blank line is a JSON object with a
// "type" loupe knows, or the meta line. An empty file is loupe too: it loads as
// an empty transcript rather than failing detection.
func detectLoupe(_ string, head []byte, dir bool) bool {
	if dir {
		return false
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for _, line := range bytes.Split(head, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var probe struct {
			Type   string `json:"type"`
			Format string `json:"format"`
		}
		if json.Unmarshal(line, &probe) != nil {
			// A first line longer than the sniffed head: look at its start.
			return bytes.HasPrefix(line, []byte(`{"type":"`))
		}
		switch probe.Type {
		case "meta":
			return probe.Format == "" || bytes.HasPrefix([]byte(probe.Format), []byte("loupe/"))
		case "message", "tool_call", "tool_result", "plan", "commitment", "compaction":
			return true
		}
		return false
	}
	return true
}
