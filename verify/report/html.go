package report

// The HTML report: one self-contained page a postmortem links to or
// attaches. Everything is in the file: the style inline, no script at all
// (the page needs none: sections fold with <details>), no font, image or
// request of any kind, and a Content-Security-Policy that forbids them
// should a transcript string ever slip through. Every transcript string is
// sanitized (model.Sanitize: controls, bidi and invisible characters made
// visible) and then escaped by html/template for the context it lands in;
// no transcript text is ever concatenated into markup.

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

//go:embed html.tmpl
var htmlSource string

// htmlCSP is the page's Content-Security-Policy: nothing may be fetched or
// run; only the inline style applies.
const htmlCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'"

var htmlTmpl = template.Must(template.New("report").Parse(htmlSource))

// HTML writes the report as one self-contained HTML page: the summary of
// every file, then per run the timeline of compactions with verdicts, the
// findings, the lineage map and each violating compaction with its
// reasons, evidence and source excerpts; then the files not verified, the
// group tables (with GroupBy) and the drop rates per kind.
func (rep *Report) HTML(w io.Writer) error {
	return htmlTmpl.Execute(w, rep.htmlPage())
}

// The page's view: every string in it is sanitized transcript text or
// loupe's own words; the template escapes all of them.
type (
	htmlPage struct {
		CSP                string
		Verdict, Class     string
		Counts             string
		Files              []htmlSummaryRow
		Runs               []htmlRun
		Unverified         []Unverified
		GroupBy            string
		GroupHead          []string
		GroupRows          [][]string
		Bars               []htmlBars
		Legend             []htmlCell
		OnlyViolations     bool
		ShownRuns, AllRuns int
	}
	htmlSummaryRow struct {
		Anchor, Path, Runtime           string
		Sub                             bool // a sub-agent, listed under its session
		Compactions, Violate, FalseComp int
		Verdict, Class                  string
	}
	htmlRun struct {
		Anchor, Path, Runtime, Source string
		// Parent names the session of a sub-agent's file; Subagents counts
		// a session's sub-agents (see subagentSum).
		Parent, Subagents    string
		Verdict, Class, Note string
		Turns                int
		Timeline             []htmlComp
		Findings             []htmlFinding
		Warnings             []string
		Map                  htmlMap
		Violating            []htmlViolation
	}
	htmlComp struct {
		Anchor, Seq, Turn, Trigger, Loss, Verdict, Class, Items, First string
		Violates                                                       bool
	}
	htmlFinding struct {
		Title, Item, Quote, Why string
		Turn, OriginTurn        int
		LostAt                  string
	}
	htmlMap struct {
		Seqs     []int
		Rows     []htmlMapRow
		MoreKept int
	}
	htmlMapRow struct {
		Kind, Label, FirstLoss string
		Turn                   int
		Lost                   bool
		Cells                  []htmlCell
	}
	htmlCell struct {
		Glyph, Class, Title string
	}
	htmlViolation struct {
		Anchor                string
		Seq, Turn             int
		Loss, Sizes, Attested string
		Reasons, Unsourced    []string
		Items                 []htmlItem
		Consumers             []htmlConsumer
		Summary               string
		SummaryClipped        bool
	}
	htmlItem struct {
		Kind, Label, Origin, Status, Class, Score, SelfReport string
		Source, Evidence, Section, Why                        string
		Turn                                                  int
	}
	htmlConsumer struct {
		Name, Requires, State string
		Allowed               bool
		Why                   []string
	}
	htmlBars struct {
		Title string
		Bars  []htmlBar
	}
	htmlBar struct {
		Kind       string
		Percent    int
		Lost, Of   int
		RateString string
	}
)

// htmlMapKept bounds the kept items a map lists (every lost one is).
const htmlMapKept = 200

// htmlSummaryMax bounds the summary text shown under a violating
// compaction, in bytes.
const htmlSummaryMax = 64 << 10

// clean is transcript text made fit for the page (before html/template
// escapes it): controls, bidi and invisible characters become visible.
func clean(s string) string { return model.Sanitize(s) }

func verdictClass(v string) string {
	switch v {
	case string(verify.Violate), VerdictError:
		return "violate"
	case string(verify.Degrade):
		return "degrade"
	}
	return "none"
}

