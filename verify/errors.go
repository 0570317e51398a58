package verify

// Errors: a failed tool call that is still the last word on its subject at
// a compaction. What a failure's output says went wrong is the language
// layer's (lang.FirstErrorLine, lang.ErrorTokens); here a failure opens,
// and is resolved by:
//   - a new failure of the same call (it supersedes the old one);
//   - a later success of the same call, or of a command that covers it (the
//     same program and subcommand over the same or a wider set of targets);
//   - a failed skill or sub-agent done by hand (a shell command with its
//     verb: "git commit" after a failed "commit" skill);
//   - a completed plan step that names it.
// A failed read-only call and a call the user rejected never open one.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// failure is an unresolved (or resolved) error.
type failure struct {
	entry
	callID   string       // the failing call's id
	target   string       // tool + target: what "the same call again" means
	command  string       // the failed shell command, when it was one
	key      lang.Command // the command of that line that failed (see lang.KeyCommand)
	tool     string       // the tool's name
	category toolCategory
	path     string // the file the call targeted, when there was one
	// missingProgram: the failure says the program is not installed.
	missingProgram bool
	about          string   // what a non-shell call was for (a task's description)
	verbs          []string // command verbs a failed non-shell call was for ("commit")
	errTokens      []string // the words that identify the failure (test, file, symbol)
	intent         intent   // the error line, for a summary that names no token
	// Computed once when it opens, for every success it is compared with:
	// the error line is a usage error or says its target is missing; the
	// tests and files it names (subjects) and their last path segments.
	usage, notFound bool
	subjs, subjLast []string
	seq             int // creation order (see failureIndex)
	// goal and program: what the failed command was for and the program
	// that failed (errors_behind.go).
	goal, program string
	inner         lang.Command // the command run inside a container, or the command itself
}

func (f *failure) ref() string             { return f.callID }
func (f *failure) weighs(term string) bool { return f.intent.atom().weights[term] > 0 }

// errorTracker is the error tracker.
type errorTracker struct {
	l        *ledger
	byTarget map[string]*failure
	open     failureIndex
	// closed indexes resolved errors by the first term of each identifying
	// token, for the resurrection check: term -> wording -> latest closed.
	closed map[string]map[string]*failure
	behind behind // what sees the run move on (errors_behind.go)
}

func (e *errorTracker) init(l *ledger) {
	e.l = l
	e.byTarget = map[string]*failure{}
	e.open.init()
	e.closed = map[string]map[string]*failure{}
}

