package claudecode

import (
	"regexp"
	"slices"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// Background work in Claude Code: a Bash call with run_in_background, or an
// Agent (Task) call run in the background, returns at once with a job id
// (toolUseResult.backgroundTaskId / shellId, or isAsync with an agentId), and
// the job is an open handle until one of these says it ended:
//   - a read of it that finds it finished (BashOutput, TaskOutput, ...), or
//     a kill (KillShell, TaskStop, ...);
//   - the notice Claude Code writes when it ends (<task-notification>, or
//     <agent-notification> / <bash-notification> before 2.1), which arrives
//     in whichever record the version writes: a queue-operation enqueue
//     (logged when the job ends, while the agent is busy), a queued_command
//     attachment (folded into the running turn), or a user message.
// The first of these closes the handle; a later notice of the same job is
// context, not another result.

var (
	// The job a notice names: <task-id> (2.1.x), <agent-id> and <shell-id>
	// (the <agent-notification> and <bash-notification> of 2.0.x).
	noticeIDRE   = regexp.MustCompile(`<(?:task|agent|shell|bash)[-_]id>\s*([^<\s]+)\s*</(?:task|agent|shell|bash)[-_]id>`)
	taskIDRE     = regexp.MustCompile(`<task[-_]id>\s*([^<\s]+)\s*</task[-_]id>`)
	toolUseIDRE  = regexp.MustCompile(`<tool[-_]use[-_]id>\s*([^<\s]+)\s*</tool[-_]use[-_]id>`)
	jobStatusRE  = regexp.MustCompile(`<status>\s*([A-Za-z_]+)\s*</status>`)
	backgroundRE = regexp.MustCompile(`running in background with ID: ([A-Za-z0-9_-]+)`)
	asyncAgentRE = regexp.MustCompile(`(?s)^\s*Async agent launched successfully.*?agentId: ([A-Za-z0-9_-]+)`)
)

// Tools that read a background job's output, and tools that stop one, by
// the names Claude Code has given them.
var (
	jobReaders = map[string]bool{"BashOutput": true, "TaskOutput": true, "AgentOutputTool": true, "TaskOutputTool": true}
	jobKillers = map[string]bool{"KillShell": true, "KillBash": true, "TaskStop": true, "KillTask": true}
)

func jobState(s string) (model.JobState, bool) {
	switch strings.ToLower(s) {
	case "completed", "complete", "failed", "error", "done", "success", "succeeded", "exited", "finished":
		return model.JobDone, true
	case "killed", "cancelled", "canceled", "stopped", "terminated", "aborted":
		return model.JobKilled, true
	case "running", "pending", "in_progress", "started", "async_launched":
		return model.JobRunning, true
	}
	return "", false
}

// noticeTags open the notices Claude Code sends when a background job ends:
// <task-notification> since 2.1, <agent-notification> and
// <bash-notification> before.
var noticeTags = []string{"<task-notification>", "<agent-notification>", "<bash-notification>", "<shell-notification>"}

func isNotice(s string) bool {
	s = strings.TrimSpace(s)
	for _, t := range noticeTags {
		if strings.HasPrefix(s, t) {
			return true
		}
	}
	return false
}

// notice is what a <task-notification> says: the job (its task id), the
// call that started it (newer versions name it), and how it ended.
type notice struct {
	job, call string
	state     model.JobState
}

func parseNotice(s string) (notice, bool) {
	var n notice
	if m := noticeIDRE.FindStringSubmatch(s); m != nil {
		n.job = m[1]
	}
	if m := toolUseIDRE.FindStringSubmatch(s); m != nil {
		n.call = m[1]
	}
	if n.job == "" && n.call == "" {
		return n, false
	}
	n.state = model.JobDone
	if m := jobStatusRE.FindStringSubmatch(s); m != nil {
		if st, ok := jobState(m[1]); ok {
			n.state = st
		}
	}
	return n, true
}

// jobNotice maps the task notification text: a result that reports on the
// job, unless a read, a kill or an earlier notice already closed it, or
// (queued: a queue log, which may name jobs loupe never saw start) the job
// is not known. It reports whether it added the result.
func (e *emitter) jobNotice(text string, queued bool) bool {
	n, ok := parseNotice(text)
	if !ok {
		return false
	}
	id := n.job
	if id == "" {
		id = e.callJob[n.call]
	}
	if id == "" {
		id = n.call
	}
	call := e.jobCall[id]
	if e.jobClosed[id] || queued && call == "" {
		return false
	}
	if call == "" {
		call = n.call
	}
	if call == "" {
		call = id
	}
	r := &model.ToolResult{ID: call, Text: model.NewText(text), Job: &model.Job{ID: id, State: n.state}}
	e.add(r)
	e.noteJob(call, r.Job)
	return true
}

// noteJob remembers what a result said about a job.
func (e *emitter) noteJob(call string, j *model.Job) {
	if j == nil {
		return
	}
	if j.State == model.JobRunning {
		if e.jobCall[j.ID] == "" {
			e.jobCall[j.ID] = call
			e.callJob[call] = j.ID
		}
		return
	}
	e.jobClosed[j.ID] = true
}

// userText maps a user line whose content is a string.
func (e *emitter) userText(s string, meta bool) {
	if isNotice(s) {
		if e.jobNotice(s, false) {
			return
		}
		// A notice of a job already closed: what Claude Code told the
		// agent, not the user's words.
		meta = true
	}
	e.add(&model.Message{Role: userRole(s, meta), Text: s})
}

// queueOperation maps a queue-operation record: the log of what Claude Code
// queued while the agent was busy. A job's notice there means the job ended.
// A prompt the user typed meanwhile is queued (enqueue) and then either
// folded into the running turn (remove) — and then this log is the only
// place its words are written, though the agent read them (real sessions
// 2.1.19-2.1.42; the summaries list them among the user's messages) — or
// sent as a user line of its own (dequeue), or pulled back into the input
// box (popAll). So a queued prompt becomes a user message where it was
// removed. (A JSON content is a task's registration, and a slash command
// runs as its own lines.)
func (e *emitter) queueOperation(v *fastjson.Value) {
	c := kit.Str(v, "content")
	switch kit.Str(v, "operation") {
	case "enqueue":
		t := strings.TrimSpace(c)
		switch {
		case isNotice(t):
			e.jobNotice(c, true)
		case t != "" && !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "/"):
			e.queued = append(e.queued, c)
		}
	case "remove":
		if len(e.queued) > 0 {
			p := e.queued[0]
			e.queued = e.queued[1:]
			e.add(&model.Message{Role: userRole(p, false), Text: p})
			return
		}
	case "dequeue":
		if len(e.queued) > 0 {
			e.queued = e.queued[1:]
		}
	case "popAll":
		e.queued = nil
	}
	e.b.Skip("queue-operation")
}

