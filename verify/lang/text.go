package lang

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Token is one word of a text, with where it is and what it means for
// matching.
type Token struct {
	Start, End int    // byte span in the text
	Word       string // lower-cased, normalized surface form ("re-run", "don't")
	Term       string // canonical stem for matching; "" for a stop word
	Past       bool   // a past tense or participle form ("ran", "rebased")
	Code       bool   // inside `inline code`: a command's word, not prose
	Name       bool   // written like a name: capitalized, with digits, "_" or "/" ("Berlin", "CS101")
}

// canon maps a stem to its synonym group's canonical stem. It is built by a
// variable initializer, not init, so that the other tables built from
// termOf at package initialization see it (Go orders variable
// initialization by dependency; init functions run after all of them).
var canon = func() map[string]string {
	m := map[string]string{}
	for _, g := range synonymGroups {
		head := stemWord(g[0])
		for _, w := range g {
			m[stemWord(w)] = head
		}
	}
	return m
}()

// stemWord lemmatizes irregular forms, then stems.
func stemWord(w string) string {
	if l, ok := irregular[w]; ok {
		w = l
	}
	if strings.ContainsAny(w, " ") {
		return w
	}
	w = americanize(strings.ReplaceAll(w, "-", ""))
	if l, ok := irregular[w]; ok {
		w = l
	}
	st := stem(derive(w))
	if len(st) > 2 && st[len(st)-1] == 'y' {
		// The stemmer turns a final y into i only when it ends the word:
		// "deploy" is "deploi" but "deployment" is "deploy".
		st = st[:len(st)-1] + "i"
	}
	return st
}

// termCache memoizes termOf: the words of a run repeat, and stemming is a
// measurable share of verification time. Safe for concurrent verifications.
// It stops growing at cacheWords words (a run's ids and hashes are words
// too), and so does wordCache.
var (
	termCache  sync.Map
	termCached atomic.Int64
	// words maps a lower-case word to what newToken derives from it.
	wordMu sync.RWMutex
	words  = map[string]*wordInfo{}
)

const cacheWords = 1 << 18

// TermOf returns the canonical matching term of a lower-case word.
func TermOf(w string) string {
	if t, ok := termCache.Load(w); ok {
		return t.(string)
	}
	s := stemWord(w)
	if c, ok := canon[s]; ok {
		s = c
	}
	if termCached.Add(1) <= cacheWords {
		termCache.Store(strings.Clone(w), s)
	}
	return s
}

// wordInfo is what newToken derives from a word alone.
type wordInfo struct {
	word       string // the word, held once
	stem       string // stemWord's, for phrases
	term       string
	past, name bool
}

// infoOf returns a word's term and flags, memoized: tokenizing is most of
// the cost of reading a summary or a message, and its words repeat.
func infoOf(w string) *wordInfo {
	wordMu.RLock()
	wi := words[w]
	wordMu.RUnlock()
	if wi != nil {
		return wi
	}
	wi = &wordInfo{word: w, stem: stemWord(w)}
	if !stopWords[w] && !cjkStop[w] {
		wi.term = TermOf(w)
	}
	wi.past = pastForms[w] || (len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"))
	wi.name = HasDigit(w) || strings.ContainsAny(w, "_") || envWords[w]
	wordMu.Lock()
	if len(words) < cacheWords {
		wi.word = strings.Clone(w)
		words[wi.word] = wi
	}
	wordMu.Unlock()
	return wi
}

// infoOfBytes is infoOf for a word being built, without making a string
// of it when it is known.
func infoOfBytes(b []byte) *wordInfo {
	wordMu.RLock()
	wi := words[string(b)]
	wordMu.RUnlock()
	if wi != nil {
		return wi
	}
	return infoOf(string(b))
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// asciiWord reads the ASCII word at s[start:] as Tokenize's general path
// would, lower-casing it into buf; ok is false when a byte of another
// script could belong to it (the general path decides then).
func asciiWord(s string, start int, buf []byte) (word []byte, end int, ok bool) {
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case isASCIIAlnum(c):
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
			i++
			continue
		case c >= utf8.RuneSelf:
			return nil, 0, false
		case (c == '-' || c == '\'' || c == '_') && i+1 < len(s):
			if n := s[i+1]; isASCIIAlnum(n) {
				buf = append(buf, c)
				i++
				continue
			} else if n >= utf8.RuneSelf {
				return nil, 0, false
			}
		}
		break
	}
	return buf, i, true
}

