package lang

// Users write to agents in their own language (DESIGN.md, "Rulings on
// wording"). English is read by the full grammar of rule.go and promise.go;
// the other languages users of the runtimes write most are read by a small
// table of cue words each: what makes a sentence a standing rule, a promise,
// a completion claim, or pending work. Chinese, Japanese and Korean are
// written without spaces between words, so their cues are found as
// substrings and their text is tokenized one character at a time (Words).

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Languages lists the languages loupe reads, English first.
var Languages = []string{"en", "zh", "es", "pt", "fr", "de", "ja", "ko", "vi", "ru"}

// languageOfWord maps a function word to the languages it belongs to.
var languageOfWord = func() map[string][]string {
	m := map[string][]string{}
	for lang, ws := range functionWords {
		for _, w := range ws {
			m[w] = append(m[w], lang)
		}
	}
	return m
}()

// LanguageOf says which of Languages a text is written in: by script for
// Chinese, Japanese, Korean and Russian, by frequent words for the
// Latin-script languages. Code, paths and identifiers count for nothing;
// a text with no word of another language is English.
func LanguageOf(text string) string {
	// The first few kilobytes tell the language as well as the whole: a
	// long tool output or summary is not read twice for it.
	if len(text) > 3000 {
		text = text[:CutUTF8(text, 3000)]
	}
	var han, kana, hangul, cyr, latin, viet int
	for _, r := range text {
		if r < utf8.RuneSelf {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				latin++
			}
			continue
		}
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case strings.ContainsRune("ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ", unicode.ToLower(r)):
			viet++
		}
	}
	// A script other than Latin decides when it carries a fair share of
	// the letters: an English sentence quoting one Chinese word is English.
	cjk := han + kana + hangul
	switch {
	case kana > 0 && (kana+han)*2 >= latin/3:
		return "ja"
	case hangul > 0 && hangul*2 >= latin/3:
		return "ko"
	case han > 0 && han*2 >= latin/3:
		return "zh"
	case cyr > 0 && cyr >= latin:
		return "ru"
	case viet >= 2 && cjk == 0:
		return "vi"
	}
	if latin == 0 {
		return "en"
	}
	score, words := map[string]int{}, 0
	count := func(langs []string) {
		words++
		for _, lang := range langs {
			score[lang]++
		}
	}
	if isASCII(text) {
		// The same words, lower-cased one at a time without a lower-cased
		// copy of the text: every summary is read for its language.
		var buf [32]byte
		eachField(text, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '\'' || r == '_')
		}, func(w string) {
			if len(w) < 2 || HasDigit(w) || strings.Contains(w, "_") {
				return
			}
			if len(w) > len(buf) {
				count(languageOfWord[strings.ToLower(w)])
				return
			}
			b := buf[:len(w)]
			for i := 0; i < len(w); i++ {
				c := w[i]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				b[i] = c
			}
			count(languageOfWord[string(b)])
		})
	} else {
		eachField(strings.ToLower(text), func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '_')
		}, func(w string) {
			// Single letters and code (hex, ids) say nothing of the language.
			if utf8.RuneCountInString(w) < 2 || HasDigit(w) || strings.Contains(w, "_") {
				return
			}
			count(languageOfWord[w])
		})
	}
	best := "en"
	for _, l := range []string{"es", "pt", "fr", "de", "vi"} {
		// Another language must out-count English by a margin: many
		// function words are shared or look alike ("a", "no", "de").
		// Prose is a fifth function words or more; a log or a listing
		// of names that happens to hold a few is not prose of l.
		if score[l] >= 2 && score[l] > score[best]+1 && score[l] > score["en"]+1 && score[l]*6 >= words {
			best = l
		}
	}
	return best
}

// SentenceLanguage is the language of a sentence of a message written in
// msgLang: a short sentence has too few words to tell, and takes its
// message's language unless it holds English words of its own.
func SentenceLanguage(sentence, msgLang string) string {
	l := LanguageOf(sentence)
	if l != "en" || msgLang == "en" {
		return l
	}
	// A sentence of the message's language full of English names ("stelle
	// sicher, dass alle Research Paper und Image generations in einen
	// Unterordner gehen") counts as English by its words; a phrase of the
	// message's own that states a rule says whose sentence it is.
	if t := cueTables[msgLang]; t != nil && !isCJKLang(msgLang) {
		lower := FoldText(sentence)
		for _, cues := range [][]string{t.prohibit, t.oblige, t.lasting} {
			for _, c := range cues {
				if strings.Contains(strings.TrimSpace(c), " ") && HasPhrase(lower, c) {
					return msgLang
				}
			}
		}
	}
	for _, w := range strings.Fields(strings.ToLower(sentence)) {
		for _, lw := range languageOfWord[strings.Trim(w, ",.!:;")] {
			if lw == "en" {
				return "en"
			}
		}
	}
	return msgLang
}

// isCJK reports whether r is written without spaces between words.
func isCJK(r rune) bool {
	return r >= 0x2E80 && (r == 'ー' || unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul))
}

