package lang

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestTokenizeFastPaths checks the ASCII fast paths of Tokenize, FoldText
// and Sentences against the general paths they had before them (kept here
// verbatim) on edge cases and on every line of the corpora: the same
// tokens, flags, offsets and sentences.
func TestTokenizeFastPaths(t *testing.T) {
	texts := []string{"", "Re-Run the Migration", "don't DON'T Don’t", "a_B c-D e'F", "X-", "x-é", "É-x", "Café-Bar",
		"re‑run", "ABC_def-GHI'jkl", "İf", "K", "TestX_y-Z9", "x-été", "a--b", "a-'b", "HTTP/2 200 OK",
		"See e.G. this. And NO. 5 here, ETC. more", "x İ.g. y", "Approx. 5", "The VS. code",
		"pull Request", "run it AGAIN", strings.Repeat("Ab", 100), "ﬁle",
		"不要碰main分支。以后必须先跑测试！", "データベースには触らないで", "프로덕션 DB는 절대"}
	files, _ := filepath.Glob("../testdata/*/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(strings.ReplaceAll(string(b), `\n`, "\n"), "\n")...)
	}
	for _, s := range texts {
		got, want := Tokenize(s), tokenizeRef(s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Tokenize(%q):\n got %+v\nwant %+v", s, got, want)
		}
		if got, want := FoldText(s), foldTextRef(s); got != want {
			t.Fatalf("FoldText(%q) = %q, want %q", s, got, want)
		}
		if got, want := Sentences(s), sentencesRef(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("Sentences(%q) = %v, want %v", s, got, want)
		}
	}
}

// tokenizeRef is Tokenize before its ASCII fast paths.
func tokenizeRef(s string) []Token {
	var toks []Token
	var b strings.Builder
	i := 0
	for i < len(s) {
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
			toks = append(toks, newTokenRef(s[start:i], start, i))
			continue
		}
		i = start
		if isCJK(r) {
			i += size
			toks = append(toks, newTokenRef(s[start:i], start, i))
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
		t := newTokenRef(b.String(), start, i)
		if r0, _ := utf8.DecodeRuneInString(s[start:]); unicode.IsUpper(r0) {
			t.Name = true
		}
		toks = append(toks, t)
	}
	return foldPhrases(toks)
}
func newTokenRef(w string, start, end int) Token {
	t := Token{Start: start, End: end, Word: w}
	if !stopWords[w] && !cjkStop[w] {
		t.Term = TermOf(w)
	}
	t.Past = pastForms[w] || (len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"))
	t.Name = HasDigit(w) || strings.ContainsAny(w, "_") || envWords[w]
	return t
}

// foldTextRef is FoldText before its ASCII fast path.
func foldTextRef(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
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

// sentencesRef and abbreviationRef are Sentences before abbreviation
// lower-cased only the end of a long text.
func sentencesRef(s string) []Sentence {
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
			for _, e := range []string{"。", "！", "？", "；"} {
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
			if c == '.' && abbreviationRef(s[start:i]) {
				continue
			}
			emit(i + 1)
		}
	}
	emit(len(s))
	return out
}

func abbreviationRef(before string) bool {
	lower := strings.ToLower(before)
	for _, a := range []string{"e.g", "i.e", "etc", "vs", "cf", "approx", "no"} {
		if strings.HasSuffix(lower, " "+a) || lower == a {
			return true
		}
	}
	return false
}