// foldRune maps typographic variants to ASCII so "re‑run" (with a
// non-breaking hyphen) and "don’t" compare equal to their plain forms.
func foldRune(r rune) rune {
	switch r {
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\uFE63', '\uFF0D':
		return '-'
	case '\u2018', '\u2019', '\u201B', '\u2032', '\uFF07':
		return '\''
	case '\u201C', '\u201D', '\u201F', '\u2033', '\uFF02':
		return '"'
	case '\u00A0', '\u2007', '\u202F':
		return ' '
	}
	return unicode.ToLower(r)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Tokenize splits s into words. A word is letters and digits, joined by
// single inner hyphens, apostrophes or underscores ("re-run", "don't",
// "created_at": an identifier stays one word); everything else separates. Multi-word synonyms ("pull request", "run again") are folded.
func Tokenize(s string) []Token { return foldPhrases(Words(s)) }

// Words are the words of s as Tokenize reads them, before multi-word
// phrases are folded into one ("clean up" is two words here).
func Words(s string) []Token {
	// The words are gathered in a scratch slice and copied out at their
	// exact size: growing the result by append allocated about three times
	// its size, the largest allocation of a run of many short texts (a
	// compaction every few events), and a summary's units keep their words
	// until the next compaction, spare capacity included.
	sp := wordScratch.Get().(*[]Token)
	scratch := (*sp)[:0]
	EachWord(s, func(t Token) { scratch = append(scratch, t) })
	var toks []Token
	if len(scratch) > 0 {
		toks = append(make([]Token, 0, len(scratch)), scratch...)
	}
	if cap(scratch) <= maxWordScratch {
		clear(scratch) // the pool must not keep the words' strings alive
		*sp = scratch[:0]
		wordScratch.Put(sp)
	}
	return toks
}

// wordScratch holds Words' scratch slices; one grown past maxWordScratch
// (a huge summary's sentence) is left to the collector.
var wordScratch = sync.Pool{New: func() any { return new([]Token) }}

const maxWordScratch = 4096

// EachWord calls f with each word of s, in order, as Words returns them:
// for a reader that only looks at each once (a set of a message's words),
// without the slice.
func EachWord(s string, f func(Token)) {
	var b strings.Builder
	var buf [64]byte
	i := 0
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf && !isASCIIAlnum(c) {
			i++ // an ASCII separator
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		r = foldRune(r)
		if !isWordRune(r) {
			i += size
			continue
		}
		start := i
		// Fast path: an ASCII word already in lower case is its own form.
		simple := true
		for i < len(s) {
			c := s[i]
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
				i++
				continue
			}
			if (c == '-' || c == '\'' || c == '_') && i+1 < len(s) {
				n := s[i+1]
				if n >= 'a' && n <= 'z' || n >= '0' && n <= '9' {
					i++
					continue
				}
			}
			if c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' || c == '-' || c == '\'' || c == '_' {
				simple = false
			}
			break
		}
		if simple {
			f(newToken(s[start:i], start, i))
			continue
		}
		if w, end, ok := asciiWord(s, start, buf[:0]); ok {
			// An ASCII word with capitals or joiners: lower-cased by hand.
			wi := infoOfBytes(w)
			t := Token{Start: start, End: end, Word: wi.word, Term: wi.term, Past: wi.past, Name: wi.name}
			if c := s[start]; c >= 'A' && c <= 'Z' {
				t.Name = true
			}
			f(t)
			i = end
			continue
		}
		i = start
		if isCJK(r) {
			// Chinese, Japanese and Korean: one character is one word
			// (no spaces separate their words).
			i += size
			f(newToken(s[start:i], start, i))
			continue
		}
		b.Reset()
		for i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
			r = foldRune(r)
			if isCJK(r) {
				break
			}
			if isWordRune(r) {
				b.WriteRune(r)
				i += size
				continue
			}
			if (r == '-' || r == '\'' || r == '_') && i+size < len(s) {
				nr, _ := utf8.DecodeRuneInString(s[i+size:])
				if isWordRune(foldRune(nr)) {
					b.WriteRune(r)
					i += size
					continue
				}
			}
			break
		}
		t := newToken(b.String(), start, i)
		if r0, _ := utf8.DecodeRuneInString(s[start:]); unicode.IsUpper(r0) {
			t.Name = true
		}
		f(t)
	}
}

