package verify

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// evaluate checks compaction c against the items open before it.
func (l *ledger) evaluate(c *model.Compaction) *CompactionResult {
	if evaluateHook != nil {
		evaluateHook(c)
	}
	d := l.summaryOf(c)
	// The result keeps the sections to the end of the run (the inspector
	// draws them): a copy of their size, not the parse's grown list.
	cr := &CompactionResult{Seq: c.Seq, Turn: c.Turn, Event: c.Index, Trigger: c.Trigger, Sections: slices.Clone(d.sections), Attested: c.SelfReport != nil}
	l.measure(c, cr)
	l.sanity(c, cr, d)

	// The preservation set: every open item, plus the identifiers they name.
	var set []tracked
	for _, tr := range l.open {
		if tr.base().item.Open {
			set = append(set, tr)
		}
	}
	set = append(set, l.identifiers.derive(set)...)
	// Which open items a unit of the summary already carries: a pending
	// mention there is theirs, not a closed item's resurrection.
	claimedUnits := map[int][]tracked{}
	kept := func(tr tracked) bool { return l.keptItem(tr, c) }
	l.commitments.compete(set, d, kept, cr.Unverifiable)
	for _, tr := range set {
		ir := l.matchOpen(tr, d, c, cr.Unverifiable)
		l.judged(&ir)
		if ir.Evidence != nil && ir.Status == Retained {
			u := unitAt(d, ir.Evidence.Start)
			claimedUnits[u] = append(claimedUnits[u], tr)
		}
		cr.Items = append(cr.Items, ir)
	}
	if !cr.Unverifiable {
		for _, tr := range l.resurrectionCandidates(d) {
			if tr.base().item.ClosedEvent >= c.Index {
				continue
			}
			if ir, ok := resurrection(tr, d, set, claimedUnits); ok {
				l.judged(&ir)
				cr.Items = append(cr.Items, ir)
			}
		}
	}
	l.reconcile(c, cr, set)
	l.gate(cr)
	l.verdict(cr)
	// Lineage and what later late results will be checked against. This
	// check is the run's compaction number at (it is appended after).
	at := len(l.res.Compactions)
	for i := range cr.Items {
		ir := &cr.Items[i]
		e := l.byItem[ir.Item].base()
		e.steps = addStep(e.steps, at, ir.Status, ir.Review)
		e.lastSeen = c.Seq
		if ir.Counts() && e.firstLoss == 0 {
			// A review loss (only inferred) is listed, not a loss: a
			// later claim of the item is an unsupported completion.
			e.firstLoss = c.Seq
		}
	}
	l.inForce, l.inForceComp, l.prevSummary = spansOnly(d, l.inForce), c, c.Summary
	if l.opt.Packer != nil {
		cr.PackItems(l.opt.Packer)
	}
	return cr
}

// judged stamps a result with its item's basis as it is at this compaction,
// and says whether a loss of it is review.
func (l *ledger) judged(ir *ItemResult) {
	ir.Basis, ir.Cue = ir.Item.Basis, ir.Item.Cue
	if ir.Basis == "" {
		ir.Basis = Stated // an item no tracker judged counts, as before bases
	}
	ir.Review = l.review(ir)
}

// evaluateHook, when set by a test, runs before each compaction's check.
var evaluateHook func(*model.Compaction)

// matchOpen decides the status of an open item in a summary.
func (l *ledger) matchOpen(tr tracked, d *doc, c *model.Compaction, unverifiable bool) ItemResult {
	ir := ItemResult{Item: tr.base().item}
	// What the runtime kept verbatim survives whatever the summary is: an
	// encrypted summary (Codex's remote compaction) still hides everything
	// else, and violates for that.
	if l.keptItem(tr, c) {
		ir.Status, ir.Score, ir.Why = Retained, 1, "kept verbatim by the runtime (its source event is in the new context)"
		return ir
	}
	if unverifiable {
		ir.Status, ir.Why = Dropped, "the summary cannot be read, so nothing in it is verified"
		return ir
	}
	tr.match(l, d, &ir)
	crossLanguage(d, &ir)
	return ir
}

// keptItem reports whether the runtime carried the item's origin into the new
// context verbatim (Claude Code's preserved segment, OpenHands' events that
// were not forgotten, a micro-compaction that only cleared other results).
// An identifier is kept when an item naming it is.
func (l *ledger) keptItem(tr tracked, c *model.Compaction) bool {
	if len(c.Kept) == 0 {
		return false
	}
	if n, ok := tr.(*named); ok {
		for _, by := range n.namers {
			if l.keptItem(by, c) {
				return true
			}
		}
		return false
	}
	return kept(c, tr.base().originRef, tr.ref())
}

