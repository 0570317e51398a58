package model

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"
)

// jsonl joins lines into a transcript with a trailing newline.
func jsonl(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

const (
	metaLine = `{"type":"meta","format":"loupe/v1","run":"r1"}`
	userLine = `{"type":"message","turn":1,"role":"user","text":"Add the orders table."}`
)

// problemStrings formats problems as "severity file:line[:col]: type: message".
func problemStrings(ps Problems) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Severity.String()+" "+p.Error())
	}
	return out
}

// kinds lists the events' kinds, raw events with their declared type.
func kinds(t *Transcript) []string {
	var out []string
	for _, e := range t.Events {
		s := e.Kind().String()
		if r, ok := e.(*Raw); ok && r.Type != "" {
			s += "(" + r.Type + ")"
		}
		out = append(out, s)
	}
	return out
}

func readString(t testing.TB, s string) *Transcript {
	t.Helper()
	tr, err := Read(strings.NewReader(s), ReadOptions{Name: "run.jsonl"})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return tr
}

func diffLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\ngot:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// malformed lists every way a line can be wrong, with the exact problems the
// reader must report (their wording is part of the review) and the events that
// come out: a broken line is kept as a raw event and reading goes on.
var malformed = []struct {
	name   string
	in     string
	want   []string // "severity file:line[:col]: type: message"
	events []string // kinds, raw ones with their declared type
}{{
	name:   "invalid JSON mid-file is an error, kept as raw, and reading goes on",
	in:     jsonl(metaLine, userLine, `{"type":"message","turn":2,role:"user","text":"x"}`, `{"type":"message","turn":3,"role":"assistant","text":"ok"}`),
	want:   []string{`error run.jsonl:3:28: not valid JSON: invalid character 'r' looking for beginning of object key string`},
	events: []string{"message", "raw", "message"},
}, {
	name:   "truncated last line is a warning",
	in:     jsonl(metaLine, userLine) + `{"type":"tool_result","turn":2,"id":"c1","text":"FAIL orders_te`,
	want:   []string{`warning run.jsonl:3:63: truncated last line (no newline at end of file; was the writer interrupted?): not valid JSON: unexpected end of JSON input`},
	events: []string{"message", "raw"},
}, {
	name:   "a broken last line that ends with a newline is an error",
	in:     jsonl(metaLine, userLine, `{"type":"tool_result","turn":2,"id":"c1","text":"FAIL orders_te`),
	want:   []string{`error run.jsonl:3:63: not valid JSON: unexpected end of JSON input`},
	events: []string{"message", "raw"},
}, {
	name:   "a last line without a newline that parses is fine",
	in:     jsonl(metaLine) + userLine,
	events: []string{"message"},
}, {
	name: "lines that are JSON but not objects",
	in:   jsonl(metaLine, `[1,2]`, `"text"`, `42`, `null`, `true`),
	want: []string{
		`error run.jsonl:2: the line is an array, not a JSON object`,
		`error run.jsonl:3: the line is a string, not a JSON object`,
		`error run.jsonl:4: the line is a number, not a JSON object`,
		`error run.jsonl:5: the line is null, not a JSON object`,
		`error run.jsonl:6: the line is a boolean, not a JSON object`,
	},
	events: []string{"raw", "raw", "raw", "raw", "raw"},
}, {
	name: "missing, non-string and unknown type",
	in:   jsonl(metaLine, `{"turn":1,"role":"user","text":"x"}`, `{"type":7,"turn":1}`, `{"type":null}`, `{"type":"checkpoint","turn":1,"data":{"a":1}}`),
	want: []string{
		`error run.jsonl:2: "type" is missing`,
		`error run.jsonl:3: "type" must be a string, not the number 7`,
		`error run.jsonl:4: "type" must be a string, not null`,
		// An unknown type is kept as a raw event with no problem.
	},
	events: []string{"raw", "raw", "raw", "raw(checkpoint)"},
}, {
	name: "missing required fields",
	in: jsonl(metaLine,
		`{"type":"message","turn":1,"text":"x"}`,
		`{"type":"message","turn":1,"role":"user"}`,
		`{"type":"tool_result","turn":1,"text":"x"}`,
		`{"type":"tool_call","turn":1,"name":"bash"}`,
		`{"type":"tool_call","turn":1,"id":"c1"}`,
		`{"type":"plan","turn":1}`,
		`{"type":"commitment","turn":1,"id":"k1"}`,
		`{"type":"raw","turn":1,"data":"{}"}`,
		`{"type":"raw","turn":1,"reason":"","data":"{}"}`,
		`{"type":"tool_result","turn":1,"id":"c1","text":"x","job":{"state":"running"}}`,
		`{"type":"tool_result","turn":1,"id":"c1","text":"x","job":{"id":"j1"}}`,
	),
	want: []string{
		`error run.jsonl:2: message: "role" is missing`,
		`error run.jsonl:3: message: "text" is missing`,
		`error run.jsonl:4: tool_result: "id" is missing`,
		`error run.jsonl:5: tool_call: "id" is missing`,
		`error run.jsonl:6: tool_call: "name" is missing`,
		`error run.jsonl:7: plan: "items" is missing`,
		`error run.jsonl:8: commitment: "text" is missing`,
		`error run.jsonl:9: raw: "reason" is missing`,
		`error run.jsonl:10: raw: "reason" must not be empty`,
		`error run.jsonl:11: tool_result: "job.id" is missing`,
		`error run.jsonl:12: tool_result: "job.state" is missing`,
	},
	events: []string{"raw(message)", "raw(message)", "raw(tool_result)", "raw(tool_call)", "raw(tool_call)", "raw(plan)", "raw(commitment)", "raw(raw)", "raw(raw)", "raw(tool_result)", "raw(tool_result)"},
}, {
	name: "optional fields may be missing or null",
	in: jsonl(metaLine,
		`{"type":"tool_call","turn":1,"id":"c1","name":"bash"}`,
		`{"type":"tool_result","turn":2,"id":"c1"}`,
		`{"type":"tool_result","turn":2,"id":"c2","is_error":null,"text":null,"job":null,"ts":null,"ref":null}`,
		`{"type":"commitment","turn":3,"text":"re-run the migration"}`,
		`{"type":"compaction","turn":4,"seq":1,"summary":"s","trigger":null,"self_report":null,"tokens_before":null,"kept":null}`,
		`{"type":"plan","turn":5,"items":[]}`,
	),
	want:   []string{`warning run.jsonl:4: tool_result: result for call "c2", which was never made`},
	events: []string{"tool_call", "tool_result", "tool_result", "commitment", "compaction", "plan"},
}, {
	name: "wrong field types",
	in: jsonl(metaLine,
		`{"type":"message","turn":"x","role":"user","text":"x"}`,
		`{"type":"message","turn":1.5,"role":"user","text":"x"}`,
		`{"type":"message","turn":99999999999999999999,"role":"user","text":"x"}`,
		`{"type":"message","turn":1,"role":5,"text":"x"}`,
		`{"type":"message","turn":1,"role":"user","text":["x"]}`,
		`{"type":"message","turn":1,"ts":5,"role":"user","text":"x"}`,
		`{"type":"message","turn":1,"ref":{},"role":"user","text":"x"}`,
		`{"type":"tool_call","turn":1,"id":12,"name":"bash"}`,
		`{"type":"tool_result","turn":1,"id":"c1","is_error":"yes","text":"x"}`,
		`{"type":"tool_result","turn":1,"id":"c1","text":12}`,
		`{"type":"tool_result","turn":1,"id":"c1","text":"x","job":"j1"}`,
		`{"type":"tool_result","turn":1,"id":"c1","text":"x","job":{"id":"j1","state":"paused"}}`,
		`{"type":"compaction","turn":1,"seq":"4","summary":"s"}`,
		`{"type":"compaction","turn":1,"seq":1,"summary":"s","tokens_before":"many"}`,
		`{"type":"compaction","turn":1,"seq":1,"summary":"s","kept":"c1"}`,
		`{"type":"compaction","turn":1,"seq":1,"summary":"s","opaque":1}`,
		`{"type":"compaction","turn":1,"seq":1,"summary":{"text":"s"}}`,
		`{"type":"commitment","turn":1,"text":"a","status":true}`,
	),
	want: []string{
		`error run.jsonl:2: message: "turn" must be an integer, not the string "x"`,
		`error run.jsonl:3: message: "turn" must be an integer, not the number 1.5`,
		`error run.jsonl:4: message: "turn" is 99999999999999999999, out of range (0 to 9007199254740991)`,
		`error run.jsonl:5: message: "role" must be a string, not the number 5`,
		`error run.jsonl:6: message: "text" must be a string, not an array`,
		`error run.jsonl:7: message: "ts" must be a string, not the number 5`,
		`error run.jsonl:8: message: "ref" must be a string, not an object`,
		`error run.jsonl:9: tool_call: "id" must be a string, not the number 12`,
		`error run.jsonl:10: tool_result: "is_error" must be true or false, not the string "yes"`,
		`error run.jsonl:11: tool_result: "text" must be a string, not the number 12`,
		`error run.jsonl:12: tool_result: "job" must be an object with "id" and "state", not the string "j1"`,
		`error run.jsonl:13: tool_result: unknown job state "paused" (expected running, done or killed)`,
		`error run.jsonl:14: compaction: "seq" must be an integer, not the string "4"`,
		`error run.jsonl:15: compaction: "tokens_before" must be an integer, not the string "many"`,
		`error run.jsonl:16: compaction: "kept" must be an array of strings, not the string "c1"`,
		`error run.jsonl:17: compaction: "opaque" must be true or false, not the number 1`,
		`error run.jsonl:18: compaction: "summary" must be a string, not an object`,
		`error run.jsonl:19: commitment: "status" must be a string, not true`,
	},
}, {
	// Counting on from a turn or seq at the int64 limit wrapped to a
	// negative number; the range check stops it at the line.
	name: "turns, seqs and token counts out of range",
	in: jsonl(metaLine,
		`{"type":"message","turn":9223372036854775807,"role":"user","text":"x"}`,
		`{"type":"message","turn":-1,"role":"user","text":"x"}`,
		`{"type":"compaction","turn":1,"seq":9223372036854775807,"summary":"s"}`,
		`{"type":"compaction","turn":1,"seq":-3,"summary":"s"}`,
		`{"type":"compaction","turn":1,"seq":9007199254740991,"summary":"s","tokens_after":-5}`,
		`{"type":"compaction","turn":9007199254740991,"summary":"s"}`,
	),
	want: []string{
		`error run.jsonl:2: message: "turn" is 9223372036854775807, out of range (0 to 9007199254740991)`,
		`error run.jsonl:3: message: "turn" is -1, out of range (0 to 9007199254740991)`,
		`error run.jsonl:4: compaction: "seq" is 9223372036854775807, out of range (0 to 9007199254740991)`,
		`error run.jsonl:5: compaction: "seq" is -3, out of range (0 to 9007199254740991)`,
		`error run.jsonl:6: compaction: "tokens_after" is -5, out of range (0 to 9007199254740991)`,
		`error run.jsonl:7: compaction: "seq" is missing, and the one before is 9007199254740991, the largest allowed`,
	},
	events: []string{"raw(message)", "raw(message)", "raw(compaction)", "raw(compaction)", "raw(compaction)", "raw(compaction)"},
}, {
	name: "plan item problems",
	in: jsonl(metaLine,
		`{"type":"plan","turn":1,"items":{"id":"t1"}}`,
		`{"type":"plan","turn":1,"items":["t1"]}`,
		`{"type":"plan","turn":1,"items":[{"id":"t1","text":"a","status":"pending"},{"id":"t2","status":"pending"}]}`,
		`{"type":"plan","turn":1,"items":[{"id":"t1","text":"a"}]}`,
		`{"type":"plan","turn":1,"items":[{"id":true,"text":"a","status":"pending"}]}`,
		`{"type":"plan","turn":1,"items":[{"id":"t1","text":"a","status":"finished"}]}`,
		`{"type":"plan","turn":1,"items":[{"id":7,"text":"a","status":"pending"},{"text":"no id","status":"cancelled"}]}`,
		`{"type":"commitment","turn":1,"id":"k1","text":"a","status":"maybe"}`,
	),
	want: []string{
		`error run.jsonl:2: plan: "items" must be an array, not an object`,
		`error run.jsonl:3: plan: "items[0]" must be an object, not the string "t1"`,
		`error run.jsonl:4: plan: "items[1].text" is missing`,
		`error run.jsonl:5: plan: "items[0].status" is missing`,
		`error run.jsonl:6: plan: "items[0].id" must be a string, not true`,
		// Runtimes have statuses of their own: kept as written, with a warning.
		`warning run.jsonl:7: plan: unknown status "finished" in "items[0]" (expected pending, in_progress, completed or cancelled)`,
		`warning run.jsonl:9: commitment: unknown status "maybe" (expected open or done)`,
	},
	events: []string{"raw(plan)", "raw(plan)", "raw(plan)", "raw(plan)", "raw(plan)", "plan", "plan", "commitment"},
}, {
	name: "bad self_report",
	in: jsonl(metaLine,
		`{"type":"compaction","turn":1,"seq":1,"summary":"s","self_report":"all kept"}`,
		`{"type":"compaction","turn":1,"seq":2,"summary":"s","self_report":{"retained":"t3"}}`,
		`{"type":"compaction","turn":1,"seq":3,"summary":"s","self_report":{"retained":["t3",4]}}`,
		`{"type":"compaction","turn":1,"seq":4,"summary":"s","self_report":{"dropped":[null]}}`,
		`{"type":"compaction","turn":1,"seq":5,"summary":"s","self_report":{"claim":false}}`,
		`{"type":"compaction","turn":1,"seq":6,"summary":"s","self_report":{}}`,
	),
	want: []string{
		`error run.jsonl:2: compaction: "self_report" must be an object, not the string "all kept"`,
		`error run.jsonl:3: compaction: "self_report.retained" must be an array of strings, not the string "t3"`,
		`error run.jsonl:4: compaction: "self_report.retained[1]" must be a string, not the number 4`,
		`error run.jsonl:5: compaction: "self_report.dropped[0]" must be a string, not null`,
		`error run.jsonl:6: compaction: "self_report.claim" must be a string, not false`,
	},
	events: []string{"raw(compaction)", "raw(compaction)", "raw(compaction)", "raw(compaction)", "raw(compaction)", "compaction"},
}, {
	name: "compaction without seq or summary",
	in: jsonl(metaLine,
		`{"type":"compaction","turn":1,"seq":1}`,
		`{"type":"compaction","turn":2,"summary":"s"}`,
		`{"type":"compaction","turn":3,"seq":3,"opaque":true}`,
	),
	want: []string{
		`warning run.jsonl:2: compaction: "summary" is missing; treated as empty`,
		`warning run.jsonl:3: compaction: "seq" is missing; numbered 2`,
	},
	events: []string{"compaction", "compaction", "compaction"},
}, {
	name: "duplicate and late meta",
	in:   jsonl(userLine, metaLine, `{"type":"meta","format":"loupe/v1","run":"r2"}`),
	want: []string{
		`warning run.jsonl:2: meta: the meta line comes after 1 event; it should be the first line`,
		`warning run.jsonl:3: meta: a second meta line is ignored (kept as a raw event)`,
	},
	events: []string{"message", "raw(meta)"},
}, {
	name: "meta with another format and bad consumers",
	in:   jsonl(`{"type":"meta","format":"loupe/v2","consumers":"planner"}`),
	want: []string{
		`warning run.jsonl:1: meta: format "loupe/v2" is not "loupe/v1"; reading it as loupe/v1`,
		`error run.jsonl:1: meta: "consumers" must be an array, not the string "planner"`,
	},
}, {
	name: "meta consumer problems",
	in: jsonl(`{"type":"meta","consumers":[{"name":"router","requires":["handle"]},"planner"]}`,
		`{"type":"meta","consumers":[{"requires":["handle"]}]}`,
	),
	want: []string{
		`error run.jsonl:1: meta: "consumers[1]" must be an object with "name" and "requires", not the string "planner"`,
		`warning run.jsonl:2: meta: a second meta line is ignored (kept as a raw event)`,
	},
	events: []string{"raw(meta)"},
}, {
	name: "consistency warnings",
	in: jsonl(metaLine,
		`{"type":"message","turn":5,"role":"user","text":"x"}`,
		`{"type":"message","turn":3,"role":"assistant","text":"y"}`,
		`{"type":"message","role":"assistant","text":"z"}`,
		`{"type":"compaction","turn":6,"seq":1,"summary":"s"}`,
		`{"type":"compaction","turn":7,"seq":3,"summary":"s"}`,
		`{"type":"tool_result","turn":8,"id":"ghost","text":"x"}`,
		`{"type":"tool_call","turn":8,"id":"c1","name":"bash"}`,
		`{"type":"tool_call","turn":8,"id":"c1","name":"bash"}`,
		`{"type":"tool_result","turn":9,"id":"c1","text":"x"}`,
		`{"type":"tool_result","turn":9,"id":"c1","text":"x"}`,
		`{"type":"message","turn":9,"role":"bot","text":"x"}`,
		`{"type":"compaction","turn":10,"seq":3,"summary":"s"}`,
	),
	want: []string{
		`warning run.jsonl:3: message: turn 3 goes back (line 2 has turn 5)`,
		`warning run.jsonl:4: message: "turn" is missing; using the previous turn (3)`,
		`warning run.jsonl:6: compaction: compaction seq 3 follows seq 1 (expected 2)`,
		`warning run.jsonl:7: tool_result: result for call "ghost", which was never made`,
		`warning run.jsonl:9: tool_call: call id "c1" was already used at line 8`,
		`warning run.jsonl:11: tool_result: a second result for call "c1"`,
		`warning run.jsonl:12: message: unknown role "bot" (expected system, user or assistant)`,
		`warning run.jsonl:13: compaction: compaction seq 3 follows seq 3 (expected 4)`,
	},
	events: []string{"message", "message", "message", "compaction", "compaction", "tool_result", "tool_call", "tool_call", "tool_result", "tool_result", "message", "compaction"},
}, {
	name: "a bad turn does not reset the turn later lines inherit",
	in: jsonl(metaLine,
		`{"type":"message","turn":7,"role":"user","text":"x"}`,
		`{"type":"message","turn":"eight","role":"user","text":"x"}`,
		`{"type":"message","role":"user","text":"x"}`,
	),
	want: []string{
		`error run.jsonl:3: message: "turn" must be an integer, not the string "eight"`,
		`warning run.jsonl:4: message: "turn" is missing; using the previous turn (7)`,
	},
	events: []string{"message", "raw(message)", "message"},
}, {
	name: "a bad seq does not reset the numbering of later compactions",
	in: jsonl(metaLine,
		`{"type":"compaction","turn":1,"seq":4,"summary":"s"}`,
		`{"type":"compaction","turn":2,"seq":"five","summary":"s"}`,
		`{"type":"compaction","turn":3,"summary":"s"}`,
	),
	want: []string{
		`error run.jsonl:3: compaction: "seq" must be an integer, not the string "five"`,
		`warning run.jsonl:4: compaction: "seq" is missing; numbered 5`,
	},
	events: []string{"compaction", "raw(compaction)", "compaction"},
}, {
	name:   "blank lines are skipped but counted",
	in:     jsonl(metaLine, ``, `   `, "\t", userLine, ``, `{"type":"message","turn":"x"}`),
	want:   []string{`error run.jsonl:7: message: "turn" must be an integer, not the string "x"`},
	events: []string{"message", "raw(message)"},
}, {
	name:   "CRLF line endings",
	in:     strings.ReplaceAll(jsonl(metaLine, userLine, `{"type":"bogus"`, userLine), "\n", "\r\n"),
	want:   []string{`error run.jsonl:3:15: not valid JSON: unexpected end of JSON input`},
	events: []string{"message", "raw", "message"},
}, {
	name:   "a UTF-8 byte-order mark",
	in:     "\xef\xbb\xbf" + jsonl(metaLine, userLine),
	events: []string{"message"},
}, {
	name:   "an empty file",
	in:     "",
	events: nil,
}}

