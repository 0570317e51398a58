package verify

// Items and summaries in different languages (DESIGN.md, "Rulings on
// wording"): a Spanish plan step is carried by an English summary that
// names the same table, path and ticket, though no word of one language
// matches a word of the other. Where nothing is shared, the summary cannot
// be judged from its words: the item is for a person to review, never a
// loss.

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// languageNames names the languages in a reason.
var languageNames = map[string]string{"en": "English", "zh": "Chinese", "es": "Spanish", "pt": "Portuguese", "fr": "French",
	"de": "German", "ja": "Japanese", "ko": "Korean", "vi": "Vietnamese", "ru": "Russian"}

// language is the summary's language, read once.
func (d *doc) language() string {
	if d.lang == "" {
		d.lang = lang.LanguageOf(d.text)
	}
	return d.lang
}

// crossLanguage re-reads a commitment or rule that its own words did not
// find in a summary written in another language: the summary carries it
// when a sentence there names what the item names (ids, paths, numbers,
// names, code); when the item names nothing a sentence shares, the item
// is marked CrossLanguage (review, not a loss).
func crossLanguage(d *doc, ir *ItemResult) {
	it := ir.Item
	if it.Kind != Commitment && it.Kind != Constraint || ir.Status == Retained || ir.Status == Flipped {
		return
	}
	src := it.Action
	if src == "" {
		src = it.Text
	}
	// The action is the language's own words; the sentence around it may
	// be mostly English names and paths ("stelle sicher, dass alle
	// Research Paper und Image generations …").
	il, sl := lang.LanguageOf(it.Text), d.language()
	if il == "en" && sl == "en" {
		il = lang.LanguageOf(src)
	}
	if il == sl {
		return
	}
	shareable := lang.Shared(src, src)
	best, bestN := -1, 0
	var bestShared []string
	if len(shareable) > 0 {
		for i := range d.units {
			u := &d.units[i]
			sh := lang.Shared(src, d.text[u.Start:u.End])
			if len(sh) > bestN {
				best, bestN, bestShared = i, len(sh), sh
			}
		}
	}
	// One shared name is enough only when it is all the item names.
	if best < 0 || bestN < min(2, len(shareable)) {
		ir.CrossLanguage = true
		ir.Why = fmt.Sprintf("the item is in %s and the summary in %s, and no sentence of it names what the item names (ids, paths, numbers, names): for a person to review, not a loss",
			languageNames[il], languageNames[sl])
		return
	}
	u := &d.units[best]
	pol := Neutral
	if len(u.toks) > 0 {
		pol, _ = d.polarity(u, -1, 0, len(u.toks)-1)
	}
	ir.Score = round2(float64(bestN) / float64(len(shareable)))
	ir.Evidence = d.evidence(candidate{unit: best}, pol)
	quoted := "“" + strings.Join(bestShared, "”, “") + "”"
	if it.Kind == Constraint && strings.HasPrefix(it.Key, "never ") != lang.ProhibitionIn(d.lower[u.Start:u.End]) {
		ir.Status = Weak
		ir.Why = fmt.Sprintf("the summary (in %s) names %s, but with the opposite sense (a prohibition lost or added)", languageNames[sl], quoted)
		return
	}
	if it.Kind == Commitment && pol == Negated {
		ir.Why = fmt.Sprintf("the summary (in %s) names %s only in a negated mention", languageNames[sl], quoted)
		return
	}
	if it.Kind == Commitment && pol == Done {
		ir.Status = Flipped
		ir.Why = fmt.Sprintf("the summary (in %s) names %s and presents it as done while the source has it open", languageNames[sl], quoted)
		return
	}
	ir.Status = Retained
	ir.Why = fmt.Sprintf("matched across languages (%s item, %s summary) through %s", languageNames[il], languageNames[sl], quoted)
}
