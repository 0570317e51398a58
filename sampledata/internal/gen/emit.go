package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// Cue words, as the verifier reads them (DESIGN.md). The emitter refuses a
// user message with a constraint cue that is not declared a rule, and an
// assistant message with commitment phrasing that is not declared a
// commitment, so every item the verifier can extract is one the ledger tracks.
var (
	constraintCue = regexp.MustCompile(`(?i)\b(always|never|don't|do not|must|make sure|from now on)\b`)
	commitmentCue = regexp.MustCompile(`(?i)\b(i will|i'll|will|next i need to|need to|needs to|still have to|have to|todo|let me|going to|plan to)\b|remaining:`)
)

// emitter appends events to a run, keeping turns, timestamps, call ids and the
// ledger of open items in step.
type emitter struct {
	name   string
	rng    *rand.Rand
	w      *world
	led    ledger
	events []model.Event
	turn   int
	clock  time.Time
	ids    map[string]bool
	calls  []callRec
	span   span
	// agentPlan is the todo list as the agent knows it, in the order it
	// writes it out; an item it forgot (lost to a compaction) is not listed.
	agentPlan []*item
	prev      string // the summary in force
	history   []fact // facts of the spans before the current one
	truth     *Planted
	goal      string   // the user's request, as summaries restate it
	concepts  []string // key technical concepts, as summaries list them
	vet       bool     // the user asked for go vet before every commit
	pushed    string   // the last commit pushed, "" before the first push
	// grepSymbols are the names the agent's idle searches pick from.
	grepSymbols []string
	// lastLog is the number of commits when the agent last looked at the
	// history, so it does not look twice at the same one.
	lastLog int
}

type callRec struct {
	id, name, target, input string
	turn                    int
	at                      time.Time
}

// fact is a line for the summaries: something that happened and is done.
type fact struct {
	turn  int
	text  string
	major bool // carried into later summaries' history
}

// touch is a file the agent read or changed.
type touch struct{ path, action string }

// fixRec is an error that was resolved within a span.
type fixRec struct {
	lines []string
	fix   string
}

// span collects what happened since the previous compaction.
type span struct {
	bytes   int // message text + tool input JSON + tool output text
	users   []string
	facts   []fact
	files   []touch
	fixed   []fixRec
	changed []string // "path#block" changed, for code excerpts
	actions []string // commands run and their outcome, for recent actions
}

// action records a command's outcome for the summaries.
func (e *emitter) action(format string, args ...any) {
	a := fmt.Sprintf(format, args...)
	for i, old := range e.span.actions {
		if old == a { // keep the latest of repeated outcomes
			e.span.actions = append(e.span.actions[:i], e.span.actions[i+1:]...)
			break
		}
	}
	e.span.actions = append(e.span.actions, a)
}

func newEmitter(name string, seed uint64, start time.Time, w *world) *emitter {
	return &emitter{
		name:  name,
		rng:   rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		w:     w,
		clock: start,
		ids:   map[string]bool{},
		truth: &Planted{Run: name},

		grepSymbols: append([]string(nil), defaultSymbols...),
	}
}

// base returns the header of a new event: a new turn unless same is set.
func (e *emitter) base(same bool, d time.Duration) model.Base {
	if !same || e.turn == 0 {
		e.turn++
	}
	if d <= 0 {
		d = time.Duration(3+e.rng.IntN(25)) * time.Second
	}
	e.clock = e.clock.Add(d)
	return model.Base{Turn: e.turn, TS: e.clock.UTC().Format(time.RFC3339)}
}

func (e *emitter) add(ev model.Event) { e.events = append(e.events, ev) }

// user writes a user message that is not a standing rule.
func (e *emitter) user(text string) {
	if constraintCue.MatchString(text) {
		panic(fmt.Sprintf("%s: user message has a constraint cue but is not a rule: %q", e.name, text))
	}
	e.userMsg(text)
}

// rule writes a user message that is a standing rule; every later summary
// restates it verbatim.
func (e *emitter) rule(text string) {
	if !constraintCue.MatchString(text) {
		panic(fmt.Sprintf("%s: rule without a constraint cue: %q", e.name, text))
	}
	e.userMsg(text)
	for _, s := range cueSentences(text) {
		e.led.add(&item{kind: kConstraint, key: s, text: s, msg: text, turn: e.turn})
	}
}

