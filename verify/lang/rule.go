package lang

import "strings"

// Rule is a standing instruction in a user message.
type Rule struct {
	// Sentence is the sentence that states it, as written; Clause the part
	// of it that is the rule.
	Sentence, Clause string
	Action           Action
	// relayed: the user reports someone else's rule ("the platform team
	// says ..."); it is the user's unless the message distances them.
	relayed bool
}

// Key is the rule's normalized instruction.
func (c Rule) Key() string { return c.Action.Key() }

// prohibitionCues make a constraint a prohibition ("never push to main").
var prohibitionCues = WordSet("never", "don't", "dont", "do not", "avoid", "no more", "under no circumstances")

// FindRules returns the standing instructions of a user message: each
// clause with an imperative cue (always, never, don't, must, make sure,
// ensure, from now on, only ..., until I say otherwise...), as the user wrote
// it. Several rules joined by a semicolon, a dash or "but" are separate
// rules. Not rules: the user's pasted material (fenced code, quotes,
// injected tags, documents), questions and requests ("can you ...?"),
// descriptions ("we use X but don't change Y", "it must be the cache"), a
// one-shot instruction about the thing at hand ("make sure it's in the
// Troy project"), and a bullet specifying what to build ("- must be
// controlled by configuration").
func FindRules(text string) []Rule {
	own := OwnWords(text)
	msgLang := LanguageOf(own)
	var out []Rule
	for _, sn := range Sentences(own) {
		// A label before the rule ("Rule from now on:", "Constraint:")
		// is not part of it: its key and match are the instruction.
		sn.Start += trimLabel(own[sn.Start:sn.End])
		s := own[sn.Start:sn.End]
		if strings.TrimSpace(s) == "" {
			continue
		}
		if l := SentenceLanguage(s, msgLang); l != "en" {
			out = append(out, foreignRules(s, l)...)
			continue
		}
		lower := FoldText(s)
		q := questionLead(lower)
		if strings.HasSuffix(strings.TrimSpace(s), "?") && q < 0 || asks(lower) || suggests(lower) {
			continue
		}
		for _, cl := range ruleClauses(s, lower) {
			cl.request = q >= 0
			if q >= 0 && cl.start < q {
				// The request itself ("can you ..."): only a rule asked
				// for right after it counts ("can you make sure ...").
				if cl.end <= q {
					continue
				}
				cl.start = q
			}
			if r, ok := ruleIn(text[sn.Start+cl.start:sn.Start+cl.end], cl); ok {
				r.Sentence = strings.TrimSpace(text[sn.Start:sn.End])
				if r.relayed && distanced(lower) {
					continue // "…says never deploy on Fridays, but that's not our concern"
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// suggests reports whether a sentence offers an idea rather than instructs
// ("Alternatively, … we could create a new writer (instead of … only
// writing differently)"): a hedge is no standing rule (DESIGN.md).
func suggests(lower string) bool {
	t := strings.TrimLeft(lower, " -*•>")
	if strings.HasPrefix(t, "alternatively") || strings.HasPrefix(t, "maybe ") || strings.HasPrefix(t, "perhaps ") {
		return true
	}
	for _, h := range []string{"we could", "you could", "i could", "we might", "you might", "one option", "an option would"} {
		if HasPhrase(lower, h) {
			return true
		}
	}
	return false
}

// clause is a part of a sentence that may hold one rule.
type clause struct {
	start, end int
	// shared: the clause continues one whose subject is a third person or
	// "we" ("we use git add but don't change the tree"): a cue at its start
	// describes that subject.
	shared bool
	// request: the clause is part of a request ("can you ..."); only a cue
	// of general scope makes it a standing rule.
	request bool
}

// ruleClauses splits a sentence at semicolons, dashes and the conjunctions
// that join two instructions.
func ruleClauses(s, lower string) []clause {
	var out []clause
	start, shared := 0, false
	for i := 0; i < len(lower); i++ {
		sep := 0
		joins := false
		switch {
		case lower[i] == ';':
			sep = 1
		case strings.HasPrefix(lower[i:], " - "):
			// A dash between spaces; FoldText writes "—" as "-" and two
			// spaces, so the clause starts after every space that follows.
			sep = 2
			for i+sep < len(lower) && lower[i+sep] == ' ' {
				sep++
			}
		case strings.HasPrefix(lower[i:], ", but "), strings.HasPrefix(lower[i:], ", and "), strings.HasPrefix(lower[i:], ", so "):
			sep, joins = strings.IndexByte(lower[i+2:], ' ')+3, true
		case strings.HasPrefix(lower[i:], " but "):
			sep, joins = 5, true
		}
		if sep == 0 {
			continue
		}
		out = append(out, clause{start: start, end: i, shared: shared})
		shared = joins && describesSubject(lower[start:i])
		start = i + sep
		i = start - 1
	}
	return append(out, clause{start: start, end: len(s), shared: shared})
}

// describesSubject reports whether a clause has a subject that is not the
// agent addressed ("we", "it", "they"...): what follows it with a bare
// "don't" or "never" shares that subject and describes it.
func describesSubject(lower string) bool {
	for _, w := range strings.Fields(lower) {
		switch strings.Trim(w, ",.`'\"()") {
		case "we", "they", "it", "he", "she", "there", "it's", "we're", "they're":
			return true
		}
	}
	return false
}

// questionLead returns where the request a sentence opens with ends ("can
// you", "could we", "would you please"), or -1 when it opens with none.
func questionLead(lower string) int {
	t := strings.TrimLeft(lower, " -*>")
	off := len(lower) - len(t)
	for _, p := range []string{"ok, ", "ok ", "so ", "and ", "also ", "hey, ", "hmm, ", "now "} {
		if strings.HasPrefix(t, p) {
			t, off = t[len(p):], off+len(p)
		}
	}
	// A request to the addressee may ask for a rule ("can you make sure
	// ..."); other questions ("should we always ...?") only ask.
	for _, q := range []string{"can you ", "could you ", "would you ", "will you "} {
		if strings.HasPrefix(t, q) {
			n := off + len(q)
			if strings.HasPrefix(lower[n:], "please ") {
				n += len("please ")
			}
			return n
		}
	}
	return -1
}

// asks reports whether a sentence opens as a question, with or without its
// question mark ("can we check what happens...").
func asks(lower string) bool {
	t := strings.TrimLeft(lower, " -*>")
	for _, q := range []string{"can we ", "could we ", "should we ", "shall we ", "do you ", "did you ", "is it ", "is there ",
		"are there ", "does it ", "do we ", "why ", "how ", "what ", "which ", "where ", "when did ", "have you ", "has it "} {
		if strings.HasPrefix(t, q) {
			return true
		}
	}
	return false
}

// ruleIn reads the rule a clause states, if it states one.
func ruleIn(raw string, cl clause) (Rule, bool) {
	// "i forgot to add the ssh key - never mind!": an idiom that takes a
	// remark back, no prohibition (the same length: offsets hold).
	lower := strings.ReplaceAll(FoldText(raw), "never mind", "nevermind ")
	lower = idioms.Replace(lower)
	pos, cue := -1, ""
	for _, c := range constraintCues {
		c = strings.TrimSpace(c)
		i := phraseAt(lower, c)
		if i < 0 || !instructionCue(lower, i, c, cl.shared) || cl.request && !generalCues[c] {
			continue
		}
		if pos < 0 || i < pos {
			pos, cue = i, c
		}
	}
	if pos < 0 {
		return Rule{}, false
	}
	trimmed := strings.TrimLeft(lower, " -*•>0123456789.)")
	if strings.HasPrefix(trimmed, "must be ") || strings.HasPrefix(trimmed, "should be ") || strings.HasPrefix(trimmed, "needs to be ") {
		return Rule{}, false // "- must be controlled by configuration": what to build
	}
	neg := prohibitionCues[cue] || cue == "stop" || strings.HasPrefix(cue, "is ") || strings.HasPrefix(cue, "are ")
	// "Don't forget to update the changelog" is an obligation, not a prohibition.
	if rest := strings.TrimSpace(lower[pos+len(cue):]); neg && (strings.HasPrefix(rest, "forget to ") || strings.HasPrefix(rest, "forget ")) {
		neg = false
		cue += " forget to"
		if !strings.HasPrefix(rest, "forget to ") {
			cue = strings.TrimSuffix(cue, " to")
		}
	}
	// "must not", "make sure you never", "always avoid"
	after := strings.TrimLeft(lower[pos+len(cue):], " ,;:-")
	for _, lead := range []string{"you ", "to ", "that ", "we ", "it's ", "it is "} {
		after = strings.TrimPrefix(after, lead) // "make sure you never touch prod"
	}
	for _, n := range []string{"not ", "never ", "n't ", "avoid ", "don't ", "do not "} {
		if strings.HasPrefix(after, n) {
			neg = true
		}
	}
	if oneShot(lower[pos+len(cue):]) || demonstrative(lower[:pos]) {
		return Rule{}, false
	}
	if neg && notKnowing(after) {
		return Rule{}, false // "(don't know if they should share a base, feel free to …)": a doubt
	}
	if (cue == "please use" || cue == "please keep") && deictic(lower[pos:]) {
		return Rule{}, false // "please use the format of the diagrams above": this piece of work
	}
	if cue == "every time" || cue == "each time" {
		return everyTime(raw, pos, cue, neg)
	}
	end := min(pos+len(cue), len(raw))
	keep := ""
	if verbCues[cue] {
		keep = raw[pos:end] // the cue is the rule's own verb: "please use X", "keep it local"
		keep = strings.TrimPrefix(strings.TrimPrefix(keep, "please "), "Please ")
	}
	// What comes before the cue is the rule's subject ("tests must pass"),
	// unless a comma or colon ends it ("A is fine, ensure we log").
	subject := raw[:pos]
	if k := strings.LastIndexAny(subject, ",:"); k >= 0 {
		subject = subject[k+1:]
	}
	relayed := relaying(lower[:pos])
	if relayed {
		subject = "" // "the platform team says never ...": the rule is what they say
	}
	if f := strings.Fields(strings.ToLower(subject)); len(f) == 1 && !subjectWord(f[0]) && prohibitionCues[cue] {
		subject = "" // "plase don't ...": no subject, a word before the imperative
	}
	body := strings.TrimRight(strings.TrimLeft(subject+" "+keep+raw[end:], " ,:;-"), " ?")
	// The rule, not its rationale: "Don't change the public expand()
	// signature because three downstream apps pin to it."
	body = cutRationale(body)
	act := ParseAction(stripPoliteness(body))
	// A negation anywhere in the rule makes it a prohibition ("make sure
	// gift card balances are never shown"); the summary side is read the
	// same way, so a verbatim restatement always has the same sense.
	act.Negated = neg || ProhibitionIn(strings.ReplaceAll(strings.ReplaceAll(lower, "don't forget", ""), "do not forget", ""))
	act.Deferred = true
	if act.Verb == "" {
		return Rule{}, false
	}
	return Rule{Action: act, Clause: strings.TrimSpace(raw), relayed: relayed}, true
}

// everyTime reads a rule phrased as lasting by "every time": "Every time
// you change the schema, regenerate the types" and "Regenerate the types
// every time you change the schema" both instruct to regenerate the types,
// on the condition of a schema change.
func everyTime(raw string, pos int, cue string, neg bool) (Rule, bool) {
	var action, cond string
	if strings.TrimSpace(raw[:pos]) == "" {
		k := strings.Index(raw[pos:], ", ")
		if k < 0 {
			return Rule{}, false
		}
		action, cond = raw[pos+k+2:], raw[pos:pos+k]
	} else {
		action, cond = raw[:pos], raw[pos:]
	}
	// "It fails every time I run it" describes: the action must open
	// with its verb, not a subject.
	f := strings.Fields(strings.ToLower(strings.TrimLeft(action, " -*>")))
	if len(f) == 0 || subjectWord(f[0]) || demonstrative(strings.Join(f, " ")) {
		return Rule{}, false
	}
	switch f[0] {
	case "my", "our", "your", "their", "his", "her", "a", "an", "the":
		return Rule{}, false
	}
	act := ParseAction(stripPoliteness(cutRationale(strings.TrimSpace(action))))
	if act.Verb == "" {
		return Rule{}, false
	}
	act.Condition = strings.TrimSpace(strings.TrimRight(cond, " .!"))
	act.Negated = neg || ProhibitionIn(FoldText(action))
	act.Deferred = true
	return Rule{Action: act, Clause: strings.TrimSpace(raw)}, true
}

// relaying reports whether what precedes a rule's cue reports someone
// else's words: "the platform team says", "legal wants".
func relaying(before string) bool {
	f := strings.Fields(strings.TrimRight(before, " :,"))
	if len(f) < 2 {
		return false
	}
	switch f[len(f)-1] {
	case "says", "said", "insists", "wants", "requires", "told", "asked":
		return true
	}
	return false
}

// distanced reports whether a user message distances the user from a rule
// it relays: "…but that's not our concern", "that doesn't apply to us".
func distanced(lower string) bool {
	for _, p := range []string{"not our concern", "not my concern", "not our problem", "doesn't apply to us", "does not apply to us",
		"doesn't apply here", "does not apply here", "not relevant here", "not relevant to us", "we can ignore that", "you can ignore that",
		"ignore that part", "that's their rule", "their rule, not ours"} {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// imperativeVerbs are verbs users instruct with that knownVerbs lacks.
var imperativeVerbs = WordSet("use", "touch", "change", "modify", "call", "talk", "send", "write", "read", "work",
	"do", "make", "keep", "go", "ship", "allow", "accept", "return", "show", "log", "print", "ask", "answer")

// generalCues say a rule holds beyond the request it comes with: inside
// "can you ... and make sure X" only these make a standing rule.
var generalCues = WordSet("always", "never", "don't", "dont", "do not", "from now on", "going forward", "only ever",
	"until i say otherwise", "until further notice", "under no circumstances", "no more", "avoid",
	"for the rest of this session", "for the rest of the session", "every time", "each time")

// subjectWord reports whether w can be the subject a verb follows.
func subjectWord(w string) bool {
	switch w {
	case "i", "we", "you", "they", "it", "he", "she", "this", "that", "there", "these", "those", "who", "which", "what", "people", "users":
		return true
	}
	return false
}

// verbCues are cues that hold the rule's verb.
var verbCues = WordSet("please use", "please keep", "keep it", "keep them", "keep this", "keep everything",
	"stick to", "use only", "only")

// demonstrative reports whether a rule's subject points at the thing at
// hand ("this plan must be written so that..."): a requirement of that
// piece of work.
func demonstrative(subject string) bool {
	f := strings.Fields(subject)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "this", "that", "these", "those", "the":
		return f[0] != "the" || len(f) > 1 && (f[1] == "plan" || f[1] == "doc" || f[1] == "document" || f[1] == "pr" || f[1] == "commit" || f[1] == "file")
	}
	return false
}

// deictic reports whether a rule points at what is in front of the user
// ("the diagrams above", "this file", "here").
func deictic(s string) bool {
	for _, w := range strings.Fields(s) {
		switch strings.Trim(w, ",.!:;`'\"()") {
		case "above", "below", "here", "this", "these", "those", "same", "previous":
			return true
		}
	}
	return false
}

// oneShot reports whether what follows a cue is about the thing at hand:
// "make sure it's in Project: Troy", "don't touch it", "ensure this
// passes" instruct about one piece of work, not every later one.
func oneShot(rest string) bool {
	f := strings.Fields(strings.TrimLeft(rest, " ,;:-"))
	for len(f) > 0 && (f[0] == "to" || f[0] == "that" || f[0] == "you" || f[0] == "please") {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	switch strings.Trim(f[0], ",.!") {
	case "it", "it's", "its", "this", "this's", "that's", "these", "those", "they", "they're", "them":
		return true
	}
	// "don't touch it", "never merge this": a verb and a pronoun alone.
	if len(f) == 2 {
		switch strings.Trim(f[1], ",.!") {
		case "it", "this", "that", "them":
			return true
		}
	}
	return false
}

// cutRationale drops the reason a rule gives after a dash, a semicolon, a
// colon or "because"/"since": a summary keeps the rule and may drop why.
func cutRationale(s string) string {
	cut := len(s)
	// A comma before a clause with a subject of its own gives the reason
	// too: "don't use the gpu partition, our allocation there is nearly gone".
	for _, sep := range []string{" — ", " – ", " - ", "; ", ": ", " because ", " since ", " as it ", " as they ", " so that ", " (", ", since ", ", because ",
		", our ", ", its ", ", it's ", ", it is ", ", they're ", ", they are ", ", we're ", ", that's ", ", there's ", ", this is "} {
		if i := strings.Index(s, sep); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimSpace(s[:cut])
}

// instructionCue rejects descriptive uses of a cue: "it always fails on CI",
// "this never happened", "we don't change the tree", "it must be the cache"
// state facts, while "always run go vet", "you must not push", "don't edit
// the tests" and "never push to main" instruct. shared says the clause
// continues a described subject ("we use X but don't change Y").
func instructionCue(lower string, i int, cue string, shared bool) bool {
	before := strings.Fields(strings.TrimRight(lower[:i], " ,;:"))
	atStart := len(before) == 0 || strings.HasSuffix(strings.TrimSpace(lower[:i]), ",") || strings.HasSuffix(strings.TrimSpace(lower[:i]), ";")
	prev := ""
	if len(before) > 0 {
		prev = strings.Trim(before[len(before)-1], "`'\"()*")
	}
	if prev == "let's" || prev == "lets" || len(before) > 1 && before[len(before)-2] == "let" && prev == "us" {
		return false // "let's avoid duplication": a proposal for the work at hand
	}
	switch cue {
	case "always", "never", "don't", "dont", "do not":
		if atStart {
			return !shared || len(before) > 0
		}
		if len(before) == 1 && !subjectWord(prev) {
			return true // "plase don't rewrite the changelog": a word before the clause's imperative
		}
		switch prev {
		case "please", "you", "and", "but", "so", "should", "must", "will", "to", "also", "then", "just", "agent", "assistant", "said", "told":
			return true
		case "says", "say", "insists", "insist", "wants", "requires":
			return true // a relayed rule: "the platform team says never deploy on Fridays"
		case "we", "i":
			return cue == "always" || cue == "never" // "we always rebase" instructs; "I don't know" does not
		}
		return false
	case "must":
		switch prev {
		case "it", "this", "that", "there", "which", "who":
			return false // "it must be the cache": a guess
		}
		return !strings.HasPrefix(lower[i:], "must have ")
	case "only":
		// "only run X against Y", "only on staging" instruct; "only
		// index.html was included" describes.
		next := strings.Fields(lower[i+len(cue):])
		if len(next) == 0 || !(Prepositions[next[0]] || knownVerbs[TermOf(next[0])] || imperativeVerbs[next[0]]) {
			return false
		}
		return atStart || prev == "please" || prev == "and" || prev == "but" || prev == "so" || prev == "just"
	case "avoid":
		// "avoid force-pushes", "please always avoid npm" instruct; "using
		// UTC would be consistent and avoid timezone issues" and "to avoid
		// drift" say what something does or is for.
		switch {
		case atStart || len(before) == 1 && !subjectWord(prev):
			return true
		case prev == "and" || prev == "but" || prev == "so":
			for _, w := range before {
				switch w {
				case "would", "could", "might", "may", "will", "can", "should", "helps", "help", "which", "that":
					return false
				}
			}
			return true
		}
		switch prev {
		case "please", "always", "just", "also", "you", "must", "then":
			return true
		}
		return false
	case "stop":
		// "stop committing everything": a prohibition of the gerund.
		next := strings.Fields(lower[i+len(cue):])
		return (atStart || prev == "please" || prev == "just" || prev == "and" || prev == "so") && len(next) > 0 && strings.HasSuffix(next[0], "ing")
	case "ensure", "make sure":
		// "Non-Go languages to ensure the patterns hold", "this helps
		// ensure …": a purpose or what something does, not an order.
		switch prev {
		case "to", "will", "would", "can", "could", "helps", "help", "should", "might", "may":
			return false
		}
		return true
	case "no more":
		// "no more force pushes", "and no more mocks" forbid; "X is now
		// an alias (no more converter functions)" describes a change.
		return atStart || prev == "please" || prev == "and" || prev == "but" || prev == "so" || prev == "just"
	case "keep it", "keep them", "keep this", "keep everything", "please use", "please keep", "use only", "stick to":
		return atStart || prev == "please" || prev == "and" || prev == "but" || prev == "so" || prev == "just" || prev == "always"
	}
	return true
}

// stripPoliteness drops the addressing words around an instruction: "please",
// "you", "make sure you", so the action starts at its verb.
func stripPoliteness(s string) string {
	for _, lead := range []string{"make sure ", "Make sure ", "be sure ", "ensure "} {
		s = strings.TrimPrefix(strings.TrimSpace(s), lead)
	}
	f := strings.Fields(s)
	for len(f) > 0 {
		switch strings.ToLower(strings.Trim(f[0], ",.:;")) {
		case "please", "you", "to", "we", "and", "also", "that", "not", "never", "ever", "should", "shall", "will", "must", "avoid", "don't", "dont", "do":
			f = f[1:]
			continue
		}
		break
	}
	return strings.Join(f, " ")
}

// knowingVerbs after a negation say what the speaker knows or thinks, not
// what is forbidden.
var knowingVerbs = WordSet("know", "think", "care", "remember", "understand", "mind", "believe", "recall", "see", "get")

// notKnowing reports whether the words after a negation are a doubt or an
// opinion ("don't know if", "don't think it matters").
func notKnowing(after string) bool {
	f := strings.Fields(after)
	return len(f) > 0 && knowingVerbs[strings.Trim(f[0], ",.;:")]
}

// ProhibitionIn reports whether a lower-cased text forbids something
// (never, don't, must not, avoid, no...).
func ProhibitionIn(lower string) bool {
	for _, w := range []string{"never", "don't", "do not", "must not", "avoid", "no ", "not ", "forbidden", "prohibited", "banned", "disallowed",
		"nothing", "none", "cannot", "can't", "mustn't", "shouldn't", "off-limits", "off limits"} {
		if HasPhrase(lower, strings.TrimSpace(w)) {
			return true
		}
	}
	return foreignProhibition(lower)
}

// idioms are set phrases whose negation forbids nothing, each replaced by
// words of the same length (offsets into the clause hold): "show, don't
// tell" is advice on how to present a thing, not a prohibition on telling.
var idioms = strings.NewReplacer(
	"show, don't tell", "show, do    tell",
	"show don't tell", "show do    tell",
	"show, dont tell", "show, do   tell",
	"show dont tell", "show do   tell",
	"show, do not tell", "show, do     tell",
)
