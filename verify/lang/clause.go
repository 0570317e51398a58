package lang

// FuturePassive reports whether the verb at vi is a participle after a
// modal "be": "to be added", "will be merged", "must be re-run".
func FuturePassive(toks []Token, vi int) bool {
	if vi < 2 || toks[vi-1].Word != "be" {
		return false
	}
	if toks[vi-2].Word == "to" && vi >= 3 && PastNeed(toks[vi-3].Word) {
		return false // "the old name needed to be renamed": past narrative
	}
	switch toks[vi-2].Word {
	case "to", "will", "would", "must", "should", "shall", "can", "could", "may", "might", "'ll", "needs", "need", "has", "have", "yet", "still":
		return true
	}
	return false
}

// PastNeed reports whether w, before "to", tells of a need in the past
// ("needed to", "had to"): narrative of work done, not work pending.
func PastNeed(w string) bool { return w == "needed" || w == "had" }

// IsConditionWord reports whether w opens a condition clause ("after",
// "once", "if"...).
func IsConditionWord(w string) bool {
	switch w {
	case "after", "once", "when", "whenever", "until", "before", "unless", "if":
		return true
	}
	return false
}