func TestReadMalformed(t *testing.T) {
	for _, tc := range malformed {
		t.Run(tc.name, func(t *testing.T) {
			tr := readString(t, tc.in)
			diffLines(t, "problems", problemStrings(tr.Problems), tc.want)
			if tc.events != nil || len(tr.Events) > 0 && tc.name == "an empty file" {
				diffLines(t, "events", kinds(tr), tc.events)
			}
			// Every broken line is a raw event that carries its problem,
			// and every error belongs to such a line (or to the meta line).
			errs := map[int]*Problem{}
			for _, p := range tr.Problems.Errors() {
				errs[p.Line] = p
			}
			for _, e := range tr.Events {
				r, ok := e.(*Raw)
				if !ok || r.Problem == nil {
					continue
				}
				if r.Problem.Severity == Error && errs[r.Line] != r.Problem {
					t.Errorf("line %d: raw event's problem %v is not in Problems", r.Line, r.Problem)
				}
				delete(errs, r.Line)
				if got, _ := r.JSON.Load(); got == "" {
					t.Errorf("line %d: raw event lost its JSON", r.Line)
				}
			}
			for line, p := range errs {
				if p.Type != "meta" {
					t.Errorf("line %d: error %v has no raw event", line, p)
				}
			}
		})
	}
}

