package verify

import (
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// identMatch is how a summary carries an identifier.
type identMatch struct {
	found, weak bool
	span        Span
	why         string
}

// findIdent looks for id in the summary. shas are the source's commit SHAs,
// for the unique-prefix rule.
func (d *doc) findIdent(id lang.Ident, shas *shaSet) identMatch {
	s := d.text
	switch id.Class {
	case lang.ClassURL:
		if i := strings.Index(d.toLower(), strings.ToLower(id.Value)); i >= 0 && lang.BoundaryAfter(s, i+len(id.Value), lang.URLByte) {
			return identMatch{found: true, span: Span{i, i + len(id.Value)}}
		}
	case lang.ClassPR:
		n := id.Value[1:]
		for _, form := range []string{"#" + n, "PR " + n, "PR-" + n, "PR #" + n, "pull/" + n, "issues/" + n, "issue " + n, "!" + n} {
			if i := lang.FindBoundedLower(d.toLower(), form, func(c byte) bool { return lang.IsIdentByte(c) || c == '#' }, lang.IsDigit); i >= 0 {
				return identMatch{found: true, span: Span{i, i + len(form)}}
			}
		}
	case lang.ClassTicket, lang.ClassBranch:
		cls := func(c byte) bool {
			return lang.IsIdentByte(c) || c == '-' || (id.Class == lang.ClassBranch && (c == '/' || c == '.'))
		}
		if i := lang.FindBounded(s, id.Value, cls, func(c byte) bool {
			return lang.IsIdentByte(c) || (id.Class == lang.ClassBranch && (c == '/' || c == '-'))
		}, false); i >= 0 {
			return identMatch{found: true, span: Span{i, i + len(id.Value)}}
		}
	case lang.ClassSHA:
		return d.findSHA(id.Value, shas)
	case lang.ClassPath:
		return d.findPath(id.Value)
	}
	return identMatch{}
}

func (d *doc) findSHA(sha string, shas *shaSet) identMatch {
	for _, m := range lang.HexRe.FindAllStringIndex(d.text, -1) {
		if (m[0] > 0 && lang.IsIdentByte(d.text[m[0]-1])) || (m[1] < len(d.text) && lang.IsIdentByte(d.text[m[1]])) {
			continue
		}
		t := d.text[m[0]:m[1]]
		switch {
		case t == sha, len(t) > len(sha) && strings.HasPrefix(t, sha):
			return identMatch{found: true, span: Span{m[0], m[1]}}
		case len(t) < len(sha) && strings.HasPrefix(sha, t):
			if shas.prefixed(t, 2) <= 1 {
				return identMatch{found: true, span: Span{m[0], m[1]}}
			}
			return identMatch{weak: true, span: Span{m[0], m[1]}, why: "the summary's prefix " + t + " is not unique among the run's commits"}
		}
	}
	return identMatch{}
}

// findPath matches by whole trailing segments: "orders/store.go" carries
// "internal/orders/store.go"; "store.go" alone is weak evidence for a path
// with directories; "auth.ts" never matches "oauth.ts".
func (d *doc) findPath(p string) identMatch {
	// Case does not tell files apart for a reader (and on macOS and Windows
	// not for the file system either): "changelog.md" is CHANGELOG.md.
	want := lowerAll(lang.PathSegments(p))
	var weak identMatch
	for _, pc := range d.pathChunks() {
		m, got := pc.span, pc.lower
		if lang.SuffixOf(got, want) && (len(got) >= 2 || len(want) == 1) || lang.SuffixOf(want, got) {
			return identMatch{found: true, span: m}
		}
		if !weak.weak && got[len(got)-1] == want[len(want)-1] {
			weak = identMatch{weak: true, span: m, why: "only the file name " + got[len(got)-1] + " is mentioned"}
		}
	}
	// A bare file name is not a path chunk by itself unless it has an extension.
	return weak
}

func lowerAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}

// toLower is the summary lower-cased by strings.ToLower (not FoldText:
// its offsets may differ from the text's where a rune changes width, as
// searching strings.ToLower(text) always did), computed once.
func (d *doc) toLower() string {
	if !d.lowered {
		d.lowerCase, d.lowered = strings.ToLower(d.text), true
	}
	return d.lowerCase
}

