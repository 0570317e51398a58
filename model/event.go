package model

// Kind is the kind of an Event. The set is closed: every line of a transcript
// becomes one of these.
type Kind uint8

// The event kinds of loupe JSONL v1.
const (
	KindRaw Kind = iota
	KindMessage
	KindToolCall
	KindToolResult
	KindPlan
	KindCommitment
	KindCompaction
)

var kindNames = [...]string{
	KindRaw:        "raw",
	KindMessage:    "message",
	KindToolCall:   "tool_call",
	KindToolResult: "tool_result",
	KindPlan:       "plan",
	KindCommitment: "commitment",
	KindCompaction: "compaction",
}

// String returns the kind's name as written in the "type" field.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one line of a transcript. It is a sealed interface: the concrete
// types are *Message, *ToolCall, *ToolResult, *Plan, *CommitmentEvent,
// *Compaction and *Raw.
type Event interface {
	// Kind reports which concrete type the event is.
	Kind() Kind
	// Header gives the fields every event shares.
	Header() *Base
	sealed()
}

// Base holds what every event carries: its turn, timestamp and where it came from.
type Base struct {
	// Turn is the event's position in the run. Turns never decrease; several
	// events may share one.
	Turn int
	// TS is the event's timestamp as written (RFC 3339), or empty.
	TS string
	// Index is the event's position in Transcript.Events.
	Index int
	// Line is the 1-based line of the file the event was read from (0 when an
	// importer synthesised it without a line of its own).
	Line int
	// Offset is the byte offset of that line in the (uncompressed) file.
	Offset int64
	// Ref is the runtime's own id for the record (a Claude Code uuid, an
	// OpenHands event id...), kept so the inspector can show it. Empty for
	// native loupe transcripts unless the writer put one there.
	Ref string
}

// Header returns b itself; it lets every event type satisfy Event.
func (b *Base) Header() *Base { return b }

func (*Base) sealed() {}

// Role is who wrote a message.
type Role string

// Message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is a message from the user, the assistant or the system.
type Message struct {
	Base
	Role Role
	Text string
	// Commentary: the runtime marks the message as narration of the work
	// under way, not the answer that ends the turn (Codex's
	// "phase":"commentary"; loupe JSONL "phase":"commentary").
	Commentary bool
}

// Kind implements Event.
func (*Message) Kind() Kind { return KindMessage }

// ToolCall is a tool invocation by the agent.
type ToolCall struct {
	Base
	ID   string
	Name string
	// Input is the call's arguments as JSON (any value), compact.
	Input Text
}

// Kind implements Event.
func (*ToolCall) Kind() Kind { return KindToolCall }

// JobState is the state of an asynchronous job (a background shell, an async
// sub-agent, an exec session) as a tool result reports it.
type JobState string

// Job states. Running opens a handle; Done and Killed close it.
const (
	JobRunning JobState = "running"
	JobDone    JobState = "done"
	JobKilled  JobState = "killed"
)

// Job is an asynchronous job a tool result reports on: a finished call that
// started something still running, or a later read that found it finished.
type Job struct {
	ID    string
	State JobState
}

// ToolResult is the result of a tool call, linked to it by ID.
type ToolResult struct {
	Base
	ID      string
	IsError bool
	Text    Text
	// Job is set when the result reports on an asynchronous job (loupe
	// extension of v1; importers map runtime-specific job ids onto it).
	Job *Job
}

// Kind implements Event.
func (*ToolResult) Kind() Kind { return KindToolResult }

// PlanStatus is the status of a plan or todo item.
type PlanStatus string

// Plan item statuses. Runtimes use a few more (cancelled); any other value is
// kept as written.
const (
	PlanPending    PlanStatus = "pending"
	PlanInProgress PlanStatus = "in_progress"
	PlanCompleted  PlanStatus = "completed"
	PlanCancelled  PlanStatus = "cancelled"
)

// Closed reports whether the status discharges the item.
func (s PlanStatus) Closed() bool { return s == PlanCompleted || s == PlanCancelled }

// PlanItem is one entry of a plan or todo list.
type PlanItem struct {
	ID     string
	Text   string
	Status PlanStatus
}

// Plan is a plan or todo-list update. It lists the items it mentions; an item
// not listed keeps its previous status.
type Plan struct {
	Base
	Items []PlanItem
}

// Kind implements Event.
func (*Plan) Kind() Kind { return KindPlan }

// CommitmentStatus is the status of an explicitly logged obligation.
type CommitmentStatus string

// Commitment statuses.
const (
	CommitmentOpen CommitmentStatus = "open"
	CommitmentDone CommitmentStatus = "done"
)

// CommitmentEvent is an obligation a runtime logged explicitly.
type CommitmentEvent struct {
	Base
	ID     string
	Text   string
	Status CommitmentStatus
}

// Kind implements Event.
func (*CommitmentEvent) Kind() Kind { return KindCommitment }

// SelfReport is what the compactor says about its own summary. It is never
// ground truth.
type SelfReport struct {
	// Retained lists item keys, ids or texts the compactor claims it kept.
	Retained []string
	// Dropped lists what it says it dropped.
	Dropped []string
	// Claim is its free-text claim ("decisions and open items preserved").
	Claim string
}

// Compaction is one lossy summarization: at Turn it replaced the agent's whole
// context with Summary.
type Compaction struct {
	Base
	Seq     int
	Trigger string
	Summary string
	// SelfReport is nil when the compactor reported nothing (most runtimes).
	SelfReport   *SelfReport
	TokensBefore int
	TokensAfter  int
	// Opaque marks a summary that cannot be read (encrypted server-side
	// compaction); Summary then holds whatever placeholder the runtime kept.
	Opaque bool
	// Kept lists the refs or call ids of source events the runtime carried
	// into the new context verbatim (Claude Code preserved segments, the
	// retained tail of some runtimes). They are not lost.
	Kept []string
}

// Kind implements Event.
func (*Compaction) Kind() Kind { return KindCompaction }

// Raw is a line loupe could not map: an unknown type (kept, never dropped), a
// line that does not parse, or a record an importer did not understand.
type Raw struct {
	Base
	// Type is the line's "type" field when there is one.
	Type string
	// JSON is the line as written.
	JSON Text
	// Problem is set when the line is broken; nil for a well-formed line of an
	// unknown type.
	Problem *Problem
	// Reason says why an importer left the record unmapped.
	Reason string
}

// Kind implements Event.
func (*Raw) Kind() Kind { return KindRaw }
