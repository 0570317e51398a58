package lang

import (
	"strings"
	"unicode/utf8"
)

// Promise is a commitment found in a sentence of assistant text: the
// sentence and the action it promises.
type Promise struct {
	Sentence string
	Action   Action
	// Label is a list item's own label ("#11", "WP19"), when it had one:
	// the step may be a plan step already known by it.
	Label string
	// Offered is the question after a steps list that puts them to the
	// user ("Would you like me to"), when there is one: the steps are
	// proposed, not work the agent took on.
	Offered string
}

// FindPromises returns the commitments stated in assistant text: the
// sentences with commitment phrasing ("I will", "I'll", "next I need to",
// "still have to", "TODO:", "remaining:", a clause-initial "will"), each
// split into action and condition. Negated ("I will not re-run"), hedged
// ("I can", "if you want") and interrogative sentences are not commitments.
func FindPromises(text string) []Promise {
	var out []Promise
	text = ProseOnly(text)
	msgLang := LanguageOf(text)
	foreign := msgLang != "en"
	if !foreign && !anyCue(FoldText(text)) {
		return nil // most messages promise nothing: no sentence needs reading
	}
	for _, sn := range Sentences(text) {
		s := text[sn.Start:sn.End]
		if foreign {
			if l := SentenceLanguage(s, msgLang); l != "en" {
				out = append(out, foreignPromises(s, l)...)
				continue
			}
		}
		if strings.HasSuffix(s, "?") {
			continue
		}
		lower := FoldText(s)
		pos, cue := commitmentCue(lower)
		weak := false
		if pos < 0 {
			if pos, cue = conditionalCue(lower); pos < 0 {
				continue
			}
			weak = true
		}
		rest := s[pos+len(cue):]
		restLower := lower[pos+len(cue):]
		if negatedStart(restLower) || hedged(lower[:pos]) {
			continue
		}
		if (cue == "let me" || cue == "let us") && (strings.HasPrefix(restLower, " know") || strings.HasPrefix(restLower, " hear")) {
			continue // "Let me know once you try it!": asks the user, promises nothing
		}
		// The passive voice puts the object first: "the old carrier's
		// routing still has to be switched off by us" is "switched off the
		// old carrier's routing".
		if p, ok := passiveAction(s[:pos], rest); ok {
			rest = p
		}
		// Several actions joined by "and then" / ", then" are separate
		// obligations; each is kept.
		prevVerb := ""
		for _, part := range splitActions(rest) {
			part = beSureTo(part)
			if prevVerb != "" && verbless(part) {
				// "create the v2.1 issues first, then v2.2 (4 issues)": the
				// second action is the first's verb on another object.
				part = prevVerb + " " + strings.TrimSpace(part)
			}
			if f := strings.Fields(part); len(f) > 0 {
				prevVerb = f[0]
			}
			a := ParseAction(part)
			if a.Verb == "" || copula(part) || modalStart(part) || a.Verb == TermOf("help") || a.Verb == TermOf("assist") {
				// "I'll be honest", "we will have to see", "then we can
				// refine it": not actions. "I'll help you build the API"
				// accepts the task the user gave; the task is the user's.
				continue
			}
			if cue == "todo:" || cue == "todo -" || cue == "remaining:" || strings.Contains(cue, "still") || strings.HasPrefix(cue, "next") {
				a.Deferred = true
			}
			// A condition before the cue: "Once the canary is healthy, I will ...".
			if lead := leadingCondition(s[:pos], lower[:pos]); lead != "" && a.Condition == "" {
				a.Condition, a.Deferred = lead, true
			}
			if weak && !waitingCondition(a.Condition) {
				continue // "let me look at X before writing Y" narrates the next step
			}
			out = append(out, Promise{Sentence: s, Action: a})
		}
	}
	return out
}

// verbless reports whether an action part opens with no verb: an article,
// a number or a version ("the docs", "v2.2 (4 issues)", "3 more tests").
func verbless(part string) bool {
	f := strings.Fields(strings.ToLower(part))
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "the", "a", "an", "its", "their", "those", "these":
		return true
	}
	return HasDigit(f[0])
}

// beSureTo drops "be sure to" before an action ("I'll be sure to re-run
// it" promises the re-run), so the copula check does not take it.
func beSureTo(part string) string {
	t := strings.TrimSpace(part)
	l := strings.ToLower(t)
	for _, p := range []string{"be sure to ", "be certain to ", "make sure to "} {
		if strings.HasPrefix(l, p) {
			return t[len(p):]
		}
	}
	return part
}

