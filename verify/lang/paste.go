package lang

// What in a user's message is not the user's own instruction: fenced and
// quoted text, injected blocks, pasted logs, checklists and documents.

import "strings"

// blanker blanks spans of a text with spaces, keeping its length and its
// line breaks, so offsets into the result are offsets into the text.
type blanker struct {
	text string
	b    []byte
}

func newBlanker(text string) *blanker { return &blanker{text: text, b: []byte(text)} }

func (x *blanker) blank(i, j int) {
	for k := i; k < j && k < len(x.b); k++ {
		if x.b[k] != '\n' {
			x.b[k] = ' '
		}
	}
}

// fences blanks fenced code blocks (an unclosed fence runs to the end).
func (x *blanker) fences() {
	text := x.text
	for off := 0; ; {
		i := strings.Index(text[off:], "```")
		if i < 0 {
			return
		}
		i += off
		j := strings.Index(text[i+3:], "```")
		if j < 0 {
			x.blank(i, len(text))
			return
		}
		j += i + 6
		x.blank(i, j)
		off = j
	}
}

// lines blanks every line for which drop is true.
func (x *blanker) lines(drop func(line string) bool) {
	text := x.text
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' {
			if drop(text[start:i]) {
				x.blank(start, i)
			}
			start = i + 1
		}
	}
}

// OwnWords returns text with what the user pasted or the runtime injected
// blanked out (same length, so offsets stay valid): fenced code, quoted
// lines ("> ..."), XML-like blocks such as <system-reminder>, and the text
// after a line that introduces a paste ("here is the log:"). What is left
// is the user's own words.
func OwnWords(text string) string {
	x := newBlanker(text)
	blank := x.blank // the rules below blank spans they find
	x.fences()
	// Injected blocks: <tag-name>...</tag-name> with a - or _ in the name.
	for off := 0; off < len(text); {
		i := strings.IndexByte(text[off:], '<')
		if i < 0 {
			break
		}
		i += off
		k := i + 1
		for k < len(text) && (text[k] >= 'a' && text[k] <= 'z' || text[k] == '-' || text[k] == '_') {
			k++
		}
		name := text[i+1 : k]
		if k < len(text) && text[k] == '>' && strings.ContainsAny(name, "-_") {
			if j := strings.Index(text[k:], "</"+name+">"); j >= 0 {
				blank(i, k+j+len(name)+3)
				off = k + j + len(name) + 3
				continue
			}
		}
		off = i + 1
	}
	// Quoted, indented, diff and terminal lines.
	x.lines(pastedLine)
	// An agent's output copied from a terminal: a "⏺" line and the lines
	// indented under it (Claude Code indents its answer by two spaces).
	for _, r := range agentOutput(text) {
		blank(r[0], r[1])
	}
	// What follows "here's the log:", "the transcript:", "got this
	// feedback:" is the paste.
	if i := pasteIntro(FoldText(text)); i >= 0 {
		blank(i, len(text))
	}
	// "Here are items 4 and 5 of their list, pasted as-is." and the items
	// after a blank line: the paragraphs after the one that says so.
	if i, j := pastedAfter(text); i >= 0 {
		blank(i, j)
	}
	// A block set off by horizontal rules ("---" lines) is a pasted
	// document: a checklist, a ticket, someone else's notes.
	for _, r := range ruledBlocks(text) {
		blank(r[0], r[1])
	}
	// A document (a plan, a spec) pasted whole: from its first of several
	// markdown headings on.
	if i := documentStart(text); i >= 0 {
		blank(i, len(text))
	}
	return string(x.b)
}

// documentStart returns where a pasted markdown document starts (its first
// heading, when it has two or more), or -1.
// pastedAfter returns the span of the pasted material in a message whose
// first paragraph says it pastes ("pasted as-is", "verbatim", "copied
// below"): the next paragraph. -1 if it says no such thing.
func pastedAfter(text string) (int, int) {
	end := strings.Index(text, "\n\n")
	if end < 0 {
		return -1, -1
	}
	lead := FoldText(text[:end])
	for _, w := range []string{"pasted", "pasting", "as-is", "as is", "verbatim", "copied", "copy-paste", "forwarded", "quoted below"} {
		if HasPhrase(lead, w) {
			start := end + 2
			if k := strings.Index(text[start:], "\n\n"); k >= 0 {
				return start, start + k
			}
			return start, len(text)
		}
	}
	return -1, -1
}

