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

// TestTokenizeFastPaths checks Tokenize's ASCII fast paths against the
// general path it had before them (tokenizeRef, kept here verbatim) on edge
// cases and on every line of the corpora: the same tokens, flags and
// offsets.
func TestTokenizeFastPaths(t *testing.T) {
	texts := []string{"", "Re-Run the Migration", "don't DON'T Don’t", "a_B c-D e'F", "X-", "x-é", "É-x", "Café-Bar",
		"re‑run", "ABC_def-GHI'jkl", "İf", "K", "TestX_y-Z9", "x-été", "a--b", "a-'b", "HTTP/2 200 OK",
		"pull Request", "run it AGAIN", strings.Repeat("Ab", 100), "ﬁle"}
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
		b.Reset()
		for i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
			r = foldRune(r)
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
	if !stopWords[w] {
		t.Term = TermOf(w)
	}
	t.Past = pastForms[w] || (len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"))
	t.Name = HasDigit(w) || strings.ContainsAny(w, "_") || envWords[w]
	return t
}