func copula(part string) bool {
	f := strings.Fields(strings.ToLower(part))
	return len(f) > 0 && (f[0] == "be" || f[0] == "have" && (len(f) == 1 || f[1] != "to"))
}

// mannerAdjectives after "be" say how the speaker means to work ("be
// careful", "be thorough"), never a thing to be done.
var mannerAdjectives = map[string]bool{"careful": true, "cautious": true, "mindful": true, "thorough": true, "honest": true,
	"clear": true, "explicit": true, "precise": true, "conservative": true, "brief": true, "concise": true, "quick": true, "aware": true}

func whWord(w string) bool {
	switch w {
	case "what", "which", "whatever", "who", "how", "where", "whether", "why":
		return true
	}
	return false
}

// passiveAction turns "<subject> <cue> be <participle ...> [by us]" into
// "<participle ...> <subject>", keeping any condition at the end.
func passiveAction(subject, rest string) (string, bool) {
	r := strings.TrimSpace(rest)
	if !strings.HasPrefix(strings.ToLower(r), "be ") || strings.TrimSpace(subject) == "" {
		return "", false
	}
	// "Wait, I need to be careful": an interjection is no subject, and
	// "careful" no participle. The speaker's own manner, not work.
	if strings.HasSuffix(strings.TrimSpace(subject), ",") {
		return "", false
	}
	if f := strings.Fields(strings.ToLower(r[3:])); len(f) > 0 && mannerAdjectives[strings.Trim(f[0], ".,;:!")] {
		return "", false
	}
	if f := strings.Fields(strings.ToLower(subject)); whWord(f[len(f)-1]) {
		// "check what still needs to be done": a question, and no thing
		// to be done is named.
		return "", false
	}
	r = strings.TrimSpace(r[3:])
	cond := ""
	cut := conditionCut(FoldText(r))
	if cut > 0 {
		r, cond = strings.TrimSpace(r[:cut]), " "+strings.TrimSpace(r[cut:])
	}
	for _, by := range []string{" by us", " by me", " by the agent", " by you", " by the assistant"} {
		r = strings.TrimSuffix(strings.TrimRight(r, ",;"), by)
	}
	subj := strings.TrimSpace(subject)
	for _, lead := range []string{"Then ", "then ", "Also ", "also "} {
		subj = strings.TrimPrefix(subj, lead)
	}
	return r + " " + subj + cond, true
}

// waitingCondition reports whether a condition makes the action wait for
// something (after, once, when, until, as soon as, if), not merely precede it.
func waitingCondition(c string) bool {
	l := strings.ToLower(strings.TrimSpace(c))
	for _, m := range []string{"after", "once", "when", "whenever", "until", "as soon as", "if", "unless"} {
		if strings.HasPrefix(l, m+" ") {
			return true
		}
	}
	return false
}

// leadingCondition returns the condition clause that opens a sentence before
// its commitment cue ("After QA signs off, I'll tag..."), or "".
func leadingCondition(before, lower string) string {
	t := strings.TrimSpace(lower)
	for _, m := range conditionMarkers {
		if strings.HasPrefix(t, m+" ") {
			return strings.TrimRight(strings.TrimSpace(before), " ,;:")
		}
	}
	return ""
}

// anyCue reports whether a folded text holds one of the commitment or
// conditional cues anywhere: a sentence without one makes no promise, and
// a sentence's folding is its part of the text's.
func anyCue(lower string) bool {
	for _, cues := range [][]string{commitmentCues, conditionalCues} {
		for _, c := range cues {
			if strings.Contains(lower, c) {
				return true
			}
		}
	}
	return false
}

// pastIntent reports whether the words before a cue put it in the past
// ("it was never going to catch the rot", "we were going to"): a narrative,
// not a promise.
func pastIntent(before string) bool {
	f := strings.Fields(before)
	for k := len(f) - 1; k >= 0 && k >= len(f)-2; k-- {
		switch strings.Trim(f[k], ",;:") {
		case "was", "were", "wasn't", "weren't":
			return true
		case "never", "not", "always", "just", "also":
			continue
		}
		break
	}
	return false
}

// commitmentCue finds the earliest commitment cue in a folded sentence.
func commitmentCue(lower string) (int, string) {
	best, cue := -1, ""
	for _, c := range commitmentCues {
		i := phraseAt(lower, c)
		if i < 0 {
			continue
		}
		if c == "will" && !clauseStart(lower, i) || inQuestion(lower, i) || relativeClause(lower, i, c) || pastIntent(lower[:i]) {
			continue
		}
		if best < 0 || i < best || (i == best && len(c) > len(cue)) {
			best, cue = i, c
		}
	}
	return best, cue
}

