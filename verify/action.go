package verify

import (
	"strings"
)

// Action is the "what" of a commitment or constraint, parsed into the
// atoms matching needs: its verb, its object terms and the object's head
// noun. A condition ("after the schema diff is reviewed") is split off: the
// seed's failure is a summary that kept the condition and lost the Action.
type Action struct {
	Text      string   // the action as written: "re-run the migration"
	Condition string   // "after the schema diff is reviewed", or ""
	Verb      string   // canonical term of the verb ("rerun")
	Object    []string // content terms after the verb
	Direct    []string // the object's terms before the first preposition
	ModTerms  []string // see mods
	IDs       []Ident  // PR, ticket and commit ids it names
	Names     []string // object words written like names ("Berlin", "CS101", "staging")
	Head      string   // head noun of the object ("migrat")
	Alt       string   // for a category head ("dependency"), its specific modifier ("lodash")
	Negated   bool     // a prohibition: "never push to main"
	Deferred  bool     // waits for something or for later (durable)
}

// Terms returns the verb and object Terms.
func (a Action) Terms() []string {
	out := make([]string, 0, len(a.Object)+1)
	if a.Verb != "" {
		out = append(out, a.Verb)
	}
	for _, t := range a.Object {
		if t != a.Verb {
			out = append(out, t)
		}
	}
	return out
}

// Key is the normalized action shown in reports: its content words, in
// order, as written but lower-cased ("re-run migration").
func (a Action) Key() string {
	var words []string
	for _, t := range Tokenize(a.Text) {
		if t.Term != "" {
			words = append(words, t.Word)
		}
	}
	if a.Negated {
		words = append([]string{"never"}, words...)
	}
	return strings.Join(words, " ")
}

// trimTrailingJoiners drops what joined an action to its condition:
// "create the macro, but only | once legal reviews it".
func trimTrailingJoiners(s string) string {
	s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ",;"))
	for {
		f := strings.Fields(s)
		if len(f) < 2 {
			return s
		}
		switch strings.ToLower(strings.TrimRight(f[len(f)-1], ",;")) {
		case "but", "only", "and", "or", "then", "just", "right", "probably", "but only":
			s = strings.TrimSpace(strings.TrimRight(strings.Join(f[:len(f)-1], " "), ",;"))
			continue
		}
		return s
	}
}

// lightVerbs precede the real verb without adding meaning: "start by
// reading", "go ahead and merge", "try to rebase".
var lightVerbs = [][]string{
	{"start", "by"}, {"begin", "by"}, {"try", "to"}, {"go", "ahead", "and"}, {"go", "ahead"},
	{"make", "sure", "to"}, {"be", "sure", "to"}, {"need", "to"}, {"have", "to"},
	{"want", "to"}, {"continue", "to"}, {"also"}, {"then"}, {"first"}, {"now"}, {"just"},
	{"quickly"}, {"still"}, {"next"}, {"finally"}, {"actually"}, {"properly"}, {"carefully"},
	{"immediately"}, {"please"}, {"to"}, {"not"}, {"never"}, {"go"}, {"and"},
}

// deferralWords make an unconditional commitment durable: it waits.
var deferralWords = []string{
	"later", "afterwards", "afterward", "at the end", "eventually", "next time", "subsequently",
	"tomorrow", "in a follow-up", "in a followup", "in a separate", "before merging",
	"before we merge", "before finishing", "when done", "at some point",
}

