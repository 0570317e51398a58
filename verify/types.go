package verify

import (
	"fmt"

	"github.com/loupe-dev/loupe/model"
)

// Kind is the kind of a preservation item.
type Kind string

// The item kinds of the preservation set (DESIGN.md, "Item kinds").
const (
	Commitment Kind = "commitment"
	Handle     Kind = "handle"
	Error      Kind = "error"
	Identifier Kind = "identifier"
	Constraint Kind = "constraint"
)

// Kinds lists every item kind in report order.
var Kinds = []Kind{Commitment, Handle, Error, Identifier, Constraint}

// Status is what a summary did with one item.
type Status string

// Item statuses. Only Retained is verified; everything else fails closed.
const (
	// Retained: the summary carries the item, still open.
	Retained Status = "retained"
	// Weak: partial evidence only; shown for a person to judge; not verified.
	Weak Status = "weak"
	// Flipped: carried, but as done while the source says it is open.
	Flipped Status = "flipped"
	// IntentOnly: (handles) the summary names what the call was doing, not its id.
	IntentOnly Status = "intent_only"
	// Dropped: absent.
	Dropped Status = "dropped"
	// Resurrected: closed in the source, presented as open or pending.
	Resurrected Status = "resurrected"
	// Closed: closed in the source and not presented as open; not listed in
	// reports (it is fine), kept for lineage.
	Closed Status = "closed"
)

// Verified reports whether the status counts as preserved.
func (s Status) Verified() bool { return s == Retained || s == Closed }

// Finding is how the compactor's self-report compares with the check.
type Finding string

// Self-report findings (DESIGN.md, "The compactor's self-report").
const (
	Agree          Finding = "agree"
	Overclaim      Finding = "overclaim"
	UnsourcedClaim Finding = "unsourced_claim"
	StaleClaim     Finding = "stale_claim"
	Underclaim     Finding = "underclaim"
	Unattested     Finding = "unattested"
	// NoClaim: the compactor reported, said nothing of this item, and the item
	// was not retained either (the loss is already a reason of its own).
	NoClaim Finding = ""
)

// Verdict is the decision for one compaction.
type Verdict string

// Verdicts.
const (
	// Degrade: every preserved item verified; the loss is fine.
	Degrade Verdict = "degrade"
	// Violate: the summary must not be consumed.
	Violate Verdict = "violate"
)

// Item is one element of a preservation set, extracted from the source.
type Item struct {
	// ID identifies the item across compactions (lineage): kind and key.
	ID   string
	Kind Kind
	// Key is the normalized action (commitments, constraints) or the verbatim
	// id (handles, identifiers) or call id + first error line (errors).
	Key string
	// Text is the source's wording.
	Text string
	// Action and Condition split a commitment ("re-run the migration" /
	// "after the schema diff is reviewed").
	Action, Condition string
	// Turn is the origin: the message, plan event or tool call (for an
	// error, the failing result) it was extracted from.
	Turn int
	// Event is the origin's index in Transcript.Events.
	Event int
	// Origin says what made the item: "plan t3", "assistant message",
	// "tool call bash", "user message"...
	Origin string
	// Evidence is the source sentence or plan entry that made the item.
	Evidence string
	// Open reports whether the item was open at the compaction.
	Open bool
	// ClosedTurn and ClosedEvent say what closed it, when closed.
	ClosedTurn, ClosedEvent int
	// ClosedBy explains the closure ("plan t3 completed", "call_9 succeeded").
	ClosedBy string
	// Names lists, for an identifier, the keys of the open items naming it.
	Names []string
	// Aliases are other ids the source gives the same item: the plan step
	// ("t3") or logged commitment a promise in the text was merged with.
	Aliases []string
	// Basis is how sure the source is that the item is owed, decided from
	// the source alone (basis.go); Cue is the short reason that decided it
	// ("plan t3 pending", "hypothetical 'if …'").
	Basis Basis
	Cue   string
}

// Span is a byte range of a summary.
type Span struct {
	Start, End int
}

// Evidence is where in a summary an item was found.
type Evidence struct {
	Span
	// Text is the matched sentence or window.
	Text string
	// Section is the heading it sits under ("Pending Tasks"), or "".
	Section string
	// Polarity is what the summary says of it there: pending, done, negated
	// or neutral.
	Polarity Polarity
}

// Polarity is the status a summary gives a matched item.
type Polarity string

// Polarities.
const (
	Neutral Polarity = "neutral"
	Pending Polarity = "pending"
	Done    Polarity = "done"
	Negated Polarity = "negated"
)

// ItemResult is one item's status in one summary.
type ItemResult struct {
	*Item
	Status Status
	// Score is the match score in [0,1] (1 for a verbatim id).
	Score float64
	// Evidence is nil when nothing in the summary matched.
	Evidence *Evidence
	// SelfReport compares the compactor's claims with the status.
	SelfReport Finding
	// Why explains the status in one line.
	Why string
	// Review is set on an item that is not verified but only inferred
	// (DESIGN.md, "How sure the source is that an item is owed"): it is
	// listed for a person to judge and never counts as a loss, unless the
	// check is strict.
	Review bool
	// Basis and Cue are the item's as they were at this compaction (an
	// error the run leaves behind later is weakened then, not here).
	Basis Basis
	Cue   string
	// CrossLanguage: the item and the summary are in different languages
	// and share nothing to match through (no id, path, number or name), so
	// the summary's words cannot settle it. It is for a person to review,
	// never a loss: the gate and the verdict do not count it.
	CrossLanguage bool `json:"cross_language,omitempty"`
}