// TestToolResultWithoutID is the example of DESIGN.md and the issue, verbatim.
func TestToolResultWithoutID(t *testing.T) {
	tr := readString(t, jsonl(metaLine, userLine, `{"type":"tool_result","turn":2,"is_error":true,"text":"FAIL"}`))
	if len(tr.Problems) != 1 {
		t.Fatalf("problems: %v", problemStrings(tr.Problems))
	}
	p := tr.Problems[0]
	if got, want := p.Error(), `run.jsonl:3: tool_result: "id" is missing`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if p.Severity != Error || p.Line != 3 || p.Field != "id" || p.Type != "tool_result" || p.File != "run.jsonl" {
		t.Errorf("problem fields: %+v", *p)
	}
	r, ok := tr.Events[1].(*Raw)
	if !ok || r.Problem != p || r.Type != "tool_result" || r.Turn != 2 || r.Line != 3 {
		t.Errorf("broken line is %#v, want a raw tool_result at line 3 carrying the problem", tr.Events[1])
	}
}

func TestProblemError(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "run.jsonl", Line: 3, Type: "tool_result", Msg: `"id" is missing`}, `run.jsonl:3: tool_result: "id" is missing`},
		{Problem{File: "run.jsonl", Line: 3, Column: 9, Msg: "not valid JSON"}, `run.jsonl:3:9: not valid JSON`},
		{Problem{File: "run.jsonl", Msg: "empty"}, `run.jsonl: empty`},
		{Problem{Line: 3, Column: 9, Msg: "not valid JSON"}, `line 3, column 9: not valid JSON`},
		{Problem{Line: 3, Type: "plan", Msg: "x"}, `line 3: plan: x`},
		{Problem{Msg: "x"}, `x`},
	} {
		if got := tc.p.Error(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.p, got, tc.want)
		}
	}
	ps := Problems{{Line: 1, Msg: "a", Severity: Warning}, {Line: 2, Msg: "b", Severity: Error}}
	if got := ps.Error(); got != "line 1: a (and 1 more problems)" {
		t.Errorf("Problems.Error() = %q", got)
	}
	if got := ps.Errors(); len(got) != 1 || got[0].Msg != "b" {
		t.Errorf("Errors() = %v", got)
	}
}

