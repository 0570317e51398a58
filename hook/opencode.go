package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/loupe-dev/loupe/model/formats"
)

// opencode (research/hooks.md §4) runs plugins in process; the plugin in
// integrations/opencode/ calls `loupe hook opencode EVENT` with the session
// id, and the session's messages as the SDK returns them (opencode keeps
// them in SQLite since 1.x; older versions keep the JSON storage tree loupe
// can read in place). Events:
//
//	compacting    experimental.session.compacting: snapshot (without the
//	              compaction request opencode stored first); answers
//	              {"context": [...]} for the plugin to add to the prompt
//	compacted     experimental.compaction.autocontinue or the
//	              session.compacted event, whichever comes first: verify;
//	              answers {"seq","verdict","owed","pending","receipt"}
//	system        experimental.chat.system.transform of the agent's request
//	              (the plugin skips the summarizer's): answers
//	              {"system": block} once, when a block is pending
//	autocontinue  experimental.compaction.autocontinue, after compacted: with
//	              --gate, answers {"enabled": false} after a violating
//	              compaction

func (c *call) opencode() (*plan, error) {
	id := c.in.OpencodeSession
	if id == "" {
		id = c.in.SessionID
	}
	if id == "" {
		return nil, errors.New("no sessionID in the hook input")
	}
	st, err := c.load(Opencode, id)
	if err != nil {
		return nil, err
	}
	if c.ph == phaseNext || c.ph == phaseGate {
		return c.opencodeAnswer(st)
	}
	tr, cleanup, err := c.opencodeTranscript(id, c.ph == phasePre)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	st.Transcript = tr.path
	if len(c.in.Messages) > 0 {
		st.Transcript = "opencode session " + id
	}
	switch c.ph {
	case phasePre:
		return c.pre(st, tr, func(steer string) []byte {
			b, _ := jsonLine(map[string]any{"context": []string{steer}})
			return b
		})
	case phasePost, phaseStart:
		v, err := c.newest(st, tr, true)
		if err != nil {
			return nil, err
		}
		var found *Record
		if v != nil {
			r := c.record(v, st.Transcript)
			found = &r
		}
		o := c.outcomeOf(st, nil, found)
		return &plan{commit: func() ([]byte, error) {
			_, latest, err := c.commit(o)
			if err != nil || latest == nil {
				return nil, err
			}
			return jsonLine(map[string]any{"seq": latest.Seq, "verdict": latest.Verdict, "owed": latest.Owed,
				"pending": latest.State == statePending, "receipt": receipt(latest, c.putBackWhen(latest))})
		}}, nil
	}
	return nil, errSilent
}

// opencodeAnswer puts back the pending block (system) or gates the
// auto-continue; neither reads the session.
func (c *call) opencodeAnswer(st *Session) (*plan, error) {
	if c.ph == phaseGate {
		var last *Record
		for i := range st.Compactions {
			if r := &st.Compactions[i]; last == nil || r.Seq > last.Seq {
				last = r
			}
		}
		if !c.req.Gate || last == nil || last.Verdict != "violate" {
			return nil, errSilent
		}
		out, err := jsonLine(map[string]any{"enabled": false, "reason": receipt(last, "")})
		return &plan{commit: func() ([]byte, error) { return out, err }}, nil
	}
	o := c.outcomeOf(st, nil, nil)
	o.claim = "opencode experimental.chat.system.transform"
	return &plan{commit: func() ([]byte, error) {
		claimed, _, err := c.commit(o)
		if err != nil || claimed == nil {
			return nil, err
		}
		return jsonLine(map[string]any{"system": claimed.Block, "seq": claimed.Seq})
	}}, nil
}

var opencodeID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// opencodeTranscript finds the session: in the messages the plugin sent
// (written to a private temporary storage tree the importer reads), or in
// opencode's JSON storage. before says the session is read for the
// snapshot before a compaction: opencode stores the compaction request
// first (a user message with a "compaction" part) and only then runs
// experimental.session.compacting, so the request the summarizer is about
// to answer is left out, or loupe would count the compaction as done
// before its summary exists and find nothing new after it.
func (c *call) opencodeTranscript(id string, before bool) (transcript, func(), error) {
	none := func() {}
	if !opencodeID.MatchString(id) {
		return transcript{}, none, fmt.Errorf("sessionID %q is not an opencode id", id)
	}
	if len(c.in.Messages) > 0 && string(c.in.Messages) != "null" {
		return materialize(c.req.spool, id, c.in.Messages, c.in.SessionInfo, before)
	}
	roots := []string{c.in.Storage}
	if c.in.Storage == "" {
		roots = opencodeHomes()
	}
	for _, root := range roots {
		matches, _ := filepath.Glob(filepath.Join(root, "session", "*", id+".json"))
		if len(matches) > 0 {
			if before {
				if tr, cleanup, cut, err := c.storageBefore(root, id, matches[0]); cut || err != nil {
					return tr, cleanup, err
				}
			}
			return transcript{path: matches[0], format: "opencode"}, none, nil
		}
	}
	return transcript{}, none, fmt.Errorf("session %s is in no opencode storage (%v), and the plugin sent no messages", id, roots)
}

