package lang

import "strings"

// Rule is a standing instruction in a user message.
type Rule struct {
	Sentence string
	Action   Action
}

// Key is the rule's normalized instruction.
func (c Rule) Key() string { return c.Action.Key() }

// prohibitionCues make a constraint a prohibition ("never push to main").
var prohibitionCues = WordSet("never", "don't", "dont", "do not", "avoid", "no more", "under no circumstances")

// FindRules returns the sentences of a user message that carry an
// imperative cue (always, never, don't, do not, must, make sure, from now
// on...): standing instructions that every later summary must keep.
// Questions are not instructions.
func FindRules(text string) []Rule {
	var out []Rule
	for _, sn := range Sentences(text) {
		s := text[sn.Start:sn.End]
		if strings.HasSuffix(s, "?") {
			continue
		}
		lower := FoldText(s)
		pos, cue := -1, ""
		for _, c := range constraintCues {
			c = strings.TrimSpace(c)
			i := phraseAt(lower, c)
			if i < 0 || !instructionCue(lower, i, c) {
				continue
			}
			if pos < 0 || i < pos {
				pos, cue = i, c
			}
		}
		if pos < 0 {
			continue
		}
		neg := prohibitionCues[cue] || prohibitionCues[cue+" "] || strings.HasPrefix(cue, "is ") || strings.HasPrefix(cue, "are ")
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
		end := min(pos+len(cue), len(s))
		body := strings.TrimLeft(s[:pos]+" "+s[end:], " ,:;-")
		// The rule, not its rationale: "Don't change the public expand()
		// signature — three downstream apps pin to it."
		body = cutRationale(body)
		act := ParseAction(stripPoliteness(body))
		// A negation anywhere in the rule makes it a prohibition ("make sure
		// gift card balances are never shown"); the summary side is read the
		// same way, so a verbatim restatement always has the same sense.
		act.Negated = neg || ProhibitionIn(strings.ReplaceAll(strings.ReplaceAll(lower, "don't forget", ""), "do not forget", ""))
		act.Deferred = true
		if act.Verb == "" {
			continue
		}
		out = append(out, Rule{Sentence: s, Action: act})
	}
	return out
}

// cutRationale drops the reason a rule gives after a dash, a semicolon, a
// colon or "because"/"since": a summary keeps the rule and may drop why.
func cutRationale(s string) string {
	cut := len(s)
	for _, sep := range []string{" — ", " – ", " - ", "; ", ": ", " because ", " since ", " as it ", " as they ", " so that ", " (", ", since ", ", because "} {
		if i := strings.Index(s, sep); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimSpace(s[:cut])
}

// instructionCue rejects descriptive uses of a cue: "it always fails on CI"
// or "this never happened" state facts, while "always run go vet", "you must
// not push" and "never push to main" instruct. "always"/"never" instruct only
// at the start of a clause or after an addressee or modal.
func instructionCue(lower string, i int, cue string) bool {
	if cue != "always" && cue != "never" {
		return true
	}
	before := strings.Fields(strings.TrimRight(lower[:i], " ,;:"))
	if len(before) == 0 || strings.HasSuffix(strings.TrimSpace(lower[:i]), ",") || strings.HasSuffix(strings.TrimSpace(lower[:i]), ";") {
		return true
	}
	switch before[len(before)-1] {
	case "please", "you", "we", "and", "but", "so", "should", "must", "will", "to", "also", "then", "i", "agent", "assistant":
		return true
	}
	return false
}

// stripPoliteness drops the addressing words around an instruction: "please",
// "you", "make sure you", so the action starts at its verb.
func stripPoliteness(s string) string {
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

// ProhibitionIn reports whether a lower-cased text forbids something
// (never, don't, must not, avoid, no...).
func ProhibitionIn(lower string) bool {
	for _, w := range []string{"never", "don't", "do not", "must not", "avoid", "no ", "not ", "forbidden", "prohibited", "banned", "disallowed"} {
		if HasPhrase(lower, strings.TrimSpace(w)) {
			return true
		}
	}
	return false
}
