package claudecode

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// Tool results, and the plan updates some of them carry (TodoWrite,
// TaskCreate, TaskUpdate).

// resultText flattens a tool_result's content.
func resultText(c *fastjson.Value) string {
	var k kit.Composer
	composeResult(&k, c)
	return k.String()
}

// composeResult adds the flattened content of a tool result to k: a
// string as it is; blocks one per line, a text block's text or "[type]";
// any other value as its JSON.
func composeResult(k *kit.Composer, c *fastjson.Value) {
	if c == nil || k.Str(c) {
		return
	}
	for _, blk := range kit.Array(c) {
		if !k.Empty() {
			k.Lit("\n")
		}
		switch bt := kit.Str(blk, "type"); bt {
		case "text":
			k.Str(blk.Get("text"))
		default:
			k.Lit("[" + bt + "]")
		}
	}
	if k.Empty() && c.Type() != fastjson.TypeArray && c.Type() != fastjson.TypeNull {
		k.Lit(kit.JSON(c))
	}
}

// resultAt makes a tool result's text again from its line: the content of
// block i of the message.
func resultAt(i int) kit.Extract {
	key := strconv.Itoa(i)
	return func(line []byte) (string, error) {
		var p fastjson.Parser
		v, err := p.ParseBytes(line)
		if err != nil {
			return "", err
		}
		return resultText(v.Get("message", "content", key, "content")), nil
	}
}

// result returns the text of a tool result whose content is c, in block i
// of line l: on disk when it is large, measured without being decoded unless
// whole is set, in which case the whole text is returned too (else "").
func (e *emitter) result(c *fastjson.Value, i int, l kit.Line, whole bool) (model.Text, string) {
	k := &e.comp
	k.Reset()
	composeResult(k, c)
	if whole {
		s := k.String()
		return e.lazy.Text(l, s, resultAt(i)), s
	}
	return k.Text(e.lazy, l, resultAt(i)), ""
}

// toolResult maps the tool_result block i of line l. Its text is only read
// whole when needsText says so (job and planFromResult get "" otherwise).
func (e *emitter) toolResult(blk, tur *fastjson.Value, i int, l kit.Line) {
	id := kit.Str(blk, "tool_use_id")
	isErr := kit.Bool(blk, "is_error")
	call := e.calls[id]
	t, text := e.result(blk.Get("content"), i, l, needsText(call, isErr))
	res := &model.ToolResult{ID: id, IsError: isErr, Text: t}
	if j := e.job(call, text, isErr, tur); j != nil && !e.jobClosed[j.ID] {
		// (A read of a job that already ended reports nothing new.)
		res.Job = j
	}
	e.add(res)
	e.noteJob(id, res.Job)
	if call != nil && !isErr {
		e.planFromResult(call, text, tur)
	}
	if isErr {
		e.rejection(t)
	}
}

// A rejected call's result can carry what the user typed when refusing it
// ("...To tell you how to proceed, the user said:\nno, I did not say commit
// anything"): the user's own words, often a standing rule, which only this
// result holds.
const (
	rejectedPrefix = "The user doesn't want to "
	userSaid       = "the user said:\n"
)

// rejection adds the user's words a rejected call's result carries, as a
// user message after it.
func (e *emitter) rejection(t model.Text) {
	if !strings.HasPrefix(t.Head(), rejectedPrefix) {
		return
	}
	s, err := t.Load()
	if err != nil {
		return
	}
	i := strings.Index(s, userSaid)
	if i < 0 {
		return
	}
	if words := strings.TrimSpace(s[i+len(userSaid):]); words != "" {
		e.add(&model.Message{Role: model.RoleUser, Text: words})
	}
}

var taskCreatedRE = regexp.MustCompile(`Task #?([A-Za-z0-9_-]+) created`)

func (e *emitter) planFromResult(call *callInfo, text string, tur *fastjson.Value) {
	switch call.name {
	case "TodoWrite":
		if call.hasTodos {
			if upd := e.todo.Update(call.todos); len(upd) > 0 {
				e.add(&model.Plan{Items: upd})
			}
		}
	case "TaskCreate":
		id := kit.ID(tur, "task", "id")
		if id == "" {
			if m := taskCreatedRE.FindStringSubmatch(text); m != nil {
				id = m[1]
			}
		}
		if id == "" || call.subject == "" {
			return
		}
		e.taskText[id] = call.subject
		e.taskStatus[id] = model.PlanPending
		e.add(&model.Plan{Items: []model.PlanItem{{ID: id, Text: call.subject, Status: model.PlanPending}}})
	case "TaskUpdate":
		if call.taskID == "" || (call.status == "" && call.subject == "") {
			return
		}
		text := call.subject
		if text == "" {
			text = e.taskText[call.taskID]
		} else {
			e.taskText[call.taskID] = text
		}
		st := e.taskStatus[call.taskID]
		if call.status != "" {
			st = kit.Status(call.status)
		}
		if st == "" {
			st = model.PlanPending
		}
		e.taskStatus[call.taskID] = st
		e.add(&model.Plan{Items: []model.PlanItem{{ID: call.taskID, Text: text, Status: st}}})
	}
}

func todoItems(v *fastjson.Value) []model.PlanItem {
	var items []model.PlanItem
	for _, t := range kit.Array(v) {
		text := kit.Str(t, "content")
		if text == "" {
			text = kit.Str(t, "subject")
		}
		id := kit.ID(t, "id")
		if id == "" {
			id = text
		}
		items = append(items, model.PlanItem{ID: id, Text: text, Status: kit.Status(kit.Str(t, "status"))})
	}
	return items
}

// subagentTasks applies the task-list updates a sub-agent makes, seen in
// its progress records: since 2.1.17 the task list is shared, and a
// sub-agent often marks the task it was given completed. It reports
// whether the record held any.
func (e *emitter) subagentTasks(v *fastjson.Value) bool {
	data := v.Get("data")
	if kit.Str(data, "type") != "agent_progress" {
		return false
	}
	applied := false
	for _, c := range kit.Array(data.Get("message", "message", "content")) {
		if kit.Str(c, "type") != "tool_use" || kit.Str(c, "name") != "TaskUpdate" {
			continue
		}
		in := c.Get("input")
		id, status := kit.ID(in, "taskId"), kit.Str(in, "status")
		text, known := e.taskText[id]
		if id == "" || status == "" || !known {
			continue
		}
		st := kit.Status(status)
		if e.taskStatus[id] == st {
			continue
		}
		e.taskStatus[id] = st
		e.add(&model.Plan{Items: []model.PlanItem{{ID: id, Text: text, Status: st}}})
		applied = true
	}
	return applied
}
