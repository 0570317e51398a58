package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The JSON report is written one list element at a time; its bytes must be
// those of the whole report encoded at once, whatever it holds: several
// files, unverified ones, groups, empty lists, text that needs escaping.
func TestStreamedJSONIsTheWholeEncoding(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.jsonl"))
	if err != nil || len(paths) < 3 {
		t.Fatalf("corpus: %v (%d files)", err, len(paths))
	}
	var names []string
	for _, p := range paths {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".jsonl"))
	}
	all := corpusResults(t, names...)
	bare, err := model.Read(strings.NewReader(`{"type":"message","turn":1,"role":"user","text":"Never push to main."}`+"\n"), model.ReadOptions{Name: "bare.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	none := verify.Run(bare, verify.Options{})
	odd := corpusResults(t, names[0])[0]
	odd.Path = "odd <&> \u2028 \x1b[31m\u200b path"
	reports := map[string]*Report{
		"empty":           {},
		"one file":        {Results: all[:1]},
		"whole corpus":    {Results: all},
		"only violations": {Results: all, OnlyViolations: true},
		"grouped":         {Results: all, GroupBy: "agent"},
		"unverified":      {Results: all[:2], Unverified: []Unverified{{Path: "gone.jsonl", Error: "no such file"}, {Path: "bad\u0007.jsonl", Error: "line 3: <bad>"}}},
		"only unverified": {Unverified: []Unverified{{Path: "gone.jsonl", Error: "no such file"}}},
		"escaped path":    {Results: append(all[:1:1], odd)},
		"no compaction":   {Results: []*verify.Result{none, all[0]}, OnlyViolations: true},
		"references":      {Results: []*verify.Result{keptRun(t)}},
		"evidence all":    {Results: []*verify.Result{keptRun(t)}, EvidenceAll: true},
	}
	for name, rep := range reports {
		t.Run(name, func(t *testing.T) {
			var whole, streamed bytes.Buffer
			if err := writeJSON(&whole, rep.jsonReport()); err != nil {
				t.Fatal(err)
			}
			if err := rep.JSON(&streamed); err != nil {
				t.Fatal(err)
			}
			// The streamed report writes each item reference on one
			// line: indented as the rest, it is the same bytes.
			var reindented bytes.Buffer
			if err := json.Indent(&reindented, streamed.Bytes(), "", jsonIndent); err != nil {
				t.Fatalf("the streamed report is not JSON: %v", err)
			}
			if !bytes.Equal(whole.Bytes(), reindented.Bytes()) {
				w, s := whole.String(), reindented.String()
				i := 0
				for i < len(w) && i < len(s) && w[i] == s[i] {
					i++
				}
				t.Errorf("streamed report differs at byte %d:\nwhole    %q\nstreamed %q", i, w[max(0, i-80):min(len(w), i+80)], s[max(0, i-80):min(len(s), i+80)])
			}
		})
	}
}

// A reference is written on one line by the streamed report itself: the
// transcript's invisible characters in it are escaped all the same.
func TestReferenceLineIsEscaped(t *testing.T) {
	key := "ORD-1\u202e881 \x1b[31m <b>"
	c := JSONCompaction{Seq: 2, Verdict: verify.Degrade, Reasons: []string{}, UnsourcedClaims: []string{}, Consumers: []JSONConsumer{}, Warnings: []JSONWarning{},
		Items: []JSONItem{{Ref: 1, Kind: verify.Identifier, Key: key, Turn: 3, Status: verify.Retained, Score: 1, reference: true, evidence: evidenceSame, sameWhy: true}}}
	var b bytes.Buffer
	if err := writeCompaction(&b, c, "", &fullEntries{}); err != nil {
		t.Fatal(err)
	}
	if r, bad := rawBad(b.String()); bad {
		t.Errorf("U+%04X is raw in the reference: %s", r, b.String())
	}
	if !strings.Contains(b.String(), `{"ref":1,"kind":"identifier","key":"ORD-1\u202e881 \u001b[31m <b>","text":"","turn":3`) {
		t.Errorf("the reference is not one escaped line:\n%s", b.String())
	}
	var back JSONCompaction
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Items[0].Key != key {
		t.Errorf("decoded %v: %+v", err, back.Items)
	}
}

// An item written in full at one compaction and again at the next reuses
// the bytes written before only when nothing on the wire changed: a why,
// a score or an evidence that changed is written anew (an evidence alone
// in place of the one before).
func TestRepeatedFullEntryWritesItsChanges(t *testing.T) {
	comp := func(why string, score float64, ev *JSONEvidence) JSONCompaction {
		return JSONCompaction{Seq: 1, Verdict: verify.Degrade, Reasons: []string{}, UnsourcedClaims: []string{}, Consumers: []JSONConsumer{}, Warnings: []JSONWarning{},
			Items: []JSONItem{{Ref: 1, ID: "error:c1", Kind: verify.Error, Key: "c1: boom", Text: "boom", Turn: 3, Origin: "failed bash", Open: true,
				Status: verify.Dropped, Score: score, Evidence: ev, Why: why, Basis: verify.Stated}}}
	}
	steps := []JSONCompaction{
		comp("the error is not mentioned", 0, nil),
		comp("the error is not mentioned", 0, nil),
		comp("the error is not mentioned", 0.5, nil),
		comp("named, but not that it fails", 0.5, nil),
		comp("named, but not that it fails", 0.5, &JSONEvidence{Start: 1, End: 9, Text: "boom \u202e", Polarity: verify.Neutral}),
		comp("named, but not that it fails", 0.5, &JSONEvidence{Start: 2, End: 9, Text: "boom \u202e", Polarity: verify.Neutral}),
		comp("named, but not that it fails", 0.5, nil),
		comp("named, but not that it fails", 0.5, &JSONEvidence{Start: 2, End: 9, Text: "boom", Section: "Errors", Polarity: verify.Pending}),
	}
	var full fullEntries
	for i, c := range steps {
		var got, want bytes.Buffer
		if err := writeCompaction(&got, c, "  ", &full); err != nil {
			t.Fatal(err)
		}
		if err := writeCompaction(&want, c, "  ", &fullEntries{}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("compaction %d written after the one before it:\n%s\nwritten alone:\n%s", i, got.String(), want.String())
		}
	}
}
