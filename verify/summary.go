package verify

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/verify/lang"
)

// doc is a summary prepared for matching: its sections (from the layouts of
// known compactors), its units (lines and sentences) with tokens, and an
// index from term to the units that contain it.
type doc struct {
	text     string
	lower    string // folded, same byte offsets
	sections []Section
	units    []unit
	postings map[string][]int // term -> unit indexes
	avgLen   float64
	paths    []pathChunk     // path-like words, found on first use
	exclude  map[int]bool    // units a match must not use (see compete)
	own      map[string]bool // the matched item's own words (see atom.own)
	// lowerCase is text through strings.ToLower, once lowered (toLower).
	lowerCase   string
	lowered     bool
	words       map[string]bool // every token's word, once asked (hasWord)
	reNouns     map[string]bool // see reHeads
	hyphenHeads map[string]bool // see partHeads
	// For pruned matching (matchPruned): a scratch unit set, and the units
	// of each hyphenated word's last part and each re- word's head.
	headed     unitSet
	byLastPart map[string][]int
	byReNoun   map[string][]int
	modsOf     map[string]map[int][]string // see headModifiers
	seen       unitSet                     // see seenUnits
	present    map[string]bool             // see scratchPresent
	// itemPaths are the paths the open commitments name: a sentence naming
	// one of them speaks of that item (see otherPaths).
	itemPaths map[string]bool
	lang      string // the summary's language, once asked (language)
	// identRuns are the offsets of each run of identifier bytes, made on
	// first use (boundedWord).
	identRuns map[string][]int
	// boundedTok are boundedAll's answers for tokens that are more than
	// one run of identifier bytes.
	boundedTok map[string][]int
	// fullScratch is matchPruned's list of full candidates, lent to each
	// call in turn.
	fullScratch []candidate
}

// unit is one line or sentence of a summary.
type unit struct {
	Span
	toks    []lang.Token
	section int              // index into doc.sections, or -1
	marker  Polarity         // a line marker: [DONE], [x], ✓, [TODO], [ ]...
	tf      map[string]int32 // occurrences of each term, once counted (termCount)
	label   unitLabel        // its line marker or label, once read (markerOrLabel)
	// idents are the identifiers in its text, once extracted (unitIdents).
	idents     []lang.Ident
	identsRead bool
	// polarities are the first answers polarity gave here (see there).
	polarities []polarityOf
}

// termCount is how many of the unit's tokens have the term: every item
// matched against the unit asks, so a long unit's are counted once.
func (u *unit) termCount(t string) int32 {
	if len(u.toks) <= shortUnit {
		// A short unit is counted in place: building its map cost more
		// than the few counts asked of it (a summary every few events).
		var n int32
		for _, tok := range u.toks {
			if tok.Term == t && t != "" {
				n++
			}
		}
		return n
	}
	if u.tf == nil {
		u.tf = make(map[string]int32, len(u.toks))
		for _, tok := range u.toks {
			if tok.Term != "" {
				u.tf[tok.Term]++
			}
		}
	}
	return u.tf[t]
}

// shortUnit is the most tokens a unit has for termCount to count them in
// place rather than keep a map.
const shortUnit = 24

// unitSet is a set of unit indexes of one doc, cleared in constant time.
type unitSet struct {
	stamp []uint32
	gen   uint32
}

func (s *unitSet) has(ui int) bool { return s.stamp[ui] == s.gen }
func (s *unitSet) add(ui int)      { s.stamp[ui] = s.gen }

// reset empties the set for a doc of n units.
func (s *unitSet) reset(n int) *unitSet {
	if len(s.stamp) != n {
		s.stamp, s.gen = make([]uint32, n), 0
	}
	s.gen++
	if s.gen == 0 { // wrapped: old stamps could match
		clear(s.stamp)
		s.gen = 1
	}
	return s
}

// seenUnits returns the doc's unit set, emptied: one matching uses it at a
// time.
func (d *doc) seenUnits() *unitSet { return d.seen.reset(len(d.units)) }