func (rep *Report) htmlPage() htmlPage {
	pg := htmlPage{CSP: htmlCSP, Verdict: verdictBadge(rep.OverallVerdict()), Class: verdictClass(rep.OverallVerdict()),
		Unverified: make([]Unverified, 0, len(rep.Unverified)), OnlyViolations: rep.OnlyViolations, AllRuns: len(rep.Results)}
	comps, viol := 0, 0
	for _, r := range rep.Results {
		comps += len(r.Compactions)
		viol += r.Violations()
	}
	pg.Counts = fmt.Sprintf("%s · %s · %d violate", verify.Plural(len(rep.Results), "file"), verify.Plural(comps, "compaction"), viol)
	if len(rep.Unverified) > 0 {
		pg.Counts += fmt.Sprintf(" · %d not verified", len(rep.Unverified))
	}
	for _, s := range verify.Statuses {
		pg.Legend = append(pg.Legend, htmlCell{Glyph: s.Glyph(), Class: "st-" + string(s), Title: statusName(s)})
	}
	pg.Legend = append(pg.Legend, htmlCell{Glyph: verify.ReviewGlyph, Class: "st-review", Title: "review (lost, but only inferred: not counted)"})
	subs := subagents(rep.tallies())
	for _, i := range rep.htmlOrder() {
		r := rep.Results[i]
		anchor := fmt.Sprintf("run-%d", i+1)
		v := FileVerdict(r)
		parent := rep.Parents[r.Path]
		pg.Files = append(pg.Files, htmlSummaryRow{Anchor: anchor, Path: clean(r.Path), Runtime: Runtime(r), Compactions: len(r.Compactions),
			Violate: r.Violations(), FalseComp: falseCompletions(r), Verdict: verdictBadge(v), Class: verdictClass(v), Sub: parent != ""})
		run := rep.htmlRun(r, anchor)
		if parent != "" {
			run.Parent = clean(filepath.Base(parent))
		}
		if s := subs[r.Path]; s != nil {
			run.Subagents = s.line()
		}
		pg.Runs = append(pg.Runs, run)
	}
	pg.ShownRuns = len(pg.Runs)
	for _, u := range rep.Unverified {
		pg.Unverified = append(pg.Unverified, Unverified{Path: clean(u.Path), Error: clean(u.Error)})
	}
	if rep.GroupBy != "" {
		pg.GroupBy = clean(rep.GroupBy)
		pg.GroupHead = groupHead(pg.GroupBy)
		for _, g := range Groups(rep.Results, rep.GroupBy) {
			pg.GroupRows = append(pg.GroupRows, groupRow(g, clean(g.Value)))
		}
	}
	if ts := rep.tallies(); talliesHaveItems(ts) {
		pg.Bars = append(pg.Bars, htmlBarSet("every run", allRuns(ts)))
		if rep.GroupBy != "" {
			for _, g := range Groups(rep.Results, rep.GroupBy) {
				pg.Bars = append(pg.Bars, htmlBarSet(clean(rep.GroupBy)+" = "+clean(g.Value), g))
			}
		}
	}
	return pg
}

// htmlOrder is the order the page lists runs in: each session followed by
// its sub-agents that have a compaction or a finding; a sub-agent with
// neither is counted on its session's line, not listed (a project's
// thousands of them would bury the rest). A sub-agent whose session is
// not in the report is a run of its own.
func (rep *Report) htmlOrder() []int {
	inReport := map[string]bool{}
	for _, r := range rep.Results {
		inReport[r.Path] = true
	}
	under := map[string][]int{}
	for i, r := range rep.Results {
		if p := rep.Parents[r.Path]; p != "" && inReport[p] && rep.shows(r) && (len(r.Compactions) > 0 || len(r.Findings) > 0) {
			under[p] = append(under[p], i)
		}
	}
	var out []int
	for i, r := range rep.Results {
		if !rep.shows(r) || rep.Parents[r.Path] != "" && inReport[rep.Parents[r.Path]] {
			continue
		}
		out = append(out, i)
		out = append(out, under[r.Path]...)
	}
	return out
}

func htmlBarSet(title string, g Group) htmlBars {
	bs := htmlBars{Title: title}
	for _, k := range verify.Kinds {
		if g.Items[k] == 0 {
			continue
		}
		share := ratio(g.Lost[k], g.Items[k])
		bs.Bars = append(bs.Bars, htmlBar{Kind: string(k), Percent: int(100*share + 0.5), Lost: g.Lost[k], Of: g.Items[k],
			RateString: fmt.Sprintf("%.0f %%", 100*share)})
	}
	return bs
}

func (rep *Report) htmlRun(r *verify.Result, anchor string) htmlRun {
	v := FileVerdict(r)
	run := htmlRun{Anchor: anchor, Path: clean(r.Path), Runtime: Runtime(r), Source: clean(r.Source), Turns: r.Turns,
		Verdict: verdictBadge(v), Class: verdictClass(v)}
	if len(r.Compactions) == 0 {
		run.Note = verify.NoCompaction
	}
	for _, w := range r.Warnings {
		run.Warnings = append(run.Warnings, clean(w.Msg))
	}
	for _, c := range r.Compactions {
		if !rep.showsCompaction(c) {
			continue
		}
		hc := htmlComp{Anchor: fmt.Sprintf("%s-c%d", anchor, c.Seq), Seq: fmt.Sprint(c.Seq), Turn: fmt.Sprint(c.Turn), Trigger: clean(c.Trigger),
			Loss: fmt.Sprintf("%.1f%%", 100*c.LossRatio), Verdict: badge(c.Verdict), Class: verdictClass(string(c.Verdict)),
			Items: c.ItemsNote(), Violates: c.Verdict == verify.Violate}
		if len(c.Reasons) > 0 {
			hc.First = clean(model.Clip(c.Reasons[0], 160))
			if len(c.Reasons) > 1 {
				hc.First += fmt.Sprintf(" (+%d more)", len(c.Reasons)-1)
			}
		}
		run.Timeline = append(run.Timeline, hc)
		if c.Verdict == verify.Violate {
			run.Violating = append(run.Violating, htmlViolationOf(r, c, hc.Anchor))
		}
	}
	for _, f := range r.Findings {
		hf := htmlFinding{Title: findingTitle(f.Kind), Item: clean(model.Clip(f.Item, 200)), Quote: clean(model.Clip(f.Text, 400)), Why: clean(f.Why),
			Turn: f.Turn, OriginTurn: f.OriginTurn}
		if f.LostAt > 0 {
			hf.LostAt = fmt.Sprintf("#%d", f.LostAt)
		}
		run.Findings = append(run.Findings, hf)
	}
	run.Map = htmlMapOf(r)
	return run
}