func newToken(w string, start, end int) Token {
	wi := infoOf(w)
	return Token{Start: start, End: end, Word: w, Term: wi.term, Past: wi.past, Name: wi.name}
}

// envWords name environments: "the staging DB" and "the prod DB" are two.
var envWords = WordSet("production", "prod", "staging", "stage", "dev", "development", "qa", "sandbox", "preprod", "canary")

// phrases are multi-word synonyms folded into one token.
var phrases = map[[2]string]string{
	{"pull", "request"}: "pr", {"merge", "request"}: "pr", {"roll", "back"}: "revert",
	{"roll", "out"}: "deploy", {"look", "into"}: "investigate", {"wrap", "up"}: "finish",
	{"kick", "off"}: "start", {"test", "suite"}: "test", {"double", "check"}: "check",
	{"clean", "up"}: "remove", {"set", "up"}: "configure", {"shut", "down"}: "kill",
	{"turn", "off"}: "disable", {"switch", "off"}: "disable", {"turn", "on"}: "enable", {"switch", "on"}: "enable",
	{"tear", "down"}: "destroy", {"spin", "down"}: "destroy", {"spin", "up"}: "provision", {"stand", "up"}: "provision",
	{"bring", "up"}: "start", {"boot", "up"}: "start", {"start", "up"}: "start", {"fire", "off"}: "start",
	{"back", "up"}: "backup", {"carry", "out"}: "run", {"figure", "out"}: "investigate", {"find", "out"}: "investigate",
	{"check", "out"}: "checkout", {"hook", "up"}: "connect", {"wire", "up"}: "connect", {"sign", "off"}: "approve",
	{"phase", "out"}: "deprecate", {"lock", "down"}: "restrict", {"warm", "up"}: "prewarm", {"write", "up"}: "document",
	{"cut", "over"}: "migrate", {"switch", "over"}: "migrate", {"move", "over"}: "migrate", {"fill", "in"}: "complete",
	{"scale", "up"}: "scale", {"scale", "down"}: "scale", {"scale", "out"}: "scale", {"log", "in"}: "login",
	{"clear", "out"}: "remove", {"throw", "away"}: "remove", {"get", "rid"}: "remove", {"pin", "down"}: "investigate",
	{"follow", "up"}: "followup", {"re", "run"}: "rerun", {"sort", "out"}: "fix", {"iron", "out"}: "fix",
}

// particles may be separated from their verb by a short object: "roll the
// deploy back", "tear it down", "set the cluster up".
var particles = WordSet("back", "up", "down", "out", "off", "over")

// phraseStems keys phrases by the stems of their words, so "switched off"
// and "cleaning up" fold like "switch off" and "clean up".
var phraseStems = func() map[[2]string]string {
	m := map[[2]string]string{}
	for k, v := range phrases {
		m[[2]string{stemWord(k[0]), k[1]}] = v
		m[[2]string{stemWord(k[0]), k[1] + "s"}] = v // "pull requests", "test suites"
	}
	return m
}()

