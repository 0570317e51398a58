package verify

import "strings"

// foundConstraint is a standing instruction in a user message.
type foundConstraint struct {
	sentence string
	action   action
}

func (c foundConstraint) key() string { return c.action.key() }

// prohibitionCues make a constraint a prohibition ("never push to main").
var prohibitionCues = set("never", "don't", "dont", "do not", "avoid", "no more", "stop ", "under no circumstances")

// findConstraints returns the sentences of a user message that carry an
// imperative cue (always, never, don't, do not, must, make sure, from now
// on...): standing instructions that every later summary must keep.
// Questions are not instructions.
func findConstraints(text string) []foundConstraint {
	var out []foundConstraint
	for _, sn := range sentences(text) {
		s := text[sn.start:sn.end]
		if strings.HasSuffix(s, "?") {
			continue
		}
		lower := foldText(s)
		pos, cue := -1, ""
		for _, c := range constraintCues {
			if i := phraseAt(lower, strings.TrimSpace(c)); i >= 0 && (pos < 0 || i < pos) {
				pos, cue = i, strings.TrimSpace(c)
			}
		}
		if pos < 0 {
			continue
		}
		neg := prohibitionCues[cue] || prohibitionCues[cue+" "]
		// "must not", "make sure you never", "always avoid"
		after := strings.TrimSpace(lower[pos+len(cue):])
		for _, n := range []string{"not ", "never ", "n't ", "avoid "} {
			if strings.HasPrefix(after, n) {
				neg = true
			}
		}
		body := strings.TrimLeft(s[:pos]+" "+s[pos+len(cue):], " ,:;-")
		act := parseAction(stripPoliteness(body))
		act.negated = neg
		act.deferred = true
		if act.verb == "" {
			continue
		}
		out = append(out, foundConstraint{sentence: s, action: act})
	}
	return out
}

// stripPoliteness drops the addressing words around an instruction: "please",
// "you", "make sure you", so the action starts at its verb.
func stripPoliteness(s string) string {
	f := strings.Fields(s)
	for len(f) > 0 {
		switch strings.ToLower(strings.Trim(f[0], ",.:;")) {
		case "please", "you", "to", "we", "and", "also", "that", "not", "never", "ever", "should", "shall", "will", "must", "avoid":
			f = f[1:]
			continue
		}
		break
	}
	return strings.Join(f, " ")
}
