package model

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// decodeString decodes the JSON string literal lit the way the reader does.
func decodeString(t testing.TB, lit string) (string, bool) {
	var p fastjson.Parser
	v, err := p.Parse(`{"k":` + lit + `}`)
	if err != nil {
		return "", false
	}
	var sb strBuf
	b, ok := sb.bytes(v.Get("k"))
	return string(b), ok
}

func TestDecodeString(t *testing.T) {
	for lit, want := range map[string]string{
		`"plain"`:                    "plain",
		`""`:                         "",
		`"a\"b\\c\/d\b\f\n\r\t"`:     "a\"b\\c/d\b\f\n\r\t",
		`"\u00e9\u4e16\u0000"`:       "é世\x00",
		`"\ud83d\ude00"`:             "😀",
		`"\ud800"`:                   "\uFFFD",
		`"\udc00\ud800"`:             "\uFFFD\uFFFD",
		`"\ud83d\u0041"`:             "\uFFFDA",
		`"\ud83d\ud83d\ude00"`:       "\uFFFD😀",
		`"x\ud83d"`:                  "x\uFFFD",
		`"\\ud800"`:                  `\ud800`,
		`"bad \q escape"`:            `bad \q escape`,
		`"short \u12"`:               `short \u12`,
		`"bad hex \uzzzz"`:           `bad hex \uzzzz`,
		`"high then bad \ud800\uzz"`: "high then bad \uFFFD\\uzz",
	} {
		got, ok := decodeString(t, lit)
		if !ok || got != want {
			t.Errorf("%s: got %q (%v), want %q", lit, got, ok, want)
		}
	}
	for _, lit := range []string{`1`, `null`, `true`, `[]`, `{}`} {
		if _, ok := decodeString(t, lit); ok {
			t.Errorf("%s decoded as a string", lit)
		}
	}
}

// FuzzDecodeString checks the reader's unescaping against encoding/json for
// every string encoding/json accepts.
func FuzzDecodeString(f *testing.F) {
	for _, s := range []string{`a`, `\n`, `\u00e9`, `\ud800`, `\ud83d\ude00`, `\ud83d\u0041`, `\\u`, `\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		lit := `"` + body + `"`
		var want string
		if json.Unmarshal([]byte(lit), &want) != nil || !utf8.ValidString(body) {
			return
		}
		got, ok := decodeString(t, lit)
		if !ok || got != want {
			t.Fatalf("%s: got %q, encoding/json %q", lit, got, want)
		}
	})
}