// foreignSentenceEnd holds the full-width sentence ends of CJK text.
var foreignSentenceEnd = []string{"。", "！", "？", "；"}

// trimLabel drops a label before an instruction: "Rule from now on:",
// "Constraint:", "Important:", "规则：", a bullet or a number. The rule is
// what follows it (DESIGN.md: a label does not change the rule). It
// returns the offset where the instruction starts.
func trimLabel(s string) int {
	i := len(s) - len(strings.TrimLeft(s, " \t-*•>#"))
	rest := s[i:]
	// A list number: "1. ", "2) ".
	if j := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); j > 0 && j+1 < len(rest) && (rest[j] == '.' || rest[j] == ')') && rest[j+1] == ' ' {
		i += j + 2
		rest = s[i:]
	}
	// A label: a few words ending in a colon, with no verb of the rule
	// inside ("Rule from now on:", "Hard constraint:", "重要：").
	for _, colon := range []string{": ", "：", ":"} {
		k := strings.Index(rest, colon)
		if k <= 0 || k > 40 {
			continue
		}
		label := strings.ToLower(strings.Trim(rest[:k], " *_"))
		if labelWords(label) {
			i += k + len(colon)
			return i + len(s[i:]) - len(strings.TrimLeft(s[i:], " *_"))
		}
	}
	return i
}

// labelWords reports whether a text before a colon only names the kind of
// instruction that follows ("rule", "constraint from now on", "note").
func labelWords(label string) bool {
	nouns := []string{"rule", "rules", "constraint", "constraints", "important", "note", "reminder", "requirement",
		"policy", "standing rule", "standing instruction", "instruction", "hard rule", "ground rule", "heads up",
		"regla", "importante", "regra", "règle", "regel", "wichtig", "quy tắc", "quan trọng", "правило", "важно",
		"规则", "重要", "注意", "ルール", "規則", "규칙", "중요"}
	for _, n := range nouns {
		if label == n || strings.HasPrefix(label, n+" ") {
			rest := strings.TrimSpace(strings.TrimPrefix(label, n))
			switch rest {
			case "", "from now on", "going forward", "for this session", "for the rest of this session", "until i say otherwise",
				"a partir de ahora", "de ahora en adelante", "a partir de agora", "à partir de maintenant", "ab jetzt", "ab sofort":
				return true
			}
		}
	}
	return false
}

// foreignClauses splits a sentence of another language into the clauses
// that may each hold one rule.
func foreignClauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '；' })
}

// cueAt returns the first of cues found in lower at or after from, and its offset.
func cueAt(lower string, cues []string, from int) (int, string) {
	pos, cue := -1, ""
	for _, c := range cues {
		i := strings.Index(lower[from:], c)
		if i < 0 {
			continue
		}
		i += from
		// A Latin-script cue is a whole word: "nie" is not in "niemand".
		if !cjkCue(c) {
			if i > 0 && isWordByte(lower[i-1]) && lower[i-1] < utf8.RuneSelf {
				continue
			}
			if e := i + len(c); e < len(lower) && c[len(c)-1] != ' ' && isWordByte(lower[e]) && lower[e] < utf8.RuneSelf {
				continue
			}
		}
		if pos < 0 || i < pos || i == pos && len(c) > len(cue) {
			pos, cue = i, c
		}
	}
	return pos, cue
}

func cjkCue(c string) bool {
	r, _ := utf8.DecodeRuneInString(c)
	return isCJK(r)
}

// stripLeads drops the words that may stand before a cue ("por favor", a
// lasting phrase) and reports whether a lasting phrase was among them.
func stripLeads(lower string, t *cueTable) (int, bool) {
	off, lasting := 0, false
	for changed := true; changed; {
		changed = false
		rest := lower[off:]
		trimmed := strings.TrimLeft(rest, " ,，、:：")
		off += len(rest) - len(trimmed)
		for gi, group := range [][]string{t.lead, t.lasting} {
			for _, l := range group {
				if strings.HasPrefix(lower[off:], l) {
					off += len(l)
					changed = true
					lasting = lasting || gi == 1
				}
			}
		}
	}
	return off, lasting
}

// ForeignStatus says whether a sentence in another language presents its
// matter as done or pending by that language's cue words: "done",
// "pending" or "" (no cue), with the cue. Pending wins when it comes first
// ("todavía falta migrar, lo demás está hecho").
//
// hint is the language of the text the sentence is part of: a short
// sentence takes it unless it holds English words of its own.
func ForeignStatus(sentence, hint string) (string, string) {
	t := cueTables[SentenceLanguage(sentence, hint)]
	if t == nil {
		// Too short to tell its language ("Relancer la migration :
		// terminé."): a cue written in letters English never uses still
		// speaks.
		if isASCIIText(sentence) {
			return "", ""
		}
		t = nonASCIICues
	}
	lower := FoldText(sentence)
	p, pc := cueAt(lower, t.pending, 0)
	d, dc := cueAt(lower, t.done, 0)
	switch {
	case p >= 0 && (d < 0 || p <= d):
		return "pending", pc
	case d >= 0:
		return "done", dc
	}
	return "", ""
}