// failed opens the error of a failed call, superseding an open failure of
// the same call.
func (e *errorTracker) failed(r *model.ToolResult, info *callInfo) {
	if old := e.byTarget[info.target]; old != nil && old.item.Open {
		e.l.close(old, r, fmt.Sprintf("superseded by a new failure of the same call at turn %d", r.Turn))
	}
	text := r.Text.Head()
	line, tokens, idents := e.l.failureOf(r)
	if run := strings.TrimSpace(info.key.Program + " " + strings.Join(lang.PlainArgs(info.key.Args), " ")); run != "" && !lang.SaysWhatFailed(line) {
		// No line of the output says what went wrong ("• turbo 2.8.9", a
		// banner): the failure is the command's, named as the agent and
		// a summary name it.
		line = "`" + model.Clip(run, 160) + "` failed"
		tokens = []string{run}
		idents = lang.ExtractIdents(run)
	}
	it := &Item{Kind: Error, Key: r.ID + ": " + line, Text: line, Turn: r.Turn, Event: r.Index,
		Origin: "failed " + info.name, Evidence: model.Clip(text, 400)}
	it.ID = "error:" + r.ID
	it.setBasis(Stated, "failure still the last word on its subject")
	if p := shellSyntax(text); p != "" {
		// "bash: -c: line 6: syntax error near unexpected token `('": the
		// shell could not read the line, so nothing it held ran; the
		// agent writes it again, and the work is owed as work, not as
		// this failure.
		it.setBasis(Inferred, fmt.Sprintf("the shell could not parse the command (‘%s’): nothing ran", p))
	} else if g := matchedNothing(info, line, text); g != "" {
		// "curl … | grep -oP '<title>'" printing 302, "grep -n 'def stop'
		// $(bundle show docker-api)/…": grep exits 1 when no line matches.
		// The search found nothing; no work failed.
		it.setBasis(Inferred, fmt.Sprintf("%s matched nothing (its exit status 1), and no line says what failed", g))
	} else if p := precondition(text); p != "" {
		// Claude Code refuses an edit of a file not read: the edit never ran, and the agent reads and edits again
		// or reaches the change another way (a formatter's --fix).
		it.setBasis(Inferred, fmt.Sprintf("the runtime's precondition for an edit (‘%s’), not a failure of the work", p))
	}
	if info.category == toolEdit {
		// A failed edit's output echoes the text it tried to replace: the
		// failure is about the file, not about the words of that text.
		tokens = lang.ErrorTokens(line, line)
		if info.path != "" {
			tokens = lang.AppendUnique(tokens, info.path)
		}
	}
	// Copies: a token may be a piece of the output (a test's name), and an
	// error that stays open would keep the whole output for it.
	for i := range tokens {
		tokens[i] = strings.Clone(tokens[i])
	}
	f := &failure{entry: entry{item: it, idents: idents}, callID: r.ID, target: info.target,
		command: info.command, key: info.key, tool: info.name, category: info.category, path: info.path,
		missingProgram: missingProgram(line), errTokens: tokens, intent: intent{src: line}}
	if info.command == "" {
		f.about = info.intentText()
	}
	for v := range commandVerbs {
		if info.termSet()[v] {
			f.verbs = append(f.verbs, v)
		}
	}
	f.usage, f.notFound = usageError(line), notFound(line)
	f.subjs = f.subjects()
	for _, s := range f.subjs {
		f.subjLast = append(f.subjLast, lastSegment(s))
	}
	e.l.opened(f)
	if it.Basis == Stated {
		e.l.commitments.failedAfter(text)
	}
	e.byTarget[info.target] = f
	e.open.add(f)
	e.behind.opened(f, info)
}

// succeeded resolves the errors a successful call answers: the same call,
// another run of the failed command or a variant of it, another edit of a
// file whose edit failed, or the work a failed skill was for.
func (e *errorTracker) succeeded(r *model.ToolResult, info *callInfo) {
	if old := e.byTarget[info.target]; old != nil && old.item.Open {
		e.l.close(old, r, fmt.Sprintf("the same call succeeded at turn %d (%s)", r.Turn, r.ID))
	}
	cands := e.open.candidates(info)
	if indexCheck != nil {
		e.checkCandidates(cands, info)
	}
	for _, f := range cands {
		if why := f.resolvedBy(info); why != "" {
			e.l.close(f, r, fmt.Sprintf("%s at turn %d (%s)", why, r.Turn, r.ID))
		}
	}
	e.succeededElsewhere(r, info)
}

// closeNamedBy closes the open errors a completed plan step names ("Fix
// TestCreateOrder").
func (e *errorTracker) closeNamedBy(step string, ev model.Event) {
	for f := range openOf[*failure](e.l) {
		if !f.item.Open {
			continue
		}
		for _, tok := range f.errTokens {
			if strings.Contains(step, tok) {
				e.l.close(f, ev, fmt.Sprintf("plan step “%s” completed at turn %d", step, ev.Header().Turn))
				break
			}
		}
	}
}

// workaround reports whether a successful shell command does what a failed
// non-shell call (a skill, a sub-agent) was for: "git commit" after a failed
// "commit" skill.
func workaround(verbs []string, ok *callInfo) bool {
	for _, v := range verbs {
		if ok.termSet()[v] {
			return true
		}
	}
	return false
}

// failed reports whether a result is a failure: is_error, or, for a shell
// command, a non-zero exit status reported in its text. A sub-agent's
// report that quotes an exit code is prose about other commands.
func failed(r *model.ToolResult, info *callInfo) bool {
	if r.IsError {
		return true
	}
	if info != nil && info.command == "" && info.category != toolExec {
		return false
	}
	// Runtimes report the exit status at the start (Codex: "Exit code: 1")
	// or the end of an output: its first and last kilobyte are enough.
	head, tail := r.Text.Head(), r.Text.Tail()
	if tail == "" && len(head) > 2048 {
		head, tail = head[:lang.CutUTF8(head, 1024)], head[len(head)-1024:]
	}
	for _, part := range []string{head, tail} {
		if !lang.ContainsFoldASCII(part, "exit") {
			continue // the regular expression is the slow part: most outputs say nothing of exits
		}
		for _, m := range lang.ExitCodeRe.FindAllStringSubmatch(part, -1) {
			if m[1] != "0" {
				return true
			}
		}
	}
	return false
}

