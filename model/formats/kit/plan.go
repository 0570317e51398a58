package kit

import (
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// PlanList tracks a todo list that the runtime always writes whole (Claude
// Code's TodoWrite, Codex's update_plan, OpenHands' task tracker): each
// update replaces the list. loupe's plan events only list what they mention
// and an item not listed keeps its status, so an item that was open and
// vanished from the new list is reported as cancelled: it is no longer an
// obligation of the agent.
type PlanList struct {
	order  []string
	status map[string]model.PlanStatus
	text   map[string]string
}

// Update takes the whole new list and returns the plan items to emit (nil
// when nothing changed).
func (p *PlanList) Update(items []model.PlanItem) []model.PlanItem {
	if p.status == nil {
		p.status = map[string]model.PlanStatus{}
		p.text = map[string]string{}
	}
	inNew := make(map[string]bool, len(items))
	changed := len(items) != len(p.order)
	for i, it := range items {
		inNew[it.ID] = true
		if i >= len(p.order) || p.order[i] != it.ID || p.status[it.ID] != it.Status || p.text[it.ID] != it.Text {
			changed = true
		}
	}
	if !changed {
		return nil
	}
	out := append([]model.PlanItem(nil), items...)
	for _, id := range p.order {
		if !inNew[id] && !p.status[id].Closed() {
			out = append(out, model.PlanItem{ID: id, Text: p.text[id], Status: model.PlanCancelled})
		}
	}
	p.order = p.order[:0]
	for _, it := range items {
		p.order = append(p.order, it.ID)
		p.status[it.ID] = it.Status
		p.text[it.ID] = it.Text
	}
	return out
}

// Same reports whether items is the list as it stands.
func (p *PlanList) Same(items []model.PlanItem) bool {
	if len(items) != len(p.order) {
		return false
	}
	for i, it := range items {
		if p.order[i] != it.ID || p.status[it.ID] != it.Status || p.text[it.ID] != it.Text {
			return false
		}
	}
	return true
}

// Status maps the status words runtimes use onto loupe's.
func Status(s string) model.PlanStatus {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "pending", "todo", "not_started", "open", "":
		return model.PlanPending
	case "in_progress", "in-progress", "inprogress", "active", "doing", "running":
		return model.PlanInProgress
	case "completed", "complete", "done", "resolved", "finished":
		return model.PlanCompleted
	case "cancelled", "canceled", "deleted", "removed", "skipped":
		return model.PlanCancelled
	}
	return model.PlanStatus(s)
}
