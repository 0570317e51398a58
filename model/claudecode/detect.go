package claudecode

import (
	"bytes"

	"github.com/valyala/fastjson"
)

// Claude Code adds record types often (permission-mode, last-prompt,
// custom-title, agent-name...) and a session may start with any of them, so
// a file is recognised by the envelope its records share, not by a known
// first type: lines are objects, nearly all with a "type"; conversation lines
// carry uuid, parentUuid (null for a root) and sessionId; the other records
// carry sessionId (or leafUuid, or a snapshot's messageId).

// conversationTypes are the line types that always carry the full envelope.
var conversationTypes = map[string]bool{
	"user": true, "assistant": true, "system": true, "progress": true, "attachment": true,
}

// shape is what one line says about the file.
type shape uint8

const (
	foreign  shape = iota // not a Claude Code record: the file is something else
	neutral               // a record that could be anyone's: look further
	metadata              // a non-conversation record with Claude Code's envelope
	envelope              // a conversation record: uuid, parentUuid and sessionId
)

func lineShape(v *fastjson.Value) shape {
	if v.Type() != fastjson.TypeObject {
		return foreign
	}
	t := v.Get("type")
	if t == nil {
		// Some bookkeeping lines have no type ({"pendingBackgroundAgentCount":0}).
		return neutral
	}
	if t.Type() != fastjson.TypeString {
		return foreign
	}
	typ := string(t.GetStringBytes())
	str := func(k string) bool {
		x := v.Get(k)
		return x != nil && x.Type() == fastjson.TypeString && len(x.GetStringBytes()) > 0
	}
	switch {
	case str("uuid") && str("sessionId") && v.Exists("parentUuid"):
		return envelope
	case conversationTypes[typ]:
		// Another format's user/assistant line (Gemini's, a chat export).
		return foreign
	case !kebab(typ):
		return foreign
	case str("sessionId"), str("leafUuid"), str("messageId") && v.Exists("snapshot"):
		return metadata
	}
	return neutral
}

// kebab reports whether s is spelled like Claude Code's record types:
// lower-case words joined by hyphens.
func kebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '-' {
			return false
		}
	}
	return true
}

// cutShape judges a line the sniffed head cut off (a first line longer than
// the head): by its start, in the key order Claude Code writes.
func cutShape(line []byte) shape {
	start := line[:min(len(line), 4096)]
	switch {
	case bytes.HasPrefix(line, []byte(`{"parentUuid":`)) && bytes.Contains(start, []byte(`"sessionId":"`)):
		return envelope
	case bytes.HasPrefix(line, []byte(`{"type":"file-history-snapshot"`)),
		bytes.HasPrefix(line, []byte(`{"type":"`)) && bytes.Contains(start, []byte(`"sessionId":"`)):
		return metadata
	}
	return foreign
}

// DetectHead looks at the first lines of a file: it is a Claude Code session
// when a conversation line with the envelope comes before anything foreign,
// or when every record read has Claude Code's shape and one has its
// envelope (a session that holds only metadata so far). A line that does
// not parse in the middle of the head is passed over (a crash can leave
// one); the last one may be cut by the sniff.
func DetectHead(head []byte) bool {
	var p fastjson.Parser
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	lines := bytes.Split(head, []byte("\n"))
	meta := false
	for i, line := range lines {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var sh shape
		v, err := p.ParseBytes(line)
		switch {
		case err == nil:
			sh = lineShape(v)
		case i == len(lines)-1:
			sh = cutShape(line)
		default:
			continue
		}
		switch sh {
		case envelope:
			return true
		case metadata:
			meta = true
		case foreign:
			return false
		}
	}
	return meta
}