// rejected reports whether a failed result is the user, a hook or the
// runtime declining or interrupting the call rather than the call failing:
// nothing to resolve.
func rejected(r *model.ToolResult) bool {
	h := strings.ToLower(r.Text.Head())
	for _, p := range []string{"doesn't want to proceed with this tool use", "tool use was rejected", "request interrupted by user",
		"user rejected", "user denied", "permission denied by user", "user declined", "aborted by user", "cancelled by user", "canceled by user",
		// Claude Code's harness: a parallel call failed, so this one never
		// ran; a hook declined the call.
		"sibling tool call errored", "hook error:", "blocked by hook", "pretooluse:", "operation blocked by",
		// The runtime has no such tool: the call never ran, and the agent's
		// next call is its correction, not a fix of anything.
		"no such tool available", "tool not found", "unknown tool:", "is not a valid tool", "tool does not exist"} {
		if strings.Contains(h, p) {
			return true
		}
	}
	// Claude Code's permission prompt answered no (or a deny rule): "Permission
	// to use Bash with command rm -rf … has been denied."
	return strings.HasPrefix(strings.TrimSpace(h), "permission to use ") && strings.Contains(h, "has been denied")
}

// precondition returns the runtime's refusal of an edit of a file the agent
// had not read, or "".
func precondition(text string) string {
	h := strings.ToLower(text)
	// Only the refusal to edit an unread file: "modified since read" says
	// someone else changed it, and the edit the agent meant is still owed.
	for _, p := range []string{"file has not been read yet"} {
		if strings.Contains(h, p) {
			return p
		}
	}
	return ""
}

// shellSyntaxErrors are what a shell says when it cannot read a line.
var shellSyntaxErrors = []string{"syntax error near unexpected token", "unexpected eof while looking for matching",
	"syntax error: unexpected end of file", "unterminated quoted string", "bad substitution", "parse error near",
	"syntax error: word unexpected", "syntax error: \"(\" unexpected", "syntax error: end of file unexpected"} // dash: "sh: 2: Syntax error: word unexpected (expecting "do")"

// shellSyntax returns the shell's parse error a result opens with, or "",
// or that of a one-line program the line hands to awk, sed or jq: a
// quoting slip that ran nothing of what the line meant to do.
func shellSyntax(text string) string {
	h := strings.ToLower(text[:lang.CutUTF8(text, 600)])
	if p := "failed to parse command:"; strings.HasPrefix(strings.TrimSpace(h), p) {
		// Claude Code's harness could not read the line ("Failed to parse
		// command: Bad substitution: X.length") and ran none of it.
		return strings.TrimSuffix(p, ":")
	}
	for _, p := range shellSyntaxErrors {
		if strings.Contains(h, p) && (strings.Contains(h, "bash:") || strings.Contains(h, "sh:") || strings.Contains(h, "zsh:") || strings.Contains(h, "-c: line")) {
			return p
		}
	}
	for _, p := range inlineProgramErrors {
		if strings.Contains(h, p) {
			return p
		}
	}
	return ""
}

// inlineProgramErrors open the parse errors of a program given on the
// command line ("awk: cmd. line:1: {print \}").
var inlineProgramErrors = []string{"awk: cmd. line:", "awk: syntax error", "sed: -e expression #", "jq: error: syntax error", "jq: 1 compile error"}

// indexClosed files a resolved error under the first term of each of its
// identifying tokens.
func (e *errorTracker) indexClosed(f *failure) {
	for _, tok := range f.errTokens {
		ts := lang.Tokenize(tok)
		if len(ts) == 0 || ts[0].Term == "" {
			continue
		}
		m := e.closed[ts[0].Term]
		if m == nil {
			m = map[string]*failure{}
			e.closed[ts[0].Term] = m
		}
		m[string(Error)+"|"+f.item.Text] = f
	}
}