// storageBefore is the session of a storage tree without the compaction
// request opencode stored before the compacting hook, materialized in the
// spool; cut is false (and nothing written) when the session ends with no
// such request and the tree can be read in place.
func (c *call) storageBefore(root, id, sessionFile string) (tr transcript, cleanup func(), cut bool, err error) {
	cleanup = func() {}
	files, _ := filepath.Glob(filepath.Join(root, "message", id, "*.json"))
	slices.Sort(files) // opencode's ids ascend with time
	msgs := make([]sdkMessage, 0, len(files))
	for _, f := range files {
		info, err := os.ReadFile(f)
		if err != nil {
			return tr, cleanup, false, err
		}
		var in sdkInfo
		if json.Unmarshal(info, &in) != nil || !opencodeID.MatchString(in.ID) {
			return tr, cleanup, false, nil // the importer says what is wrong with it
		}
		m := sdkMessage{Info: info}
		parts, _ := filepath.Glob(filepath.Join(root, "part", in.ID, "*.json"))
		slices.Sort(parts)
		for _, pf := range parts {
			b, err := os.ReadFile(pf)
			if err != nil {
				return tr, cleanup, false, err
			}
			m.Parts = append(m.Parts, b)
		}
		msgs = append(msgs, m)
	}
	kept := withoutOpenRequest(msgs)
	if len(kept) == len(msgs) {
		return tr, cleanup, false, nil
	}
	raw, err := json.Marshal(kept)
	if err != nil {
		return tr, cleanup, false, err
	}
	session, err := os.ReadFile(sessionFile)
	if err != nil {
		return tr, cleanup, false, err
	}
	tr, cleanup, err = materialize(c.req.spool, id, raw, session, false)
	return tr, cleanup, true, err
}

func opencodeHomes() []string {
	for _, f := range formats.All() {
		if f.Name == "opencode" && f.Homes != nil {
			return f.Homes()
		}
	}
	return nil
}

// sdkMessage is one message as opencode's SDK returns it: its info (the
// storage tree's message file) and its parts (the part files).
type sdkMessage struct {
	Info  json.RawMessage   `json:"info"`
	Parts []json.RawMessage `json:"parts"`
}

type idOnly struct {
	ID string `json:"id"`
}

// materialize writes the plugin's messages as opencode's JSON storage tree
// in the call's spool, for the importer; cleanup removes it (and the spool
// goes when Run returns, whatever happens). before leaves out the
// compaction requests no summary answers yet at the end of the session.
func materialize(sp *spool, id string, messages, session json.RawMessage, before bool) (transcript, func(), error) {
	var msgs []sdkMessage
	if err := json.Unmarshal(messages, &msgs); err != nil {
		return transcript{}, func() {}, fmt.Errorf("messages: %w", err)
	}
	if before {
		msgs = withoutOpenRequest(msgs)
	}
	dir, err := sp.mkdir("opencode-*")
	if err != nil {
		return transcript{}, func() {}, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	write := func(data []byte, parts ...string) error {
		p := filepath.Join(append([]string{dir}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o600)
	}
	if len(session) == 0 || string(session) == "null" {
		session = []byte(fmt.Sprintf(`{"id":%q,"projectID":"loupe","time":{"created":0,"updated":0}}`, id))
	}
	sessFile := filepath.Join(dir, "session", "loupe", id+".json")
	if err := write(session, "session", "loupe", id+".json"); err != nil {
		cleanup()
		return transcript{}, func() {}, err
	}
	for i, m := range msgs {
		var mi idOnly
		if json.Unmarshal(m.Info, &mi) != nil || !opencodeID.MatchString(mi.ID) {
			cleanup()
			return transcript{}, func() {}, fmt.Errorf("messages[%d]: no valid info.id", i)
		}
		if err := write(m.Info, "message", id, mi.ID+".json"); err != nil {
			cleanup()
			return transcript{}, func() {}, err
		}
		for j, p := range m.Parts {
			var pi idOnly
			if json.Unmarshal(p, &pi) != nil || !opencodeID.MatchString(pi.ID) {
				cleanup()
				return transcript{}, func() {}, fmt.Errorf("messages[%d].parts[%d]: no valid id", i, j)
			}
			if err := write(p, "part", mi.ID, pi.ID+".json"); err != nil {
				cleanup()
				return transcript{}, func() {}, err
			}
		}
	}
	return transcript{path: sessFile, format: "opencode"}, cleanup, nil
}

// sdkInfo is what withoutOpenRequest reads of a message's info.
type sdkInfo struct {
	ID       string          `json:"id"`
	Role     string          `json:"role"`
	ParentID string          `json:"parentID"`
	Summary  json.RawMessage `json:"summary"` // an assistant's is true; a user's is an object
}

// withoutOpenRequest drops the compaction requests at the end of the
// session that no summary message (an assistant message with summary true
// whose parentID is the request) answers yet: the compaction that is about
// to run. A request answered, or one with messages after it (an earlier
// compaction that failed), stays.
func withoutOpenRequest(msgs []sdkMessage) []sdkMessage {
	answered := map[string]bool{}
	for _, m := range msgs {
		var in sdkInfo
		if json.Unmarshal(m.Info, &in) == nil && in.Role == "assistant" && string(in.Summary) == "true" && in.ParentID != "" {
			answered[in.ParentID] = true
		}
	}
	for len(msgs) > 0 {
		last := msgs[len(msgs)-1]
		var in sdkInfo
		if json.Unmarshal(last.Info, &in) != nil || in.Role != "user" || answered[in.ID] || !hasCompactionPart(last.Parts) {
			break
		}
		msgs = msgs[:len(msgs)-1]
	}
	return msgs
}

func hasCompactionPart(parts []json.RawMessage) bool {
	for _, p := range parts {
		var pt struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(p, &pt) == nil && pt.Type == "compaction" {
			return true
		}
	}
	return false
}
