package report

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// WriteMarkdown writes a postmortem-ready report: the timeline of
// compactions with verdicts, the findings, the lineage of every lost item,
// then each violating compaction in detail.
func WriteMarkdown(w io.Writer, results []*verify.Result) error {
	return (&Report{Results: results}).Markdown(w)
}

// Markdown writes the report as Markdown. One run alone is its own
// document (see WriteMarkdown). Several runs, files that could not be
// verified or a comparison of groups make one document: a summary table
// on top, then each run's section, the files not verified, the
// comparison and the drop rates (markdownSummary).
func (rep *Report) Markdown(w io.Writer) error {
	p := &printer{w: w}
	shown := 0
	for _, r := range rep.Results {
		if rep.shows(r) {
			shown++
		}
	}
	if len(rep.Results) == 1 && shown == 1 && len(rep.Unverified) == 0 && rep.GroupBy == "" {
		markdownFile(p, rep, rep.Results[0])
		barsMarkdown(p, rep.tallies(), "")
		return p.err
	}
	markdownSummary(p, rep)
	p.hd = 1
	ts := rep.tallies()
	subs := subagents(ts)
	for i, r := range rep.Results {
		if rep.shows(r) && !folded(ts[i]) {
			p.line("")
			markdownFile(p, rep, r)
			if s := subs[r.Path]; s != nil {
				p.line("")
				p.line("%s", md(s.line()))
			}
		}
	}
	if len(rep.Unverified) > 0 {
		notVerifiedMarkdown(p, rep.Unverified)
	}
	if rep.GroupBy != "" {
		p.line("")
		markdownGroups(p, ts, rep.GroupBy)
	}
	barsMarkdown(p, ts, rep.GroupBy)
	return p.err
}

// h is the heading mark of a level-n heading, n levels down from the top
// of the run's section (printer.hd).
func (p *printer) h(n int) string { return strings.Repeat("#", n+p.hd) }

// md makes transcript text inert inline Markdown, for a table cell, a list
// item or a line: a renderer must show it as the text it is, never as
// HTML, a link, an image, emphasis, a heading or a new table cell.
//
//   - Sanitize first: terminal escapes, controls, bidi and invisible
//     characters become visible text (␛, ⟨U+202E⟩); newlines and tabs
//     become spaces, so the text stays on its line or in its cell.
//   - <, > and & become HTML entities (&lt; …), which every Markdown
//     renderer passes through as text: no raw HTML (<img onerror>,
//     <script>, </details>, <!--), no autolink (<javascript:…>), no entity
//     of the transcript's own.
//   - The punctuation inline Markdown acts on is backslash-escaped: \ `
//   - [ ] | ~ $ { }, so no code span, emphasis, link or image
//     ([x](javascript:…)), cell break, strike-through, math or attribute
//     list; _ too, unless between two letters or digits (call_8f2a), where
//     CommonMark never reads it as emphasis.
//   - A leading # + - = or "1." would start a heading or a list in a list
//     item: it is escaped too.
//   - An @mention (@name, @org/team) goes in a code span, where GitHub
//     does not notify anyone: a report pasted into an issue or a pull
//     request must not ping the people a transcript names.
//   - A bare address GFM would make a link (http://, https://, www.) is
//     defanged the way security write-ups do, with a visible bracket:
//     https[:]//example.com, www[.]example.com. It stays readable and
//     copyable, and links nowhere.
func md(s string) string {
	s = strings.TrimLeft(model.Sanitize(s), " \t\n")
	var b strings.Builder
	b.Grow(len(s) + 8)
	var prev rune
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if n := mention(s[i:], prev); n > 0 {
			b.WriteString("`" + s[i:i+n] + "`")
			prev = 'x'
			i += n
			continue
		}
		if n, scheme := autolink(s[i:]); n > 0 {
			if scheme {
				b.WriteString(s[i:i+n-3] + "\\[:\\]//")
			} else {
				b.WriteString(s[i:i+n-1] + "\\[.\\]")
			}
			prev = '/'
			i += n
			continue
		}
		switch r {
		case '\n', '\t':
			b.WriteByte(' ')
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '[', ']', '|', '~', '$', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '_':
			next, _ := utf8.DecodeRuneInString(s[i+size:])
			if !alnum(prev) || !alnum(next) {
				b.WriteByte('\\')
			}
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
		prev = r
		i += size
	}
	out := b.String()
	return escapeBlockStart(out)
}

