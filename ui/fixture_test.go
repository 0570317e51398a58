package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The fixture is a small migration incident, built by hand so the UI can be
// tested against every status and finding whatever the verifier does: a
// clean first compaction; a second that drops the "re-run the migration"
// commitment while the compactor claims it kept it, flips the plan step and
// keeps the failing test; a third during an in-flight call that keeps only
// the call's intent; a false completion; an orphaned result.
const fixtureJSONL = `{"type":"meta","format":"loupe/v1","run":"fixture","agent":"demo-agent","source":"fixture"}
{"type":"message","turn":1,"role":"user","text":"Add the orders table. Never push to main."}
{"type":"message","turn":2,"role":"assistant","text":"I'll write the schema diff first."}
{"type":"tool_call","turn":3,"id":"call_1","name":"bash","input":{"command":"make schema-diff"}}
{"type":"tool_result","turn":4,"id":"call_1","text":"diff written to schema.diff"}
{"type":"compaction","turn":4,"seq":1,"trigger":"manual","summary":"The user wants the orders table; never push to main. The schema diff is written.","tokens_before":4000,"tokens_after":200}
{"type":"message","turn":5,"role":"assistant","text":"Schema diff is up for review; will re-run the migration after the schema diff is reviewed."}
{"type":"plan","turn":6,"items":[{"id":"t3","text":"Re-run the migration","status":"pending"}]}
{"type":"tool_call","turn":7,"id":"call_8f2a","name":"bash","input":{"command":"make test"}}
{"type":"tool_result","turn":8,"id":"call_8f2a","is_error":true,"text":"FAIL orders_test.go:41 expected 3 rows, got 0\nFAIL\texit status 1"}
{"type":"compaction","turn":9,"seq":2,"trigger":"token_budget","summary":"## Completed\n- Schema diff reviewed.\n\n## Pending Tasks\n- Fix the failing orders test (call_8f2a).\n- Never push to main.\n","self_report":{"retained":["t3","call_8f2a"],"claim":"decisions and open items preserved"},"tokens_before":182000,"tokens_after":9100}
{"type":"message","turn":10,"role":"user","text":"Looks good, the diff is reviewed."}
{"type":"tool_call","turn":11,"id":"call_9","name":"bash","input":{"command":"go test ./..."}}
{"type":"compaction","turn":12,"seq":3,"trigger":"token_budget","summary":"Running the test suite in the background.","tokens_before":20000,"tokens_after":300}
{"type":"tool_result","turn":13,"id":"call_9","text":"ok  \tgithub.com/x/orders\t0.012s"}
{"type":"message","turn":14,"role":"assistant","text":"The migration ran fine; all done."}
`

