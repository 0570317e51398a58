package verify

// Tool calls and results in the sweep: handles open and close, errors open
// and resolve, and calls carry out commitments.

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// collectSHAs remembers the commit SHAs in s (a command, a result's head).
func (l *ledger) collectSHAs(s string) {
	lang.ScanHex(s, func(h string) {
		if !l.shaSeen[h] {
			l.shaSeen[h] = true
			l.shas = append(l.shas, h)
		}
	})
}

func (l *ledger) toolCall(i int, c *model.ToolCall) {
	ci := parseCall(c)
	l.calls[i] = ci
	l.collectSHAs(ci.command)
	what := ci.command
	if what == "" {
		what = ci.path
	}
	if what == "" {
		what = model.Clip(strings.Join(strings.Fields(ci.input), " "), 120)
	}
	it := &Item{Kind: Handle, Key: c.ID, Text: model.Clip(c.Name+": "+what, 200), Turn: c.Turn, Event: c.Index,
		Origin: "tool call " + c.Name, Evidence: what}
	it.ID = "handle:" + c.ID
	tr := l.add(it, lang.Action{})
	tr.callID = c.ID
	tr.intentSrc = intentSource(ci)
	tr.callWhat = ci.command + " " + ci.path // identifiers derived when a compaction needs them
	l.byCall[c.ID] = tr
	// Which open commitments could this call carry out?
	for _, ob := range l.open {
		if ob.item.Kind != Commitment || !ob.item.Open || ob.carried >= 0 {
			continue
		}
		sameTurn := c.Turn == ob.item.Turn && !ob.planned
		does := carries(ob.act, ob.files(), ci, false)
		switch {
		case does && l.meantForSibling(ob, ci):
			// Another open obligation with the same head is the one this
			// call names ("create_macro refund-approved", not refund-denied).
		case does:
			ob.carrying = append(ob.carrying, i)
		case actsOn(ob, ci, sameTurn):
			ob.working = append(ob.working, i)
		}
		if sameTurn && len(ob.carrying)+len(ob.working) > 0 {
			// Said and done in the same turn ("I'll add it next to the
			// header" with the edit beside it): narration of work under way.
			ob.durable = false
			ob.narrated = true
		}
	}
}

// actsOn reports whether a call that does not carry out a commitment still
// works on it: the agent is doing what it said, so once the call succeeds and
// the run moves on, nothing is owed.
func actsOn(ob *tracked, ci *callInfo, sameTurn bool) bool {
	switch {
	case (!ob.durable && !ob.planned && !ob.inPlan || sameTurn) && carries(ob.act, nil, ci, true):
		return true
	case sameTurn && !ob.durable && !ob.inPlan && ci.category != toolRead && compatible(ob.act.Verb, ci.category):
		// The one thing a message promised, and a change made in the same
		// response: the call is the promise being kept ("I'll do a full
		// rewrite of the renderer" with the Write of it).
		return true
	case sameTurn && ci.category == toolEdit && compatible(ob.act.Verb, toolEdit) && pronounObject(ob.act):
		// "I'll add it next to the header when annotations exist" with the
		// edit beside it: "it" is what the agent has in hand, and a
		// condition there says when the thing shows, not when to act.
		return true
	}
	return false
}

// pronounObject reports whether an action's object is a pronoun ("add it",
// "rewrite this"): it refers to what is in hand, not to a named thing.
func pronounObject(a lang.Action) bool {
	toks := lang.SkipLight(lang.Tokenize(a.Text))
	if len(toks) < 2 {
		return false
	}
	switch toks[1].Word {
	case "it", "this", "that", "them", "these", "those":
		return true
	}
	return false
}

// meantForSibling reports whether the call names a specific modifier of
// another open commitment with the same head and none of ob's own.
func (l *ledger) meantForSibling(ob *tracked, ci *callInfo) bool {
	for _, m := range ob.act.Mods() {
		if ci.hasTerm(m) {
			return false
		}
	}
	for _, o := range l.open {
		if o == ob || o.item.Kind != Commitment || !o.item.Open || o.act.Head != ob.act.Head {
			continue
		}
		for _, m := range o.act.Mods() {
			if ci.hasTerm(m) {
				return true
			}
		}
	}
	return false
}

func (l *ledger) toolResult(i int, r *model.ToolResult) {
	ci := l.t.Pairing().CallOf(i)
	if h := l.byCall[r.ID]; h != nil && h.item.Open {
		l.orphanCheck(h, r)
		l.close(h, r, fmt.Sprintf("result arrived at turn %d", r.Turn))
	}
	l.collectSHAs(r.Text.Head())
	info := l.calls[ci]
	delete(l.calls, ci) // a call has one result; keep memory bounded by what is in flight
	if info != nil {
		if failed(r) {
			if info.category != toolRead && !rejected(r) {
				l.newError(r, info)
			}
		} else {
			l.succeeded(ci, r, info)
		}
	}
	if j := r.Job; j != nil {
		switch j.State {
		case model.JobRunning:
			if old := l.byJob[j.ID]; old != nil && old.item.Open {
				break
			}
			it := &Item{Kind: Handle, Key: j.ID, Text: "job " + j.ID + " started by " + r.ID, Turn: r.Turn, Event: r.Index,
				Origin: "asynchronous job", Evidence: model.Clip(r.Text.Head(), 200)}
			it.ID = "handle:job:" + j.ID
			tr := l.add(it, lang.Action{})
			tr.jobID = j.ID
			if info != nil {
				tr.intentSrc = intentSource(info)
			}
			l.byJob[j.ID] = tr
		case model.JobDone, model.JobKilled:
			if tr := l.byJob[j.ID]; tr != nil {
				l.orphanCheck(tr, r)
				l.close(tr, r, fmt.Sprintf("job %s at turn %d", j.State, r.Turn))
			}
		}
	}
}