// cueSentences returns the sentences of a rule that carry a constraint cue
// ("Never push to main."): the instructions the verifier extracts, one item
// each.
func cueSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		last := i == len(text)-1
		if last || strings.IndexByte(".!?", text[i]) >= 0 && text[i+1] == ' ' {
			if s := strings.TrimSpace(text[start : i+1]); constraintCue.MatchString(s) {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	return out
}

func (e *emitter) userMsg(text string) {
	e.add(&model.Message{Base: e.base(false, time.Duration(20+e.rng.IntN(200))*time.Second), Role: model.RoleUser, Text: text})
	e.span.bytes += len(text)
	e.span.users = append(e.span.users, text)
}

// say writes an assistant message that commits to nothing.
func (e *emitter) say(text string) {
	if commitmentCue.MatchString(text) {
		panic(fmt.Sprintf("%s: assistant message has commitment phrasing: %q", e.name, text))
	}
	e.assistant(text)
}

func (e *emitter) assistant(text string) {
	e.add(&model.Message{Base: e.base(false, 0), Role: model.RoleAssistant, Text: text})
	e.span.bytes += len(text)
}

// promise writes an assistant message whose sentence it.text is a commitment
// and opens it in the ledger. The rest of the message commits to nothing.
func (e *emitter) promise(text string, it *item) *item {
	if !strings.Contains(text, it.text) || !commitmentCue.MatchString(it.text) {
		panic(fmt.Sprintf("%s: promise %q does not carry commitment %q", e.name, text, it.text))
	}
	if rest := strings.Replace(text, it.text, "", 1); commitmentCue.MatchString(rest) {
		panic(fmt.Sprintf("%s: promise has a second commitment: %q", e.name, rest))
	}
	e.assistant(text)
	it.kind, it.turn = kCommitment, e.turn
	if it.key == "" {
		it.key = it.text
	}
	return e.led.add(it)
}

// claim closes commitment it: a tool call after it carried out the action
// (its input names it.object), and now the agent says it is done.
func (e *emitter) claim(it *item, text string) {
	if !e.calledSince(it.turn, it.object) {
		panic(fmt.Sprintf("%s: claim %q: no call since turn %d names %q", e.name, text, it.turn, it.object))
	}
	e.say(text)
	e.led.close(it, e.turn)
}

// calledSince reports whether a tool call after turn has object in its input.
func (e *emitter) calledSince(turn int, object string) bool {
	object = strings.ToLower(object)
	for _, c := range e.calls {
		if c.turn > turn && strings.Contains(strings.ToLower(c.input), object) {
			return true
		}
	}
	return false
}

// newID returns a fresh call id: call_ and six hex digits, so no id is a
// prefix of another.
func (e *emitter) newID() string {
	for {
		id := fmt.Sprintf("call_%06x", e.rng.Uint32()&0xffffff)
		if !e.ids[id] {
			e.ids[id] = true
			return id
		}
	}
}

// reserve keeps a planted id out of newID's reach.
func (e *emitter) reserve(id string) { e.ids[id] = true }

// call writes a tool call and opens its handle. target is the command or path
// the call works on; errors close when the same tool succeeds on it.
func (e *emitter) call(name, target, input string) string {
	return e.callID(e.newID(), name, target, input, false)
}

func (e *emitter) callID(id, name, target, input string, same bool) string {
	e.add(&model.ToolCall{Base: e.base(same, 0), ID: id, Name: name, Input: model.NewText(input)})
	e.calls = append(e.calls, callRec{id: id, name: name, target: target, input: input, turn: e.turn, at: e.clock})
	e.span.bytes += len(input)
	e.led.add(&item{kind: kHandle, key: id, text: target, restate: id + " (" + target + ")", needle: id, turn: e.turn, tool: name, target: target})
	return id
}

// result writes the result of call id. A failure opens an error; a success
// closes the errors of the same tool on the same target.
func (e *emitter) result(id string, isErr bool, out string, d time.Duration) {
	// The result comes d after its call, or just after the previous event
	// when other events happened meanwhile (a call in the background).
	for i := len(e.calls) - 1; i >= 0; i-- {
		if c := e.calls[i]; c.id == id {
			if done := c.at.Add(d); done.After(e.clock) {
				d = done.Sub(e.clock)
			} else {
				d = time.Duration(1+e.rng.IntN(5)) * time.Second
			}
			break
		}
	}
	e.add(&model.ToolResult{Base: e.base(false, d), ID: id, IsError: isErr, Text: model.NewText(out)})
	e.span.bytes += len(out)
	h := e.led.find(kHandle, id)
	if h == nil {
		panic(e.name + ": result for unknown call " + id)
	}
	e.led.close(h, e.turn)
	if isErr {
		lines := errorLines(out)
		e.led.add(&item{
			kind: kError, key: id + " " + lines[len(lines)-1], text: lines[len(lines)-1],
			restate: strings.Join(lines, "\n"), needle: lines[0], turn: e.turn, tool: h.tool, target: h.target, lines: lines,
			words: []string{lines[len(lines)-1]},
		})
		return
	}
	e.led.closeErrors(h.tool, h.target, e.turn)
}

// tool writes a call and its result on the next turn.
func (e *emitter) tool(name, target, input, out string, isErr bool, d time.Duration) string {
	id := e.call(name, target, input)
	e.result(id, isErr, out, d)
	return id
}

// errorLines returns the lines a summary quotes for a failed result: the
// first line, and the one after it when the first is only a package header
// ("# github.com/...") or a test's FAIL line.
func errorLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		lines = append(lines, l)
		if len(lines) == 2 || !(strings.HasPrefix(l, "#") || strings.HasPrefix(l, "--- FAIL")) {
			break
		}
	}
	return lines
}

