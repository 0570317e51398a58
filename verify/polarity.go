package verify

import (
	"regexp"
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

var (
	pendingLabel = regexp.MustCompile(`(?i)^\W*(open|pending|todo|to do|to-do|next( steps?)?|remaining|still to do|(still )?left( to do)?|outstanding|blocked|in progress|follow[- ]?up|not yet done|waiting on)\s*[:\-–]`)
	doneLabel    = regexp.MustCompile(`(?i)^\W*(done|completed?|finished|resolved|fixed|shipped|merged)\s*[:\-–]`)
)

// auxDone are auxiliaries that make the next verb a completed action: "the
// migration has been re-run", "was merged".
var auxDone = lang.WordSet("has", "have", "had", "was", "were", "got", "is", "are", "been")

// polarity decides what unit u says about the matched action whose verb is at
// token index vi (-1 when the verb did not match) and whose match spans
// token indexes [lo, hi]. It returns the polarity and the cue that decided.
//
// Order of precedence: negation before the action; a line marker ([DONE],
// [ ], ✓); a label ("Pending:", "Done:"); the nearest cue word in the action's
// clause (the condition clause is ignored: "once the PR merges" does not make
// the action done); the past form of the action's own verb; the heading.
func (d *doc) polarity(u *unit, vi, lo, hi int) (Polarity, string) {
	toks := u.toks
	// The action's clause: stop at a condition marker after the match.
	end := len(toks)
	for j := hi + 1; j < len(toks); j++ {
		if lang.IsConditionWord(toks[j].Word) {
			end = j
			break
		}
	}
	// A parenthesis or a semicolon after the action starts a remark about
	// something else: "Add the skip link (the header refactor has merged)".
	if hi+1 < end {
		if k := strings.IndexAny(d.text[toks[hi].End:toks[end-1].End], "(;"); k >= 0 {
			cut := toks[hi].End + k
			for j := hi + 1; j < end; j++ {
				if toks[j].Start > cut {
					end = j
					break
				}
			}
		}
	}
	startAt := max(0, lo-6)
	// Cue words count only in the action's own clause: "once review is
	// done, then merge the PR" does not make the merge done.
	for j := lo - 1; j >= startAt; j-- {
		if toks[j].Word == "then" || strings.ContainsAny(d.text[toks[j].End:toks[j+1].Start], ",;") {
			startAt = j + 1
			break
		}
	}
	// The match sits inside a condition ("tag the release once the PR is
	// merged"): it speaks of something awaited, not of something done.
	for j := lo - 1; j >= 0 && j >= lo-8; j-- {
		// A comma, a semicolon or "then" ends the condition's clause:
		// "once review is done, then merge the PR" merges unconditionally.
		if w := toks[j].Word; w == "then" || w == "and" || w == "but" || strings.ContainsAny(d.text[toks[j].End:toks[j+1].Start], ",;") {
			break
		}
		if lang.IsConditionWord(toks[j].Word) {
			return Neutral, "in a condition"
		}
	}
	// Negation shortly before the action (or its verb).
	for j := max(0, lo-4); j < lo; j++ {
		w := toks[j].Word
		if w == "not" && j+1 < len(toks) && toks[j+1].Word == "yet" {
			return Pending, "not yet"
		}
		if lang.NegationCues[w] && !(w == "no" && j+1 < len(toks) && (toks[j+1].Word == "longer" || lang.IsDigit(toks[j+1].Word[0]))) {
			return Negated, w
		}
	}
	// Negation right before the verb inside the match: "the rigs will not
	// be re-exported", "do not need to be re-run".
	if vi > lo {
		for j := max(lo, vi-4); j < vi; j++ {
			w := toks[j].Word
			if (w == "not" || w == "never" || strings.HasSuffix(w, "n't")) && !(j+1 < len(toks) && toks[j+1].Word == "yet") {
				return Negated, w
			}
		}
	}
	// Negation after it, within the clause: "the re-run was cancelled".
	clause := d.lower[toks[lo].Start:toks[max(end-1, lo)].End]
	for _, n := range lang.PostNegations {
		if lang.HasPhrase(clause, n) {
			return Negated, n
		}
	}
	if u.marker != Neutral {
		return u.marker, "line marker"
	}
	line := d.text[u.Start:u.End]
	if head := line[:lang.CutUTF8(line, 48)]; strings.ContainsAny(head, ":-–") {
		if pendingLabel.MatchString(line) {
			return Pending, strings.TrimSpace(pendingLabel.FindString(line))
		}
		if doneLabel.MatchString(line) {
			return Done, strings.TrimSpace(doneLabel.FindString(line))
		}
	}
	if strings.ContainsAny(line, "[✓✔✅") && inlineDoneMark.MatchString(line) {
		return Done, "done marker"
	}
	// Nearest cue word in the clause.
	bestDist, best, cue := 1<<30, Neutral, ""
	consider := func(j int, p Polarity, c string) {
		dist := j - lo
		if j > hi {
			dist = j - hi
		} else if j >= lo {
			dist = 0
		}
		if dist < 0 {
			dist = -dist
		}
		if dist < bestDist || (dist == bestDist && p == Pending) {
			bestDist, best, cue = dist, p, c
		}
	}
	for j := startAt; j < end; j++ {
		w := toks[j].Word
		if d.own[w] && j >= lo && j <= hi {
			continue // part of the item's own wording
		}
		switch {
		case lang.PastNeed(w) && j+1 < end && toks[j+1].Word == "to" && (j == 0 || toks[j-1].Word != "still"):
			// "needed to be renamed", "had to revert": a past need.
		case j != vi && lang.PendingCues[w]:
			consider(j, Pending, w)
		case w == "still" || w == "yet" && j > 0 && toks[j-1].Word != "not":
			consider(j, Pending, w)
		case j != vi && lang.DoneCues[w]:
			consider(j, Done, w)
		}
		if j+1 < end {
			two := w + " " + toks[j+1].Word
			if lang.PendingCues[two] {
				consider(j, Pending, two)
			}
		}
	}
	if vi >= 0 {
		v := toks[vi]
		switch {
		case lang.FuturePassive(toks, vi):
			// "are to be added", "will be re-run", "needs to be merged".
			consider(vi, Pending, toks[vi-1].Word+" "+v.Word)
		case v.Past && !(vi > 0 && (toks[vi-1].Word == "to" || lang.PendingCues[toks[vi-1].Word])):
			consider(vi, Done, v.Word)
		case vi > 0 && auxDone[toks[vi-1].Word] && (v.Past || toks[vi-1].Word == "been"):
			consider(vi, Done, toks[vi-1].Word+" "+v.Word)
		}
	}
	if best != Neutral {
		return best, cue
	}
	if s := d.section(u); s != nil && s.Polarity != Neutral {
		return s.Polarity, "under “" + s.Heading + "”"
	}
	return Neutral, ""
}

// clauseText returns the lower-cased text of the clause of unit u that
// holds tokens lo..hi: it stops at a semicolon, or a comma followed by
// "and", "but" or "while".
func (d *doc) clauseText(u *unit, lo, hi int) string {
	start, end := u.Start, u.End
	text := d.lower
	for j := lo; j > 0; j-- {
		gap := text[u.toks[j-1].End:u.toks[j].Start]
		w := u.toks[j].Word
		if strings.Contains(gap, ";") || strings.Contains(gap, ",") && (w == "and" || w == "but" || w == "while") {
			start = u.toks[j].Start
			break
		}
	}
	for j := hi; j+1 < len(u.toks); j++ {
		gap := text[u.toks[j].End:u.toks[j+1].Start]
		w := u.toks[j+1].Word
		if strings.Contains(gap, ";") || strings.Contains(gap, ",") && (w == "and" || w == "but" || w == "while") {
			end = u.toks[j].End
			break
		}
	}
	if len(u.toks) == 0 || start >= end {
		return text[u.Start:u.End]
	}
	return text[start:end]
}

// negatedNear reports whether a negation cue appears in the unit before the
// match start (within a few words): used for constraints, whose sense is
// "never" or "always".
func negatedNear(u *unit, lo int) bool {
	for j := max(0, lo-5); j < lo; j++ {
		if lang.NegationCues[u.toks[j].Word] || u.toks[j].Word == "avoid" {
			return true
		}
	}
	return false
}