// scratchPresent returns the doc's map of matched terms, emptied: score
// fills it for one unit and drops it before the next.
func (d *doc) scratchPresent() map[string]bool {
	if d.present == nil {
		d.present = map[string]bool{}
	}
	clear(d.present)
	return d.present
}

var (
	mdHeading    = lang.LazyRegexp(`^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$`)
	numberedHead = lang.LazyRegexp(`^\s*(?:\d+[.)]|[IVX]+\.)\s+([A-Z][A-Za-z /&,'-]{2,60}?)\s*:\s*(.*)$`)
	boldHead     = lang.LazyRegexp(`^\s*\*\*([^*]{2,60}?):?\*\*:?\s*(.*)$`)
	capsField    = lang.LazyRegexp(`^\s*([A-Z][A-Z_ ]{2,40}[A-Z]):\s*(.*)$`)
	plainHead    = lang.LazyRegexp(`^\s*([A-Z][A-Za-z /&'-]{2,40}):\s*$`)
	xmlOpen      = lang.LazyRegexp(`^\s*<([a-z_]+)>\s*(.*)$`)
	xmlClose     = lang.LazyRegexp(`^\s*</([a-z_]+)>\s*$`)
	// A status marker opens a list line, perhaps after a bold label
	// ("- **Task #1** [pending]: ...").
	doneMarker     = lang.LazyRegexp(`(?i)^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*[^*]{1,40}\*\*\s*)?(?:\[(?:x|done|completed?)\]|✓|✔|✅|☑)`)
	pendingMarker  = lang.LazyRegexp(`(?i)^\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*[^*]{1,40}\*\*\s*)?(?:\[(?: |todo|in[ _]progress|pending|next|wip)\]|☐)`)
	inlineDoneMark = lang.LazyRegexp(`(?i)\[(?:done|x)\]|✓|✔|✅`)
)

// headingPolarity says what being under a heading means. It keys on the
// heading's words, never its number: Claude Code's numbering is unreliable.
func headingPolarity(h string) Polarity {
	l := strings.ToLower(strings.ReplaceAll(h, "_", " "))
	for _, w := range []string{"pending", "next step", "next move", "next task", "remaining", "todo", "to do", "to-do",
		"outstanding", "open item", "open task", "open question", "in progress", "active", "blocked", "follow-up",
		"follow up", "what remains", "still to do", "upcoming", "planned", "next"} {
		if strings.Contains(l, w) {
			return Pending
		}
	}
	for _, w := range []string{"completed", "complete", "done", "accomplished", "finished", "recent actions", "resolved", "what was done"} {
		if strings.Contains(l, w) {
			return Done
		}
	}
	return Neutral
}