// Counts reports whether the item's loss counts towards the verdict, the
// gate and the self-report findings: it is not verified and not review.
func (ir *ItemResult) Counts() bool {
	return !ir.Status.Verified() && !ir.Review && !ir.CrossLanguage
}

// Section is a part of a summary under a heading of a known compactor layout.
type Section struct {
	Span
	Heading string
	// Polarity is what being under this heading means (Pending for "Pending
	// Tasks", Done for "Completed", Neutral otherwise).
	Polarity Polarity
}

// ConsumerResult is the gate's decision for one consumer.
type ConsumerResult struct {
	Name     string
	Requires []Kind
	Allowed  bool
	// Why lists the unverified items (or the sanity failure) that refused it.
	Why []string
}

// Warning is a sanity problem or a parse problem, with where it is.
type Warning struct {
	Line int    // transcript line, when it concerns one
	Seq  int    // compaction seq, when it concerns one
	Msg  string // what is wrong
}

// CompactionResult is the check of one compaction against its source.
type CompactionResult struct {
	Seq     int
	Turn    int
	Event   int // index of the compaction in Transcript.Events
	Trigger string
	Verdict Verdict
	// LossRatio is 1 - summary bytes / source bytes as the compactor saw them
	// (the previous summary plus the replaced span); LossRatioTokens the same
	// in approximate tokens (bytes/4).
	LossRatio, LossRatioTokens float64
	SourceBytes, SummaryBytes  int
	// Unverifiable is set for an empty or opaque summary.
	Unverifiable bool
	// Reasons lists every reason to violate, not only the first.
	Reasons []string
	// Items is the preservation set (open items) plus resurrected closed ones.
	Items []ItemResult
	// UnsourcedClaims are self-report claims that match nothing in the source.
	UnsourcedClaims []string
	// Attested is false when the compaction carried no self-report.
	Attested  bool
	Consumers []ConsumerResult
	Sections  []Section
	Warnings  []Warning
	// packed holds the items once PackItems took them from Items (pack.go).
	packed *packedItems
}

// ReviewCount counts the compaction's review items: in all, and per kind.
func (c *CompactionResult) ReviewCount() (int, map[Kind]int) {
	n, by := 0, map[Kind]int{}
	for _, ir := range c.ItemResults() {
		if ir.Review {
			n++
			by[ir.Kind]++
		}
	}
	return n, by
}

// NothingOpen is what a report says of a compaction whose preservation set
// was empty: an honest "0 items", not a silent one.
const NothingOpen = "nothing was open: nothing to keep"

// NoCompaction is what a report says of a run without a compaction.
const NoCompaction = "no compaction in this run: nothing to verify"

// ItemsNote describes a compaction's preservation set in a few words: how
// many items, or that nothing was open.
func (c *CompactionResult) ItemsNote() string {
	switch n := c.ItemCount(); {
	case n == 0 && !c.Unverifiable:
		return NothingOpen
	case n == 1:
		return "1 item"
	default:
		return fmt.Sprintf("%d items", n)
	}
}

// Plural writes n and the noun, with an s unless n is 1: "1 compaction",
// "3 compactions".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// FindingKind is the kind of a run-level finding.
type FindingKind string

// Run-level findings.
const (
	FalseCompletion       FindingKind = "false_completion"
	UnsupportedCompletion FindingKind = "unsupported_completion"
	OrphanedResult        FindingKind = "orphaned_result"
)

// RunFinding is a finding that spans compactions.
type RunFinding struct {
	Kind FindingKind
	// Turn is the claiming message's (completions) or the late result's
	// (orphaned results).
	Turn  int
	Event int
	// Item is the key of the item concerned; ItemID its identity.
	Item, ItemID string
	// LostAt is the seq of the compaction that lost or flipped the item (0
	// when none did).
	LostAt int
	// OriginTurn is the item's origin turn.
	OriginTurn int
	// Text is the claim or the result's first line.
	Text string
	// Why explains the finding in one line.
	Why string
}

// LineageStep is an item's status in one compaction.
type LineageStep struct {
	Seq    int
	Status Status
	// Review: the summary lost the item but it was only inferred, so the
	// loss was listed for a person to judge, not counted.
	Review bool
}

// Lineage is an item's history across the compactions from its origin until
// it closes.
type Lineage struct {
	*Item
	Steps []LineageStep
	// FirstLoss is the seq of the first compaction that did not verify it,
	// review aside (0 when none).
	FirstLoss int
	// runs and comps are the steps while packed (Options.Packer): Steps
	// is nil then, and StepList makes it from them.
	runs  []stepRun
	comps []*CompactionResult
}

// StepList returns the item's steps: Steps, or, on a packed result
// (Options.Packer), the steps its runs stand for (a new slice each call).
func (lg *Lineage) StepList() []LineageStep {
	if lg.Steps != nil || lg.runs == nil {
		return lg.Steps
	}
	return expandSteps(lg.runs, lg.comps)
}

// Result is the verification of a whole transcript.
type Result struct {
	Path        string
	Format      string
	Source      string
	Turns       int
	Compactions []*CompactionResult
	Findings    []RunFinding
	Lineage     []*Lineage
	Warnings    []Warning
	// Transcript is what was verified; the inspector shows it beside the result.
	Transcript *model.Transcript
	// Pending is set on a result made by Unverified: the transcript is read
	// but its verification is still running, and nothing else is known.
	Pending bool
}

// Violations counts the compactions that violate.
func (r *Result) Violations() int {
	n := 0
	for _, c := range r.Compactions {
		if c.Verdict == Violate {
			n++
		}
	}
	return n
}