// loadFixture reads jsonl into a transcript.
func loadFixture(t testing.TB, jsonl string) *model.Transcript {
	t.Helper()
	tr, err := model.Read(strings.NewReader(jsonl), model.ReadOptions{Name: "fixture.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// eventAt returns the index of the first event of kind k at turn.
func eventAt(t testing.TB, tr *model.Transcript, turn int, k model.Kind) int {
	t.Helper()
	for i, e := range tr.Events {
		if e.Header().Turn == turn && e.Kind() == k {
			return i
		}
	}
	t.Fatalf("no %s at turn %d", k, turn)
	return -1
}

// span returns the byte span of sub in s.
func span(t testing.TB, s, sub string) verify.Span {
	t.Helper()
	i := strings.Index(s, sub)
	if i < 0 {
		t.Fatalf("%q not in %q", sub, s)
	}
	return verify.Span{Start: i, End: i + len(sub)}
}

// fixtureResult is the verification result of fixtureJSONL, by hand.
func fixtureResult(t testing.TB) *verify.Result {
	tr := loadFixture(t, fixtureJSONL)
	return resultFor(t, tr)
}

func resultFor(t testing.TB, tr *model.Transcript) *verify.Result {
	t.Helper()
	c1, c2, c3 := tr.Compaction(1), tr.Compaction(2), tr.Compaction(3)

	never := &verify.Item{ID: "constraint:never push to main", Kind: verify.Constraint, Key: "never push to main",
		Text: "Never push to main.", Turn: 1, Event: eventAt(t, tr, 1, model.KindMessage), Origin: "user message", Open: true}
	rerun := &verify.Item{ID: "commitment:re-run migration", Kind: verify.Commitment, Key: "re-run migration",
		Text: "will re-run the migration after the schema diff is reviewed", Action: "re-run the migration",
		Condition: "after the schema diff is reviewed", Turn: 5, Event: eventAt(t, tr, 5, model.KindMessage),
		Origin: "assistant message", Open: true}
	plan := &verify.Item{ID: "commitment:t3", Kind: verify.Commitment, Key: "t3 re-run the migration",
		Text: "Re-run the migration", Turn: 6, Event: eventAt(t, tr, 6, model.KindPlan), Origin: "plan t3", Open: true}
	failing := &verify.Item{ID: "error:call_8f2a", Kind: verify.Error, Key: "call_8f2a FAIL orders_test.go:41",
		Text: "FAIL orders_test.go:41 expected 3 rows, got 0", Turn: 8, Event: eventAt(t, tr, 8, model.KindToolResult),
		Origin: "tool result bash", Open: true}
	handle := &verify.Item{ID: "handle:call_9", Kind: verify.Handle, Key: "call_9", Text: "go test ./...",
		Turn: 11, Event: eventAt(t, tr, 11, model.KindToolCall), Origin: "tool call bash", Open: true}
	ident := &verify.Item{ID: "identifier:orders_test.go", Kind: verify.Identifier, Key: "orders_test.go",
		Text: "orders_test.go", Turn: 8, Event: eventAt(t, tr, 8, model.KindToolResult), Origin: "named by call_8f2a", Open: true}

	s1, s2, s3 := c1.Summary, c2.Summary, c3.Summary
	ev := func(s, sub, section string, pol verify.Polarity) *verify.Evidence {
		return &verify.Evidence{Span: span(t, s, sub), Text: sub, Section: section, Polarity: pol}
	}
	consumers := func(plannerOK, routerOK bool, why ...string) []verify.ConsumerResult {
		p := verify.ConsumerResult{Name: "planner", Requires: []verify.Kind{verify.Commitment, verify.Constraint}, Allowed: plannerOK}
		if !plannerOK {
			p.Why = why
		}
		r := verify.ConsumerResult{Name: "router", Requires: []verify.Kind{verify.Handle}, Allowed: routerOK}
		if !routerOK {
			r.Why = []string{"handle call_9 intent only"}
		}
		return []verify.ConsumerResult{p, r, {Name: "verifier", Requires: []verify.Kind{verify.Handle, verify.Error}, Allowed: routerOK}}
	}
	res := &verify.Result{Path: "fixture.jsonl", Format: model.Format, Source: "fixture", Turns: tr.Turns(), Transcript: tr}
	res.Compactions = []*verify.CompactionResult{
		{
			Seq: 1, Turn: 4, Event: c1.Index, Trigger: "manual", Verdict: verify.Degrade, LossRatio: 0.5,
			SourceBytes: 400, SummaryBytes: len(s1),
			Items: []verify.ItemResult{
				{Item: never, Status: verify.Retained, Score: 1, Evidence: ev(s1, "never push to main", "", verify.Neutral), SelfReport: verify.Unattested, Why: "the instruction is restated"},
			},
			Consumers: consumers(true, true),
		},
		{
			Seq: 2, Turn: 9, Event: c2.Index, Trigger: "token_budget", Verdict: verify.Violate, LossRatio: 0.95,
			SourceBytes: 2400, SummaryBytes: len(s2), Attested: true,
			Reasons: []string{"commitment dropped: re-run migration", "commitment flipped: t3 re-run the migration",
				"self-report overclaims t3", "unsourced claim: deploy to staging done", "consumer planner refused"},
			Items: []verify.ItemResult{
				{Item: rerun, Status: verify.Dropped, Score: 0.21, SelfReport: verify.Overclaim, Why: "no sentence has both “re-run” and “migration”; the condition survived, the action did not"},
				{Item: plan, Status: verify.Flipped, Score: 0.74, Evidence: ev(s2, "Schema diff reviewed.", "Completed", verify.Done), SelfReport: verify.Overclaim, Why: "found under “Completed”; the plan says pending"},
				{Item: failing, Status: verify.Retained, Score: 1, Evidence: ev(s2, "Fix the failing orders test (call_8f2a).", "Pending Tasks", verify.Pending), SelfReport: verify.Agree},
				{Item: ident, Status: verify.Weak, Score: 0.5, Evidence: ev(s2, "orders test", "Pending Tasks", verify.Pending), Why: "“orders test” without the file name"},
				{Item: never, Status: verify.Retained, Score: 1, Evidence: ev(s2, "Never push to main.", "Pending Tasks", verify.Pending), SelfReport: verify.Underclaim},
			},
			UnsourcedClaims: []string{"deploy to staging done"},
			Consumers:       consumers(false, true, "commitment re-run migration dropped", "commitment t3 flipped"),
			Sections: []verify.Section{
				{Span: span(t, s2, "## Completed\n- Schema diff reviewed.\n"), Heading: "Completed", Polarity: verify.Done},
				{Span: span(t, s2, "## Pending Tasks\n- Fix the failing orders test (call_8f2a).\n- Never push to main.\n"), Heading: "Pending Tasks", Polarity: verify.Pending},
			},
		},
		{
			Seq: 3, Turn: 12, Event: c3.Index, Trigger: "token_budget", Verdict: verify.Violate, LossRatio: 0.98,
			SourceBytes: 900, SummaryBytes: len(s3),
			Reasons: []string{"handle call_9 intent only", "commitment dropped: re-run migration", "constraint dropped: never push to main"},
			Items: []verify.ItemResult{
				{Item: rerun, Status: verify.Dropped, SelfReport: verify.Unattested, Why: "absent"},
				{Item: handle, Status: verify.IntentOnly, Score: 0.6, Evidence: ev(s3, "Running the test suite", "", verify.Pending), SelfReport: verify.Unattested, Why: "the summary says what call_9 does, not its id"},
				{Item: never, Status: verify.Dropped, SelfReport: verify.Unattested, Why: "absent"},
			},
			Consumers: consumers(false, false, "commitment re-run migration dropped"),
			Warnings:  []verify.Warning{{Seq: 3, Msg: "loss ratio 98% is far above this run's usual 50–95%"}},
		},
	}
	res.Findings = []verify.RunFinding{
		{Kind: verify.FalseCompletion, Turn: 14, Event: eventAt(t, tr, 14, model.KindMessage), Item: "re-run migration",
			ItemID: rerun.ID, LostAt: 2, OriginTurn: 5, Text: "The migration ran fine; all done.",
			Why: "no tool call between turn 5 and turn 14 ran the migration"},
		{Kind: verify.OrphanedResult, Turn: 13, Event: eventAt(t, tr, 13, model.KindToolResult), Item: "call_9",
			ItemID: handle.ID, LostAt: 3, OriginTurn: 11, Text: "ok github.com/x/orders 0.012s",
			Why: "summary #3 in force has no call_9; the router had no target"},
	}
	res.Lineage = []*verify.Lineage{
		{Item: rerun, Steps: []verify.LineageStep{{Seq: 2, Status: verify.Dropped}, {Seq: 3, Status: verify.Dropped}}, FirstLoss: 2},
	}
	return res
}

// newTestModel returns the inspector on res at a size.
func newTestModel(t testing.TB, res *verify.Result, w, h int, light bool) *Model {
	t.Helper()
	// y saves a copy: never in the user's cache directory from a test.
	m := New(Options{Title: "fixture.jsonl", Result: res, Light: light, ClipDir: t.TempDir()})
	m.statusTTL = time.Millisecond
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// keyMsg makes a key press from a key name as KeyMap writes it.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "ctrl+d":
		return tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) == 1 {
		if r[0] >= 'A' && r[0] <= 'Z' {
			return tea.KeyPressMsg{Code: r[0] + 'a' - 'A', ShiftedCode: r[0], Mod: tea.ModShift, Text: k}
		}
		return tea.KeyPressMsg{Code: r[0], Text: k}
	}
	panic("keyMsg: unknown key " + k)
}

// press sends keys and runs the commands they return that finish at once
// (diffs, searches), the way the runtime would.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		_, cmd := m.Update(keyMsg(k))
		runCmd(m, cmd)
	}
}

// typeText types s into the focused input.
func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// runCmd runs cmd and feeds its messages back, skipping ticks, quits and
// terminal requests.
func runCmd(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(2 * time.Second): // a tick (status timeout): skip it
		return
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			runCmd(m, c)
		}
	case diffMsg, searchMsg, eventLoadedMsg, copiedMsg, editorDoneMsg, reinjectionsMsg:
		_, next := m.Update(msg)
		runCmd(m, next)
	}
}

// screen is the view as plain text.
func screen(m *Model) string { return ansi.Strip(m.View().Content) }