// ParseAction parses an action phrase (the text after a commitment cue, or a
// plan item, or a constraint with its cue removed).
func ParseAction(s string) Action {
	s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ".!;:,"))
	a := Action{Text: s}
	lower := FoldText(s)
	// Split off the condition at the first condition marker after the verb.
	cut := conditionCut(lower)
	if cut > 0 && (invariant(lower[:cut]) || inquiry(lower, cut)) {
		// "make sure mount_computers is only called when data is found":
		// the condition belongs to what must hold, not to when to act.
		cut = -1
	}
	if cut > 0 {
		a.Condition = strings.TrimSpace(s[cut:])
		a.Text = trimTrailingJoiners(s[:cut])
		lower = lower[:cut]
	}
	// A leading condition: "once the build is green, re-run the tests".
	if a.Condition == "" {
		for _, m := range conditionMarkers {
			if strings.HasPrefix(lower, m+" ") {
				if c := strings.Index(lower, ","); c > 0 {
					a.Condition = strings.TrimSpace(s[:c])
					a.Text = strings.TrimSpace(s[c+1:])
					lower = FoldText(a.Text)
				}
				break
			}
		}
	}
	for _, w := range deferralWords {
		if HasPhrase(lower, w) {
			a.Deferred = true
		}
	}
	if a.Condition != "" {
		a.Deferred = true
	}
	// Identifiers are checked verbatim as identifier items; in the action's
	// words they would only crowd out its object ("update the region
	// config (config/regions/north_sea.yaml)"). An action whose object is
	// nothing but an identifier keeps it.
	plain, ids := withoutIdents(a.Text)
	for _, id := range ids {
		if id.Class == ClassPR || id.Class == ClassTicket || id.Class == ClassSHA {
			a.IDs = append(a.IDs, id)
		}
	}
	toks := SkipLight(Tokenize(plain))
	if !SpecificObject(toks) {
		toks = SkipLight(Tokenize(a.Text))
	}
	for len(toks) > 1 && toks[0].Term == "" && !Prepositions[toks[0].Word] {
		toks = toks[1:] // "the tests must pass": start at a content word
	}
	if len(toks) == 0 {
		return a
	}
	a.Verb = toks[0].Term
	if a.Verb == "" {
		a.Verb = TermOf(toks[0].Word)
	}
	// The head noun is the last specific content word before the first
	// preposition; when the words before it are all generic ("files under
	// vendor/"), the first specific word after it.
	headFixed, after, prepSeen := false, "", false
	for _, t := range toks[1:] {
		if Prepositions[t.Word] {
			prepSeen = true
			if a.Head != "" {
				headFixed = true
			}
		}
		if t.Term == "" {
			continue
		}
		a.Object = AppendUnique(a.Object, t.Term)
		if !headFixed && !prepSeen {
			a.Direct = AppendUnique(a.Direct, t.Term)
		}
		switch {
		case GenericTerm[t.Term] || HasDigit(t.Word):
			// Generic words and ids (a SHA, a version) are not head nouns:
			// ids are checked verbatim as identifier items.
		case !headFixed:
			a.Head = t.Term
		case after == "":
			after = t.Term
		}
	}
	if a.Head == "" {
		a.Head = after
	}
	// "bump the lodash dependency": a paraphrase may drop the category
	// noun ("upgrade lodash") or rephrase the modifier ("e2e tests"), so
	// either stands for the head.
	if categoryTerm[a.Head] {
		for i := len(a.Direct) - 1; i >= 0; i-- {
			t := a.Direct[i]
			if t == a.Head || GenericTerm[t] || categoryTerm[t] || HasDigit(t) {
				continue
			}
			a.Alt = t
			break
		}
	}
	if a.Head == "" && len(a.Object) > 0 {
		a.Head = a.Object[len(a.Object)-1]
	}
	for i, t := range toks {
		if i > 0 && t.Name && t.Term != "" {
			a.Names = AppendUnique(a.Names, t.Term)
		}
	}
	a.computeMods()
	return a
}

// SpecificObject reports whether the words after the verb hold one that is
// neither generic nor a category noun.
func SpecificObject(toks []Token) bool {
	for i, t := range toks {
		if i > 0 && t.Term != "" && !GenericTerm[t.Term] && !categoryTerm[t.Term] {
			return true
		}
	}
	return false
}

// withoutIdents blanks out the identifiers of s (paths, URLs, PR numbers,
// tickets, commits) and returns them.
func withoutIdents(s string) (string, []Ident) {
	ids := ExtractIdents(s)
	out := s
	for _, id := range ids {
		if id.Class == ClassBranch {
			continue
		}
		out = strings.ReplaceAll(out, id.Value, strings.Repeat(" ", len(id.Value)))
	}
	return out, ids
}

func SkipLight(toks []Token) []Token {
	for changed := true; changed && len(toks) > 0; {
		changed = false
		for _, lv := range lightVerbs {
			if len(toks) <= len(lv) {
				continue
			}
			match := true
			for i, w := range lv {
				if toks[i].Word != w {
					match = false
					break
				}
			}
			if match {
				toks = toks[len(lv):]
				changed = true
				break
			}
		}
	}
	return toks
}

// categoryTerm holds nouns that name a kind of thing rather than the thing:
// in "the billing service" or "the login page" the modifier is specific.
var categoryTerm = TermSet("dependency", "package", "library", "lib", "module", "function", "method",
	"class", "endpoint", "route", "service", "component", "page", "script", "job", "suite", "folder",
	"directory", "command", "flag", "option", "setting", "variable", "config", "tool", "crate", "gem",
	"plugin", "helper", "util", "field", "column", "type", "struct", "interface", "test", "check",
	"workflow", "pipeline", "image", "container", "server", "client", "api", "feature", "branch")