// relativeClause reports whether a first-person cue sits in a clause that
// describes a noun ("the code paths I'll need to modify"): the promise is
// not made there. A cue opens its own clause after a conjunction, an
// adverb, punctuation, or in a sentence opened by a condition.
func relativeClause(lower string, i int, cue string) bool {
	if !strings.HasPrefix(cue, "i") && !strings.HasPrefix(cue, "we") {
		return false
	}
	before := strings.TrimSpace(lower[:i])
	if before == "" || strings.ContainsAny(before[len(before)-1:], ",;:.!?-()*") {
		return false
	}
	words := strings.Fields(before)
	for _, m := range conditionMarkers {
		if words[0] == m {
			return false // "Once the review lands I'll re-run it"
		}
	}
	switch words[len(words)-1] {
	case "and", "but", "so", "then", "now", "next", "first", "also", "finally", "ok", "okay", "great", "good",
		"perfect", "right", "alright", "sure", "yes", "instead", "here", "today", "tomorrow", "later", "meanwhile", "otherwise":
		return false
	}
	return len(words) >= 2
}

// inQuestion reports whether the cue at i sits in an "if" or "whether"
// clause of its own ("check if it is exported or if I need to move it"): a
// question about a need is not the need.
func inQuestion(lower string, i int) bool {
	words := strings.Fields(lower[:i])
	for k := len(words) - 1; k >= 0 && k >= len(words)-3; k-- {
		switch strings.Trim(words[k], ",;:") {
		case "if", "whether", "unless":
			return true
		}
	}
	return false
}

// conditionalCue finds the earliest weak cue at a clause start.
func conditionalCue(lower string) (int, string) {
	best, cue := -1, ""
	for _, c := range conditionalCues {
		if i := phraseAt(lower, c); i >= 0 && clauseStart(lower, i) && (best < 0 || i < best) {
			best, cue = i, c
		}
	}
	return best, cue
}

// clauseStart reports whether position i starts a clause: the sentence start
// or after ; , : or a dash, or after "and". A bare "will" elsewhere ("this
// will fix it") is a prediction, not a commitment.
func clauseStart(lower string, i int) bool {
	before := strings.TrimSpace(lower[:i])
	if before == "" {
		return true
	}
	if strings.HasSuffix(before, " and") {
		// "X is running and will catch the result": the clause before
		// lends "will" its subject, and a thing's future is a prediction.
		// "I've pushed the fix and will re-run it" is the speaker's.
		return !thirdPersonSubject(lastClause(strings.TrimSuffix(before, " and")))
	}
	if before == "and" || strings.HasSuffix(before, " then") {
		return true
	}
	switch before[len(before)-1] {
	case ';', ':', '-', '(':
		return true
	case ',':
		// "Once the canary is healthy, will switch the DNS": a clause of
		// the speaker's. "The agent is still running, will try later": the
		// clause before has a subject of its own, and "will" is its.
		return !thirdPersonSubject(before)
	}
	return false
}

// lastClause is the text after the last clause break (; , : or a dash) of
// a folded text.
func lastClause(s string) string {
	if i := strings.LastIndexAny(s, ";,:—"); i >= 0 {
		_, size := utf8.DecodeRuneInString(s[i:])
		return s[i+size:]
	}
	return s
}

// thirdPersonSubject reports whether a clause opens with a subject that is
// not the speaker ("the agent is", "it runs", "the tests fail").
func thirdPersonSubject(clause string) bool {
	f := strings.Fields(strings.TrimLeft(clause, " -*•>0123456789.)"))
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "the", "it", "this", "that", "they", "he", "she", "there", "these", "those", "its", "their":
		return true
	}
	return false
}

// modalStart reports whether an action part opens with a modal of
// possibility ("we can refine the design", "you could add"): an offer, not
// a promise.
func modalStart(part string) bool {
	f := strings.Fields(strings.ToLower(part))
	for len(f) > 0 && (f[0] == "we" || f[0] == "you" || f[0] == "i" || f[0] == "then") {
		f = f[1:]
	}
	return len(f) > 0 && (f[0] == "can" || f[0] == "could" || f[0] == "might" || f[0] == "may")
}

