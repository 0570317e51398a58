package hook

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// The snapshot before an opencode compaction leaves out only the request
// the summarizer is about to answer: opencode stores it before the
// compacting hook runs.
func TestWithoutOpenRequest(t *testing.T) {
	user := `{"id":%q,"role":"user","summary":{"diffs":[]}}`
	msg := func(info string, parts ...string) sdkMessage {
		m := sdkMessage{Info: json.RawMessage(info)}
		for _, p := range parts {
			m.Parts = append(m.Parts, json.RawMessage(p))
		}
		return m
	}
	text := `{"id":"prt_t","type":"text","text":"hi"}`
	request := `{"id":"prt_c","type":"compaction","auto":true}`
	u1 := msg(fmt.Sprintf(user, "msg_1"), text)
	a1 := msg(`{"id":"msg_2","role":"assistant","parentID":"msg_1"}`, text)
	req := msg(fmt.Sprintf(user, "msg_3"), request)
	sum := msg(`{"id":"msg_4","role":"assistant","parentID":"msg_3","summary":true,"mode":"compaction"}`, text)
	req2 := msg(fmt.Sprintf(user, "msg_5"), request)
	for _, tc := range []struct {
		name string
		in   []sdkMessage
		keep int
	}{
		{"the request just stored", []sdkMessage{u1, a1, req}, 2},
		{"an answered request stays", []sdkMessage{u1, a1, req, sum}, 4},
		{"a second compaction's request after an answered one", []sdkMessage{u1, a1, req, sum, req2}, 4},
		{"a failed request with a turn after it stays", []sdkMessage{u1, a1, req2, u1, a1}, 5},
		{"no compaction", []sdkMessage{u1, a1}, 2},
		{"nothing", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := withoutOpenRequest(slices.Clone(tc.in))
			if len(got) != tc.keep {
				t.Fatalf("kept %d of %d messages, want %d", len(got), len(tc.in), tc.keep)
			}
		})
	}
}
