package ui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"
	"sort"
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The overlays that replace the three panes until esc: the full help, the
// findings, and the lineage of an item. (The diff is in diff.go.)

// newHelpView is the full help: every binding of the key map, then what
// the marks mean. Two key groups stand side by side when the overlay (w
// cells) is wide enough for both, so that the keys take fewer rows and
// the marks below them come sooner.
func newHelpView(k *KeyMap, w int) *listView {
	v := &listView{sel: -1}
	titles := []string{"MOVE", "PANES AND COMPACTIONS", "VIEWS AND ACTIONS", "GENERAL"}
	groups := k.FullHelp()
	width := func(gi int) int {
		n := len([]rune(titles[gi]))
		for _, b := range groups[gi] {
			n = max(n, 2+12+1+ansi.StringWidth(b.Help().Desc))
		}
		return n
	}
	for gi := 0; gi < len(groups); {
		cols := []int{gi}
		if gi+1 < len(groups) && width(gi)+3+width(gi+1) <= w {
			cols = append(cols, gi+1)
		}
		var lines []line
		for row := 0; ; row++ {
			var l line
			shown := false
			for c, g := range cols {
				var part line
				switch {
				case row == 0:
					part = lineOf(titles[g], stHeading)
				case row-1 < len(groups[g]):
					h := groups[g][row-1].Help()
					part = lineOf(fmt.Sprintf("  %-12s ", h.Key), stAccent, h.Desc, stPlain)
				}
				shown = shown || len(part) > 0
				if c+1 < len(cols) {
					part = padLine(part, width(g)+3)
				}
				l = append(l, part...)
			}
			if !shown {
				break
			}
			lines = append(lines, l)
		}
		v.add(-1, append(lines, line{})...)
		gi += len(cols)
	}
	legend := []line{lineOf("MARKS", stHeading)}
	for _, s := range []verify.Status{verify.Retained, verify.Weak, verify.Flipped, verify.IntentOnly, verify.Dropped, verify.Resurrected} {
		legend = append(legend, lineOf("  "+statusGlyph(s)+" ", statusStyle(s), statusWord(s), stPlain, "  "+statusMeaning(s), stSubtle))
	}
	legend = append(legend,
		lineOf("  "+glyphBar+" ", stAccent, "replaced span", stPlain, "  the events compaction k read besides summary k-1", stSubtle),
		lineOf("  "+glyphAfter+" ", stSubtle, "after", stPlain, "  events after compaction k (faint)", stSubtle),
		lineOf("  "+glyphPointer+" ", stAccent, "selected", stPlain, "  the selected item's origin (source) or evidence (summary)", stSubtle),
		lineOf("  "+glyphFinding+" ", stBad, "finding", stPlain, "  the turn of the finding you jumped to", stSubtle),
		lineOf("  "+glyphViolate+" violate / "+glyphDegrade+" degrade", stPlain, "  the verdict of a compaction", stSubtle),
		line{})
	v.add(-1, legend...)

	// Self-report findings: what the compactor claimed, against the check.
	sr := []line{lineOf("SELF-REPORT", stHeading, "  the compactor's own claims, never taken as true", stSubtle)}
	for _, f := range []verify.Finding{verify.Agree, verify.Overclaim, verify.UnsourcedClaim, verify.StaleClaim, verify.Underclaim, verify.Unattested} {
		sr = append(sr, lineOf(fmt.Sprintf("  %-16s", strings.ReplaceAll(string(f), "_", " ")), stAccent, selfReportMeaning(f), stPlain))
	}
	v.add(-1, append(sr, line{})...)

	v.add(-1, consumerHelp()...)
	v.add(-1,
		line{},
		lineOf("Text from the transcript is sanitized: escape sequences show as ␛, hidden characters as ⟨U+202E⟩.", stSubtle))
	return v
}

// consumerHelp explains the default consumers: a compaction violates when
// it refuses one of them, so a reader needs to know who they are.
func consumerHelp() []line {
	return []line{
		lineOf("CONSUMERS", stHeading),
		lineOf("  The parts of an agent that read a summary. Each is allowed it only if every item of the kinds it needs is verified; a refusal makes the compaction violate.", stSubtle),
		lineOf("  planner     ", stAccent, "needs commitment, constraint", stPlain),
		lineOf("              decides the next step: it must know what was promised and the user's standing rules", stSubtle),
		lineOf("  router      ", stAccent, "needs handle", stPlain),
		lineOf("              hands a late tool result back to the call that started it, by its id", stSubtle),
		lineOf("  verifier    ", stAccent, "needs handle, error", stPlain),
		lineOf("              checks the work: it must know what is still running and what still fails", stSubtle),
		lineOf("  These are the defaults; the transcript's meta line or --consumer NAME=KIND,KIND replaces them.", stSubtle),
	}
}