// closedNamedIn adds the resolved errors one of whose identifying words the
// summary uses.
func (e *errorTracker) closedNamedIn(d *doc, add func(tracked)) {
	for h := range d.postings {
		for _, f := range e.closed[h] {
			add(f)
		}
	}
}

// match: the error's distinctive tokens (file, symbol, test name) or most
// of its words must be in the summary, and not presented as fixed.
func (f *failure) match(l *ledger, d *doc, ir *ItemResult) {
	ir.Status, ir.Why = Dropped, "the error is not mentioned"
	if len(f.errTokens) == 0 {
		f.matchWords(d, ir)
		return
	}
	best, h := f.bestUnit(d)
	if best < 0 {
		return
	}
	u := &d.units[best]
	failing := failureIn(d.lower[u.Start:u.End])
	ir.Score = round2(min(1, float64(h.n)/float64(len(f.errTokens))+0.5*b2f(failing)))
	lo, hi := tokRange(u, h.span)
	p, cue := d.polarity(u, -1, lo, hi)
	ir.Evidence = d.evidence(candidate{unit: best}, p)
	switch {
	case p == Done && !strings.HasPrefix(cue, "under") && !stillFailing(d.lower[u.Start:u.End]) && !underDone(d, u) && f.rerunPending(d):
		// "Fixed by searching for "npm() {"" and, in Next Steps, "Run
		// `cargo test` to verify all tests pass after the last fix": the
		// fix is reported, not the failure's end.
		ir.Status, ir.Why = Retained, fmt.Sprintf("reported fixed (%s), its re-run still to do in the summary", cue)
	case p == Done && !strings.HasPrefix(cue, "under") && !stillFailing(d.lower[u.Start:u.End]):
		ir.Status = Flipped
		ir.Why = fmt.Sprintf("the summary presents the error as fixed (%s) while no later call succeeded", cue)
	case failing || h.n >= 2:
		ir.Status, ir.Why = Retained, "the error's test, file or message is carried"
	default:
		ir.Status, ir.Why = Weak, "the error's test or file is named, but not that it fails"
	}
}

// underDone reports whether a unit sits under a heading that reports work
// done ("Completed"): a fix listed there is claimed finished, whatever
// runs the summary plans next.
func underDone(d *doc, u *unit) bool {
	s := d.section(u)
	return s != nil && s.Polarity == Done
}

// rerunPending reports whether the summary has the failed command to run
// again, pending: a unit that names its program and subcommand ("cargo
// test", "go test", "npm run build") under a pending cue or heading.
func (f *failure) rerunPending(d *doc) bool {
	prog := f.key.Program
	if prog == "" {
		return false
	}
	run := prog
	if sub := f.key.Sub(); sub != "" && !strings.HasPrefix(sub, "-") {
		run += " " + sub
	}
	run = strings.ToLower(run)
	for i := range d.units {
		u := &d.units[i]
		text := d.lower[u.Start:u.End]
		if !strings.Contains(text, run) {
			continue
		}
		at := strings.Index(text, run)
		lo, hi := tokRange(u, Span{Start: u.Start + at, End: u.Start + at + len(run)})
		if p, _ := d.polarity(u, -1, lo, hi); p == Pending {
			return true
		}
	}
	return false
}

// tokenHits counts a unit's mentions of an error's identifying tokens.
type tokenHits struct {
	n    int
	span Span // the earliest mention
}

// bestUnit counts, per summary unit, the error's identifying words it names
// (the failing test, the file and line, the error class); the unit that
// names most, preferring one that says something failed, is the evidence.
// It returns -1 when no unit names any.
func (f *failure) bestUnit(d *doc) (int, *tokenHits) {
	byUnit := map[int]*tokenHits{}
	var order []int
	hit := func(i int, tok string) {
		ui := unitAt(d, i)
		if ui < 0 {
			return
		}
		h := byUnit[ui]
		if h == nil {
			h = &tokenHits{span: Span{i, i + len(tok)}}
			byUnit[ui] = h
			order = append(order, ui)
		}
		if i < h.span.Start {
			// Judge the status at the earliest mention: "Fixed the
			// E0382 error in src/main.rs" says "fixed" first.
			h.span = Span{i, i + len(tok)}
		}
		h.n++
	}
	for _, tok := range f.errTokens {
		for _, i := range d.boundedAll(tok) {
			hit(i, tok)
		}
	}
	if len(order) == 0 {
		return -1, nil
	}
	sort.Ints(order)
	best, bestScore := -1, -1
	for _, ui := range order {
		score := 2 * byUnit[ui].n
		if failureIn(d.lower[d.units[ui].Start:d.units[ui].End]) {
			score += 3
		}
		if score > bestScore {
			best, bestScore = ui, score
		}
	}
	return best, byUnit[best]
}