// planItem adds an entry to the agent's todo list (not yet written out).
func (e *emitter) planItem(id, text string, words ...string) *item {
	it := e.led.add(&item{kind: kPlan, key: id, text: text, status: "pending", words: words})
	e.agentPlan = append(e.agentPlan, it)
	return it
}

// planWrite sets statuses ("id=status") and writes the whole todo list as
// the agent knows it, on the turn of the previous event.
func (e *emitter) planWrite(changes ...string) {
	for _, ch := range changes {
		id, status, _ := strings.Cut(ch, "=")
		it := e.led.find(kPlan, id)
		if it == nil {
			panic(e.name + ": plan write of unknown item " + id)
		}
		switch status {
		case "completed":
			e.led.close(it, e.turn)
		case "pending", "in_progress":
			if !it.open() {
				panic(e.name + ": plan item reopened: " + id)
			}
			it.status = status
		default:
			panic("bad plan status " + status)
		}
		if !containsItem(e.agentPlan, it) {
			e.agentPlan = append(e.agentPlan, it)
		}
	}
	p := &model.Plan{Base: e.base(true, time.Second)}
	for _, it := range e.agentPlan {
		if it.turn == 0 {
			it.turn = e.turn
		}
		p.Items = append(p.Items, model.PlanItem{ID: it.key, Text: it.text, Status: model.PlanStatus(it.status)})
	}
	e.add(p)
}

// forget drops a plan entry from what the agent writes out (it was lost to a
// compaction); its status in the source stays as it was.
func (e *emitter) forget(id string) {
	for i, it := range e.agentPlan {
		if it.key == id {
			e.agentPlan = append(e.agentPlan[:i], e.agentPlan[i+1:]...)
			return
		}
	}
}

func containsItem(list []*item, it *item) bool {
	for _, x := range list {
		if x == it {
			return true
		}
	}
	return false
}

// fact records a finished piece of work for the summaries.
func (e *emitter) fact(text string, major bool) {
	e.span.facts = append(e.span.facts, fact{turn: e.turn, text: text, major: major})
}

func (e *emitter) touched(path, action string) {
	for i, t := range e.span.files {
		if t.path == path {
			if rank(action) > rank(t.action) {
				e.span.files[i].action = action
			}
			return
		}
	}
	e.span.files = append(e.span.files, touch{path, action})
}

func rank(action string) int {
	return strings.Index("READ MODIFIED CREATED", action)
}

// in builds a tool input: a JSON object of the given key, value pairs in
// order. Values are strings, ints or bools.
func in(kv ...any) string {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(kv[i].(string)))
		b.WriteByte(':')
		switch v := kv[i+1].(type) {
		case string:
			b.WriteString(jsonString(v))
		case int:
			fmt.Fprint(&b, v)
		case bool:
			fmt.Fprint(&b, v)
		default:
			panic(fmt.Sprintf("in: %T", v))
		}
	}
	b.WriteByte('}')
	return b.String()
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
