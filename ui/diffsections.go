package ui

import (
	"regexp"
	"strings"
)

// Two summaries are compared section by section: a whole-text word diff of
// two summaries in one layout drifts across headings (a list that grew in
// "Pending Tasks" eats the start of "Current Work"), and between two
// layouts it is one block deleted and another added. Sections pair by
// heading when the layouts agree, else by the words they share.

// textSection is a part of a summary under one heading: [start, end) of
// the text, the heading line included.
type textSection struct {
	heading    string // as written, "" for text before the first heading
	key        string // the heading folded for pairing
	start, end int
}

var (
	mdHeadingRe   = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$`)
	numHeadingRe  = regexp.MustCompile(`^\s{0,3}\d{1,2}[.)]\s+([A-Z][^:]{2,60}):\s*(.*)$`)
	boldHeadingRe = regexp.MustCompile(`^\s{0,3}\*\*([^*]{2,60})\*\*:?\s*$`)
	tagHeadingRe  = regexp.MustCompile(`^\s*<([a-z][a-z0-9_-]{1,40})>\s*$`)
	capHeadingRe  = regexp.MustCompile(`^([A-Z][A-Za-z /&()-]{2,40}):\s*$`)
	headingFold   = regexp.MustCompile(`[^a-z0-9]+`)
)

// headingOf returns the heading a line is, or "".
func headingOf(line string) string {
	for _, re := range []*regexp.Regexp{mdHeadingRe, numHeadingRe, boldHeadingRe, tagHeadingRe, capHeadingRe} {
		if m := re.FindStringSubmatch(line); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

// foldHeading folds a heading for pairing: case, numbering and punctuation
// aside ("2. Key Technical Concepts:" and "## Key technical concepts").
func foldHeading(h string) string {
	return strings.Trim(headingFold.ReplaceAllString(strings.ToLower(h), " "), " ")
}

// splitSections cuts a summary at its headings. Text before the first
// heading is a section of its own (heading "").
func splitSections(s string) []textSection {
	var out []textSection
	cur := textSection{}
	off := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		if h := headingOf(strings.TrimRight(line, "\r\n")); h != "" {
			cur.end = off
			if cur.end > cur.start || cur.heading != "" {
				out = append(out, cur)
			}
			cur = textSection{heading: h, key: foldHeading(h), start: off}
		}
		off += len(line)
	}
	cur.end = len(s)
	if cur.end > cur.start || cur.heading != "" {
		out = append(out, cur)
	}
	return out
}

// sectionPair is what the summary diff compares: a section of the previous
// summary (prev < 0: none, the section is new) against one of the current
// (cur < 0: none, the section is gone); byContent says they paired on
// their words, not their headings.
type sectionPair struct {
	prev, cur int
	byContent bool
}

// minShared is the least share of the smaller section's words (at least
// two of them) two sections with different headings need in common to be
// taken for the same part of a summary.
const minShared = 0.34

// pairSections pairs the sections of two summaries: same heading first,
// then the most words shared (see minShared). The pairs follow the
// current summary's order; sections of the previous one left unpaired come
// last.
func pairSections(prevText string, prev []textSection, curText string, cur []textSection) []sectionPair {
	usedPrev := make([]bool, len(prev))
	match := make([]int, len(cur))
	byContent := make([]bool, len(cur))
	for i := range match {
		match[i] = -1
	}
	for i, c := range cur {
		for j, p := range prev {
			if !usedPrev[j] && p.key == c.key {
				match[i], usedPrev[j] = j, true
				break
			}
		}
	}
	// Headings that say the same thing in more or fewer words ("Next Steps"
	// and "Next Steps (WP14-WP20)", "Completed Work (WP1-WP16)" and
	// "Completed Work Packages (WP1-WP13)") pair on their first two words,
	// numbers and parentheses aside.
	for i, c := range cur {
		if match[i] >= 0 || headingStem(c.heading) == "" {
			continue
		}
		for j, p := range prev {
			if !usedPrev[j] && headingStem(p.heading) == headingStem(c.heading) {
				match[i], usedPrev[j] = j, true
				break
			}
		}
	}
	// Words of a section's body (its heading is what did not pair), small
	// words aside; two sections pair on the share of the smaller one's
	// words they have in common, so a section that grew still pairs.
	words := func(sec textSection, text string) map[string]bool {
		body := text[sec.start:sec.end]
		if sec.heading != "" {
			if i := strings.IndexByte(body, '\n'); i >= 0 {
				body = body[i+1:]
			} else {
				body = ""
			}
		}
		m := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(body)) {
			if w = strings.Trim(w, ".,;:!?()[]{}\"'`*-#"); len(w) > 3 {
				m[w] = true
			}
		}
		return m
	}
	overlap := func(a, b map[string]bool) float64 {
		n := 0
		for w := range a {
			if b[w] {
				n++
			}
		}
		if n < 2 {
			return 0
		}
		return float64(n) / float64(min(len(a), len(b)))
	}
	prevWords := make([]map[string]bool, len(prev))
	for j, p := range prev {
		prevWords[j] = words(p, prevText)
	}
	for i, c := range cur {
		if match[i] >= 0 {
			continue
		}
		cw := words(c, curText)
		best, bestScore := -1, minShared
		for j := range prev {
			if usedPrev[j] {
				continue
			}
			if s := overlap(cw, prevWords[j]); s >= bestScore {
				best, bestScore = j, s
			}
		}
		if best >= 0 {
			match[i], usedPrev[best], byContent[i] = best, true, true
		}
	}
	var out []sectionPair
	for i := range cur {
		out = append(out, sectionPair{prev: match[i], cur: i, byContent: byContent[i]})
	}
	for j := range prev {
		if !usedPrev[j] {
			out = append(out, sectionPair{prev: j, cur: -1})
		}
	}
	return out
}

var (
	parenRe = regexp.MustCompile(`\([^)]*\)`)
	digitRe = regexp.MustCompile(`[0-9]+`)
)

// headingStem is a heading's first two words, without numbers or what
// stands in parentheses; "" when it has fewer than two words left.
func headingStem(h string) string {
	f := strings.Fields(foldHeading(digitRe.ReplaceAllString(parenRe.ReplaceAllString(h, " "), " ")))
	if len(f) < 2 {
		return ""
	}
	return f[0] + " " + f[1]
}
