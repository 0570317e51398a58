package pi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// The real pi sessions (redacted, from badlogic/pi-mono, MIT) live in
// verify/testdata/real/pi; LOUPE_PI_REAL names another directory holding
// them. A test skips a file that is absent.
var realSessions = []struct {
	name        string
	compactions int
}{
	{"pi-0.14-agent-session-refactor.jsonl.gz", 2},
	{"pi-0.23-docs-review.jsonl.gz", 1},
	{"pi-0.27-compaction-hooks-docs.jsonl.gz", 2},
}

func realPath(t *testing.T, name string) string {
	dir := os.Getenv("LOUPE_PI_REAL")
	if dir == "" {
		dir = filepath.Join("..", "..", "verify", "testdata", "real", "pi")
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not here (set LOUPE_PI_REAL to the directory that holds it)", p)
	}
	return p
}

// census is what a reader that shares no code with the importer counts in
// a session: encoding/json's streaming decoder reads records one after the
// other whether or not a newline separates them.
type census struct {
	calls, results, errors, compactions, aborted int
	kept                                         [][]string // per compaction: refs of the kept message entries
	pending                                      [][]string // per compaction: calls with no result before it
}

func countSession(t *testing.T, path string) census {
	t.Helper()
	r, _, closeFn, err := kit.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	dec := json.NewDecoder(r)
	var c census
	var kinds []string // by record index: "message" when it makes an event, else the type
	var open []string
	for idx := 0; ; idx++ {
		var rec struct {
			Type    string `json:"type"`
			First   *int   `json:"firstKeptEntryIndex"`
			Message struct {
				Role       string `json:"role"`
				StopReason string `json:"stopReason"`
				ToolCallID string `json:"toolCallId"`
				IsError    bool   `json:"isError"`
				ExitCode   *int   `json:"exitCode"`
				Cancelled  bool   `json:"cancelled"`
				Exclude    bool   `json:"excludeFromContext"`
				Content    json.RawMessage
			} `json:"message"`
		}
		if err := dec.Decode(&rec); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("record %d: %v", idx, err)
		}
		kinds = append(kinds, rec.Type)
		m := rec.Message
		switch {
		case rec.Type == "compaction":
			c.compactions++
			var kept []string
			for i := *rec.First; i < idx; i++ {
				if kinds[i] == "message" {
					kept = append(kept, fmt.Sprintf("E%d", i))
				}
			}
			c.kept = append(c.kept, kept)
			c.pending = append(c.pending, slices.Clone(open))
		case rec.Type != "message":
		case m.Role == "assistant":
			var blocks []struct{ Type, ID, Text string }
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				t.Fatalf("record %d: content: %v", idx, err)
			}
			// A reply with only thinking in it (or nothing: an aborted
			// request) is not in the conversation.
			if !slices.ContainsFunc(blocks, func(b struct{ Type, ID, Text string }) bool {
				return b.Type == "toolCall" || b.Type == "text" && b.Text != ""
			}) {
				kinds[idx] = "empty reply"
			}
			for _, b := range blocks {
				switch {
				case b.Type != "toolCall":
				case m.StopReason == "aborted" || m.StopReason == "error":
					c.aborted++
				default:
					c.calls++
					open = append(open, b.ID)
				}
			}
		case m.Role == "toolResult":
			c.results++
			if m.IsError {
				c.errors++
			}
			open = slices.DeleteFunc(open, func(id string) bool { return id == m.ToolCallID })
		case m.Role == "bashExecution" && !m.Exclude:
			c.calls++
			c.results++
			if !m.Cancelled && m.ExitCode != nil && *m.ExitCode != 0 {
				c.errors++
			}
		}
	}
	return c
}

// TestRealSessions: the real sessions load without problems, and what the
// import holds is what an independent count of their records finds: calls
// (the agent's and the user's), results, errors, compactions, the aborted
// calls kept aside, each compaction's kept tail and the calls in flight.
func TestRealSessions(t *testing.T) {
	for _, rs := range realSessions {
		t.Run(rs.name, func(t *testing.T) {
			path := realPath(t, rs.name)
			want := countSession(t, path)
			if want.compactions != rs.compactions {
				t.Fatalf("the count finds %d compactions; the corpus notes say %d", want.compactions, rs.compactions)
			}
			tr := load(t, path)
			if len(tr.Problems) != 0 {
				t.Errorf("problems: %v", tr.Problems)
			}
			got := kittest.Count(tr)
			if got.Calls != want.calls || got.Results != want.results || got.Errors != want.errors ||
				got.Compactions != want.compactions || got.Raw != want.aborted {
				t.Errorf("imported %+v; counted calls %d, results %d, errors %d, compactions %d, aborted calls %d",
					got, want.calls, want.results, want.errors, want.compactions, want.aborted)
			}
			var pending [][]string
			for _, p := range kittest.Pending(tr) {
				var ids []string
				for _, id := range p {
					ids = append(ids, strings.TrimPrefix(id, "call:"))
				}
				pending = append(pending, ids)
			}
			if !equalLists(pending, want.pending) {
				t.Errorf("in flight %q, counted %q", pending, want.pending)
			}
			for i, c := range tr.Compactions {
				var refs []string
				for _, k := range c.Kept {
					if strings.HasPrefix(k, "E") {
						refs = append(refs, k)
					}
				}
				if !slices.Equal(refs, want.kept[i]) {
					t.Errorf("compaction %d keeps %d entries, counted %d", c.Seq, len(refs), len(want.kept[i]))
				}
				// A call in flight survives in the kept tail only.
				for _, id := range want.pending[i] {
					if !slices.Contains(c.Kept, id) {
						t.Errorf("compaction %d: call %s in flight is not kept", c.Seq, id)
					}
				}
				if c.Summary == "" || c.TokensBefore == 0 {
					t.Errorf("compaction %d: summary %d bytes, tokens before %d", c.Seq, len(c.Summary), c.TokensBefore)
				}
			}
			t.Logf("%s: %+v, kept %d, in flight %q", rs.name, got, lens(want.kept), want.pending)
			if err := kittest.RoundTrip(tr); err != nil {
				t.Errorf("round trip: %v", err)
			}
			sameVerification(t, tr)
		})
	}
}

func lens(xs [][]string) []int {
	var out []int
	for _, x := range xs {
		out = append(out, len(x))
	}
	return out
}

// TestRealSessionsPlain: a real session decompressed imports with its large
// texts on disk the same as in memory.
func TestRealSessionsPlain(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	path := realPath(t, realSessions[2].name)
	r, _, closeFn, err := kit.OpenFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(r)
	closeFn()
	if err != nil {
		t.Fatal(err)
	}
	plain := kittest.WriteTemp(t, "session.jsonl", string(data))
	lazy, whole := kittest.OpenBoth(t, Open, plain, 0)
	if n := kittest.SameAsInMemory(t, lazy, whole); n == 0 {
		t.Error("no text of a 1.6 MB session stays on disk")
	}
	if _, err := Open(plain, model.ReadOptions{}); err != nil {
		t.Fatal(err)
	}
}