// mention returns the length of the @mention s starts with (0 for none):
// GitHub's, an @ after anything but a word character, then a login
// (letters, digits, hyphens) and, for a team, /name.
func mention(s string, prev rune) int {
	if len(s) < 2 || s[0] != '@' || alnum(prev) || prev == '_' || !asciiAlnum(s[1]) {
		return 0
	}
	n := 2
	for n < len(s) && (asciiAlnum(s[n]) || s[n] == '-') {
		n++
	}
	if n+1 < len(s) && s[n] == '/' && asciiAlnum(s[n+1]) {
		n += 2
		for n < len(s) && (asciiAlnum(s[n]) || s[n] == '-' || s[n] == '_') {
			n++
		}
	}
	return n
}

// autolink returns the length of the http://, https:// or www. s starts
// with (0 for none), and whether it is a scheme (else www.), matched
// without regard to case as GFM does.
func autolink(s string) (n int, scheme bool) {
	for _, p := range []string{"https://", "http://"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return len(p), true
		}
	}
	if len(s) >= 4 && strings.EqualFold(s[:4], "www.") {
		return 4, false
	}
	return 0, false
}

func asciiAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// escapeBlockStart escapes what would make s, at the start of a list item,
// a heading, a nested list or a setext underline.
func escapeBlockStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '#', '+', '-', '=':
		return "\\" + s
	}
	digits := 0
	for digits < len(s) && digits < 10 && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') {
		return s[:digits] + "\\" + s[digits:]
	}
	return s
}