// ProseOnly blanks what in an agent's message is not its own prose: fenced
// code and examples, quoted lines and thinking lines (same length, offsets
// kept). Promises in an example transcript are nobody's.
func ProseOnly(text string) string {
	x := newBlanker(text)
	x.fences()
	x.lines(func(line string) bool {
		l := strings.TrimSpace(line)
		return strings.HasPrefix(l, ">") || strings.HasPrefix(l, "<thinking>")
	})
	return string(x.b)
}

func negatedStart(rest string) bool {
	rest = strings.TrimSpace(rest)
	for _, n := range []string{"not ", "never ", "no longer ", "n't "} {
		if strings.HasPrefix(rest, n) {
			return true
		}
	}
	return false
}

// hedged: offers and possibilities are not commitments.
func hedged(before string) bool {
	for _, h := range []string{"if you want", "if you'd like", "if you like", "i can ", "i could ", "would you like", "should i", "do you want"} {
		if strings.Contains(before, h) {
			return true
		}
	}
	return false
}

// splitActions splits "fix the test and then rebase onto main" into its
// actions. A plain "and" splits only when what follows starts with a verb
// the lexicon knows, so "orders and customers" stays one object.
func splitActions(s string) []string {
	lower := FoldText(s)
	var parts []string
	start := 0
	for _, sep := range []string{" and then ", ", then ", "; then ", " then "} {
		for {
			i := strings.Index(lower[start:], sep)
			if i < 0 {
				break
			}
			parts = append(parts, s[start:start+i])
			start += i + len(sep)
		}
	}
	parts = append(parts, s[start:])
	var out []string
	for _, p := range parts {
		out = append(out, splitOnAndVerb(p)...)
	}
	return out
}

func splitOnAndVerb(s string) []string {
	lower := FoldText(s)
	for off := 0; ; {
		i := strings.Index(lower[off:], " and ")
		if i < 0 {
			return []string{s}
		}
		i += off
		next := Tokenize(s[i+5:])
		// A plural noun is no verb after "and": "tests, ClickHouse, and
		// docs in parallel" (a promise's verbs are in the base form).
		if len(next) > 0 && knownVerbs[TermOf(next[0].Word)] && !pluralNoun(next[0].Word) {
			// Only split when the left side already has a verb of its own.
			return append([]string{s[:i]}, splitOnAndVerb(s[i+5:])...)
		}
		off = i + 5
	}
}

// pluralNoun reports whether a word after "and" reads as a plural noun
// ("docs", "tests", "builds") rather than a verb in the base form.
func pluralNoun(w string) bool {
	w = strings.ToLower(w)
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !knownVerbWords[w]
}

// knownVerbWords are knownVerbs as written.
var knownVerbWords = map[string]bool{}

// knownVerbs are verbs that start an action after "and".
var knownVerbs = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"run", "rerun", "fix", "add", "remove", "update", "check", "deploy", "investigate", "revert",
		"finish", "start", "rename", "open", "merge", "document", "regenerate", "commit", "push",
		"rebase", "write", "create", "delete", "test", "build", "install", "migrate", "refactor",
		"review", "read", "edit", "replace", "restore", "clean", "close", "drain", "switch", "port",
		"backfill", "notify", "ask", "report", "send", "tag", "bump", "verify", "lint", "format",
		"reply", "comment", "file", "move", "copy", "generate", "re-run", "retry", "apply", "configure",
	} {
		m[TermOf(w)] = true
		knownVerbWords[w] = true
	}
	return m
}()

// PlannedSteps returns the steps of a list the agent headed as its own
// pending work ("Next steps:", "Remaining tasks:", "TODO:"): each item is a
// promise that waits for its turn. Items marked done, optional, deferred or
// addressed to the user are not promises; a leading label ("WP19:", "#11",
// "Step 3 -") is dropped.
func PlannedSteps(text string) []Promise {
	var out []Promise
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !stepsHeading(lines[i]) {
			continue
		}
		top := -1 // the indentation of the list's own items
		first := len(out)
		for j := i + 1; j < len(lines); j++ {
			l := strings.TrimSpace(lines[j])
			if l == "" {
				if j+1 < len(lines) && listItem(lines[j+1]) != "" {
					continue
				}
				break
			}
			item := listItem(lines[j])
			if item == "" {
				break
			}
			indent := len(lines[j]) - len(strings.TrimLeft(lines[j], " \t"))
			if top < 0 {
				top = indent
			}
			if indent > top {
				// "1. Respond to the notification with:" and its bullets
				// ("- Timestamp of fix: …"): what a step holds, not steps.
				i = j
				continue
			}
			if step, label, ok := plannedStep(item); ok {
				a := ParseAction(step)
				a.Deferred = true
				if a.Verb != "" {
					out = append(out, Promise{Sentence: strings.TrimSpace(lines[j]), Action: a, Label: label})
				}
			}
			i = j
		}
		if o := offerAfter(lines[min(i+1, len(lines)):]); o != "" {
			for k := first; k < len(out); k++ {
				out[k].Offered = o
			}
		}
	}
	return out
}