func statusMeaning(s verify.Status) string {
	switch s {
	case verify.Retained:
		return "the summary carries it, still open (the only verified status)"
	case verify.Weak:
		return "partial evidence only; judge it yourself"
	case verify.Flipped:
		return "carried as done while the source says open: how false completions start"
	case verify.IntentOnly:
		return "what the call was doing survived, its id did not"
	case verify.Dropped:
		return "absent from the summary"
	case verify.Resurrected:
		return "closed in the source, presented as still open"
	}
	return ""
}

func findingWord(k verify.FindingKind) (string, styleID) {
	switch k {
	case verify.FalseCompletion:
		return "false completion", stBad
	case verify.UnsupportedCompletion:
		return "unsupported completion", stWarn
	case verify.OrphanedResult:
		return "orphaned result", stBad
	}
	return strings.ReplaceAll(string(k), "_", " "), stWarn
}

func findingRank(k verify.FindingKind) int {
	switch k {
	case verify.FalseCompletion:
		return 0
	case verify.OrphanedResult:
		return 1
	case verify.UnsupportedCompletion:
		return 2
	}
	return 3
}

// newFindingsView lists the run's findings; enter jumps to one.
func newFindingsView(res *verify.Result) *listView {
	v := &listView{sel: -1, gutter: true}
	if res == nil || len(res.Findings) == 0 {
		v.add(-1, lineOf("No findings in this run: no false completion, unsupported completion or orphaned result.", stSubtle))
		return v
	}
	v.add(-1, lineOf(plural(len(res.Findings), "finding")+" · enter jumps to the turn, with the item selected at the compaction that lost it", stSubtle), line{})
	// False completions first: they are what the inspector is for.
	order := make([]int, len(res.Findings))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return findingRank(res.Findings[order[a]].Kind) < findingRank(res.Findings[order[b]].Kind)
	})
	for _, i := range order {
		f := res.Findings[i]
		word, st := findingWord(f.Kind)
		lines := []line{lineOf(glyphFinding+" "+word, st, "  "+turnLabel(f.Turn), stAccent, "  "+oneLine(f.Item), stHeading)}
		if f.Text != "" {
			label := "claim"
			if f.Kind == verify.OrphanedResult {
				label = "result"
			}
			lines = append(lines, lineOf("  "+label+": ", stSubtle, "“"+clip(oneLine(f.Text), 400)+"”", stPlain))
		}
		var where []string
		if f.OriginTurn > 0 {
			where = append(where, "made at "+turnLabel(f.OriginTurn))
		}
		if f.LostAt > 0 {
			lost := "lost at compaction #" + strconv.Itoa(f.LostAt)
			for _, c := range res.Compactions {
				if c.Seq == f.LostAt {
					lost += " (" + turnLabel(c.Turn) + ")"
				}
			}
			where = append(where, lost)
		} else {
			where = append(where, "never lost by a compaction")
		}
		lines = append(lines, lineOf("  "+strings.Join(where, " · "), stSubtle))
		if f.Why != "" {
			lines = append(lines, lineOf("  "+oneLine(f.Why), stSubtle))
		}
		lines = append(lines, line{})
		v.add(i, lines...)
	}
	return v
}

// newProblemsView lists what was wrong in the file: lines that did not
// parse (kept as raw events) and the reader's warnings; enter shows the
// line in the source.
func newProblemsView(t *model.Transcript) *listView {
	v := &listView{sel: -1, gutter: true}
	if t == nil || len(t.Problems) == 0 {
		v.add(-1, lineOf("No problems: every line of the file parsed.", stSubtle))
		return v
	}
	head := []line{lineOf(problemCount(t.Problems)+" · enter shows the line in the source", stSubtle)}
	if len(t.Problems.Errors()) > 0 {
		head = append(head, lineOf("A line that does not parse is kept as a raw event and left out of the verification; `loupe verify` refuses the file unless --lenient.", stSubtle))
	}
	v.add(-1, append(head, line{})...)
	for i, p := range t.Problems {
		// Name the file: a run read from several files (a Claude Code
		// session continued in another) has lines of each.
		file := p.File
		if file == "" {
			file = t.Path
		}
		where := "file"
		if file != "" {
			where = oneLine(file)
		}
		if p.Line > 0 {
			where += ":" + strconv.Itoa(p.Line)
			if file == "" {
				where = "line " + strconv.Itoa(p.Line)
			}
			if p.Column > 0 {
				where += ":" + strconv.Itoa(p.Column)
			}
		}
		st, word := stWarn, "warning"
		if p.Severity == model.Error {
			st, word = stBad, "error"
		}
		l := lineOf("! "+word+" ", st, where, stAccent)
		if p.Type != "" {
			l = append(l, lineOf(" · "+oneLine(p.Type), stSubtle)...)
		}
		if p.Field != "" {
			l = append(l, lineOf(" · field "+oneLine(p.Field), stSubtle)...)
		}
		v.add(i, l, lineOf("  "+oneLine(p.Msg), stPlain))
	}
	return v
}