// mdCode writes s as an inline code span, where a renderer takes every
// character literally (no HTML, entity, link or escape): after Sanitize,
// only backticks matter, so the fence is one backtick longer than the
// longest run of them in s, and a space pads s when it starts or ends with
// a backtick or a space (CommonMark strips one on each side). Not for
// table cells, where GFM would still split on |.
func mdCode(s string) string {
	s = strings.NewReplacer("\n", " ", "\t", " ").Replace(model.Sanitize(s))
	if s == "" {
		return "(empty)"
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

func markdownFile(p *printer, rep *Report, r *verify.Result) {
	if p.hd > 0 {
		p.line("%s %s", p.h(1), mdCode(r.Path))
	} else {
		p.line("# loupe report: %s", mdCode(r.Path))
	}
	p.line("")
	src := ""
	if r.Source != "" {
		src = " · " + md(r.Source)
	}
	p.line("**%s · %d violate · %s** · %s%s", verify.Plural(len(r.Compactions), "compaction"), r.Violations(), countFindings(r.Findings), verify.Plural(r.Turns, "turn"), src)
	if len(r.Compactions) == 0 {
		p.line("")
		p.line("%s.", strings.ToUpper(verify.NoCompaction[:1])+verify.NoCompaction[1:])
	}
	p.line("")
	p.line("%s Timeline", p.h(2))
	p.line("")
	p.line("| # | turn | trigger | loss | verdict | first reason, or why there is none |")
	p.line("|---:|---:|---|---:|---|---|")
	for _, c := range r.Compactions {
		if !rep.showsCompaction(c) {
			continue
		}
		first := ""
		if c.ItemCount() == 0 && !c.Unverifiable {
			first = verify.NothingOpen
		}
		if len(c.Reasons) > 0 {
			first = md(model.Clip(c.Reasons[0], 120))
			if len(c.Reasons) > 1 {
				first += fmt.Sprintf(" (+%d more)", len(c.Reasons)-1)
			}
		}
		p.line("| %d | %d | %s | %.1f%% | %s | %s |", c.Seq, c.Turn, md(c.Trigger), 100*c.LossRatio, badge(c.Verdict), first)
	}
	if len(r.Findings) > 0 {
		p.line("")
		p.line("%s Findings", p.h(2))
		p.line("")
		for _, f := range r.Findings {
			p.line("- **%s** at turn %d — “%s” — %s.", findingTitle(f.Kind), f.Turn, md(model.Clip(f.Text, 200)), md(f.Why))
		}
	}
	lost := 0
	for _, lg := range r.Lineage {
		if lg.FirstLoss > 0 {
			lost++
		}
	}
	if lost > 0 {
		p.line("")
		p.line("%s Lost items", p.h(2))
		p.line("")
		order := compactionOrder(r)
		p.line("| item | kind | origin turn | first lost at | status per compaction |")
		p.line("|---|---|---:|---:|---|")
		for _, lg := range r.Lineage {
			if lg.FirstLoss == 0 {
				continue
			}
			var steps []string
			for _, s := range lineageJSON(lg, order).Steps {
				at := fmt.Sprintf("#%d", s.Seq)
				if s.Through != 0 {
					at += fmt.Sprintf("–#%d", s.Through)
				}
				steps = append(steps, at+" "+string(s.Status))
			}
			p.line("| %s | %s | %d | #%d | %s |", md(model.Clip(lg.Item.Label(), 80)), lg.Kind, lg.Turn, lg.FirstLoss, strings.Join(steps, " → "))
		}
	}
	lineageMarkdown(p, r)
	memo := newSinceMemo(rep.EvidenceAll)
	for _, c := range r.Compactions {
		if c.Verdict == verify.Violate {
			since := memo.compaction(c)
			markdownCompaction(p, c, since)
		}
	}
	markdownReview(p, rep, r)
}

// markdownReview lists the review items of the compactions shown: lost but
// only inferred, so not counted, each with its cue and source.
func markdownReview(p *printer, rep *Report, r *verify.Result) {
	head := false
	memo := newSinceMemo(rep.EvidenceAll)
	for _, c := range r.Compactions {
		if !rep.showsCompaction(c) {
			continue
		}
		since := memo.compaction(c)
		if reviewCounts(c) == "" {
			continue
		}
		if !head {
			p.line("")
			p.line("## Review (not counted)")
			p.line("")
			p.line("Items lost by a summary that the source only infers are owed: listed for a person to judge, never a reason to violate (`--strict` counts them).")
			p.line("")
			head = true
		}
		p.line("- Compaction %d (turn %d): %s", c.Seq, c.Turn, reviewCounts(c))
		items := c.ItemResults()
		for i := range items {
			if it := &items[i]; it.Review {
				p.line("  - %s", md(reviewNote(it, since[i])))
			}
		}
	}
}

func findingTitle(k verify.FindingKind) string {
	switch k {
	case verify.FalseCompletion:
		return "False completion"
	case verify.UnsupportedCompletion:
		return "Unsupported completion"
	case verify.OrphanedResult:
		return "Orphaned result"
	}
	return string(k)
}

// markdownCompaction details a violating compaction: its reasons, then a
// row per item that is new or changed since the violating compaction
// detailed before (since[i] == 0), and how many are not.
func markdownCompaction(p *printer, c *verify.CompactionResult, since []int) {
	p.line("")
	p.line("%s Compaction %d (turn %d): %s", p.h(2), c.Seq, c.Turn, badge(c.Verdict))
	p.line("")
	p.line("Loss %.1f%% (%d → %d bytes). Self-report: %s.", 100*c.LossRatio, c.SourceBytes, c.SummaryBytes, map[bool]string{true: "present", false: "none"}[c.Attested])
	p.line("")
	for _, reason := range c.Reasons {
		p.line("- %s", md(reason))
	}
	p.line("")
	items := c.ItemResults()
	if len(items) == 0 && !c.Unverifiable {
		p.line("Nothing was open: nothing to keep.")
	}
	unchanged, last, rows := 0, 0, 0
	for i, it := range items {
		if since[i] > 0 {
			unchanged, last = unchanged+1, max(last, since[i])
			continue
		}
		if rows++; rows == 1 {
			p.line("| kind | item | origin | basis | status | score | self-report | evidence in the summary, and why |")
			p.line("|---|---|---:|---|---|---:|---|---|")
		}
		ev := md(it.Why)
		if it.Evidence != nil {
			ev = "“" + md(model.Clip(it.Evidence.Text, 100)) + "”: " + ev
		}
		sr := string(it.SelfReport)
		if sr == "" {
			sr = "—"
		}
		status := string(it.Status)
		if it.Review {
			status += " (review, not counted)"
		}
		p.line("| %s | %s | %d | %s | %s | %.2f | %s | %s |", it.Kind, md(model.Clip(it.Item.Label(), 80)), it.Turn, it.Basis, status, it.Score, sr, ev)
	}
	if unchanged > 0 {
		more := "more item"
		if rows == 0 {
			more = "item"
		} else {
			p.line("")
		}
		p.line("%s, as in compaction %d above.", verify.Plural(unchanged, more), last)
	}
	if len(c.UnsourcedClaims) > 0 {
		p.line("")
		p.line("Unsourced claims: %s", md(strings.Join(c.UnsourcedClaims, "; ")))
	}
	p.line("")
	for _, cs := range c.Consumers {
		state := "allowed"
		if !cs.Allowed {
			state = "**refused**"
		}
		p.line("- consumer %s (%s): %s", mdCode(cs.Name), md(verify.JoinKinds(cs.Requires)), state)
	}
}

// markdownGroups writes the comparison of the runs grouped by a meta field:
// the table a prompt engineer pastes to compare compaction prompts.
func markdownGroups(p *printer, ts []Tally, field string) {
	p.line("%s Comparison by %s", p.h(1), mdCode(field))
	p.line("")
	head := groupHead(md(field))
	align := []string{"---"}
	for range head[1:] {
		align = append(align, "---:")
	}
	p.line("| %s |", strings.Join(head, " | "))
	p.line("|%s|", strings.Join(align, "|"))
	for _, g := range groupTallies(ts, field) {
		v := md(g.Value)
		if g.Missing {
			v = "*" + noValue + "*"
		}
		p.line("| %s |", strings.Join(groupRow(g, v), " | "))
	}
}