// pathChunk is a path-like word of a summary, split into segments.
type pathChunk struct {
	span Span
	segs []string
	// lower are segs lower-cased (findPath compares them with every path
	// identifier open, at every compaction).
	lower []string
}

// pathChunks returns the summary's path-like words, found once per summary.
func (d *doc) pathChunks() []pathChunk {
	if d.paths == nil {
		d.paths = []pathChunk{}
		for _, m := range lang.PathChunks(d.text) {
			if c, ok := lang.NormPath(d.text[m[0]:m[1]], false); ok {
				segs := lang.PathSegments(c)
				d.paths = append(d.paths, pathChunk{Span{m[0], m[1]}, segs, lowerAll(segs)})
			}
		}
	}
	return d.paths
}

// findVerbatim finds an id (a call id, a job id) verbatim: the bytes before
// and after must not belong to the id's own character class, so call_1 is
// not found in call_12.
func (d *doc) findVerbatim(id string) (Span, bool) {
	if strings.TrimSpace(id) == "" {
		return Span{}, false // an empty id is in every text, and names nothing
	}
	cls := func(c byte) bool { return lang.IsIdentByte(c) || c == '-' }
	for off := 0; off < len(d.text); {
		i := lang.FindBounded(d.text[off:], id, cls, cls, false)
		if i < 0 {
			break
		}
		i += off
		if unitAt(d, i) >= 0 {
			return Span{i, i + len(id)}, true
		}
		off = i + len(id) // in the runtime's framing: look further
	}
	return Span{}, false
}

// boundedWord returns the offsets in the summary where word, a run of
// identifier bytes only, is found as lang.FindBounded(…, lang.IsIdentByte,
// lang.IsIdentByte, false) finds it, in order: where it is a whole run of
// identifier bytes. ok is false for a word with another byte in it, which
// the caller searches for itself. The runs are listed once per summary: a
// run that keeps thousands of errors open looked for each of their words
// through the whole summary at every compaction.
func (d *doc) boundedWord(word string) (at []int, ok bool) {
	if word == "" {
		return nil, false
	}
	for i := 0; i < len(word); i++ {
		if !lang.IsIdentByte(word[i]) {
			return nil, false
		}
	}
	if d.identRuns == nil {
		d.identRuns = map[string][]int{}
		s := d.text
		for i := 0; i < len(s); {
			if !lang.IsIdentByte(s[i]) {
				i++
				continue
			}
			j := i + 1
			for j < len(s) && lang.IsIdentByte(s[j]) {
				j++
			}
			d.identRuns[s[i:j]] = append(d.identRuns[s[i:j]], i)
			i = j
		}
	}
	return d.identRuns[word], true
}

// boundedAll returns the offsets in the summary where tok is found by
// repeated lang.FindBounded(…, lang.IsIdentByte, lang.IsIdentByte, false)
// calls, each from the end of the match before (bestUnit's loop): the
// whole, non-overlapping mentions of tok, in order. A token that starts
// with an identifier byte can only start where a run of them starts,
// the run its own first one ("services" of services/billing/x.go:12), so
// only those places are tried; any other is searched through the text.
// The answers are kept per summary: a run that keeps thousands of errors
// open looks for the same file and symbol of many of them, at every
// compaction (the mixed shape).
func (d *doc) boundedAll(tok string) []int {
	if at, ok := d.boundedWord(tok); ok || tok == "" {
		return at
	}
	if at, ok := d.boundedTok[tok]; ok {
		return at
	}
	var at []int
	if lang.IsIdentByte(tok[0]) {
		k := 1
		for k < len(tok) && lang.IsIdentByte(tok[k]) {
			k++
		}
		first, _ := d.boundedWord(tok[:k])
		end := 0 // the end of the mention before: mentions do not overlap
		for _, i := range first {
			if i >= end && strings.HasPrefix(d.text[i:], tok) && lang.BoundaryAfter(d.text, i+len(tok), lang.IsIdentByte) {
				at = append(at, i)
				end = i + len(tok)
			}
		}
	} else {
		for off := 0; off < len(d.text); {
			i := lang.FindBounded(d.text[off:], tok, lang.IsIdentByte, lang.IsIdentByte, false)
			if i < 0 {
				break
			}
			at = append(at, off+i)
			off += i + len(tok)
		}
	}
	if d.boundedTok == nil {
		d.boundedTok = map[string][]int{}
	}
	d.boundedTok[tok] = at
	return at
}
