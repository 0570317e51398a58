package verify

// What discharges a commitment: a tool call that carries its action out
// (then a claim or a report of it, for durable ones), work that acts on a
// piece of narration, or a plan that marks its step done. A completion
// claim with no such call is a false (or unsupported) completion, and the
// commitment stays open: a claim does not discharge an obligation.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// call notes which open commitments a tool call could carry out (confirmed
// when it succeeds) or acts on.
func (c *commitmentTracker) call(i int, tc *model.ToolCall, ci *callInfo) {
	if ci.category == toolEdit || ci.command != "" && !ci.checks {
		c.lastWork = i
	}
	open, few := c.openPromises()
	var cands *callNames
	if !few {
		open = c.idx.forCall(tc, ci, c.l.stretch)
		cands = &callNames{cands: open}
		if indexCheck != nil {
			c.checkCall(open, tc, ci)
		}
	}
	for _, p := range open {
		if !p.item.Open || p.carried >= 0 && !p.lagCandidate() {
			continue
		}
		sameTurn := tc.Turn == p.item.Turn && !p.planned
		if sameTurn && (announces(p.item.Text) || p.announced) {
			// "I'll add the helpers to common.go and modify X:" with the
			// calls right after: the sentence announces the work under way.
			p.durable, p.narrated, p.worked = false, true, true
			c.idx.worked = append(c.idx.worked, p)
			continue
		}
		if ci.category == toolPlan {
			// Writing the work into the plan is not doing it: the plan
			// event that follows opens or closes its steps. A promise
			// about the plan itself ("let me create a todo list to track
			// this", "I'll update the tasks") is what the call does.
			if p.stretch == c.l.stretch && aboutPlan(p.act) {
				p.working = append(p.working, i)
				c.idx.byCall[i] = append(c.idx.byCall[i], p)
			}
			continue
		}
		does := carries(p.act, p.actionFiles(), ci, false)
		switch {
		case does && c.sibling(p, ci, cands):
			// Another open obligation with the same head is the one this
			// call names ("create_macro refund-approved", not refund-denied).
		case does:
			p.carrying = append(p.carrying, i)
			c.idx.byCall[i] = append(c.idx.byCall[i], p)
		case actsOn(p, ci, sameTurn), looksNext(p, ci, c.l.stretch):
			p.working = append(p.working, i)
			c.idx.byCall[i] = append(c.idx.byCall[i], p)
		}
		if sameTurn && len(p.carrying)+len(p.working) > 0 {
			// Said and done in the same turn ("I'll add it next to the
			// header" with the edit beside it): narration of work under way.
			p.durable = false
			p.narrated = true
		}
	}
}

// succeeded confirms the commitments a successful call carried out or
// worked on. An immediate commitment carried out closes at once; a durable
// one waits for its claim or report (see claims).
func (c *commitmentTracker) succeeded(ci int, r *model.ToolResult, info *callInfo) {
	// Only the commitments the call was noted for can change (see call),
	// and those naming a file the result says it wrote.
	var noted []*promise
	for _, p := range c.idx.byCall[ci] {
		if p.item.Open {
			noted = append(noted, p)
		}
	}
	delete(c.idx.byCall, ci)
	if len(c.idx.files) > 0 && !info.checks && writeCue(r.Text.Head()) {
		c.idx.files = livePromises(c.idx.files, &noted)
	}
	noted = inOrder(noted)
	if indexCheck != nil {
		c.checkSucceeded(noted, ci, r, info)
	}
	for _, p := range noted {
		if !p.item.Open || p.carried >= 0 && !p.lagCandidate() {
			continue
		}
		for _, w := range p.working {
			if w == ci && !p.worked {
				p.worked = true
				c.idx.worked = append(c.idx.worked, p)
			}
		}
		if (editVerbs[p.act.Verb] || execVerbs[p.act.Verb]) && !info.checks && !slices.Contains(p.carrying, ci) {
			if writesFile(r.Text.Head(), p.actionFiles()) {
				// "pnpm i18n:codegen" answers "wrote src/i18n/catalog.gen.ts":
				// the result says the call made the file the promise names.
				p.carrying = append(p.carrying, ci)
			}
		}
		for _, w := range p.carrying {
			if w != ci {
				continue
			}
			p.carried, p.carriedBy = ci, calledAsOf(info.call)
			// A dry run or a check carries nothing out for the plan to lag behind.
			if p.inProgress && !info.checks && !p.doneInProgress {
				p.doneInProgress = true
				c.lagging = append(c.lagging, p)
			}
			if reportable(p) {
				c.idx.addReportable(p)
			}
			if !p.durable && !p.planned {
				p.carriedOut = true
				c.l.close(p, r, fmt.Sprintf("carried out by %s (%s) at turn %d", r.ID, info.name, r.Turn))
			}
		}
	}
}

