package claudecode

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// Claude Code 2.1.332: the bookkeeping records and attachments are skipped
// by name and counted, never raw events, and are no part of the source;
// loupe's re-injected block (a hook_additional_context attachment) is a
// system message that names its hook.
func TestClaudeCode2_1_332(t *testing.T) {
	tr := open(t, "testdata/synthetic/live_2_1_332_hooks.jsonl")
	for _, e := range tr.Events {
		if r, ok := e.(*model.Raw); ok {
			t.Errorf("raw event: %s", r.Reason)
		}
	}
	sk := tr.Meta.Extra["skipped"]
	for _, want := range []string{"atis-latch=", "api-request-shape=", "api-request-blob=", "api-request=", "tools-used=", "cost-state=", "mode=", "attachment/prompt_snapshot=", "attachment/skill_listing="} {
		if !strings.Contains(sk, want) {
			t.Errorf("skipped %q lacks %s", sk, want)
		}
	}
	var hook []string
	for _, e := range tr.Events {
		if m, ok := e.(*model.Message); ok && strings.HasPrefix(m.Text, HookContextPrefix) {
			if m.Role != model.RoleSystem {
				t.Errorf("hook context as a %s message", m.Role)
			}
			hook = append(hook, m.Text)
		}
	}
	if len(hook) != 1 || !strings.Contains(hook[0], "UserPromptSubmit") || !strings.Contains(hook[0], "loupe checked the summary of compaction 1") {
		t.Errorf("hook context messages %q, want loupe's block from UserPromptSubmit", hook)
	}
	if len(tr.Compactions) != 1 || len(tr.Compactions[0].Kept) != 1 || !strings.Contains(tr.Compactions[0].Summary, "waiting until the schema diff is reviewed") {
		t.Fatalf("compactions %+v", tr.Compactions)
	}
	if err := kittest.RoundTrip(tr); err != nil {
		t.Error(err)
	}
}

// A server-side tool's result comes back in the assistant's own lines, even
// when the response is written one content block a line: it closes the
// call, which is not in flight at the compaction.
func TestServerToolsPaired(t *testing.T) {
	tr := open(t, "testdata/synthetic/server_tools_split.jsonl")
	if got := kittest.Pending(tr); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("pending at the compaction: %q, want none", got)
	}
	if c := kittest.Count(tr); c.Calls != 2 || c.Results != 2 {
		t.Errorf("counts %+v", c)
	}
}