// requestHeading reports whether a heading introduces the user's request
// restated (Claude Code's "Primary Request and Intent", Gemini's
// overall_goal, OpenHands' USER_CONTEXT, "All user messages"): what is
// asked for there is not the agent's record of what is still open.
func requestHeading(h string) bool {
	l := strings.ToLower(strings.ReplaceAll(h, "_", " "))
	for _, w := range []string{"request", "intent", "user context", "overall goal", "goal", "objective",
		"task overview", "user messages", "previous conversation"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// historyHeading reports whether a heading introduces a narrative of what
// happened (Claude Code's "Analysis" walk through the conversation, a
// chronology, a timeline): a status there is the status at that moment of
// the story, not the summary's account of what is open now.
func historyHeading(h string) bool {
	l := strings.ToLower(h)
	for _, w := range []string{"analysis", "chronolog", "timeline", "history", "what happened", "conversation so far", "narrative"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return requestHeading(h)
}

// inHistory reports whether unit ui sits under a history or request heading.
func (d *doc) inHistory(ui int) bool {
	s := d.section(&d.units[ui])
	return s != nil && historyHeading(s.Heading)
}

// descriptiveHeading reports whether a heading introduces a description of
// the work (Claude Code's "Key Technical Concepts", "Files and Code
// Sections", "Problem Solving"): it explains, and a "to be" there is no
// to-do.
func descriptiveHeading(h string) bool {
	l := strings.ToLower(h)
	for _, w := range []string{"concept", "files and code", "code section", "problem solving", "technical", "architecture",
		"background", "context", "decisions", "key files", "files modified", "design"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// inDescription reports whether unit ui sits under a descriptive heading.
func (d *doc) inDescription(ui int) bool {
	s := d.section(&d.units[ui])
	return s != nil && descriptiveHeading(s.Heading)
}

// inRequest reports whether unit ui sits under a request heading.
func (d *doc) inRequest(ui int) bool {
	s := d.section(&d.units[ui])
	return s != nil && requestHeading(s.Heading)
}

// boilerplate reports whether a summary line is the runtime's own framing,
// the same in every summary ("This session is being continued from a
// previous conversation...", "If you need specific details from before
// compaction ... read the full transcript at"): it says nothing of the run.
func boilerplate(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if c := t[0] | 0x20; t[0] < utf8.RuneSelf && c != 't' && c != 'i' && c != 'p' && c != 'c' {
		return false // no framing sentence starts so (a capital of another script may lower to one)
	}
	l := strings.ToLower(t)
	for _, p := range []string{"this session is being continued from a previous conversation",
		"if you need specific details from before compaction", "please continue the conversation from where we left",
		"continue with the last task that you were asked to work on", "the summary below covers the earlier portion"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// parseSummary splits a summary into sections and units.
func parseSummary(text string) *doc { return parseSummaryWith(text, nil) }

// parseSummaryWith is parseSummary, reading each line through lines (nil
// for none): a line the summary before had is not read again.
func parseSummaryWith(text string, lines *lineCache) *doc {
	d := &doc{text: text, lower: lang.FoldText(text)}
	lines = lines.begin(text)
	d.units = make([]unit, 0, lines.unitsHint())
	defer func() { lines.end(len(d.units)) }()
	cur := -1
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		start := off
		off += len(line)
		pl, own := lines.read(strings.TrimRight(line, "\r\n"))
		switch {
		case pl.skip:
			continue
		case pl.isHeading:
			if cur >= 0 {
				d.sections[cur].End = start
			}
			d.sections = append(d.sections, Section{Span: Span{Start: start, End: len(text)}, Heading: pl.heading, Polarity: pl.polarity})
			cur = len(d.sections) - 1
			if len(pl.sentences) == 0 {
				continue
			}
		case pl.closing != nil:
			if cur >= 0 && strings.EqualFold(d.sections[cur].Heading, pl.closing[1]) {
				d.sections[cur].End = start
				cur = -1
			}
			continue
		}
		start += pl.at
		for _, sn := range pl.sentences {
			u := unit{Span: Span{Start: start + sn.start, End: start + sn.end}, section: cur, marker: pl.marker, toks: sn.toks, label: sn.label}
			if !own {
				u.toks = slices.Clone(sn.toks)
			}
			for i := range u.toks {
				u.toks[i].Start += u.Start
				u.toks[i].End += u.Start
			}
			d.units = append(d.units, u)
		}
	}
	total := 0
	for _, u := range d.units {
		total += len(u.toks)
	}
	// Most terms of a summary are in one unit: their lists start in one
	// array (each capped at its length, so a second unit's append moves
	// it out), and the map is made about its size, not grown.
	d.postings = make(map[string][]int, min(total, 256))
	firsts := make([]int, 0, total)
	for i, u := range d.units {
		for _, t := range u.toks {
			// A term is posted once per unit: the units come in order, so
			// the unit already posted is the list's last.
			p, ok := d.postings[t.Term]
			switch {
			case t.Term == "" || ok && p[len(p)-1] == i:
			case !ok:
				firsts = append(firsts, i)
				d.postings[t.Term] = firsts[len(firsts)-1 : len(firsts) : len(firsts)]
			default:
				d.postings[t.Term] = append(p, i)
			}
		}
	}
	if len(d.units) > 0 {
		d.avgLen = float64(total) / float64(len(d.units))
	}
	return d
}

// markCode flags the tokens inside `backtick` spans of a unit.
func markCode(text string, sp Span, toks []lang.Token) {
	seg := text[sp.Start:sp.End]
	for off := 0; ; {
		a := strings.IndexByte(seg[off:], '`')
		if a < 0 {
			return
		}
		a += off
		b := strings.IndexByte(seg[a+1:], '`')
		if b < 0 {
			return
		}
		b += a + 1
		for i := range toks {
			if toks[i].Start >= sp.Start+a && toks[i].End <= sp.Start+b {
				toks[i].Code = true
			}
		}
		off = b + 1
	}
}

// sectionHeading recognises the headings of known compactor layouts:
// markdown (opencode, crush), numbered (Claude Code, Roo/Cline), bold, upper
// case fields (OpenHands), XML tags (Gemini's state_snapshot), and a plain
// "Pending Tasks:" line.
func sectionHeading(line string) (heading, rest string, ok bool) {
	// Every layout's heading has one of these marks; prose lines rarely do,
	// and the regular expressions below are the costly part of parsing.
	if !strings.ContainsAny(line, "#:<*") {
		return "", "", false
	}
	// Each layout's expression is anchored at the line's first non-space
	// character: '#', '<', "**", a number or numeral, or a capital.
	lead := strings.TrimLeft(line, " \t\n\f\r")
	if lead == "" {
		return "", "", false
	}
	// Only the expressions that can start with that character are tried,
	// in the same order.
	c := lead[0]
	switch {
	case c == '#':
		if m := mdHeading.FindStringSubmatch(line); m != nil {
			return strings.Trim(m[1], "*_ "), "", true
		}
	case c == '<':
		if m := xmlOpen.FindStringSubmatch(line); m != nil && m[1] != "summary" && m[1] != "analysis" {
			return m[1], strings.TrimSuffix(strings.TrimSpace(m[2]), "</"+m[1]+">"), true
		}
	case c == '*':
		if m := boldHead.FindStringSubmatch(line); m != nil {
			return m[1], strings.TrimSpace(m[2]), true
		}
	case c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
		if c <= '9' || c == 'I' || c == 'V' || c == 'X' {
			if m := numberedHead.FindStringSubmatch(line); m != nil && len(strings.Fields(m[1])) <= 7 {
				return m[1], strings.TrimSpace(m[2]), true
			}
		}
		if c <= '9' {
			break
		}
		if m := capsField.FindStringSubmatch(line); m != nil {
			return m[1], strings.TrimSpace(m[2]), true
		}
		if m := plainHead.FindStringSubmatch(line); m != nil && len(strings.Fields(m[1])) <= 5 {
			return m[1], "", true
		}
	}
	return "", "", false
}

// closingTag is xmlClose's match of a line, or nil; only a line whose
// first non-space characters are "</" can match.
func closingTag(line string) []string {
	if !strings.HasPrefix(strings.TrimLeft(line, " \t\n\f\r"), "</") {
		return nil
	}
	return xmlClose.FindStringSubmatch(line)
}

// section returns the unit's section, or nil.
func (d *doc) section(u *unit) *Section {
	if u.section < 0 {
		return nil
	}
	return &d.sections[u.section]
}

// unitHas reports whether unit ui holds the term.
func (d *doc) unitHas(ui int, term string) bool {
	for _, t := range d.units[ui].toks {
		if t.Term == term {
			return true
		}
	}
	return false
}

// hasTerm reports whether any unit has the term.
func (d *doc) hasTerm(t string) bool { return len(d.postings[t]) > 0 }

// unitAt returns the index of the unit holding byte offset off, or -1.
func unitAt(d *doc, off int) int {
	// Units are disjoint and in text order: the one that may hold off is
	// the last starting at or before it.
	i := sort.Search(len(d.units), func(i int) bool { return d.units[i].Start > off }) - 1
	if i >= 0 && off < d.units[i].End {
		return i
	}
	return -1
}