func TestMissingTurnInherits(t *testing.T) {
	tr := readString(t, jsonl(metaLine,
		`{"type":"message","turn":4,"role":"user","text":"x"}`,
		`{"type":"tool_call","id":"c1","name":"bash"}`,
		`{"type":"checkpoint"}`,
	))
	for i, want := range []int{4, 4, 4} {
		if got := tr.Events[i].Header().Turn; got != want {
			t.Errorf("event %d: turn %d, want %d", i, got, want)
		}
	}
}

// TestLinePositions checks Line and Offset, which the inspector uses to jump
// into the file, across CRLF endings, a BOM and blank lines.
func TestLinePositions(t *testing.T) {
	in := "\xef\xbb\xbf" + metaLine + "\r\n\r\n" + userLine + "\r\n" + `{"type":"odd"}` + "\r\n"
	tr := readString(t, in)
	if len(tr.Problems) > 0 {
		t.Fatalf("problems: %v", problemStrings(tr.Problems))
	}
	if tr.Meta.Run != "r1" {
		t.Errorf("meta after a BOM: %+v", tr.Meta)
	}
	m := tr.Events[0].(*Message)
	if m.Line != 3 || m.Offset != int64(3+len(metaLine)+4) || m.Text != "Add the orders table." {
		t.Errorf("message: line %d offset %d text %q", m.Line, m.Offset, m.Text)
	}
	r := tr.Events[1].(*Raw)
	if got, _ := r.JSON.Load(); got != `{"type":"odd"}` {
		t.Errorf("raw JSON %q keeps its line ending", got)
	}
	if r.Index != 1 || r.Line != 4 {
		t.Errorf("raw: index %d line %d", r.Index, r.Line)
	}
	if tr.Bytes != int64(len(in)) {
		t.Errorf("Bytes = %d, want %d", tr.Bytes, len(in))
	}
}

