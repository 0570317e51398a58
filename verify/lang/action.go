package lang

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Action is the "what" of a commitment or constraint, parsed into the
// atoms matching needs: its verb, its object terms and the object's head
// noun. A condition ("after the schema diff is reviewed") is split off: the
// seed's failure is a summary that kept the condition and lost the action.
type Action struct {
	Text      string   // the action as written: "re-run the migration"
	Condition string   // "after the schema diff is reviewed", or ""
	Verb      string   // canonical term of the verb ("rerun")
	Object    []string // content terms after the verb
	Direct    []string // the object's terms before the first preposition
	ModTerms  []string // see mods
	IDs       []Ident  // PR, ticket and commit ids it names
	Paths     []string // the paths and URLs it names
	Names     []string // object words written like names ("Berlin", "CS101", "staging")
	Head      string   // head noun of the object ("migrat")
	Alt       string   // for a category head ("dependency"), its specific modifier ("lodash")
	// Complements are the object's prepositional phrases, in order: "for"
	// [inliner crash] in "add a regression test for the inliner crash".
	Complements []Complement
	// Own are the object's names written with digits and a joiner
	// ("av1-workers", "ami-0b7e4d2c9a1f3e5d6"): a call naming one works
	// on this thing and no other.
	Own      []string
	Means    *Action // how it is done: "pre-tokenise the logs" of "optimise the loader by pre-tokenising the logs"
	Negated  bool    // a prohibition: "never push to main"
	Deferred bool    // waits for something or for later (durable)
	// Many: the object is many files or places ("all 65 test files",
	// "every handler"), which no single file's edit carries out.
	Many bool
}

// manyRe matches an object of many files or places.
var manyRe = LazyRegexp(`(?i)\b(all|every|each)\b[^.;]{0,40}\b(files|tests|handlers|modules|routes|components|pages|endpoints|services|packages|providers|callers|call sites|places)\b|\b([2-9]|[1-9]\d+)\s+(\w+\s+){0,2}(files|tests|handlers|modules|routes|components|pages|endpoints|services|packages|providers|callers|call sites|places)\b`)

