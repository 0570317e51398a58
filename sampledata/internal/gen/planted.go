package gen

import (
	"slices"

	"github.com/loupe-dev/loupe/model"
)

// Planted is the ground truth of a generated run: what each compaction got
// wrong on purpose and what the verifier must find. It is written next to the
// samples as testdata/<name>.planted.json.
type Planted struct {
	Run    string `json:"run"`
	Turns  int    `json:"turns"`
	Events int    `json:"events"`
	// LossDefinition says how loss_ratio was computed.
	LossDefinition string              `json:"loss_definition"`
	Compactions    []PlantedCompaction `json:"compactions"`
	Findings       []PlantedFinding    `json:"findings"`
	Notes          []string            `json:"notes,omitempty"`
}

// PlantedCompaction is the expected result of one compaction.
type PlantedCompaction struct {
	Seq          int     `json:"seq"`
	Turn         int     `json:"turn"`
	Layout       string  `json:"layout"`
	Verdict      string  `json:"verdict"`
	LossRatio    float64 `json:"loss_ratio"`
	SourceBytes  int     `json:"source_bytes"`
	SummaryBytes int     `json:"summary_bytes"`
	// SelfReport is "attested" when the compaction carries a self_report,
	// else "unattested".
	SelfReport string `json:"self_report"`
	// Reasons are the planted losses: empty for an honest degradation.
	Reasons []PlantedItem `json:"reasons"`
	// Open is every item the generator tracked as open at the compaction
	// (identifiers are not listed: they follow from these), with the status
	// the summary gives it.
	Open []PlantedItem `json:"open"`
}

// PlantedItem is one item and its expected status in a summary.
type PlantedItem struct {
	Kind string `json:"kind"`
	// Key is the plan id, the call id, a rule's sentence with its cue, or
	// the item's text.
	Key    string `json:"key"`
	Text   string `json:"text"`
	Turn   int    `json:"turn"`
	Status string `json:"status"`
	// SelfReport is the expected self-report finding for the item, when the
	// compaction is attested and claims it.
	SelfReport string `json:"self_report,omitempty"`
	// Consequence is set when the loss was planted by an earlier compaction
	// and this one only repeats it.
	Consequence bool `json:"consequence,omitempty"`
}

// PlantedFinding is an expected run-level finding.
type PlantedFinding struct {
	Kind string `json:"kind"`
	Turn int    `json:"turn"`
	Item string `json:"item,omitempty"`
	// OriginTurn is where the lost item came from.
	OriginTurn int `json:"origin_turn,omitempty"`
	// LostAt is the seq of the compaction that lost or flipped it.
	LostAt int `json:"lost_at,omitempty"`
	// Call and CallTurn identify an orphaned result's call.
	Call     string `json:"call,omitempty"`
	CallTurn int    `json:"call_turn,omitempty"`
	Note     string `json:"note,omitempty"`
}

const lossDefinition = "1 - len(summary) / (len(previous summary) + bytes of the events since the previous compaction: message text, tool input JSON, tool output text)"

// record adds compaction c to the ground truth.
func (e *emitter) record(c *model.Compaction, l layout, src int, loss float64, in *sumInput, p plant) {
	pc := PlantedCompaction{
		Seq: c.Seq, Turn: c.Turn, Layout: string(l), Verdict: "degrade", LossRatio: round4(loss),
		SourceBytes: src, SummaryBytes: len(c.Summary), SelfReport: "unattested", Reasons: []PlantedItem{},
	}
	if p.self != nil {
		pc.SelfReport = "attested"
	}
	claimed := func(it *item) bool {
		return p.self != nil && (slices.Contains(p.self.Retained, it.key) || slices.Contains(p.self.Retained, it.text) ||
			slices.Contains(p.self.Retained, it.claimKey))
	}
	for _, it := range e.led.openItems() {
		pi := PlantedItem{Kind: it.kind.verifyKind(), Key: truthKey(it), Text: it.text, Turn: it.turn, Status: "retained"}
		switch {
		case slices.Contains(p.drop, it.key):
			pi.Status = "dropped"
			pi.Consequence = p.lossAt != 0 && p.lossAt != c.Seq
		case slices.Contains(p.intent, it.key):
			pi.Status = "intent_only"
		case slices.Contains(p.flip, it.key):
			pi.Status = "flipped"
		}
		if claimed(it) {
			pi.SelfReport = "agree"
			if pi.Status != "retained" {
				pi.SelfReport = "overclaim"
			}
		}
		pc.Open = append(pc.Open, pi)
		if pi.Status != "retained" {
			pc.Reasons = append(pc.Reasons, pi)
		}
	}
	for _, it := range in.resurrect {
		pi := PlantedItem{Kind: it.kind.verifyKind(), Key: it.key, Text: it.text, Turn: it.turn, Status: "resurrected"}
		pc.Reasons = append(pc.Reasons, pi)
	}
	if len(pc.Reasons) > 0 {
		pc.Verdict = "violate"
	}
	e.truth.Compactions = append(e.truth.Compactions, pc)
}

// truthKey is how the ground truth names an item: the plan id, the call id,
// a rule's cue sentence, or the item's text.
func truthKey(it *item) string {
	switch it.kind {
	case kPlan, kHandle, kConstraint:
		return it.key
	}
	return it.text
}

// finish fills the run-level totals of the ground truth.
func (e *emitter) finish() *Planted {
	e.truth.Turns = e.turn
	e.truth.Events = len(e.events)
	e.truth.LossDefinition = lossDefinition
	if e.truth.Findings == nil {
		e.truth.Findings = []PlantedFinding{}
	}
	return e.truth
}