// phraseSecond holds the words that end a phrase ("up", "off", "request").
var phraseSecond = func() map[string]bool {
	m := map[string]bool{}
	for k := range phrases {
		m[k[1]], m[k[1]+"s"] = true, true
	}
	return m
}()

// Phrases calls fn for each multi-word phrase Tokenize folds: the stem of
// its first word (see StemOf), its last word, and the word it folds into
// ("clean", "up", "remove"). A text without both words gives no token of
// the folded word.
func Phrases(fn func(firstStem, last, word string)) {
	for k, w := range phraseStems {
		fn(k[0], k[1], w)
	}
}

// StemOf is the stem Phrases keys a first word by.
func StemOf(w string) string { return infoOf(w).stem }

func foldPhrases(toks []Token) []Token {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if j, w := splitParticle(toks, i); j > 0 {
			// "tear the bastion down": the verb takes the phrase's term,
			// the object stays, the particle goes.
			t.Term = TermOf(w)
			out = append(out, t)
			obj := toks[i+1 : j]
			if n := len(obj); n > 1 && obj[n-1].Word == "back" {
				obj = obj[:n-1] // "turn the cache back on": "back" is the phrase's
			}
			out = append(out, obj...)
			i = j
			continue
		}
		// "turned back on", "switch back off": the phrase with "back" inside.
		if i+2 < len(toks) && toks[i+1].Word == "back" && (toks[i+2].Word == "on" || toks[i+2].Word == "off") {
			if w, ok := phraseStems[[2]string{infoOf(t.Word).stem, toks[i+2].Word}]; ok {
				n := newToken(w, t.Start, toks[i+2].End)
				n.Past = t.Past
				out = append(out, n)
				i += 2
				continue
			}
		}
		if i+1 < len(toks) {
			if !phraseSecond[toks[i+1].Word] {
				// fast path: most words end no phrase
			} else if w, ok := phraseStems[[2]string{infoOf(t.Word).stem, toks[i+1].Word}]; ok {
				n := newToken(w, t.Start, toks[i+1].End)
				n.Past = toks[i+1].Past || t.Past
				out = append(out, n)
				i++
				continue
			}
		}
		// "run it again", "run the tests again": a re-run.
		if t.Term == "run" {
			for j := i + 1; j < len(toks) && j <= i+4; j++ {
				if toks[j].Word == "again" {
					t.Term = "rerun"
					break
				}
			}
		}
		out = append(out, t)
	}
	return out
}

// splitParticle finds a phrasal verb at toks[i] whose particle comes after
// a short object that opens with a pronoun or a determiner ("roll it back",
// "tear the temporary bastion down") and ends its clause. It returns the
// particle's index and the phrase's word, or 0.
func splitParticle(toks []Token, i int) (int, string) {
	if i+2 >= len(toks) || !objectOpener[toks[i+1].Word] {
		return 0, ""
	}
	stem := infoOf(toks[i].Word).stem
	limit := i + 4
	for j := i + 2; j < len(toks) && j <= limit; j++ {
		// "on" is a particle only here, after a short object ("turn the
		// cache on"); elsewhere it opens a phrase ("work on the cache").
		particle := func(w string) bool { return particles[w] || w == "on" }
		if toks[j].Word == "back" && j+1 < len(toks) && particle(toks[j+1].Word) {
			limit++ // "turn the cache back on": "back" before the particle
			continue
		}
		if !particle(toks[j].Word) {
			continue
		}
		w, ok := phraseStems[[2]string{stem, toks[j].Word}]
		if !ok {
			return 0, ""
		}
		if j+1 < len(toks) && !Prepositions[toks[j+1].Word] && toks[j+1].Term != "" {
			return 0, "" // "set the table up front": the particle starts a phrase of its own
		}
		return j, w
	}
	return 0, ""
}

// objectOpener words open a short object between a verb and its particle.
var objectOpener = WordSet("it", "them", "this", "that", "these", "those", "the", "our", "my", "your", "everything", "all")

