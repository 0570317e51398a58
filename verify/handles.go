package verify

// Handles: tool calls whose result had not arrived at a compaction (the
// in-flight case), and asynchronous jobs a finished call started that had
// not completed. A handle is matched by its id, verbatim: the router needs
// it to re-attach the result. A result that arrives when the summary in
// force no longer carries its id is orphaned.

import (
	"fmt"
	"hash/maphash"
	"regexp"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// pending is a call awaiting its result, or a running job.
type pending struct {
	entry
	callID, jobID string // one of them
	// call is the call it comes from (for a job, the one that started
	// it): its intent and identifiers are read from it when a compaction
	// needs them, since most calls are answered long before one and a long
	// run has millions.
	call       *model.ToolCall
	in         *intent
	identsDone bool
	demoted    bool // replaced by an answered record (handles_answered.go)
}

// intent is what the call was doing, read on first use (see newIntent).
func (h *pending) intent() *intent {
	if h.in == nil {
		h.in = &intent{}
		if h.call != nil {
			*h.in = newIntent(parseCall(h.call))
		}
	}
	return h.in
}

// callText is what the call acts on, for its identifiers: its command,
// path and description, and for a call that is not a shell line or an
// edit (a chat message, a ticket, a PR body) the text fields of its input,
// which name ids ("Tracking in FIN-2207") as a command line does. ok is
// false for a job.
func (h *pending) callText() (what string, ok bool) {
	if h.callID == "" || h.call == nil {
		return "", false
	}
	ci := parseCall(h.call)
	what = ci.command + " " + ci.path + " " + ci.about
	if ci.command == "" && ci.category != toolEdit && ci.input != "" {
		what += " " + strings.Join(inputStrings(ci.input, 4096), " ")
	}
	return what, true
}

func (h *pending) ref() string {
	if h.callID != "" {
		return h.callID
	}
	return h.jobID
}

func (h *pending) weighs(term string) bool { return h.intent().atom().weights[term] > 0 }

// handleTracker is the handle tracker.
type handleTracker struct {
	l      *ledger
	byCall map[string]*pending
	byJob  map[string]*pending
	// closed indexes answered handles by id, for the resurrection check:
	// id -> the latest closed of each wording.
	closed map[string][]*pending
	// origins holds one "tool call NAME" per tool.
	origins map[string]string
	// answered are the demoted handles in the order they were made, and
	// answeredBy indexes the live ones by a hash of their id (idKey).
	answered   answeredList
	answeredBy map[uint64]int32
	seed       maphash.Seed
	// answeredKept holds the calls of the answered handles when the
	// transcript cannot give them back (see answeredCall).
	answeredKept map[int32]*model.ToolCall
}

func (h *handleTracker) init(l *ledger) {
	h.l = l
	h.byCall = map[string]*pending{}
	h.byJob = map[string]*pending{}
	h.closed = map[string][]*pending{}
	h.origins = map[string]string{}
	h.answeredBy = map[uint64]int32{}
	h.seed = maphash.MakeSeed()
	h.answeredKept = map[int32]*model.ToolCall{}
}

// call opens the handle of a tool call.
func (h *handleTracker) call(c *model.ToolCall, ci *callInfo) {
	p := h.newPending(c, ci)
	h.l.opened(p)
	h.byCall[c.ID] = p
	if len(h.byJob) > 0 && stopsJobs(c.Name) {
		h.stopping(c, ci)
	}
}

// killedBy closes the open jobs a successful pkill or killall matches
// ("pkill -f 'ssh .*100\.100\.218\.64'" ends the exec session that ran
// that ssh): the pattern is matched against the command that started the
// job, as pkill -f matches a process's command line.
func (h *handleTracker) killedBy(r *model.ToolResult, info *callInfo) {
	if info == nil || r.IsError || len(h.byJob) == 0 || info.command == "" || !strings.Contains(info.command, "kill") {
		return
	}
	for _, c := range lang.Commands(info.command) {
		if c.Program != "pkill" && c.Program != "killall" {
			continue
		}
		args := lang.PlainArgs(c.Args)
		if len(args) == 0 || strings.HasPrefix(args[len(args)-1], "-") {
			continue
		}
		pat := args[len(args)-1] // "-f" takes no value: the pattern is last
		re, err := regexp.Compile(pat)
		for id, p := range h.byJob {
			if !p.item.Open || p.call == nil || r.Index <= p.item.Event {
				continue
			}
			started := string(p.call.Input.Head())
			if err == nil && re.MatchString(started) || err != nil && strings.Contains(started, pat) {
				h.l.close(p, r, fmt.Sprintf("job %s killed by `%s` at turn %d", id, model.Clip(info.command, 80), r.Turn))
				h.l.commitments.jobsFinished()
			}
		}
	}
}

// stopsJobs reports whether a tool, by its name, stops a background job
// (Claude Code's KillShell, KillBash, TaskStop, KillTask).
func stopsJobs(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "kill") || strings.HasSuffix(l, "stop")
}