// writeCues are the words of a line that says it wrote a file.
var writeCues = []string{"wrote ", "written", "generated", "created", "updated", "saved", "writing ", "regenerated", "emitted"}

// writeCue reports whether some line of a result's head may say it wrote a
// file (see writesFile): no cue word, no such line.
func writeCue(out string) bool {
	return lang.ContainsAny(strings.ToLower(out[:lang.CutUTF8(out, 4096)]), writeCues...)
}

// writesFile reports whether a tool result says it wrote one of the files:
// "wrote src/i18n/catalog.gen.ts (7 locales)", "Generated api/client.ts".
func writesFile(out string, files []string) bool {
	if len(files) == 0 {
		return false
	}
	out = out[:lang.CutUTF8(out, 4096)]
	for _, line := range strings.Split(out, "\n") {
		l := strings.ToLower(line)
		if !lang.ContainsAny(l, writeCues...) {
			continue
		}
		for _, f := range files {
			if strings.Contains(line, f) {
				return true
			}
		}
	}
	return false
}

// meantForSibling reports whether the call names what sets another open
// commitment with the same head apart (a modifier, a name, the words after
// a preposition: "COLO829" of "re-run variant calling for COLO829") and
// nothing that sets p apart.
//
// cands, when the call's candidates were looked up (promiseIndex.forCall),
// holds those candidates.
func (c *commitmentTracker) meantForSibling(p *promise, ci *callInfo, cands *callNames) bool {
	own := p.distinctWords()
	if cands != nil && !slices.ContainsFunc(own, ci.hasTerm) {
		// The call names nothing that sets p apart, so no sibling is told
		// from p as p's, and one is meant when the call names what sets
		// it apart: then it is a candidate (callWords holds those words).
		for _, n := range cands.naming(ci) {
			if n.o != p && n.o.act.Head == p.act.Head && slices.ContainsFunc(n.terms, func(t string) bool { return !slices.Contains(own, t) }) {
				return true
			}
		}
		return false
	}
	// The siblings in the order of the open list: the first that tells
	// them apart decides.
	for _, o := range c.idx.siblings(p) {
		if o == p || !o.item.Open || o.act.Head != p.act.Head {
			continue
		}
		theirs := o.distinctWords()
		mine := false
		for _, t := range own {
			if !slices.Contains(theirs, t) && ci.hasTerm(t) {
				mine = true
			}
		}
		if mine {
			return false
		}
		for _, t := range theirs {
			if !slices.Contains(own, t) && ci.hasTerm(t) {
				return true
			}
		}
	}
	return false
}

// callNames holds a call's candidate commitments (promiseIndex.forCall)
// and, made once for the call, those of them open whose distinctWords it
// names, with the words it names. A call that can carry out many open
// commitments of one kind ("make migrate SERVICE=kavron" for every "re-run
// the X migration") asks of each whether it names a sibling's words:
// walking every candidate for each was candidates² per call.
type callNames struct {
	cands []*promise
	made  bool
	named []namedBy
}

// namedBy is a candidate a call names words of (callNames).
type namedBy struct {
	o     *promise
	terms []string
}

// naming returns the open candidates whose distinctWords the call names,
// with those words, in candidate order. A call's candidates neither close
// nor open while it is checked against them (commitmentTracker.call).
func (n *callNames) naming(ci *callInfo) []namedBy {
	if n.made {
		return n.named
	}
	n.made = true
	for _, o := range n.cands {
		if !o.item.Open {
			continue
		}
		var ts []string
		for _, t := range o.distinctWords() {
			if ci.hasTerm(t) {
				ts = append(ts, t)
			}
		}
		if len(ts) > 0 {
			n.named = append(n.named, namedBy{o: o, terms: ts})
		}
	}
	return n.named
}