// kept reports whether the runtime carried an event verbatim into the new
// context (Claude Code's preserved segment, a retained tail): the event
// whose runtime ref is ref, or the call or job id.
func kept(c *model.Compaction, ref, id string) bool {
	if c == nil || len(c.Kept) == 0 {
		return false
	}
	for _, k := range c.Kept {
		if (id != "" && k == id) || (ref != "" && k == ref) {
			return true
		}
	}
	return false
}

// eventBytes is the size of an event's text as a compactor would read it.
func eventBytes(e model.Event) int {
	switch ev := e.(type) {
	case *model.Message:
		return len(ev.Text)
	case *model.ToolCall:
		return len(ev.Name) + ev.Input.Len()
	case *model.ToolResult:
		return ev.Text.Len()
	case *model.Plan:
		n := 0
		for _, it := range ev.Items {
			n += len(it.Text) + len(it.Status) + len(it.ID)
		}
		return n
	case *model.CommitmentEvent:
		return len(ev.Text)
	case *model.Raw:
		return ev.JSON.Len()
	}
	return 0
}

// measure computes the loss ratio against the source as the compactor saw it:
// the previous summary plus the replaced span (model.Transcript.ReplacedSpan),
// whose size the stream counts as the events go by.
func (l *ledger) measure(c *model.Compaction, cr *CompactionResult) {
	src := len(l.prevSummary) + l.spanBytes
	cr.SourceBytes, cr.SummaryBytes = src, len(c.Summary)
	if src > 0 {
		cr.LossRatio = 1 - float64(cr.SummaryBytes)/float64(src)
		cr.LossRatioTokens = 1 - float64((cr.SummaryBytes+3)/4)/float64(max((src+3)/4, 1))
	}
}

// sanity checks come before matching: an empty or opaque summary cannot be
// verified at all; one no smaller than its source is suspicious.
func (l *ledger) sanity(c *model.Compaction, cr *CompactionResult, d *doc) {
	warn := func(format string, args ...any) {
		cr.Warnings = append(cr.Warnings, Warning{Line: c.Line, Seq: c.Seq, Msg: fmt.Sprintf(format, args...)})
	}
	switch {
	case c.Opaque:
		cr.Unverifiable = true
		cr.Reasons = append(cr.Reasons, "summary is opaque (encrypted by the runtime): nothing in it can be verified")
	case strings.TrimSpace(c.Summary) == "" && len(c.Kept) > 0:
		// A compaction that only cleared some events (Claude Code's
		// micro-compaction, Gemini's output masking): what survives is what
		// the runtime kept verbatim.
		warn("no summary: only the %d events the runtime kept verbatim survive", len(c.Kept))
	case strings.TrimSpace(c.Summary) == "":
		cr.Unverifiable = true
		cr.Reasons = append(cr.Reasons, "summary is empty: nothing was kept")
	case looksOpaque(c.Summary):
		cr.Unverifiable = true
		cr.Reasons = append(cr.Reasons, "summary is opaque (base64 or encrypted content, not prose): nothing in it can be verified")
	}
	if cr.SourceBytes > 0 && cr.SummaryBytes >= cr.SourceBytes {
		warn("no reduction: the summary (%d bytes) is no smaller than its source (%d bytes)", cr.SummaryBytes, cr.SourceBytes)
	}
}

// looksOpaque detects encrypted or base64 summaries: long runs without spaces
// from the base64 alphabet making up most of the text.
func looksOpaque(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) < 64 {
		return false
	}
	b64, spaces := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			spaces++
		case lang.IsIdentByte(c) || c == '+' || c == '/' || c == '=' || c == '-':
			b64++
		}
	}
	return float64(b64)/float64(len(s)) > 0.95 && float64(spaces)/float64(len(s)) < 0.01
}

// outliers warns about loss ratios far outside the run's usual range, once
// every compaction is known.
func outliers(res *Result) {
	var ratios []float64
	for _, c := range res.Compactions {
		if !c.Unverifiable && c.SourceBytes > 0 {
			ratios = append(ratios, c.LossRatio)
		}
	}
	if len(ratios) < 4 {
		return
	}
	sorted := append([]float64(nil), ratios...)
	sort.Float64s(sorted)
	med := sorted[len(sorted)/2]
	var devs []float64
	for _, r := range ratios {
		devs = append(devs, abs(r-med))
	}
	sort.Float64s(devs)
	mad := max(devs[len(devs)/2], 0.02)
	for _, c := range res.Compactions {
		if c.Unverifiable || c.SourceBytes == 0 {
			continue
		}
		if dev := abs(c.LossRatio - med); dev > 5*mad {
			c.Warnings = append(c.Warnings, Warning{Seq: c.Seq, Msg: fmt.Sprintf("loss ratio %.1f%% is far from the run's median %.1f%%", 100*c.LossRatio, 100*med)})
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