// unqueue drops a queued prompt that reached the conversation in a record
// of its own (a queued_command attachment), so that its removal from the
// queue does not add it again.
func (e *emitter) unqueue(text string) {
	for i, q := range e.queued {
		if q == text {
			e.queued = slices.Delete(e.queued, i, i+1)
			return
		}
	}
}

// attachment maps an attachment line. A queued_command is a message folded
// into the running turn: a task notification, or a prompt typed while the
// agent worked (written with no user line of its own). A
// hook_additional_context is what a hook put into the agent's context (with
// loupe's hooks, its re-injected block): a system message naming the hook.
// Every other attachment is context or bookkeeping Claude Code adds around
// the conversation (the prompt snapshot, skill and tool listings, date,
// environment, token reminders...): skipped by its type and counted.
func (e *emitter) attachment(v *fastjson.Value, _ kit.Line) {
	a := v.Get("attachment")
	switch t := kit.Str(a, "type"); t {
	case "queued_command":
	case "hook_additional_context":
		e.hookContext(a)
		return
	case "":
		e.b.Skip("attachment (no type)")
		return
	default:
		e.b.Skip("attachment/" + t)
		return
	}
	text := summaryText(a.Get("prompt"))
	e.unqueue(text)
	if isNotice(text) && e.jobNotice(text, false) {
		return
	}
	meta := v.GetBool("isMeta") || kit.Bool(a, "isMeta") || isNotice(text)
	switch mode := kit.Str(a, "commandMode"); {
	case mode != "" && mode != "prompt":
		meta = true
	case a.Exists("origin") && kit.Str(a, "origin", "kind") != "human":
		// another session, an automatic continuation: not the user
		meta = true
	}
	e.add(&model.Message{Role: userRole(text, meta), Text: text})
}