// distinct returns the words that tell an action from others with its
// head: its modifiers (and the specific word of a category head), its
// names and its complements' specific words.
func distinct(a lang.Action) []string {
	out := append([]string(nil), a.Mods()...)
	if a.Alt != "" {
		out = lang.AppendUnique(out, a.Alt)
	}
	for _, n := range a.Names {
		out = lang.AppendUnique(out, n)
	}
	for _, cm := range a.Complements {
		for _, t := range specific(cm.Terms) {
			out = lang.AppendUnique(out, t)
		}
	}
	return out
}

// distinctWords is distinct(p.act), computed once.
func (p *promise) distinctWords() []string {
	if !p.distinctDone {
		p.distinct, p.distinctDone = distinct(p.act), true
	}
	return p.distinct
}

// actionFiles returns the files and URLs a commitment's action names,
// computed once.
func (p *promise) actionFiles() []string {
	if !p.filesDone {
		p.filesDone = true
		for _, id := range lang.ExtractIdents(p.act.Text) {
			if id.Class == lang.ClassPath || id.Class == lang.ClassURL {
				p.files = append(p.files, id.Value)
			}
		}
	}
	return p.files
}

// verb categories: which tool calls can carry out an action with this verb.
var execVerbs = lang.TermSet("run", "rerun", "test", "build", "rebuild", "lint", "deploy", "migrate", "install",
	"commit", "push", "rebase", "merge", "tag", "format", "generate", "regenerate", "compile",
	"execute", "bench", "benchmark", "start", "restart", "stop", "kill", "drain", "backfill", "release",
	"seed", "vet", "cherry-pick", "checkout", "pull", "fetch", "clone", "apply", "publish", "open")
var editVerbs = lang.TermSet("add", "fix", "update", "remove", "rename", "refactor", "edit", "change", "replace",
	"document", "port", "bump", "revert", "clean", "rewrite", "write", "implement", "move", "delete",
	"convert", "extract", "inline", "split", "simplify", "annotate", "comment", "restore", "switch")
var readVerbs = lang.TermSet("check", "read", "review", "investigate", "look", "inspect", "find", "search",
	"see", "examine", "explore", "understand", "figure", "confirm", "compare")

// commandVerbs appear in the command itself when carried out: "git push",
// "git rebase", "make lint".
var commandVerbs = lang.TermSet("commit", "push", "rebase", "merge", "lint", "test", "build", "deploy",
	"migrate", "install", "format", "vet", "tag", "release", "publish", "backfill", "drain", "seed", "bench")

// carries reports whether a tool call carries out an action: the call's
// kind suits the verb (a read does not re-run a migration) and its input
// names the action's object ("make migrate" for "re-run the migration"), or,
// for verbs that are commands themselves, the verb ("git push").
func carries(a lang.Action, files []string, ci *callInfo, relaxed bool) bool {
	// "I'll start with manual_commit_test.go": beginning a piece of work
	// narrates no particular kind of call.
	beginning := relaxed && (a.Verb == lang.TermOf("start") || a.Verb == lang.TermOf("begin"))
	if a.Means != nil && carries(*a.Means, nil, ci, relaxed) {
		// "optimise the dataloader by pre-tokenising the March logs": the
		// run of tools/pretokenize.py on data/march does it.
		return true
	}
	if !compatible(a.Verb, ci.category) && !beginning {
		return false
	}
	if opposes(a, ci) {
		return false // "--disable-cache" does not "turn the cache back on"
	}
	if ci.category == toolEdit && a.Many {
		// "update all 65 test files with Arrange/Act/Assert comments": one
		// file's edit is a step towards it, not the work done.
		return false
	}
	if ci.publishes() && (a.Head == lang.TermOf("commit") || a.Head == lang.TermOf("pr") || a.Head == lang.TermOf("push")) && ci.hasTerm(a.Head) {
		// "create the commit", "open the PR": what the publishing
		// command makes is the action's object.
		return true
	}
	if !relaxed && (ci.checks || ci.publishes()) && editVerbs[a.Verb] {
		// "cue vet ./deploy/gates/..." names the gate but updates nothing;
		// "gh pr create --body 'moves Badge onto the tokens'" describes a
		// change, it does not make it.
		return false
	}
	if relaxed {
		return narrationActedOn(a, files, ci)
	}
	if a.Head != "" && ci.hasTerm(a.Head) && (a.Alt == "" || ci.hasTerm(a.Alt) || anyTerm(ci, a.Mods())) {
		// A category head ("test", "service") needs its specific word too:
		// any edit of a test file is not "add the golden test".
		return true
	}
	if a.Alt != "" && ci.hasTerm(a.Alt) {
		return true
	}
	if ci.category == toolEdit && namedFor(a, ci.path) {
		// "Implement Embedded Autonomic Controller" and the Write of
		// embedded_autonomic.rs: a file named for the thing is its work.
		return true
	}
	if !ci.checks && ci.category != toolRead && namesOwn(a, ci) {
		// "spin up the av1-workers pool from ami-0b7e4d2c9a1f3e5d6" and
		// "terraform apply -target=module.av1_workers": a call that works
		// on the thing the action names by its own name does it.
		return true
	}
	// Another word of the direct object ("the DNS record" in "switch the
	// DNS record for example.com") counts only with the verb beside it: a
	// push of branch bringup/imu-revc does not re-flash the rev-C board.
	// A file or URL the action names verbatim counts alone ("bump the
	// version in package.json" is carried by an edit of it).
	if ci.hasVerb(a.Verb) {
		// With the verb in the call, any specific word of the object will
		// do: "generate the schedule with the circle method" is carried out
		// by "generate ... --method circle".
		for _, t := range a.Object {
			// A number is not the object, but a name written with one is
			// ("for COLO829").
			if !lang.GenericTerm[t] && (!lang.HasDigit(t) || slices.Contains(a.Names, t) && len(t) >= 4) && len(t) >= 3 && ci.hasTerm(t) {
				return true
			}
		}
	}
	if worksOnNamedFile(a, files, ci) {
		return true
	}
	return commandVerbs[a.Verb] && ci.hasTerm(a.Verb) && (a.Head == "" || lang.GenericTerm[a.Head] || a.Head == lang.TermOf("branch") || a.Head == lang.TermOf("change"))
}