// Terms returns the verb and object terms.
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
	var b strings.Builder
	if a.Negated {
		b.WriteString("never")
	}
	prevCJK := false
	for _, t := range Tokenize(a.Text) {
		if t.Term == "" {
			continue
		}
		r, _ := utf8.DecodeRuneInString(t.Word)
		// Characters of a CJK word are one token each; the key writes
		// them together, as the language does.
		if b.Len() > 0 && !(prevCJK && isCJK(r)) {
			b.WriteByte(' ')
		}
		b.WriteString(t.Word)
		prevCJK = isCJK(r)
	}
	return b.String()
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
	a := Action{Text: s, Many: manyRe.MatchString(s)}
	lower := a.splitCondition(s)
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
	plain, ids := withoutIdents(withoutParens(a.Text))
	for _, id := range ids {
		switch id.Class {
		case ClassPR, ClassTicket, ClassSHA:
			a.IDs = append(a.IDs, id)
		case ClassPath, ClassURL:
			a.Paths = append(a.Paths, id.Value)
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
	toks = verbFirst(toks)
	a.Verb = toks[0].Term
	if a.Verb == "" {
		a.Verb = TermOf(toks[0].Word)
	}
	a.parseObject(toks[1:])
	for i, t := range toks {
		if i > 0 && t.Name && t.Term != "" {
			a.Names = AppendUnique(a.Names, t.Term)
		}
	}
	a.computeMods()
	a.Means = means(a.Text)
	for _, t := range Tokenize(a.Text) {
		if len(t.Word) >= 5 && HasDigit(t.Word) && strings.ContainsAny(t.Word, "-_") && strings.IndexFunc(t.Word, unicode.IsLetter) >= 0 {
			a.Own = AppendUnique(a.Own, t.Term)
		}
	}
	return a
}

// means parses the means clause of an action ("optimise the dataloader |
// by pre-tokenising the March logs"): the call that does the means does
// the action, though it names neither the action's verb nor its object.
func means(s string) *Action {
	lower := FoldText(s)
	at := phraseAt(lower, "by")
	if at <= 0 {
		return nil
	}
	src := s
	if len(lower) != len(s) {
		src = lower // folding changed the lengths: offsets are the folded text's
	}
	rest := strings.TrimSpace(src[at+len("by"):])
	toks := Tokenize(rest)
	if len(toks) < 2 || !strings.HasSuffix(toks[0].Word, "ing") || len(toks[0].Word) < 6 {
		return nil // "by Friday", "by the team", "by using"
	}
	m := ParseAction(rest)
	if m.Verb == "" || m.Head == "" {
		return nil
	}
	return &m
}

// splitCondition splits the condition off the action text s: at the first
// condition marker after the verb ("re-run the migration | after the review"),
// or a leading one before a comma ("once the build is green, | re-run the
// tests"). It returns the folded text of the action.
func (a *Action) splitCondition(s string) string {
	lower := FoldText(s)
	cut := conditionCut(lower)
	if cut > 0 && (invariant(lower[:cut]) || inquiry(lower, cut) || apposition(lower[:cut]) || behaviour(lower[cut:])) {
		// "make sure mount_computers is only called when data is found":
		// the condition belongs to what must hold, not to when to act.
		cut = -1
	}
	if p := purposeAt(lower); cut > 0 && p > 0 && p < cut {
		// "fix the UI issues so we can test email login once CORS is
		// resolved": the condition is the purpose's, and the action is
		// what comes before the purpose.
		a.Text = trimTrailingJoiners(s[:p])
		return lower[:p]
	}
	if cut > 0 {
		a.Condition = strings.TrimSpace(s[cut:])
		a.Text = trimTrailingJoiners(s[:cut])
		return lower[:cut]
	}
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
	return lower
}

// purposeAt is the offset of a purpose clause in a lower-cased action
// (" so we can", " so that", " in order to"), or -1.
func purposeAt(lower string) int {
	best := -1
	for _, m := range []string{" so we can ", " so that ", " so i can ", " so you can ", " in order to "} {
		if i := strings.Index(lower, m); i > 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// parseObject reads the object after the verb: its terms, the direct
// object's, and the head noun. The head noun is the last specific content
// word before the first preposition; when the words before it are all
// generic ("files under vendor/"), the first specific word after it.
func (a *Action) parseObject(toks []Token) {
	headFixed, after, prepSeen := false, "", false
	for i, t := range toks {
		if Prepositions[t.Word] {
			a.Complements = append(a.Complements, Complement{Prep: t.Word})
		} else if n := len(a.Complements); n > 0 && t.Term != "" {
			a.Complements[n-1].Terms = append(a.Complements[n-1].Terms, t.Term)
		}
		if Prepositions[t.Word] || a.Head != "" && reducedRelative(toks, i) {
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
}

// reducedRelative reports whether toks[i] opens a participle that
// qualifies the noun before it: "the LR sweep | defined in
// configs/sweep_lr.toml", "the tests listed above". It ends the noun
// phrase as a preposition does, so "defined" is not the head.
func reducedRelative(toks []Token, i int) bool {
	t := toks[i]
	if !t.Past || i+1 >= len(toks) {
		return false
	}
	n := toks[i+1].Word
	return Prepositions[n] || n == "above" || n == "below" || n == "earlier" || n == "there" || n == "here"
}

// withoutParens blanks parenthetical remarks ("Fix deferred condensation
// (ACTIVE_COMMITTED → IDLE drops ActionCondense)"): they qualify the object
// and must not become its head. The identifiers in them are still found
// by withoutIdents from the original text. A text that is all remark is
// kept.
func withoutParens(s string) string {
	b := []byte(s)
	depth, any := 0, false
	for i, c := range b {
		switch {
		case c == '(':
			depth++
			b[i], any = ' ', true
		case c == ')' && depth > 0:
			depth--
			b[i] = ' '
		case depth > 0:
			b[i] = ' '
		}
	}
	if !any || strings.TrimSpace(string(b)) == "" {
		return s
	}
	return string(b)
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

// SkipLight drops the light verbs and adverbs that open an action
// ("start by", "go ahead and", "then"), so it starts at its real verb.
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

// HasDigit reports whether s has an ASCII digit.
func HasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// AppendUnique appends s to xs unless xs already holds it.
func AppendUnique(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
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

// dataStates are what a value is in a program's own case analysis.
var dataStates = WordSet("empty", "unknown", "null", "nil", "none", "missing", "invalid", "unset", "undefined", "zero",
	"negative", "blank", "absent", "malformed", "nan", "omitted", "unsupported")

// behaviour reports whether a "when"/"if" clause is a case the code under
// work handles ("fall back to the default agent when the agent type is
// empty or unknown", "return early if the input is nil"): what to build,
// not when to act.
func behaviour(cond string) bool {
	if !strings.HasPrefix(cond, "when ") && !strings.HasPrefix(cond, "if ") {
		return false
	}
	f := strings.Fields(strings.Trim(cond, ".,;:"))
	for i := 1; i+1 < len(f); i++ {
		if f[i] != "is" && f[i] != "are" && f[i] != "isn't" && f[i] != "aren't" {
			continue
		}
		j := i + 1
		if f[j] == "not" && j+1 < len(f) {
			j++
		}
		if dataStates[strings.Trim(f[j], ".,;:)")] {
			return true
		}
	}
	return false
}

// apposition reports whether the text before a marker ends with a dash or a
// colon: "investigate the actual issue — when the full suite runs, the page
// is closed" explains what the issue is; it sets no time to act.
func apposition(before string) bool {
	b := strings.TrimRight(before, " ")
	return strings.HasSuffix(b, "—") || strings.HasSuffix(b, "–") || strings.HasSuffix(b, " -") || strings.HasSuffix(b, ":")
}

// inquiry reports whether the marker at cut opens the object of a question
// ("check if the layout renders flash", "see when the job last ran"), not a
// condition on the action.
func inquiry(lower string, cut int) bool {
	if !strings.HasPrefix(lower[cut:], "if ") && !strings.HasPrefix(lower[cut:], "when ") && !strings.HasPrefix(lower[cut:], "whenever ") {
		return false
	}
	words := strings.Fields(lower[:cut])
	if len(words) == 0 {
		return false
	}
	if len(words) <= 3 && inquiryVerbs[words[len(words)-1]] {
		return true
	}
	// "understand what happens when files are stashed", "check how the
	// parser behaves if the input is empty": the clause is part of the
	// question, not a wait.
	if len(words) <= 8 && inquiryVerbs[words[0]] {
		for _, w := range words[1:] {
			if w == "what" || w == "how" || w == "whether" || w == "which" || w == "why" {
				return true
			}
		}
	}
	// "a caveat about the behaviour when a new prompt runs": the clause
	// says which situation a noun is about.
	return situationNouns[strings.Trim(words[len(words)-1], ",;:`'\"")]
}

// inquiryVerbs ask a question rather than do a deed.
var inquiryVerbs = WordSet("check", "see", "verify", "confirm", "test", "ask", "out", "investigate", "determine",
	"know", "tell", "decide", "look", "understand", "figure", "find", "explore", "examine", "learn", "trace", "debug", "inspect")

// situationNouns take a "when" or "if" clause that describes them ("the
// behaviour when", "the case if"): the clause is no condition on the action.
var situationNouns = WordSet("behavior", "behaviour", "behaviors", "behaviours", "case", "cases", "scenario",
	"scenarios", "situation", "situations", "happens", "happen", "logic", "handling", "flow")

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

// Complement is a preposition and the content terms of its phrase.
type Complement struct {
	Prep  string
	Terms []string
}

// CategoryTerm holds the nouns that name a kind of thing (see categoryTerm).
var CategoryTerm = categoryTerm

// verbFirst puts the infinitive a German (or Dutch-style) to-do ends with
// first, as English says it: "BrandBuilder Skill erstellen" is "erstellen
// BrandBuilder Skill", whose verb is create and whose object is the skill.
func verbFirst(toks []Token) []Token {
	n := len(toks)
	if n < 2 {
		return toks
	}
	last := strings.ToLower(toks[n-1].Word)
	if _, ok := foreignVerbs[last]; !ok {
		return toks
	}
	if _, ok := foreignVerbs[strings.ToLower(toks[0].Word)]; ok {
		return toks
	}
	out := make([]Token, 0, n)
	out = append(out, toks[n-1])
	return append(out, toks[:n-1]...)
}