// matchWords matches an error line with no identifying word by most of its
// words.
func (f *failure) matchWords(d *doc, ir *ItemResult) {
	cands := d.candidates(f.intent.atom())
	if len(cands) == 0 {
		return
	}
	best := cands[0]
	ir.Score = round2(best.containment)
	switch {
	case best.containment >= 0.6:
		ir.Status, ir.Why = Retained, "most of the error line is carried"
		ir.Evidence = d.evidence(best, Neutral)
	case best.containment >= 0.4:
		ir.Status, ir.Why = Weak, "part of the error line is carried"
		ir.Evidence = d.evidence(best, Neutral)
	}
}

// resurrected: a summary that presents a resolved error as still failing.
func (f *failure) resurrected(d *doc, claimed map[int][]tracked) (ItemResult, bool) {
	ir := ItemResult{Item: f.item}
	for _, tok := range f.errTokens {
		at := d.boundedAll(tok)
		if len(at) == 0 {
			continue
		}
		i := at[0]
		ui := unitAt(d, i)
		if ui < 0 || len(claimed[ui]) > 0 {
			continue // in the runtime's framing, or carried by an open item
		}
		u := &d.units[ui]
		lower := d.lower[u.Start:u.End]
		lo, hi := tokRange(u, Span{i, i + len(tok)})
		p, cue := d.polarity(u, -1, lo, hi)
		if p == Done || p == Negated || !(stillFailing(lower) || p == Pending && failureIn(lower)) {
			continue // naming the test's file in a new pending step is not the failure again
		}
		if cue == "" {
			cue = "still failing"
		}
		ir.Status, ir.Score = Resurrected, 1
		ir.Evidence = d.evidence(candidate{unit: ui}, Pending)
		ir.Why = fmt.Sprintf("resolved in the source (%s) but the summary presents it as unresolved (%s)", f.item.ClosedBy, cue)
		return ir, true
	}
	return ir, false
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// failureIn reports whether a (lower-cased) text says something fails.
func failureIn(lower string) bool {
	for _, w := range []string{"fail", "error", "panic", "broken", "conflict", "crash", "exception", "assert", "race", "red ", "does not pass", "doesn't pass", "not passing", "regress", "timeout", "timed out", "unresolved", "blocked"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// stillFailing reports whether a (lower-cased) text says a failure persists.
func stillFailing(lower string) bool {
	for _, w := range []string{"still fail", "is failing", "are failing", "keeps failing", "still broken", "fails with", "still red", "needs fixing", "to fix", "unresolved"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// matchedNothing returns the search program that ends a failed shell line
// when all the failure says is its exit status 1 (grep's "no line
// matched"), or "".
func matchedNothing(info *callInfo, line, text string) string {
	l := strings.ToLower(strings.TrimSpace(line))
	// The status alone is what grep's "no match" says; any other line
	// that says what failed is a failure.
	if !strings.HasPrefix(l, "exit code") && !strings.HasPrefix(l, "exit status") && lang.SaysWhatFailed(line) {
		return ""
	}
	run := info.command
	if r := lang.RemoteLine(run); r != "" {
		run = r
	}
	// A command substitution ("$(bundle show docker-api)/lib/…") is an
	// argument of the search, not a stage after it.
	cmds := lang.Commands(substRe.ReplaceAllString(run, "SUBST"))
	if len(cmds) == 0 {
		return ""
	}
	last := cmds[len(cmds)-1]
	switch last.Program {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep":
	default:
		return ""
	}
	head := strings.ToLower(strings.TrimSpace(text))
	if !strings.HasPrefix(head, "exit code 1") && !strings.HasPrefix(head, "exit status 1") && !strings.Contains(head, "exit code: 1") {
		return ""
	}
	return last.Program
}

// substRe matches a command substitution without nesting.
var substRe = lang.LazyRegexp(`\$\([^()]*\)|` + "`[^`]*`")