// stopping closes the open jobs a stop call names when the call is made:
// the stop is the agent's last word on the job, and the runtime carries it
// out whether or not its result reached the file before a compaction
// ("TaskStop bb6fcdc" as the last call, its result never written). The
// call itself stays a handle until its result arrives.
func (h *handleTracker) stopping(c *model.ToolCall, ci *callInfo) {
	for id, p := range h.byJob {
		if p.item.Open && c.Index > p.item.Event && lang.FindBounded(ci.input, id, lang.IsIdentByte, lang.IsIdentByte, false) >= 0 {
			h.l.close(p, c, fmt.Sprintf("job stopped by %s at turn %d", c.Name, c.Turn))
			h.l.commitments.jobsFinished()
		}
	}
}

// newPending makes the handle of a call: made when the call is read, and
// again, the same, when a summary or a self-report names an answered call
// that was demoted (see answered).
func (h *handleTracker) newPending(c *model.ToolCall, ci *callInfo) *pending {
	what := ci.command
	if what == "" {
		what = ci.path
	}
	if what == "" {
		what = model.Clip(strings.Join(strings.Fields(ci.input), " "), 120)
	}
	origin, ok := h.origins[c.Name]
	if !ok {
		origin = "tool call " + c.Name
		h.origins[c.Name] = origin
	}
	it := &Item{Kind: Handle, Key: c.ID, Text: model.Clip(c.Name+": "+what, 200), Turn: c.Turn, Event: c.Index,
		Origin: origin, Evidence: what}
	it.ID = "handle:" + c.ID
	it.setBasis(Recorded, "call with no result")
	return &pending{entry: entry{item: it}, callID: c.ID, call: c}
}

// result closes the handle of the call a result answers.
func (h *handleTracker) result(r *model.ToolResult) {
	if p := h.byCall[r.ID]; p != nil && p.item.Open {
		h.orphanCheck(p, r)
		h.l.close(p, r, resultArrived(r))
	}
}

func resultArrived(r *model.ToolResult) string { return arrivedAt(r.Turn) }

func arrivedAt(turn int) string { return fmt.Sprintf("result arrived at turn %d", turn) }

// job follows the asynchronous job a result reports on: a running job is an
// open handle until a later result says it is done or killed.
func (h *handleTracker) job(r *model.ToolResult, info *callInfo) {
	j := r.Job
	if j == nil {
		h.killedBy(r, info)
		h.jobChecked(r, info)
		return
	}
	switch j.State {
	case model.JobRunning:
		if old := h.byJob[j.ID]; old != nil && old.item.Open {
			// A check of a running job whose output says it ended
			// ("<status>completed</status>", "exited with code 0")
			// ends it, whatever state the runtime logged.
			if r.Index > old.item.Event && jobEnded(r.Text.Head()) {
				h.orphanCheck(old, r)
				h.l.close(old, r, fmt.Sprintf("job reported ended by its output check at turn %d", r.Turn))
				h.l.commitments.jobsFinished()
			}
			return
		}
		it := &Item{Kind: Handle, Key: j.ID, Text: "job " + j.ID + " started by " + r.ID, Turn: r.Turn, Event: r.Index,
			Origin: "asynchronous job", Evidence: model.Clip(r.Text.Head(), 200)}
		it.ID = "handle:job:" + j.ID
		it.setBasis(Recorded, "job started, never seen finished")
		p := &pending{entry: entry{item: it}, jobID: j.ID}
		if info != nil {
			p.call = info.call
		}
		h.l.opened(p)
		h.byJob[j.ID] = p
	case model.JobDone, model.JobKilled:
		if p := h.byJob[j.ID]; p != nil {
			h.orphanCheck(p, r)
			h.l.close(p, r, fmt.Sprintf("job %s at turn %d", j.State, r.Turn))
			h.l.commitments.jobsFinished()
		}
	}
}