// TestInvalidUTF8 reads tool output with invalid bytes and lone surrogate
// escapes: it must load, with U+FFFD in place of what cannot be decoded (one
// for each run of invalid bytes, as strings.ToValidUTF8 does) and nothing else
// lost.
func TestInvalidUTF8(t *testing.T) {
	in := jsonl(metaLine,
		"{\"type\":\"tool_call\",\"turn\":1,\"id\":\"c1\",\"name\":\"cat\",\"input\":{\"path\":\"bin\xff.dat\"}}",
		"{\"type\":\"tool_result\",\"turn\":2,\"id\":\"c1\",\"text\":\"head \xff\xfe\xc3 tail\"}",
		`{"type":"tool_result","turn":3,"id":"c2","text":"lone \ud800 high, \udc00 low, pair \ud83d\ude00, high then other \ud83d\u0041, escaped \\ud800, bad \q"}`,
		"{\"type\":\"message\",\"turn\":4,\"role\":\"assistant\",\"text\":\"\xe2\x82 cut\"}",
		"{\"type\":\"checkpoint\",\"note\":\"\xc0\"}",
	)
	tr := readString(t, in)
	diffLines(t, "problems", problemStrings(tr.Problems), []string{`warning run.jsonl:4: tool_result: result for call "c2", which was never made`})
	call := tr.Events[0].(*ToolCall)
	if got := call.Input.Head(); got != `{"path":"bin`+"\uFFFD"+`.dat"}` {
		t.Errorf("input %q", got)
	}
	want := []string{
		"head \uFFFD tail",
		"lone \uFFFD high, \uFFFD low, pair \U0001F600, high then other \uFFFDA, escaped \\ud800, bad \\q",
	}
	for i, w := range want {
		res := tr.Events[1+i].(*ToolResult)
		if got, _ := res.Text.Load(); got != w {
			t.Errorf("result %d: got %q, want %q", i, got, w)
		}
	}
	if m := tr.Events[3].(*Message); m.Text != "\uFFFD cut" {
		t.Errorf("message %q", m.Text)
	}
	if r, _ := tr.Events[4].(*Raw).JSON.Load(); r != `{"type":"checkpoint","note":"`+"\uFFFD"+`"}` {
		t.Errorf("raw %q", r)
	}
}