// problemCount is "2 lines did not parse · 1 warning" for the header and
// the problems view.
func problemCount(ps model.Problems) string {
	errs := len(ps.Errors())
	var parts []string
	if errs == 1 {
		parts = append(parts, "1 line did not parse")
	} else if errs > 1 {
		parts = append(parts, commas(errs)+" lines did not parse")
	}
	if w := len(ps) - errs; w > 0 {
		parts = append(parts, plural(w, "warning"))
	}
	return strings.Join(parts, " · ")
}

// lineageOf returns an item's lineage: the verifier's, or one read off the
// compactions when the verifier gave none.
func lineageOf(res *verify.Result, id string) *verify.Lineage {
	if res == nil || id == "" {
		return nil
	}
	for _, l := range res.Lineage {
		if l != nil && l.Item != nil && l.ID == id {
			return l
		}
	}
	var out *verify.Lineage
	for _, c := range res.Compactions {
		for _, it := range c.Items {
			if it.Item == nil || it.ID != id {
				continue
			}
			if out == nil {
				out = &verify.Lineage{Item: it.Item}
			}
			out.Steps = append(out.Steps, verify.LineageStep{Seq: c.Seq, Status: it.Status})
			if out.FirstLoss == 0 && !it.Status.Verified() {
				out.FirstLoss = c.Seq
			}
		}
	}
	return out
}

// newLineageView shows an item's status in every compaction from its
// origin until it closes; enter goes to that compaction.
func newLineageView(res *verify.Result, id string) *listView {
	v := &listView{sel: -1, gutter: true}
	lin := lineageOf(res, id)
	if lin == nil {
		v.add(-1, lineOf("No lineage for this item.", stSubtle))
		return v
	}
	it := lin.Item
	key := it.Key
	if key == "" {
		key = it.Text
	}
	head := []line{
		lineOf(strings.ToUpper(string(it.Kind))+" ", stHeading, oneLine(key), stHeading),
		lineOf("  made at "+turnLabel(it.Turn)+" · "+oneLine(it.Origin), stSubtle),
	}
	if it.Text != "" && it.Text != key {
		head = append(head, lineOf("  “"+oneLine(it.Text)+"”", stPlain))
	}
	if it.ClosedBy != "" {
		head = append(head, lineOf("  closed at "+turnLabel(it.ClosedTurn)+": "+oneLine(it.ClosedBy), stSubtle))
	}
	if lin.FirstLoss > 0 {
		head = append(head, lineOf("  first lost at compaction #"+strconv.Itoa(lin.FirstLoss), stBad))
	} else {
		head = append(head, lineOf("  verified in every compaction", stOK))
	}
	v.add(-1, append(head, line{})...)

	ciOf := map[int]int{}
	for ci, c := range res.Compactions {
		ciOf[c.Seq] = ci
	}
	for _, s := range lin.Steps {
		ci, ok := ciOf[s.Seq]
		if !ok {
			continue
		}
		c := res.Compactions[ci]
		l := lineOf(fmt.Sprintf("#%-3d %-12s ", c.Seq, turnLabel(c.Turn)), stAccent,
			statusGlyph(s.Status)+" "+fmt.Sprintf("%-12s", statusWord(s.Status)), statusStyle(s.Status),
			" "+verdictGlyph(c.Verdict)+" "+string(c.Verdict), stSubtle)
		if s.Seq == lin.FirstLoss {
			l = append(l, lineOf("  ← first loss", stBad)...)
		}
		for _, ir := range c.Items {
			if ir.Item != nil && ir.ID == id && ir.SelfReport == verify.Overclaim {
				l = append(l, lineOf("  self-report: overclaim ⚠", stBad)...)
			}
		}
		v.add(ci, l)
	}
	return v
}

// padLine pads l with spaces to w cells (help columns).
func padLine(l line, w int) line {
	n := 0
	for _, sg := range l {
		n += ansi.StringWidth(sg.text)
	}
	if n < w {
		l = append(l, lineOf(strings.Repeat(" ", w-n), stPlain)...)
	}
	return l
}