// jobEndedRe finds a job output check's report that the job ended.
var jobEndedRe = lang.LazyRegexp(`(?im)<status>\s*(?:completed|complete|exited|done|finished|failed|killed)\s*</status>|^\s*status:\s*(?:completed|complete|exited|done|finished|failed)\b|\bprocess exited\b|\bexited with (?:code|status)\s+-?\d+|^\s*\[(?:done|completed|exited)\]`)

// jobEnded reports whether an output check says its job ended.
func jobEnded(text string) bool { return jobEndedRe.MatchString(text) }

// jobChecked closes an open job that a call without a job record checked
// (its input names the job's id) when the output says the job ended.
func (h *handleTracker) jobChecked(r *model.ToolResult, info *callInfo) {
	if info == nil || len(h.byJob) == 0 || !jobEnded(r.Text.Head()) {
		return
	}
	for id, p := range h.byJob {
		if p.item.Open && r.Index > p.item.Event && lang.FindBounded(info.input, id, lang.IsIdentByte, lang.IsIdentByte, false) >= 0 {
			h.orphanCheck(p, r)
			h.l.close(p, r, fmt.Sprintf("job reported ended by %s at turn %d", r.ID, r.Turn))
			h.l.commitments.jobsFinished()
		}
	}
}

// running returns the jobs still running.
func (h *handleTracker) running() []*pending {
	var out []*pending
	for p := range openOf[*pending](h.l) {
		if p.item.Open && p.jobID != "" {
			out = append(out, p)
		}
	}
	return out
}

// orphanCheck: a late result (or job completion) for a handle that was open
// at a compaction must find its id in the summary then in force.
func (h *handleTracker) orphanCheck(p *pending, r *model.ToolResult) {
	l := h.l
	if p.lastSeen == 0 || l.inForce == nil {
		return
	}
	id := p.ref()
	if _, ok := l.inForce.findVerbatim(id); ok || kept(l.inForceComp, p.originRef, id) {
		return
	}
	l.res.Findings = append(l.res.Findings, RunFinding{
		Kind: OrphanedResult, Turn: r.Turn, Event: r.Index, Item: id, ItemID: p.item.ID, LostAt: p.firstLoss,
		OriginTurn: p.item.Turn, Text: resultQuote(r.Text.Head(), id),
		Why: fmt.Sprintf("the result of %s arrived at turn %d, but summary %d in force then does not carry its id", id, r.Turn, l.inForceComp.Seq),
	})
}

// spansOnly is what orphanCheck needs of the summary in force until the
// next compaction: its text and where its units are (findVerbatim). The
// tokens and term counts of a multi-megabyte summary are ten times its
// size, and the next summary is parsed while this one is in force.
//
// The units of old, the summary in force before (nil for none), are
// reused: it is dropped when this one comes into force, and a compaction
// every few events made a list each time. A list far larger than needed
// (a huge summary's) is left to the collector.
func spansOnly(d, old *doc) *doc {
	var units []unit
	if old != nil && cap(old.units) <= max(2*len(d.units), 64) {
		units = old.units[:0]
	}
	slim := &doc{text: d.text, units: slices.Grow(units, len(d.units))[:len(d.units)]}
	for i, u := range d.units {
		slim.units[i] = unit{Span: u.Span, section: u.section}
	}
	return slim
}

func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// indexClosed files an answered handle under its id. A call answered
// before any compaction checked it, whose id no other closed handle has
// (nearly every call of a long run), is demoted: the sweep keeps its event
// indexes only, not its item (see answered).
func (h *handleTracker) indexClosed(p *pending) {
	k := p.ref()
	ps := h.closed[k]
	// A hash taken by another id (once in billions) keeps p as an item.
	if _, taken := h.answeredBy[h.idKey(k)]; !taken && len(ps) == 0 && p.demotable() {
		h.demote(p)
		return
	}
	if j, ok := h.answeredOf(k); ok && h.textOf(j) == p.item.Text {
		// The later of two wordings replaces the earlier, as below.
		delete(h.answeredBy, h.idKey(k))
		h.materialize(j)
		ps = h.closed[k]
	}
	for i, o := range ps {
		if o.item.Text == p.item.Text {
			ps[i] = p
			return
		}
	}
	h.closed[k] = append(ps, p)
}

