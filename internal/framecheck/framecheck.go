// Package framecheck reads a block loupe puts into an agent's context or a
// summarizer's instructions and checks its frame, for the tests of every
// path that writes one (verify.Rehydrate, `loupe rehydrate`, each runtime's
// hooks). It knows loupe's own lines by their templates, written out here
// apart from the code that writes them: a line outside an excerpt that
// matches none of them is transcript text that escaped its quotes.
package framecheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// Item is one item of a block: loupe's line and its excerpts.
type Item struct {
	Line     string
	Excerpts []verify.Excerpt
}

// Excerpt returns the text of the item's first excerpt labelled label.
func (it Item) Excerpt(label string) (string, bool) {
	for _, e := range it.Excerpts {
		if e.Label == label {
			return e.Text, true
		}
	}
	return "", false
}

// Block is a parsed block.
type Block struct {
	Purpose string
	Head    string
	Items   []Item
	LeftOut string
	// Transcript is the path the block names as the full source.
	Transcript string
	// Own are loupe's lines: every line that is not an excerpt's text.
	Own []string
}

var (
	openRe = regexp.MustCompile(`^<loupe purpose="(re-injection|keep-in-summary)" items="(\d+)">$`)
	heads  = []*regexp.Regexp{
		regexp.MustCompile(`^loupe checked the summary of compaction \d+ \(turn \d+\) against the transcript: it (does not keep \d+ open items? that the source still owes(, and presents \d+ finished items? as still open)?|presents \d+ finished items? as still open)\.$`),
		regexp.MustCompile(`^loupe could not read the summary of compaction \d+ \(turn \d+\): it is empty or opaque, so nothing below can be verified in it\.$`),
		regexp.MustCompile(`^Open in the transcript before this compaction: \d+ items?; a summary that leaves one out loses it\. Keep each in the summary, with its id, path or wording verbatim\.$`),
	}
	note  = `(; (the summary presents it as done, but the source does not show it done|the summary only hints at it|the summary says what the call was doing but not its id))?`
	lines = []*regexp.Regexp{
		regexp.MustCompile(`^- pending tool call \(turn \d+\): its result had not been read when the context was compacted` + note + `$`),
		regexp.MustCompile(`^- background job \(turn \d+\) had not finished` + note + `$`),
		regexp.MustCompile(`^- open commitment \((plan step, planned|logged|promised) at turn \d+\)` + note + `$`),
		regexp.MustCompile(`^- unresolved error \(turn \d+\)` + note + `$`),
		regexp.MustCompile(`^- standing rule from the user \(turn \d+\)` + note + `$`),
		regexp.MustCompile(`^- identifier \(turn \d+\)` + note + `$`),
		regexp.MustCompile(`^- already done: a (commitment|tool call|error|rule|identifier)( closed at turn \d+)?; the summary presents it as still open$`),
	}
	labelRe   = regexp.MustCompile(`^(call id|tool|call|job id|started by call|job output so far|what|on the condition|plan step|logged as|as written|as written by (the agent|the user|the transcript) at turn \d+|error|what failed|closed by|identifier|where it was named):$`)
	leftOutRe = regexp.MustCompile(`^Left out for length: \d+ [a-z ]+(, \d+ [a-z ]+)* (\(loupe rehydrate --compaction \d+ lists them all\)|of lower rank)\.$`)
	fenceRe   = regexp.MustCompile("^(`{3,})$")
)

// sourceLabel is the label of the path a re-injection block names.
const sourceLabel = "The full source is the transcript at this path:"

// Parse reads text as a framed block and checks it: the open tag, the note
// and the close tag once each, at their places and as loupe writes them;
// every other line one of loupe's templates, or a fenced excerpt under one
// of loupe's labels; every excerpt one line that cannot close its fence,
// with no "<" and nothing model.Sanitize would change; the item count in
// the open tag the number of items.
func Parse(text string) (*Block, error) {
	ls := strings.Split(text, "\n")
	if len(ls) < 4 {
		return nil, fmt.Errorf("a block has at least 4 lines, got %d", len(ls))
	}
	m := openRe.FindStringSubmatch(ls[0])
	if m == nil {
		return nil, fmt.Errorf("line 1 is not the frame's open tag: %q", ls[0])
	}
	if ls[1] != verify.FrameNote {
		return nil, fmt.Errorf("line 2 is not the frame's note: %q", ls[1])
	}
	if ls[len(ls)-1] != verify.FrameClose {
		return nil, fmt.Errorf("the last line is not the frame's close tag: %q", ls[len(ls)-1])
	}
	for _, once := range []string{"<loupe ", verify.FrameNote, verify.FrameClose} {
		if n := strings.Count(text, once); n != 1 {
			return nil, fmt.Errorf("%q appears %d times, want once", once, n)
		}
	}
	b := &Block{Purpose: m[1], Head: ls[2]}
	if !matchAny(heads, ls[2]) {
		return nil, fmt.Errorf("line 3 is not one of loupe's headers: %q", ls[2])
	}
	body := ls[3 : len(ls)-1]
	excerptLine := map[int]bool{} // indexes in body
	for i := 0; i < len(body); i++ {
		l := body[i]
		switch {
		case strings.HasPrefix(l, "- "):
			if !matchAny(lines, l) {
				return nil, fmt.Errorf("line %d is not one of loupe's item lines: %q", i+4, l)
			}
			b.Items = append(b.Items, Item{Line: strings.TrimPrefix(l, "- ")})
		case labelRe.MatchString(l) && len(b.Items) > 0 && b.LeftOut == "":
			text, err := fencedAt(body, i+1)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+5, err)
			}
			it := &b.Items[len(b.Items)-1]
			it.Excerpts = append(it.Excerpts, verify.Excerpt{Label: strings.TrimSuffix(l, ":"), Text: text})
			excerptLine[i+2] = true
			i += 3
		case leftOutRe.MatchString(l) && b.LeftOut == "" && b.Transcript == "":
			b.LeftOut = l
		case l == sourceLabel && b.Transcript == "":
			text, err := fencedAt(body, i+1)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+5, err)
			}
			b.Transcript = text
			excerptLine[i+2] = true
			i += 3
		default:
			return nil, fmt.Errorf("line %d is neither loupe's nor a fenced excerpt: %q", i+4, l)
		}
	}
	if n, _ := strconv.Atoi(m[2]); n != len(b.Items) {
		return nil, fmt.Errorf("the open tag says %d items, the block holds %d", n, len(b.Items))
	}
	for i, l := range ls {
		if i < 3 || !excerptLine[i-3] {
			b.Own = append(b.Own, l)
		}
	}
	return b, nil
}

// fencedAt reads the excerpt whose opening fence is ls[i].
func fencedAt(ls []string, i int) (string, error) {
	if i+2 >= len(ls) {
		return "", fmt.Errorf("a label with no fenced excerpt under it")
	}
	f := fenceRe.FindString(ls[i])
	if f == "" || ls[i+2] != f {
		return "", fmt.Errorf("excerpt not fenced by one run of 3 or more backticks: %q … %q", ls[i], ls[i+2])
	}
	text := ls[i+1]
	if strings.Contains(text, f) {
		return "", fmt.Errorf("excerpt %q holds its own fence %q", text, f)
	}
	if strings.Contains(text, "<") {
		return "", fmt.Errorf("excerpt %q holds a \"<\"", text)
	}
	if !model.IsSafe(text) || strings.ContainsAny(text, "\t") {
		return "", fmt.Errorf("excerpt %q holds characters Sanitize would change", text)
	}
	return text, nil
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
