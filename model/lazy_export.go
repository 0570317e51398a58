package model

import (
	"errors"
	"fmt"
	"strings"
)

// LazyText returns a Text of n bytes whose middle stays on disk: it keeps the
// first HeadBytes and last TailBytes bytes (cut at character boundaries) and
// reads the whole text back with load when Load is called. Importers use it
// for tool outputs they can read again from their file.
//
// head must begin the text and hold at least its first HeadBytes bytes, and
// tail must end it and hold at least its last TailBytes bytes; either may be
// longer, up to the whole text (the parts kept are copied, so both may alias
// a buffer that is reused). A text no longer than HeadBytes+TailBytes is held
// whole: from head or tail when one of them is the whole text, else from load
// (if load fails then, the text stays lazy and Load reports the error).
//
// Load checks that load returns exactly n bytes, so Len is always the length
// of what Load returns; a failure is reported as ErrTextUnavailable.
func LazyText(head, tail string, n int, load func() (string, error)) Text {
	checked := func() (string, error) {
		s, err := load()
		switch {
		case err != nil && errors.Is(err, ErrTextUnavailable):
			return "", err
		case err != nil:
			return "", fmt.Errorf("%w: %v", ErrTextUnavailable, err)
		case len(s) != n:
			return "", fmt.Errorf("%w: it changed since it was read (%d bytes, now %d)", ErrTextUnavailable, n, len(s))
		}
		return s, nil
	}
	if n <= HeadBytes+TailBytes {
		switch {
		case len(head) == n:
			return NewText(strings.Clone(head))
		case len(tail) == n:
			return NewText(strings.Clone(tail))
		}
		if s, err := checked(); err == nil {
			return NewText(s)
		}
	}
	return Text{
		s:  strings.Clone(head[:cutUTF8(head, HeadBytes)]),
		lz: &lazyText{tail: strings.Clone(tail[len(tail)-cutUTF8Back(tail, TailBytes):]), n: n, load: checked},
	}
}

// UnescapeJSON appends the decoded body of a JSON string (without its quotes)
// to dst, by the loupe reader's rules: every lone surrogate becomes U+FFFD,
// nothing else is lost, escapes JSON does not define are kept as written.
// Importers that read their own JSON use it so that their texts decode
// exactly like the native reader's.
func UnescapeJSON(dst, s []byte) []byte { return unescapeJSON(dst, s) }

// AppendJSONString appends s to b as a JSON string exactly as the writer
// does: control characters escaped, invalid UTF-8 as U+FFFD, U+2028/9
// escaped, <, > and & left alone.
func AppendJSONString(b []byte, s string) []byte { return appendString(b, s) }

// SyntaxError explains why b is not JSON, in encoding/json's words, and the
// 1-based column of the fault (0 when unknown).
func SyntaxError(b []byte) (msg string, col int) { return syntaxError(b, nil) }

// Hex4 reads the four hex digits of a \uXXXX escape.
func Hex4(s []byte) (rune, bool) { return hex4(s) }

// LowSurrogate reads a "\uDC00"-"\uDFFF" escape at the start of s.
func LowSurrogate(s []byte) (rune, bool) { return lowSurrogate(s) }