// nonASCIICues are the done and pending cues of every language written
// with a letter outside ASCII: no English text holds them.
var nonASCIICues = func() *cueTable {
	t := &cueTable{}
	for _, l := range Languages[1:] {
		for _, c := range cueTables[l].done {
			if !isASCIIText(c) {
				t.done = append(t.done, c)
			}
		}
		for _, c := range cueTables[l].pending {
			if !isASCIIText(c) {
				t.pending = append(t.pending, c)
			}
		}
	}
	return t
}()

// Shared returns what two texts in different languages share: the
// identifiers, paths, numbers, names and code words of a that also appear
// in b, each as written in a. Ordinary words of one language do not count.
func Shared(a, b string) []string {
	bw := map[string]bool{}
	for _, t := range Words(b) {
		bw[t.Word] = true
	}
	lb := strings.ToLower(b)
	var out []string
	for _, id := range ExtractIdents(a) {
		if strings.Contains(lb, strings.ToLower(id.Value)) {
			out = AppendUnique(out, id.Value)
		}
	}
	for _, t := range Words(a) {
		r, _ := utf8.DecodeRuneInString(t.Word)
		if isCJK(r) || !bw[t.Word] || stopWords[t.Word] {
			continue
		}
		raw := a[t.Start:t.End]
		code := strings.ContainsAny(raw, "_-./") || HasDigit(raw) || hasInnerCapital(raw)
		name := unicode.IsUpper([]rune(raw)[0]) && len(raw) > 2
		// In a text of a language other than English, an English word
		// ("push", "main", "staging") is as good as a name.
		foreignHost := LanguageOf(a) != "en" && LanguageOf(raw) == "en" && len(raw) > 2 && isASCIIText(raw)
		if code || name || foreignHost && !functionWord(raw) {
			out = AppendUnique(out, raw)
		}
	}
	return out
}

// functionWord reports whether w is a frequent word of some language.
func functionWord(w string) bool {
	w = strings.ToLower(w)
	for _, ws := range functionWords {
		if containsWord(ws, w) {
			return true
		}
	}
	return false
}

func hasInnerCapital(s string) bool {
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// revocationWords are, per language, the words that name a rule, lift it,
// and point at the rule last given.
var revocationWords = []struct{ rule, lifted, point []string }{
	{[]string{"regla"}, []string{"ya no aplica", "ya no vale", "olvida lo que dije", "ignora"}, []string{"esa regla", "esta regla"}},
	{[]string{"regra"}, []string{"não vale mais", "não se aplica mais", "esqueça o que eu disse", "ignore"}, []string{"essa regra", "esta regra"}},
	{[]string{"règle"}, []string{"ne s'applique plus", "n'est plus valable", "oublie ce que j'ai dit", "ignore"}, []string{"cette règle"}},
	{[]string{"regel"}, []string{"gilt nicht mehr", "ist aufgehoben", "vergiss, was ich", "ignoriere"}, []string{"diese regel"}},
	{[]string{"quy tắc"}, []string{"không còn áp dụng", "bỏ qua"}, []string{"quy tắc đó", "quy tắc này"}},
	{[]string{"правило"}, []string{"больше не действует", "больше не применяется", "забудь", "игнорируй"}, []string{"это правило"}},
	{[]string{"规则", "规定"}, []string{"不再适用", "不再有效", "取消", "忘掉", "忽略", "可以了"}, []string{"这条规则", "那条规则", "这个规则", "那个规则"}},
	{[]string{"ルール"}, []string{"もう適用されません", "取り消し", "忘れて", "無視して"}, []string{"そのルール", "このルール"}},
	{[]string{"규칙"}, []string{"더 이상 적용되지", "취소", "잊어", "무시"}, []string{"그 규칙", "이 규칙"}},
}

// ForeignRevocation reads a user's sentence in another language for the
// words of a revocation: it names a rule, lifts one, or points at the rule
// last given ("esa regla ya no aplica").
func ForeignRevocation(lower string) (rule, lifted, point bool) {
	if isASCIIText(lower) && !strings.Contains(lower, "regla") && !strings.Contains(lower, "regra") && !strings.Contains(lower, "regel") {
		return false, false, false
	}
	for _, w := range revocationWords {
		rule = rule || ContainsAny(lower, w.rule...)
		lifted = lifted || ContainsAny(lower, w.lifted...)
		point = point || ContainsAny(lower, w.point...)
	}
	return rule, lifted, point
}

// eachField calls f with each field of s as strings.FieldsFunc(s, sep)
// returns them, in order, without the slice: every summary and many
// messages are read for their language.
func eachField(s string, sep func(rune) bool, f func(string)) {
	start := -1
	for i, r := range s {
		if sep(r) {
			if start >= 0 {
				f(s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		f(s[start:])
	}
}

// isCJKLang reports whether a language is written in Chinese, Japanese or
// Korean script, which LanguageOf tells by its script alone.
func isCJKLang(l string) bool { return l == "zh" || l == "ja" || l == "ko" }