func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipBytes(t testing.TB, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zstdBytes(t testing.TB, s string) []byte {
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zw.Close()
	return zw.EncodeAll([]byte(s), nil)
}

// TestCompressed reads gzip and zstd by their magic bytes, whatever the name,
// from files, from the committed testdata and from a stream.
func TestCompressed(t *testing.T) {
	plain := jsonl(metaLine, userLine, `{"type":"tool_call","turn":2,"id":"c1","name":"bash","input":{"command":"make test"}}`, `{"type":"tool_result","turn":3,"id":"c1","text":"`+strings.Repeat("ok ", 20000)+`"}`)
	want := readString(t, plain)
	for name, data := range map[string][]byte{
		"run.jsonl.gz":  gzipBytes(t, plain),
		"run.jsonl.zst": zstdBytes(t, plain),
		"misnamed.txt":  zstdBytes(t, plain),
		"two-members.gz": append(gzipBytes(t, jsonl(metaLine, userLine)),
			gzipBytes(t, strings.TrimPrefix(plain, jsonl(metaLine, userLine)))...),
	} {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, name, data)
			var last, total int64
			tr, err := Open(path, ReadOptions{Progress: func(r, tot int64) { last, total = r, tot }})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Path != path || len(tr.Problems) > 0 {
				t.Errorf("path %q, problems %v", tr.Path, problemStrings(tr.Problems))
			}
			// Compressed files cannot be read back lazily: held whole.
			res := tr.Events[2].(*ToolResult)
			if !res.Text.Complete() || res.Text.Len() != 60000 {
				t.Errorf("compressed tool output: complete %v len %d", res.Text.Complete(), res.Text.Len())
			}
			assertSameEvents(t, tr, want)
			if tr.Bytes != int64(len(plain)) {
				t.Errorf("Bytes = %d, want the uncompressed size %d", tr.Bytes, len(plain))
			}
			// Progress counts the file's bytes, so it ends at the file's size.
			if last != int64(len(data)) || total != int64(len(data)) {
				t.Errorf("progress ended at %d of %d, want %d of %d", last, total, len(data), len(data))
			}
			tr, err = Read(bytes.NewReader(data), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			assertSameEvents(t, tr, want)
		})
	}
	for _, name := range []string{"testdata/tiny.jsonl.gz", "testdata/tiny.jsonl.zst"} {
		tr, err := Open(name, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Problems) > 0 || len(tr.Events) != 6 || len(tr.Compactions) != 1 {
			t.Errorf("%s: %d events, %d compactions, problems %v", name, len(tr.Events), len(tr.Compactions), problemStrings(tr.Problems))
		}
	}
}