// narrationActedOn reports whether a call acts on narrated work ("I'll look
// at the build log"): it names the verb or a specific word of the object,
// or works on a file the narration names. Any call is not enough.
func narrationActedOn(a lang.Action, files []string, ci *callInfo) bool {
	if ci.hasVerb(a.Verb) {
		return true
	}
	if a.Means != nil {
		// "deflake //services/search:integration_test by replacing the
		// sleep with a probe": the means says what the work is; a build
		// of //services/search/... is not it.
		return false
	}
	for _, t := range append([]string{a.Head}, a.Direct...) {
		if t != "" && !lang.GenericTerm[t] && len(t) >= 3 && ci.hasTerm(t) {
			return true
		}
	}
	for _, f := range files {
		if ci.path != "" && samePath(ci.path, f) {
			return true // "I'll start with x_test.go" and a read of it
		}
	}
	return false
}

// worksOnNamedFile reports whether the call works on a file or URL the
// action names verbatim ("bump the version in package.json" and an edit of
// package.json). A command that merely mentions it among others needs one
// more sign of the work, the verb or another word of the object: real runs
// touch the same file many times for other ends.
func worksOnNamedFile(a lang.Action, files []string, ci *callInfo) bool {
	for _, f := range files {
		if !strings.Contains(ci.input, f) {
			continue
		}
		if ci.path != "" && samePath(ci.path, f) || ci.hasVerb(a.Verb) || objectNamed(a, ci, f) {
			return true
		}
	}
	return false
}

// namesOwn reports whether the call names one of the action's own names
// that no other thing shares: written with digits and a joiner
// ("av1-workers", "ami-0b7e4d2c9a1f3e5d6").
func namesOwn(a lang.Action, ci *callInfo) bool {
	for _, id := range a.Own {
		if ci.hasTerm(id) {
			return true
		}
	}
	return false
}

// objectNamed reports whether the call names a specific word of the
// action's object that is not part of the file's own name.
func objectNamed(a lang.Action, ci *callInfo, file string) bool {
	own := map[string]bool{}
	for _, t := range lang.WordTerms(file) {
		own[t] = true
	}
	for _, t := range a.Object {
		if !own[t] && !lang.GenericTerm[t] && !lang.HasDigit(t) && len(t) >= 3 && ci.hasTerm(t) {
			return true
		}
	}
	return false
}