// Terms returns the distinct content terms of toks, in order.
func Terms(toks []Token) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range toks {
		if t.Term != "" && !seen[t.Term] {
			seen[t.Term] = true
			out = append(out, t.Term)
		}
	}
	return out
}

// Sentence is a span of text ending at a sentence boundary.
type Sentence struct {
	Start, End int
}

// Sentences splits s into sentences: at line breaks and at ., !, ? or ;
// followed by a space (not inside "e.g." style abbreviations or numbers like
// "3.2" or file names like "store.go").
func Sentences(s string) []Sentence {
	var out []Sentence
	start := 0
	emit := func(end int) {
		seg := s[start:end]
		trim := strings.TrimSpace(seg)
		if trim != "" {
			lead := strings.Index(seg, trim)
			out = append(out, Sentence{start + lead, start + lead + len(trim)})
		}
		start = end
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			emit(i)
			start = i + 1
		case 0xE3, 0xEF:
			// A full-width sentence end of CJK text: 。！？；
			for _, e := range foreignSentenceEnd {
				if strings.HasPrefix(s[i:], e) {
					emit(i + len(e))
					i += len(e) - 1
					break
				}
			}
		case '.', '!', '?', ';':
			if i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\n' && s[i+1] != '\t' {
				continue
			}
			if c == '.' && abbreviation(s[start:i]) {
				continue
			}
			emit(i + 1)
		}
	}
	emit(len(s))
	return out
}

func abbreviation(before string) bool {
	// Only the last seven bytes matter for a longer text: lower-case just
	// the last eight when they are ASCII (then they end the lower-cased
	// whole too, and no abbreviation is eight bytes long).
	var lower string
	if n := len(before); n > 8 && isASCIIText(before[n-8:]) {
		lower = strings.ToLower(before[n-8:])
	} else {
		lower = strings.ToLower(before)
	}
	for _, a := range []string{"e.g", "i.e", "etc", "vs", "cf", "approx", "no"} {
		if strings.HasSuffix(lower, " "+a) || lower == a {
			return true
		}
	}
	return false
}

func isASCIIText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// HasPhrase reports whether the lower-cased text contains phrase at word
// boundaries.
func HasPhrase(lower, phrase string) bool { return phraseAt(lower, phrase) >= 0 }

// phraseAt returns the byte offset of phrase in lower at word boundaries, or -1.
func phraseAt(lower, phrase string) int {
	for off := 0; ; {
		i := strings.Index(lower[off:], phrase)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(phrase)
		before := i == 0 || !isWordByte(lower[i-1])
		after := end == len(lower) || !isWordByte(lower[end]) || !isWordByte(phrase[len(phrase)-1])
		if before && after {
			return i
		}
		off = i + 1
	}
}

// markerAt is phraseAt for a clause marker: "before/after" and "if/when"
// are words joined by a slash, and "at once" an adverb, not the start of a
// clause.
func markerAt(lower, marker string) int {
	for off := 0; off < len(lower); {
		i := phraseAt(lower[off:], marker)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(marker)
		idiom := marker == "once" && strings.HasSuffix(lower[:i], "at ")
		if (i == 0 || lower[i-1] != '/') && (end == len(lower) || lower[end] != '/') && !idiom {
			return i
		}
		off = end
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c == '\'' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// FoldText lower-cases s and folds typographic dashes, quotes and spaces,
// keeping byte offsets where the folded rune has the same width (ASCII
// results of multi-byte runes are padded with spaces so offsets stay valid).
func FoldText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			// ASCII folds to itself, lower-cased.
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		f := foldRune(r)
		n := utf8.RuneLen(r)
		if f < utf8.RuneSelf && n > 1 {
			b.WriteRune(f)
			b.WriteString(strings.Repeat(" ", n-1))
			continue
		}
		if utf8.RuneLen(f) != n {
			b.WriteRune(r)
			continue
		}
		b.WriteRune(f)
	}
	return b.String()
}