// ruledBlocks returns the spans between pairs of horizontal-rule lines.
func ruledBlocks(text string) [][2]int {
	var out [][2]int
	open, off := -1, 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if horizontalRule(strings.TrimSpace(line)) {
			if open < 0 {
				open = off
			} else {
				out = append(out, [2]int{open, off + len(line)})
				open = -1
			}
		}
		off += len(line)
	}
	return out
}

// horizontalRule reports whether a line is a markdown rule: three or more
// of one of - * _ and nothing else.
func horizontalRule(t string) bool {
	if len(t) < 3 || !strings.ContainsRune("-*_", rune(t[0])) {
		return false
	}
	return strings.Trim(t, t[:1]) == ""
}

func documentStart(text string) int {
	first, n := -1, 0
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") && len(t) > 1 && (t[1] == '#' || t[1] == ' ') {
			if first < 0 {
				first = off
			}
			n++
		}
		off += len(line)
	}
	if n >= 2 {
		return first
	}
	return -1
}

// pastedLine reports whether a line looks copied from elsewhere: a quote,
// indented code, a diff, a terminal capture.
func pastedLine(line string) bool {
	t := strings.TrimSpace(line)
	switch {
	case t == "":
		return false
	case strings.HasPrefix(t, ">"), strings.HasPrefix(line, "    "), strings.HasPrefix(line, "\t"):
		return true
	case strings.HasPrefix(t, "+") || strings.HasPrefix(t, "@@") || strings.HasPrefix(t, "- ") && strings.HasPrefix(line, "-"):
		return strings.HasPrefix(t, "+++") || strings.HasPrefix(t, "@@") || len(t) > 1 && (t[1] == ' ' || t[1] == '\t') && strings.HasPrefix(t, "+")
	}
	for _, g := range []string{"❯", "⏺", "⎿", "│", "┃", "╭", "╰", "✻", "▐", "⠋", "$ "} {
		if strings.HasPrefix(t, g) {
			return true
		}
	}
	// A line-number gutter: "  86 +    // comment".
	k := 0
	for k < len(t) && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	return k > 0 && k < len(t) && t[k] == ' ' && strings.HasPrefix(strings.TrimLeft(t[k:], " "), "+") || k > 0 && strings.HasPrefix(t[k:], ":") && strings.Contains(t, "    ")
}

// relativeIntro reports whether the words between a paste's noun and its
// colon are a short clause that names where it came from ("here is the
// prompt I gave Codex:", "this is the feedback the reviewer left:").
func relativeIntro(before, between string) bool {
	f := strings.Fields(between)
	if len(f) == 0 || len(f) > 6 || strings.ContainsAny(between, ".?!;") {
		return false
	}
	b := before[max(0, len(before)-24):]
	return strings.Contains(b, "here is") || strings.Contains(b, "here's") || strings.Contains(b, "this is") || strings.Contains(b, "below is")
}

// pasteIntro returns where pasted material starts after a phrase that
// introduces it ("The transcript:", "here is the error:", "got this
// feedback:"), or -1.
func pasteIntro(lower string) int {
	best := -1
	for _, w := range []string{"transcript", "output", "log", "logs", "error", "errors", "trace", "traceback", "feedback",
		"diff", "response", "result", "results", "review", "comment", "comments", "message", "says", "said", "email",
		"template", "prompt", "document", "doc", "spec", "snippet", "screenshot", "stack", "plan"} {
		for off := 0; ; {
			i := phraseAt(lower[off:], w)
			if i < 0 {
				break
			}
			i += off
			j := i + len(w)
			rest := lower[j:]
			k := strings.IndexAny(rest, ":\n")
			if k >= 0 && rest[k] == ':' && (strings.TrimSpace(rest[:k]) == "" || relativeIntro(lower[:i], rest[:k])) && strings.TrimSpace(rest[k+1:]) != "" {
				if best < 0 || j+k+1 < best {
					best = j + k + 1
				}
			}
			off = j
		}
	}
	return best
}

// agentOutput returns the spans of an agent's answers pasted from a
// terminal: each from a line opening with "⏺" through the blank and
// indented lines that follow it.
func agentOutput(text string) [][2]int {
	var out [][2]int
	open, off := -1, 0
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "⏺"):
			if open < 0 {
				open = off
			}
		case open >= 0 && t != "" && !strings.HasPrefix(line, "  "):
			out = append(out, [2]int{open, off})
			open = -1
		}
		off += len(line)
	}
	if open >= 0 {
		out = append(out, [2]int{open, len(text)})
	}
	return out
}