// namedFor reports whether a file's base name is made of two or more
// specific words of the action's object and of nothing else
// (embedded_autonomic.rs for "implement the embedded autonomic controller").
func namedFor(a lang.Action, path string) bool {
	if path == "" {
		return false
	}
	base := path[strings.LastIndexAny(path, "/\\")+1:]
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	obj := map[string]bool{}
	for _, t := range a.Object {
		obj[t] = true
	}
	if a.Head != "" {
		obj[a.Head] = true
	}
	n := 0
	for _, t := range lang.WordTerms(base) {
		if strings.ContainsAny(t, "_-") {
			continue // the compound itself; its parts follow
		}
		if !obj[t] {
			return false
		}
		if !lang.GenericTerm[t] && len(t) >= 3 {
			n++
		}
	}
	return n >= 2
}

func anyTerm(ci *callInfo, ts []string) bool {
	for _, t := range ts {
		if ci.hasTerm(t) {
			return true
		}
	}
	return false
}

// compatible reports whether a call of category c can carry out an action
// with this verb: a read does not re-run a migration.
func compatible(verb string, c toolCategory) bool {
	if c == toolOther {
		return true // an API or MCP tool ("create_macro"): its kind is unknown
	}
	switch {
	case execVerbs[verb]:
		return c == toolExec
	case editVerbs[verb]:
		return c == toolEdit || c == toolExec
	case readVerbs[verb]:
		return true
	}
	// A verb of no known kind ("register the PR under its branch name"):
	// a read does not do it.
	return c != toolRead
}

// antonyms pairs verbs that undo each other, by term.
var antonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, p := range [][2]string{{"enable", "disable"}, {"start", "stop"}, {"add", "remove"}, {"install", "uninstall"},
		{"lock", "unlock"}, {"mount", "unmount"}, {"allow", "deny"}, {"allow", "block"}, {"include", "exclude"},
		{"show", "hide"}, {"connect", "disconnect"}, {"provision", "destroy"}, {"pause", "resume"}, {"freeze", "unfreeze"},
		{"encrypt", "decrypt"}, {"attach", "detach"}, {"subscribe", "unsubscribe"}, {"scale up", "scale down"}} {
		a, b := lang.TermOf(p[0]), lang.TermOf(p[1])
		m[a] = append(m[a], b)
		m[b] = append(m[b], a)
	}
	return m
}()

// opposes reports whether a call does the opposite of an action: it names
// a verb that undoes the action's verb and not the verb itself
// ("./server --disable-cache" for "turn the cache back on").
//
// Only a shell command's own words count: an edit's content may name any
// verb ("remove" in a comment of the middleware it adds).
func opposes(a lang.Action, ci *callInfo) bool {
	ops := antonyms[a.Verb]
	if len(ops) == 0 || ci.command == "" || ci.hasVerb(a.Verb) {
		return false
	}
	words := lang.WordTerms(commandSeparators.Replace(ci.command))
	for _, o := range ops {
		if slices.Contains(words, o) {
			return true
		}
	}
	return false
}

// lagCandidate reports whether a step a call already carried out may still
// be carried out while in progress: a call that named its words before it
// began (an exploring agent's report) did not do the work the step's
// progress is about.
func (p *promise) lagCandidate() bool { return p.planned && p.inProgress && !p.doneInProgress }

// failedAfter undoes the plan-status lag of steps a new failure names: the
// regression test for America/Sao_Paulo was added while its step was in
// progress, then its run failed on it. The step's work is not done, and a
// summary that calls it done flips it.
func (c *commitmentTracker) failedAfter(text string) {
	if len(c.lagging) == 0 {
		return
	}
	lower := strings.ToLower(text)
	keep := c.lagging[:0]
	for _, p := range c.lagging {
		if !p.item.Open || !p.doneInProgress {
			continue
		}
		if failureNames(p, text, lower) {
			p.doneInProgress = false
		}
		if p.doneInProgress {
			keep = append(keep, p)
		}
	}
	c.lagging = keep
}

// failureNames reports whether a failure's output names what sets a step
// apart: an identifier of it, or every word of what it is for ("for
// America/Sao_Paulo"), not only its kind of work ("regression test").
func failureNames(p *promise, text, lower string) bool {
	for _, id := range p.idents {
		if len(id.Value) >= 4 && strings.Contains(text, id.Value) {
			return true
		}
	}
	n := 0
	for _, c := range p.act.Complements {
		for _, t := range c.Terms {
			if len(t) < 4 {
				continue
			}
			if !strings.Contains(lower, t) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// commandSeparators split a command's flags and names into words.
var commandSeparators = strings.NewReplacer("-", " ", "_", " ", "=", " ")
