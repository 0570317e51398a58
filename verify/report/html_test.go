package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// htmlHostile adds to hostile what attacks a web page in particular.
var htmlHostile = append([]string{
	`</style><script>document.title='pwned'</script>`,
	`<img src=x onerror="document.title='pwned'">`,
	`<a href="javascript:alert(1)">click</a>`,
	`javascript:alert(document.cookie)`,
	`" onmouseover="alert(1)`,
	`' style='background:url(https://evil.example/t.png)`,
	`<link rel=stylesheet href=https://evil.example/s.css>`,
	`<meta http-equiv="refresh" content="0;url=https://evil.example">`,
	`@octocat and @org/team please look`,
	"bidi \u202egnp.exe\u202c and \u2067isolate\u2069",
}, hostile...)

func writeHTML(t *testing.T, rep *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := rep.HTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	tagRE  = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*>`)
	attrRE = regexp.MustCompile(`([a-zA-Z-]+)(?:="([^"]*)")?`)
)

// htmlTags are the only elements the page may have.
var htmlTags = map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true, "header": true,
	"footer": true, "h1": true, "h2": true, "h3": true, "p": true, "span": true, "table": true, "tr": true, "th": true, "td": true,
	"a": true, "section": true, "div": true, "ul": true, "li": true, "strong": true, "br": true, "details": true, "summary": true,
	"pre": true, "code": true, "i": true}

// htmlAttrs are the only attributes it may have.
var htmlAttrs = map[string]bool{"lang": true, "charset": true, "http-equiv": true, "content": true, "name": true, "class": true,
	"id": true, "href": true, "title": true, "role": true, "aria-label": true, "style": true}

// checkInertHTML reads the page as a browser would tokenize it: every <
// outside the style sheet starts one of loupe's own tags, with loupe's own
// attributes; links only go to the page's anchors; the only style
// attribute is a bar's width; no control or invisible character.
func checkInertHTML(t *testing.T, what, out string) {
	t.Helper()
	if !strings.HasPrefix(out, "<!DOCTYPE html>\n") {
		t.Errorf("%s: no doctype", what)
	}
	if !model.IsSafe(out) {
		t.Errorf("%s: a control or invisible character reached the page", what)
	}
	head, rest, ok := strings.Cut(out, "<style>")
	css, body, ok2 := strings.Cut(rest, "</style>")
	if !ok || !ok2 || strings.Contains(body, "<style") || strings.Contains(head, "<style") {
		t.Fatalf("%s: want exactly one style sheet", what)
	}
	if strings.Contains(css, "url(") || strings.Contains(css, "@import") || strings.Contains(css, "<") {
		t.Errorf("%s: the style sheet fetches or holds markup", what)
	}
	page := strings.TrimPrefix(head, "<!DOCTYPE html>\n") + body
	tags := tagRE.FindAllStringSubmatchIndex(page, -1)
	if n := strings.Count(page, "<"); n != len(tags) {
		t.Errorf("%s: %d '<' but %d tags of loupe's: markup from the transcript?", what, n, len(tags))
	}
	for _, m := range tags {
		name := strings.ToLower(page[m[4]:m[5]])
		if !htmlTags[name] {
			t.Errorf("%s: element <%s>", what, name)
		}
		for _, a := range attrRE.FindAllStringSubmatch(page[m[6]:m[7]], -1) {
			attr, val := strings.ToLower(a[1]), a[2]
			switch {
			case !htmlAttrs[attr]:
				t.Errorf("%s: attribute %s on <%s>", what, attr, name)
			case attr == "href" && !regexp.MustCompile(`^#[a-z0-9-]+$`).MatchString(val):
				t.Errorf("%s: a link to %q", what, val)
			case attr == "style" && !regexp.MustCompile(`^width: \d+%$`).MatchString(val):
				t.Errorf("%s: style %q", what, val)
			}
		}
	}
	if !strings.Contains(out, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
		t.Errorf("%s: no Content-Security-Policy forbidding every source", what)
	}
}

// TestHTMLStructure: the page of real runs has the summary, a section
// per run with its timeline, findings and lineage map (coloured cells),
// the violating compactions with reasons and evidence, the group table
// and the bars; and it is self-contained.
func TestHTMLStructure(t *testing.T) {
	rep := &Report{Results: variants(t), GroupBy: "prompt", Unverified: []Unverified{{Path: "runs/broken.jsonl.gz", Error: "cannot be read"}}}
	out := writeHTML(t, rep)
	checkInertHTML(t, "variants", out)
	for _, want := range []string{
		`<table id="summary">`, `<section class="run" id="run-1">`, `<section class="run" id="run-2">`,
		`<div class="timeline" role="list">`, `<a class="tl violate" role="listitem" href="#run-1-c1"`,
		`<table class="map">`, `<td class="cell st-dropped" title="#1: dropped">✗</td>`,
		`<section class="violation" id="run-1-c1">`, "commitment dropped: switch the DNS record",
		`<h2 id="groups">Comparison by <code>prompt</code></h2>`, `<th>mean loss</th>`,
		`<h2 id="drops">Drop rate per kind</h2>`, `<h3>prompt = v1</h3>`, `<i style="width: 100%">`,
		`<h2>Not verified</h2>`, `<span class="badge violate" id="verdict">✗ violate</span>`,
		"<strong>False completion</strong> at turn 19",
		"<summary>The summary</summary>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the page", want)
		}
	}
	for _, s := range verify.Statuses {
		if !strings.Contains(out, `.st-`+string(s)+`{`) {
			t.Errorf("no colour for %s", s)
		}
	}
}

// TestHTMLEscapesHostile renders every hostile string in every place the
// page shows transcript text: each stays text.
func TestHTMLEscapesHostile(t *testing.T) {
	for _, h := range htmlHostile {
		rep := &Report{Results: []*verify.Result{hostileResult(h)}, GroupBy: "prompt", Unverified: []Unverified{{Path: h, Error: h}}}
		out := writeHTML(t, rep)
		checkInertHTML(t, h, out)
		if strings.ContainsAny(h, "<>") && strings.Contains(out, h) {
			t.Errorf("%q is in the page unescaped", h)
		}
	}
	out := writeHTML(t, &Report{Results: []*verify.Result{hostileResult("@octocat and \u202eevil")}})
	if !strings.Contains(html.UnescapeString(out), "@octocat and ⟨U+202E⟩evil") {
		t.Error("a mention and a bidi override should read as the text they are")
	}
	out = writeHTML(t, &Report{Results: []*verify.Result{hostileResult(`<script>alert(1)</script>`)}})
	if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("a script tag should be shown as text")
	}
}

// FuzzHTMLInert: whatever a transcript holds, in every place the page
// shows transcript text, the page has only loupe's own tags and
// attributes, links only to its anchors, and no raw invisible character.
func FuzzHTMLInert(f *testing.F) {
	for _, h := range htmlHostile {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := writeHTML(t, &Report{Results: []*verify.Result{hostileResult(s)}, GroupBy: "prompt", Unverified: []Unverified{{Path: s, Error: s}}})
		checkInertHTML(t, s, out)
	})
}
