package lang

import "strings"

// WordTerms returns the terms of s, with the parts of hyphenated and
// underscored words too ("bake_lightmaps" gives bake and lightmap).
func WordTerms(s string) []string {
	var out []string
	for _, t := range Tokenize(s) {
		if t.Term != "" {
			out = AppendUnique(out, t.Term)
		}
		if strings.ContainsAny(t.Word, "_-") {
			for _, part := range strings.FieldsFunc(t.Word, func(r rune) bool { return r == '_' || r == '-' }) {
				if pt := TermOf(part); !stopWords[part] && pt != "" {
					out = AppendUnique(out, pt)
				}
			}
		}
	}
	return out
}

// ContainsAny reports whether s contains any of subs.
func ContainsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// TermSet makes a set of the words' matching terms.
func TermSet(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[TermOf(w)] = true
	}
	return m
}

// ContainsFoldASCII reports whether s contains the lower-case ASCII word w,
// ignoring ASCII case, without allocating.
func ContainsFoldASCII(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for j < len(w) && (s[i+j]|0x20) == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// CutUTF8 returns the largest n ≤ max with s[:n] ending at a rune boundary.
func CutUTF8(s string, max int) int {
	if len(s) <= max {
		return len(s)
	}
	n := max
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}