// hookContext maps the text a hook added to the agent's context.
func (e *emitter) hookContext(a *fastjson.Value) {
	var parts []string
	if c := a.Get("content"); c != nil && c.Type() == fastjson.TypeArray {
		for _, x := range c.GetArray() {
			if s := kit.Str(x); s != "" {
				parts = append(parts, s)
			}
		}
	} else if s := kit.Str(a, "content"); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		e.b.Skip("attachment/hook_additional_context (empty)")
		return
	}
	hook := kit.Str(a, "hookName")
	if hook == "" {
		hook = kit.Str(a, "hookEvent")
	}
	e.add(&model.Message{Role: model.RoleSystem, Text: HookContextPrefix + hook + ":\n" + strings.Join(parts, "\n")})
}

// HookContextPrefix starts the system message made from a hook's
// additional context (a Claude Code hook_additional_context attachment), so
// that a reader, and the inspector, can tell what a hook (loupe's live
// gate, when its block) put back from what the runtime wrote.
const HookContextPrefix = "hook additional context from "

// needsText reports whether mapping a result of call reads its whole text:
// a background job's id, a polled job's status, a created task's number.
func needsText(call *callInfo, isErr bool) bool {
	if call == nil || isErr {
		return false
	}
	switch {
	case call.name == "Bash", call.name == "Task", call.name == "Agent":
		return call.background
	case jobReaders[call.name], call.name == "TaskCreate":
		return true
	}
	return false
}

// job reads what a result says about an asynchronous job.
func (e *emitter) job(call *callInfo, text string, isErr bool, tur *fastjson.Value) *model.Job {
	if tur != nil && tur.Type() == fastjson.TypeObject {
		for _, k := range []string{"backgroundTaskId", "shellId", "bashId"} {
			if id := kit.Str(tur, k); id != "" {
				return &model.Job{ID: id, State: model.JobRunning}
			}
		}
		if kit.Bool(tur, "isAsync") || kit.Str(tur, "status") == "async_launched" {
			if id := kit.Str(tur, "agentId"); id != "" {
				return &model.Job{ID: id, State: model.JobRunning}
			}
		}
	}
	if call == nil || isErr {
		return nil
	}
	switch {
	case call.background:
		// The line held several results, so toolUseResult could not
		// say which one it describes: the text names the job.
		for _, re := range []*regexp.Regexp{backgroundRE, asyncAgentRE} {
			if m := re.FindStringSubmatch(text); m != nil {
				return &model.Job{ID: m[1], State: model.JobRunning}
			}
		}
	case jobReaders[call.name]:
		id := call.jobRef
		if id == "" {
			if m := taskIDRE.FindStringSubmatch(text); m != nil {
				id = m[1]
			}
		}
		if id == "" {
			return nil
		}
		status := ""
		if m := jobStatusRE.FindStringSubmatch(text); m != nil {
			status = m[1]
		} else if tur != nil {
			if status = kit.Str(tur, "task", "status"); status == "" {
				status = kit.Str(tur, "status")
			}
		}
		if st, ok := jobState(status); ok {
			return &model.Job{ID: id, State: st}
		}
	case jobKillers[call.name]:
		if call.jobRef != "" {
			return &model.Job{ID: call.jobRef, State: model.JobKilled}
		}
	}
	return nil
}