func (l *ledger) newError(r *model.ToolResult, info *callInfo) {
	if old := l.errByTgt[info.target]; old != nil && old.item.Open {
		l.close(old, r, fmt.Sprintf("superseded by a new failure of the same call at turn %d", r.Turn))
	}
	text := r.Text.Head()
	line := lang.FirstErrorLine(text + "\n" + r.Text.Tail())
	if line == "" {
		line = "exit status non-zero"
	}
	it := &Item{Kind: Error, Key: r.ID + ": " + line, Text: line, Turn: r.Turn, Event: r.Index,
		Origin: "failed " + info.name, Evidence: model.Clip(text, 400)}
	it.ID = "error:" + r.ID
	tr := l.add(it, lang.Action{})
	tr.callID, tr.target, tr.command = r.ID, info.target, info.command
	for v := range commandVerbs {
		if info.termSet()[v] {
			tr.verbs = append(tr.verbs, v)
		}
	}
	tr.errTokens = lang.ErrorTokens(line, text)
	tr.intentSrc = line
	tr.idents = lang.ExtractIdents(line)
	l.errByTgt[info.target] = tr
}

// succeeded closes errors of the same call and confirms the commitments the
// call carried out.
func (l *ledger) succeeded(ci int, r *model.ToolResult, info *callInfo) {
	if old := l.errByTgt[info.target]; old != nil && old.item.Open {
		l.close(old, r, fmt.Sprintf("the same call succeeded at turn %d (%s)", r.Turn, r.ID))
	}
	if info.command != "" {
		for _, e := range l.open {
			if e.item.Kind != Error || !e.item.Open {
				continue
			}
			switch {
			case e.command != "" && covers(info.command, e.command):
				l.close(e, r, fmt.Sprintf("%s succeeded at turn %d (%s)", info.command, r.Turn, r.ID))
			case e.command == "" && workaround(e.verbs, info):
				// A failed skill or sub-agent ("commit") done by hand instead.
				l.close(e, r, fmt.Sprintf("worked around: %s succeeded at turn %d (%s)", info.command, r.Turn, r.ID))
			}
		}
	}
	for _, ob := range l.open {
		if ob.item.Kind != Commitment || !ob.item.Open || ob.carried >= 0 {
			continue
		}
		for _, c := range ob.working {
			if c == ci {
				ob.worked = true
			}
		}
		for _, c := range ob.carrying {
			if c != ci {
				continue
			}
			ob.carried = ci
			if !ob.durable && !ob.planned {
				ob.carriedOut = true
				l.close(ob, r, fmt.Sprintf("carried out by %s (%s) at turn %d", r.ID, info.name, r.Turn))
			}
		}
	}
}

// intentSource is what a call was doing, in words: its command, or its
// path and tool name.
func intentSource(ci *callInfo) string {
	if ci.command != "" {
		return ci.command
	}
	return ci.path + " " + ci.name
}

// intentAtom is the atom of what a handle's call (or an error's line) says,
// built on first use: only items open at a compaction need it.
func (tr *tracked) intentAtom() atom {
	if !tr.intentDone {
		tr.intentDone = true
		tr.intent = newAtom(lang.Action{}, lang.WordTerms(tr.intentSrc)...)
	}
	return tr.intent
}

func termsOf(s string) []string { return lang.Terms(lang.Tokenize(s)) }

func condTerms(a lang.Action) []string { return termsOf(a.Condition) }

// files returns the files and URLs a commitment's action names, computed once.
func (tr *tracked) files() []string {
	if !tr.filesDone {
		tr.filesDone = true
		for _, id := range lang.ExtractIdents(tr.act.Text) {
			if id.Class == lang.ClassPath || id.Class == lang.ClassURL {
				tr.filesCache = append(tr.filesCache, id.Value)
			}
		}
	}
	return tr.filesCache
}

// callIdents are the identifiers a call's input names, from the fields that
// say what it acts on: URLs, PR and ticket numbers, commits, branches, and
// files (a path with an extension). Directory arguments ("./integration/...")
// describe what the call does rather than something it depends on.
func callIdents(what string) []lang.Ident {
	var out []lang.Ident
	for _, id := range lang.ExtractIdents(what) {
		if id.Class == lang.ClassPath && !lang.HasKnownExt(id.Value) {
			continue
		}
		out = append(out, id)
	}
	return out
}