// Mods returns the direct object's specific modifiers: its words other
// than the head (and its alternative), generic words and ids.
func (a Action) Mods() []string { return a.ModTerms }

func (a *Action) computeMods() {
	a.ModTerms = nil
	for _, t := range a.Direct {
		if t == a.Head || t == a.Alt || t == a.Verb || GenericTerm[t] || categoryTerm[t] || HasDigit(t) {
			continue
		}
		a.ModTerms = append(a.ModTerms, t)
	}
}

func HasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func AppendUnique(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
}

// commitment is a commitment found in a sentence of assistant text.
type Promise struct {
	Sentence string
	Action   Action
}

// FindPromises returns the commitments stated in assistant text: the
// sentences with commitment phrasing ("I will", "I'll", "next I need to",
// "still have to", "TODO:", "remaining:", a clause-initial "will"), each
// split into action and condition. Negated ("I will not re-run"), hedged
// ("I can", "if you want") and interrogative sentences are not commitments.
func FindPromises(text string) []Promise {
	var out []Promise
	for _, sn := range Sentences(text) {
		s := text[sn.Start:sn.End]
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
		// The passive voice puts the object first: "the old carrier's
		// routing still has to be switched off by us" is "switched off the
		// old carrier's routing".
		if p, ok := passiveAction(s[:pos], rest); ok {
			rest = p
		}
		// Several actions joined by "and then" / ", then" are separate
		// obligations; each is kept.
		for _, part := range splitActions(rest) {
			a := ParseAction(part)
			if a.Verb == "" || copula(part) {
				continue // "I'll be honest", "we will have to see": not actions
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

func copula(part string) bool {
	f := strings.Fields(strings.ToLower(part))
	return len(f) > 0 && (f[0] == "be" || f[0] == "have" && (len(f) == 1 || f[1] != "to"))
}

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

// conditionCut is where the first condition marker after the start of an
// action phrase begins, or -1.
func conditionCut(lower string) int {
	cut := -1
	for _, m := range conditionMarkers {
		if i := markerAt(lower, m); i > 0 && (cut < 0 || i < cut) {
			cut = i
		}
	}
	return cut
}

// inquiry reports whether the marker at cut opens the object of a question
// ("check if the layout renders flash", "see when the job last ran"), not a
// condition on the action.
func inquiry(lower string, cut int) bool {
	if !strings.HasPrefix(lower[cut:], "if ") && !strings.HasPrefix(lower[cut:], "when ") {
		return false
	}
	words := strings.Fields(lower[:cut])
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	switch words[len(words)-1] {
	case "check", "see", "verify", "confirm", "test", "ask", "out", "investigate", "determine", "know", "tell", "decide", "look":
		return true
	}
	return false
}

// invariant reports whether an action is a check that a clause holds
// ("make sure the cache is only warmed on deploy"), not a deed.
func invariant(lower string) bool {
	for _, cue := range []string{"make sure ", "ensure ", "be sure "} {
		if rest, ok := strings.CutPrefix(lower, cue); ok {
			for _, cop := range []string{" is ", " are ", " isn't ", " aren't ", " stays ", " remains ", " gets "} {
				if strings.Contains(" "+rest+" ", cop) {
					return true
				}
			}
		}
	}
	return false
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

// commitmentCue finds the earliest commitment cue in a folded sentence.
func commitmentCue(lower string) (int, string) {
	best, cue := -1, ""
	for _, c := range commitmentCues {
		i := phraseAt(lower, c)
		if i < 0 {
			continue
		}
		if c == "will" && !clauseStart(lower, i) {
			continue
		}
		if best < 0 || i < best || (i == best && len(c) > len(cue)) {
			best, cue = i, c
		}
	}
	return best, cue
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
	if strings.HasSuffix(before, " and") || before == "and" || strings.HasSuffix(before, " then") {
		return true
	}
	switch before[len(before)-1] {
	case ';', ',', ':', '-', '(':
		return true
	}
	return false
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
		if len(next) > 0 && knownVerbs[TermOf(next[0].Word)] {
			// Only split when the left side already has a verb of its own.
			return append([]string{s[:i]}, splitOnAndVerb(s[i+5:])...)
		}
		off = i + 5
	}
}

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
	}
	return m
}()