func htmlMapOf(r *verify.Result) htmlMap {
	var m htmlMap
	if len(r.Compactions) == 0 {
		return m
	}
	for _, c := range r.Compactions {
		m.Seqs = append(m.Seqs, c.Seq)
	}
	kept := 0
	for _, row := range r.LineageMap() {
		if !row.Lost() && !row.InReview() {
			if kept++; kept > htmlMapKept {
				m.MoreKept++
				continue
			}
		}
		hr := htmlMapRow{Kind: string(row.Kind), Label: clean(model.Clip(row.Item.Label(), 120)), Turn: row.Turn, Lost: row.Lost(), FirstLoss: "—"}
		if row.Lost() {
			hr.FirstLoss = fmt.Sprintf("#%d", row.FirstLoss)
		}
		for i, s := range row.Cells {
			cell := htmlCell{Class: "st-none", Title: fmt.Sprintf("#%d: not checked", m.Seqs[i])}
			switch {
			case s != "" && row.Review[i]:
				cell = htmlCell{Glyph: row.Mark(i), Class: "st-review", Title: fmt.Sprintf("#%d: %s, review (only inferred: not counted)", m.Seqs[i], statusName(s))}
			case s != "":
				cell = htmlCell{Glyph: s.Glyph(), Class: "st-" + string(s), Title: fmt.Sprintf("#%d: %s", m.Seqs[i], statusName(s))}
			}
			hr.Cells = append(hr.Cells, cell)
		}
		m.Rows = append(m.Rows, hr)
	}
	return m
}

func htmlViolationOf(r *verify.Result, c *verify.CompactionResult, anchor string) htmlViolation {
	hv := htmlViolation{Anchor: anchor, Seq: c.Seq, Turn: c.Turn, Loss: fmt.Sprintf("%.1f%%", 100*c.LossRatio),
		Sizes: fmt.Sprintf("%d → %d bytes", c.SourceBytes, c.SummaryBytes), Attested: map[bool]string{true: "present", false: "none"}[c.Attested]}
	for _, reason := range c.Reasons {
		hv.Reasons = append(hv.Reasons, clean(reason))
	}
	for _, u := range c.UnsourcedClaims {
		hv.Unsourced = append(hv.Unsourced, clean(u))
	}
	items := slices.Clone(c.ItemResults())
	// The items the summary lost first: they are why it violates.
	slices.SortStableFunc(items, func(a, b verify.ItemResult) int {
		return cmp.Compare(boolInt(a.Status.Verified()), boolInt(b.Status.Verified()))
	})
	for _, it := range items {
		hi := htmlItem{Kind: string(it.Kind), Label: clean(model.Clip(it.Item.Label(), 160)), Origin: clean(it.Origin), Turn: it.Turn,
			Status: statusName(it.Status), Class: "st-" + string(it.Status), Score: fmt.Sprintf("%.2f", it.Score),
			SelfReport: string(it.SelfReport), Why: clean(it.Why)}
		if hi.SelfReport == "" {
			hi.SelfReport = "—"
		}
		src := it.Item.Evidence
		if src == "" {
			src = it.Text
		}
		hi.Source = clean(model.Clip(src, 400))
		if e := it.Evidence; e != nil {
			hi.Evidence = clean(model.Clip(e.Text, 400))
			hi.Section = clean(e.Section)
		}
		hv.Items = append(hv.Items, hi)
	}
	for _, cs := range c.Consumers {
		hc := htmlConsumer{Name: clean(cs.Name), Requires: verify.JoinKinds(cs.Requires), Allowed: cs.Allowed, State: "allowed"}
		if !cs.Allowed {
			hc.State = "refused"
		}
		for _, w := range cs.Why {
			hc.Why = append(hc.Why, clean(w))
		}
		hv.Consumers = append(hv.Consumers, hc)
	}
	if r.Transcript != nil {
		for _, tc := range r.Transcript.Compactions {
			if tc.Seq == c.Seq {
				s := tc.Summary
				if len(s) > htmlSummaryMax {
					s, hv.SummaryClipped = strings.ToValidUTF8(s[:htmlSummaryMax], ""), true
				}
				hv.Summary = clean(s)
				break
			}
		}
	}
	return hv
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
