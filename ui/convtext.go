package ui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// The word diff compares the conversation as a reader sees it, never raw
// records: a message is its text, a tool call its name and what it was
// asked to do (the command, the file, the pattern), a result its first
// lines. A compactor summarizes that; diffing JSON inputs and whole tool
// outputs against a summary kept 1–2 % of the words and took seconds on
// real sessions.

// resultLines and resultBytes bound what of a tool result the diff reads.
const (
	resultLines = 6
	resultBytes = 600
)

// salientKeys are the input fields that say what a call does, in the order
// they are shown; other fields follow only when none of these is there.
var salientKeys = []string{"command", "cmd", "file_path", "path", "filePath", "pattern", "query", "url", "description", "prompt", "old_string", "new_string", "content", "todos"}

// conversationText is event e as the diff reads it, and a note for its
// heading ("first 6 of 240 lines"); ok is false for events a reader of the
// conversation would not see.
func conversationText(e model.Event) (text, note string, ok bool) {
	switch ev := e.(type) {
	case *model.Message:
		return ev.Text, "", true
	case *model.ToolCall:
		return ev.Name + ": " + callArgs(ev.Input.Preview()), "", true
	case *model.ToolResult:
		text, note = firstLines(ev.Text.Preview(), resultLines, resultBytes)
		if ev.IsError {
			text = "error: " + text
		}
		return text, note, true
	case *model.Plan, *model.CommitmentEvent:
		return eventPreview(e), "", true
	}
	return "", "", false
}

// callArgs is a call's input as a person would say it: the salient fields'
// values, or every field's, or the input itself when it is no JSON object.
func callArgs(input string) string {
	var obj map[string]any
	if err := json.Unmarshal([]byte(input), &obj); err != nil {
		s, _ := firstLines(input, resultLines, resultBytes)
		return s
	}
	var parts []string
	for _, k := range salientKeys {
		if v, ok := obj[k]; ok {
			parts = append(parts, argValue(v))
		}
	}
	if len(parts) == 0 {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			parts = append(parts, k+"="+argValue(obj[k]))
		}
	}
	s, _ := firstLines(strings.Join(parts, " "), resultLines, resultBytes)
	return s
}

// argValue writes one input value: strings as they are, lists of todos or
// steps by their text, anything else as compact JSON.
func argValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var out []string
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				for _, k := range []string{"content", "text", "step", "title"} {
					if s, ok := m[k].(string); ok {
						out = append(out, s)
						break
					}
				}
				continue
			}
			out = append(out, argValue(e))
		}
		return strings.Join(out, "; ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// firstLines keeps the first n non-blank lines of s, at most max bytes
// (cut at a rune), and says what it left out.
func firstLines(s string, n, max int) (string, string) {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var kept []string
	size := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if len(kept) == n || size+len(l) > max {
			if len(kept) == 0 {
				kept = append(kept, prefixOf(l, max))
			}
			break
		}
		kept = append(kept, l)
		size += len(l) + 1
	}
	text := strings.Join(kept, "\n")
	if len(text) < len(strings.TrimSpace(s)) {
		return text, fmt.Sprintf("first %s of %s", plural(len(kept), "line"), plural(len(lines), "line"))
	}
	return text, ""
}
