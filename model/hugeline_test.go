package model

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A huge line is parsed as a stand-in with its large string bodies
// replaced: what it decodes to, and what is wrong with it, must be what the
// line itself decodes to.
func TestHugeLineStandInReadsAsTheLine(t *testing.T) {
	big := func(c string) string { return strings.Repeat(c, 3<<20/len(c)) }
	esc := big(`tab\there \"quoted\" \u00e9 \ud83d\ude00 lone \ud800 back\\slash `)
	lines := map[string]string{
		"tool output":         `{"type":"tool_result","turn":2,"id":"c1","text":"` + esc + `"}`,
		"summary":             `{"type":"compaction","turn":3,"seq":1,"summary":"` + big("keep c1. ") + `","self_report":{"retained":["c1"]}}`,
		"message":             `{"type":"message","turn":1,"role":"assistant","text":"` + big("I will re-run it. ") + `"}`,
		"spaced":              "{ \"type\" : \"message\" , \"turn\" : 1 , \"role\" : \"user\" , \"text\"\t:\t\"" + big("never push. ") + "\" }",
		"nested text":         `{"type":"tool_call","turn":2,"id":"c2","name":"write","input":{"text":"` + big("x") + `"}}`,
		"other key":           `{"type":"tool_call","turn":2,"id":"` + big("c") + `","name":"bash","input":{}}`,
		"text twice":          `{"type":"message","turn":1,"role":"user","text":"` + big("a") + `","text":"` + big("b") + `"}`,
		"wrong type":          `{"type":"tool_result","turn":"` + big("7") + `","id":"c1","text":"` + big("y") + `"}`,
		"meta":                `{"type":"meta","format":"loupe/v1","text":"` + big("m") + `"}`,
		"unknown type":        `{"type":"thinking","text":"` + big("z") + `"}`,
		"placeholder inside":  `{"type":"message","turn":1,"role":"user","text":"` + placeholder + `0 ` + big("p") + `"}`,
		"broken after":        `{"type":"message","turn":1,"role":"user","text":"` + big("q") + `",}`,
		"broken inside":       `{"type":"message","turn":1,"role":"user","text":"` + big("q") + `\x"}`,
		"unterminated string": `{"type":"message","turn":1,"role":"user","text":"` + big("q"),
		"raw data":            `{"type":"raw","turn":4,"source_type":"x","reason":"unmapped","data":"` + big("d") + `"}`,
	}
	for name, line := range lines {
		t.Run(name, func(t *testing.T) {
			content := `{"type":"meta","format":"loupe/v1"}` + "\n" + line + "\n" + `{"type":"message","turn":9,"role":"user","text":"after"}` + "\n"
			path := filepath.Join(t.TempDir(), "run.jsonl")
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			got := decodeBoth(t, path)
			defer func(n int) { hugeLine = n }(hugeLine)
			hugeLine = 1 << 40 // never a stand-in
			want := decodeBoth(t, path)
			if len(got) != len(want) {
				t.Fatalf("%d decodings, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("decoding %d differs from the line's own:\n got %.300q\nwant %.300q", i, got[i], want[i])
				}
			}
		})
	}
}

// decodeBoth reads path lazily (Open) and whole (Read) and describes each
// result: the events as written back, their text lengths, and the problems.
func decodeBoth(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, open := range []func() (*Transcript, error){
		func() (*Transcript, error) { return Open(path, ReadOptions{}) },
		func() (*Transcript, error) {
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			return Read(bytes.NewReader(b), ReadOptions{Name: path})
		},
	} {
		tr, err := open()
		if err != nil {
			out = append(out, "error: "+err.Error())
			continue
		}
		var b bytes.Buffer
		if err := Write(&b, tr); err != nil {
			t.Fatal(err)
		}
		s := b.String() + fmt.Sprintf("\nmeta %+v\n", tr.Meta)
		for _, e := range tr.Events {
			h := *e.Header()
			s += fmt.Sprintf("%T %+v", e, h)
			if r, ok := e.(*ToolResult); ok {
				s += fmt.Sprintf(" len %d complete %v", r.Text.Len(), r.Text.Complete())
			}
			s += "\n"
		}
		for _, p := range tr.Problems {
			s += p.Error() + "\n"
		}
		out = append(out, s)
	}
	if reflect.DeepEqual(out[0], "") {
		t.Fatal("nothing decoded")
	}
	return out
}
