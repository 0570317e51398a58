package lang

import "strings"

// PhraseSet is a list of phrases looked for in one text at once: First
// answers what asking HasPhrase of each in turn answers, in one pass over
// the text instead of one search per phrase. A phrase at word boundaries
// starts where a word does, so only the phrases beginning with the byte
// there are tried. Every assistant message of a run with open errors is
// asked for some fifty "moved on" phrases (errors_behind.go): fifty
// searches through each message were a tenth of the sweep's time at 1 GB
// of the mixed shape.
type PhraseSet struct {
	phrases []string
	byFirst [256][]int // the phrases starting with a word byte, by that byte, in list order
	other   []int      // the rest, asked of HasPhrase
}

// NewPhraseSet makes the set of phrases, in their order; none is empty.
func NewPhraseSet(phrases ...string) *PhraseSet {
	s := &PhraseSet{phrases: phrases}
	for k, p := range phrases {
		if isWordByte(p[0]) {
			s.byFirst[p[0]] = append(s.byFirst[p[0]], k)
		} else {
			s.other = append(s.other, k)
		}
	}
	return s
}

// First returns the first phrase of the list that the lower-cased text
// holds at word boundaries (HasPhrase), or "" when it holds none.
func (s *PhraseSet) First(lower string) string {
	best := len(s.phrases)
	for _, k := range s.other {
		if k < best && HasPhrase(lower, s.phrases[k]) {
			best = k
		}
	}
	for i := 0; i < len(lower) && best > 0; i++ {
		if i > 0 && isWordByte(lower[i-1]) {
			continue
		}
		for _, k := range s.byFirst[lower[i]] {
			if k >= best {
				break
			}
			p := s.phrases[k]
			if end := i + len(p); strings.HasPrefix(lower[i:], p) && (end == len(lower) || !isWordByte(lower[end]) || !isWordByte(p[len(p)-1])) {
				best = k
				break
			}
		}
	}
	if best == len(s.phrases) {
		return ""
	}
	return s.phrases[best]
}