// offerAfter returns the question in the lines after a steps list that
// asks the user whether the agent should do work ("Would you like me to:
// 1. Add Redis password authentication?"), or "". A report that ends so
// lists next steps for the user to weigh: the agent has taken none on.
func offerAfter(lines []string) string {
	for _, l := range lines {
		lower := strings.ToLower(l)
		for _, o := range offerQuestions {
			if strings.Contains(lower, o) {
				return o
			}
		}
	}
	return ""
}

var offerQuestions = []string{"would you like me to", "do you want me to", "want me to", "shall i ", "should i ", "would you like to proceed", "should i proceed", "let me know which"}

// stepsHeading reports whether a line heads a list of the agent's pending
// steps.
// statement reports whether a list item says how things are rather than
// what to do: "The server-side nginx config is already deployed and
// running", "It works on staging".
func statement(item string) bool {
	f := strings.Fields(strings.ToLower(item))
	if len(f) < 3 {
		return false
	}
	switch f[0] {
	case "the", "this", "that", "these", "those", "it", "its", "there", "no", "nothing", "everything", "all":
	default:
		return false
	}
	for _, w := range f[1:min(len(f), 8)] {
		switch strings.Trim(w, ",.:;") {
		case "is", "are", "was", "were", "has", "have", "works", "runs", "exists":
			return true
		}
	}
	return false
}

func stepsHeading(line string) bool {
	l := strings.ToLower(strings.Trim(strings.TrimSpace(line), "#*_: "))
	l = strings.TrimPrefix(l, "the ")
	if len(l) > 48 {
		return false
	}
	for _, h := range []string{"next steps", "next step", "remaining tasks", "remaining work", "remaining steps",
		"remaining work packages", "still to do", "left to do", "todo", "to do", "pending tasks", "open tasks"} {
		if rest, ok := strings.CutPrefix(l, h); ok {
			rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "are"))
			return rest == "" || strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")")
		}
	}
	return false
}

// listItem returns a list line's text without its marker, or "".
func listItem(line string) string {
	t := strings.TrimSpace(line)
	for _, m := range []string{"- [ ] ", "* [ ] ", "- ", "* ", "• "} {
		if rest, ok := strings.CutPrefix(t, m); ok {
			return rest
		}
	}
	k := 0
	for k < len(t) && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	if k > 0 && k+1 < len(t) && (t[k] == '.' || t[k] == ')') && t[k+1] == ' ' {
		return t[k+2:]
	}
	return ""
}

// plannedStep cleans a list item into the step it names, and says whether
// it is one the agent owes.
func plannedStep(item string) (step, label string, ok bool) {
	lower := strings.ToLower(item)
	if strings.HasPrefix(lower, "[x]") || strings.Contains(lower, "~~") {
		return "", "", false
	}
	for _, w := range []string{"optional", "deferred", "follow-up", "follow up", "could ", "maybe", "you ", "your ", "if needed", "nice to have", "done", "complete"} {
		if strings.Contains(lower, w) {
			return "", "", false
		}
	}
	s := strings.ReplaceAll(item, "**", "")
	// "WP19: Extract...", "#11 Address ...", "spotter-4te.4: Enable ...".
	if f := strings.Fields(s); len(f) > 1 {
		first := strings.TrimRight(f[0], ":.-)")
		if strings.HasSuffix(f[0], ":") || strings.HasPrefix(first, "#") || HasDigit(first) && !strings.ContainsAny(first, "aeiou") {
			s, label = strings.Join(f[1:], " "), strings.TrimPrefix(first, "#")
		} else if len(f) > 2 && (strings.EqualFold(f[0], "step") || strings.EqualFold(f[0], "phase") || strings.EqualFold(f[0], "task")) && HasDigit(f[1]) {
			s, label = strings.Join(f[2:], " "), strings.TrimRight(f[1], ":.-)")
		}
	}
	s = strings.TrimLeft(s, " -–—:")
	if len(Terms(Tokenize(s))) < 2 || statement(s) {
		return "", "", false
	}
	return s, label, true
}