// closedNamedIn adds the answered handles whose id the summary names.
func (h *handleTracker) closedNamedIn(d *doc, add func(tracked)) {
	eachIDWord(d.text, func(w string) {
		if j, ok := h.answeredOf(w); ok {
			h.materialize(j)
		}
		for _, p := range h.closed[w] {
			add(p)
		}
	})
}

// match: the id must survive verbatim; the call's intent alone does not let
// the router re-attach its result.
func (h *pending) match(l *ledger, d *doc, ir *ItemResult) {
	if sp, ok := d.findVerbatim(h.ref()); ok && unitAt(d, sp.Start) >= 0 {
		ui := unitAt(d, sp.Start)
		ir.Score = 1
		ir.Evidence = &Evidence{Span: sp, Text: d.text[d.units[ui].Start:d.units[ui].End], Polarity: Neutral}
		if s := d.section(&d.units[ui]); s != nil {
			ir.Evidence.Section = s.Heading
		}
		lo, hi := tokRange(&d.units[ui], sp)
		if p, cue := d.polarity(&d.units[ui], -1, lo, hi); p == Done && cue != "" && !strings.HasPrefix(cue, "under") {
			ir.Status, ir.Evidence.Polarity = Flipped, Done
			ir.Why = fmt.Sprintf("the id is there, but the call is presented as finished (%s) while its result had not arrived", cue)
			return
		}
		ir.Status, ir.Why = Retained, "the id survives verbatim"
		return
	}
	ir.Status, ir.Why = Dropped, "the id is not in the summary"
	if best, ok := h.intent().findIn(d); ok {
		ir.Status = IntentOnly
		ir.Score = round2(best.containment)
		ir.Evidence = d.evidence(best, Neutral)
		ir.Why = "the summary says what the call was doing, but not its id: its result cannot be routed back"
	}
}

// resurrected: a summary that presents an answered call as still running.
func (h *pending) resurrected(d *doc) (ItemResult, bool) {
	ir := ItemResult{Item: h.item}
	sp, ok := d.findVerbatim(h.ref())
	ui := unitAt(d, sp.Start)
	if !ok || ui < 0 {
		return ir, false
	}
	if h.jobID != "" && h.call != nil && detaches(parseCall(h.call).command) {
		// "cargo run -- serve --port 3001 &; sleep 3; curl …" as a
		// background job: the job ends when the shell does, the server
		// it started lives on, and "still running" is true of it.
		return ir, false
	}
	u := &d.units[ui]
	lo, hi := tokRange(u, sp)
	if p, cue := d.polarity(u, -1, lo, hi); p == Pending {
		ir.Status, ir.Score = Resurrected, 1
		ir.Evidence = &Evidence{Span: sp, Text: d.text[u.Start:u.End], Polarity: Pending}
		ir.Why = fmt.Sprintf("its result arrived (%s) but the summary presents it as still running (%s)", h.item.ClosedBy, cue)
		return ir, true
	}
	return ir, false
}

// detaches reports whether a shell line leaves a process running after it
// returns: a command put in the background with a lone "&" (not "&&", not
// a redirect such as "2>&1" or "&>"), or nohup, setsid, disown.
func detaches(command string) bool {
	for i := 0; i < len(command); i++ {
		if command[i] != '&' {
			continue
		}
		prev, next := byte(' '), byte(' ')
		if i > 0 {
			prev = command[i-1]
		}
		if i+1 < len(command) {
			next = command[i+1]
		}
		if prev == '&' || next == '&' || prev == '>' || prev == '<' || next == '>' || prev == '|' {
			continue
		}
		return true
	}
	for _, w := range []string{"nohup ", "setsid ", "disown"} {
		if strings.Contains(command, w) {
			return true
		}
	}
	return false
}
