package verify

// A summary line read once. Consecutive summaries of a run restate most of
// the same lines (the request, the rules, the sections' headings) and
// change a few (the latest steps): the prefetcher keeps what the lines of
// the summary before read as, and the next summary reads only the lines
// that changed. What a line reads as depends on the line alone (its
// heading, its marker, its sentences and their words); parseSummaryWith
// places it in the summary.

import (
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// parsedLine is what one line of a summary reads as, its offsets relative
// to the line.
type parsedLine struct {
	skip bool // blank, or the runtime's boilerplate
	// A heading, and where the content on its own line starts (at).
	heading   string
	isHeading bool
	polarity  Polarity // the heading's (headingPolarity)
	closing   []string // a closing tag's match (closingTag)
	marker    Polarity
	at        int // where the content starts in the line
	sentences []parsedSentence
}

// parsedSentence is a unit of a line: its span from the content's start,
// and its words, offsets from the sentence's start, code marked.
type parsedSentence struct {
	start, end int
	toks       []lang.Token
	// label is its line marker or label (markerOrLabel), read with the
	// line: a line the next summary repeats is not read for it again.
	label unitLabel
}

// readLine reads one line of a summary (without its line break), and its
// units' markers or labels when labels is set (a line kept for the next
// summary: most units are asked, and a line repeated is not read again).
func readLine(body string, labels bool) parsedLine {
	pl := parsedLine{marker: Neutral}
	if strings.TrimSpace(body) == "" || boilerplate(body) {
		pl.skip = true
		return pl
	}
	heading, rest, isHeading := sectionHeading(body)
	if isHeading {
		pl.heading, pl.isHeading, pl.polarity = heading, true, headingPolarity(heading)
		if rest == "" {
			return pl
		}
		// Content on the heading's own line ("PENDING: backfill totals").
		pl.at = strings.Index(body, rest)
		body = rest
	} else if m := closingTag(body); m != nil {
		pl.closing = m
		return pl
	}
	if strings.ContainsAny(body, "[✓✔✅☑☐") {
		switch {
		case doneMarker.MatchString(body):
			pl.marker = Done
		case pendingMarker.MatchString(body):
			pl.marker = Pending
		}
	}
	for _, sn := range lang.Sentences(body) {
		s := body[sn.Start:sn.End]
		toks := lang.Tokenize(s)
		markCode(s, Span{End: len(s)}, toks)
		ps := parsedSentence{start: sn.Start, end: sn.End, toks: toks}
		if labels {
			p, cue, ok := markerOrLabelOf(pl.marker, s)
			ps.label = unitLabel{read: true, ok: ok, p: p, cue: cue}
		}
		pl.sentences = append(pl.sentences, ps)
	}
	return pl
}

// lineCache holds the lines of the summary read last, by their text, and
// those of the summary being read. It belongs to one goroutine (the
// prefetcher's); a nil one reads every line.
type lineCache struct {
	prev, cur map[string]parsedLine
	// spare is the map of the summary before prev, emptied for the next
	// summary: a run that compacts every few events made a map a summary.
	spare map[string]parsedLine
	// units is how many units the summary read last had: the next is
	// about as long, and its list is made that size, not grown.
	units int
}

// maxCachedSummary is the largest summary whose lines are kept: a huge one
// (pasted files and logs) would double what its parse holds.
const maxCachedSummary = 64 << 10

// begin starts reading a summary: the cache, or nil when the summary is
// too large to keep (the lines kept so far are dropped).
func (c *lineCache) begin(text string) *lineCache {
	if c == nil {
		return nil
	}
	if len(text) > maxCachedSummary {
		c.prev, c.cur, c.spare, c.units = nil, nil, nil, 0
		return nil
	}
	if c.spare != nil {
		c.cur, c.spare = c.spare, nil
	} else {
		c.cur = make(map[string]parsedLine, len(c.prev))
	}
	return c
}

// end makes the lines of the summary just read the ones kept, and keeps
// the map of those before for the next summary (emptied: its lines'
// words were copied into the summaries that used them).
func (c *lineCache) end(units int) {
	if c != nil {
		if c.prev != nil && len(c.prev) <= 4*len(c.cur)+64 {
			clear(c.prev)
			c.spare = c.prev
		}
		c.prev, c.cur, c.units = c.cur, nil, units
	}
}

// unitsHint is how many units to make room for in the next summary.
func (c *lineCache) unitsHint() int {
	if c == nil {
		return 0
	}
	return c.units
}

// read returns what a line reads as, and whether its words are the
// caller's own (read now for no cache): the cache's are copied.
func (c *lineCache) read(body string) (pl parsedLine, own bool) {
	if c == nil {
		return readLine(body, false), true
	}
	pl, ok := c.cur[body]
	if !ok {
		if pl, ok = c.prev[body]; !ok {
			pl = readLine(body, true)
		}
		c.cur[body] = pl
	}
	return pl, false
}