func TestCorruptCompressed(t *testing.T) {
	data := gzipBytes(t, strings.Repeat(userLine+"\n", 1000))
	data = data[:len(data)/2]
	path := writeFile(t, "cut.jsonl.gz", data)
	if _, err := Open(path, ReadOptions{}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a cut gzip file: err = %v, want an I/O error naming the file", err)
	}
	if _, err := Open(writeFile(t, "bad.gz", []byte{0x1f, 0x8b, 0, 0}), ReadOptions{Name: "bad.gz"}); err == nil || !strings.HasPrefix(err.Error(), "bad.gz: gzip: ") {
		t.Errorf("a bad gzip header: err = %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "missing.jsonl"), ReadOptions{}); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
	dir := t.TempDir()
	if _, err := Open(dir, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
}

// TestOpenStdin reads "-" as standard input.
func TestOpenStdin(t *testing.T) {
	path := writeFile(t, "in.jsonl.gz", gzipBytes(t, jsonl(metaLine, userLine)))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	tr, err := Open("-", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Path != "-" || len(tr.Events) != 1 || tr.Meta.Run != "r1" {
		t.Errorf("stdin: path %q, %d events, meta %+v", tr.Path, len(tr.Events), tr.Meta)
	}
}

// TestReadStream is standard input as the command line passes it: Read on a
// reader, every string held in memory, problems named by ReadOptions.Name.
func TestReadStream(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	in := jsonl(metaLine, `{"type":"tool_result","turn":1,"id":"c1","text":"`+big+`"}`, `{"type":"message","turn":2}`)
	tr, err := Read(strings.NewReader(in), ReadOptions{Name: "-"})
	if err != nil {
		t.Fatal(err)
	}
	diffLines(t, "problems", problemStrings(tr.Problems), []string{
		`warning -:2: tool_result: result for call "c1", which was never made`,
		`error -:3: message: "role" is missing`,
	})
	if res := tr.Events[0].(*ToolResult); !res.Text.Complete() || res.Text.Head() != big {
		t.Errorf("a stream's large text must be held whole")
	}
	tr, _ = Read(strings.NewReader(`{"type":"message","turn":2}`+"\n"), ReadOptions{})
	diffLines(t, "problems without a name", problemStrings(tr.Problems), []string{`error line 1: message: "role" is missing`})
}

func TestReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader(jsonl(metaLine, userLine)), iotest.ErrReader(errors.New("broken pipe")))
	_, err := Read(r, ReadOptions{Name: "pipe"})
	if err == nil || err.Error() != "pipe: line 3: broken pipe" {
		t.Errorf("err = %v, want the line it failed at", err)
	}
}

// TestProgress: Open reports progress in the file's bytes, ending at its size.
func TestProgress(t *testing.T) {
	data := jsonl(metaLine, userLine, `{"type":"tool_result","turn":2,"id":"c1","text":"`+strings.Repeat("x", 3<<20)+`"}`)
	path := writeFile(t, "run.jsonl", []byte(data))
	var calls int
	var last, total int64
	if _, err := Open(path, ReadOptions{Progress: func(r, tot int64) {
		if r < last {
			t.Errorf("progress went back from %d to %d", last, r)
		}
		calls++
		last, total = r, tot
	}}); err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last != int64(len(data)) || total != int64(len(data)) {
		t.Errorf("%d calls, ended at %d of %d, want %d", calls, last, total, len(data))
	}
}

// TestEscapedIDs: plan item and commitment ids are decoded like every other
// string (asking fastjson a string's type first unescaped it its own way:
// "\u0010" came back as the text `\x10`).
func TestEscapedIDs(t *testing.T) {
	in := jsonl(metaLine,
		`{"type":"plan","turn":1,"items":[{"id":"Re-ru\u0010\u0000n \"it\"","text":"x","status":"pending"},{"id":7,"text":"y","status":"pending"}]}`,
		`{"type":"commitment","turn":2,"id":"k\ud800\t1","text":"z","status":"open"}`,
	)
	tr, err := Read(strings.NewReader(in), ReadOptions{Name: "run.jsonl"})
	if err != nil || len(tr.Problems) > 0 {
		t.Fatalf("%v %v", err, tr.Problems)
	}
	p := tr.Events[0].(*Plan)
	if p.Items[0].ID != "Re-ru\x10\x00n \"it\"" || p.Items[1].ID != "7" {
		t.Errorf("plan ids %q, %q", p.Items[0].ID, p.Items[1].ID)
	}
	if c := tr.Events[1].(*CommitmentEvent); c.ID != "k\uFFFD\t1" {
		t.Errorf("commitment id %q", c.ID)
	}
}
