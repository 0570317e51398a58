package model

import (
	"errors"
	"strconv"
	"strings"
)

// Text is a string from a transcript that may be too large to keep in memory:
// a multi-megabyte tool output, an edit's whole file. Small texts are held
// whole. A large one keeps its first HeadBytes and last TailBytes and is read
// back from the file when Load is called.
//
// The zero Text is the empty string.
type Text struct {
	s string // the whole text, or its head when lazy
	// lz is nil for a whole text: a run of millions of small tool calls
	// and results holds two words per text, not six.
	lz *lazyText
}

// lazyText is what a lazy Text keeps besides its head.
type lazyText struct {
	tail string
	n    int
	load func() (string, error)
}

// Sizes of the parts of a lazy Text kept in memory.
const (
	HeadBytes = 2048
	TailBytes = 1024
)

// NewText returns a Text that holds s in memory.
func NewText(s string) Text { return Text{s: s} }

// newLazyText keeps the head and tail of s and reloads the rest with load. s
// may alias a buffer that is reused: the parts kept are copied. A text no
// longer than its head and tail together is simply held whole (with a small
// ReadOptions.LazyAbove they would overlap).
func newLazyText(s string, load func() (string, error)) Text {
	if len(s) <= HeadBytes+TailBytes {
		return NewText(strings.Clone(s))
	}
	return Text{
		s:  strings.Clone(s[:cutUTF8(s, HeadBytes)]),
		lz: &lazyText{tail: strings.Clone(s[len(s)-cutUTF8Back(s, TailBytes):]), n: len(s), load: load},
	}
}

// newLazyParts makes a lazy text from an already decoded head and tail
// (longer than needed is fine) and the whole text's length.
func newLazyParts(head, tail []byte, n int, load func() (string, error)) Text {
	h := string(head[:cutUTF8(string(head), HeadBytes)])
	t := string(tail[len(tail)-cutUTF8Back(string(tail), TailBytes):])
	return Text{s: h, lz: &lazyText{tail: t, n: n, load: load}}
}

// Len is the length of the whole text in bytes.
func (t Text) Len() int {
	if t.lz == nil {
		return len(t.s)
	}
	return t.lz.n
}

// Complete reports whether the whole text is in memory, so Head returns it all.
func (t Text) Complete() bool { return t.lz == nil }

// Head returns the whole text when Complete, else its first HeadBytes bytes
// (cut at a character boundary).
func (t Text) Head() string { return t.s }

// Tail returns the last TailBytes bytes of a lazy text, or "" when Complete
// (Head then has everything).
func (t Text) Tail() string {
	if t.lz == nil {
		return ""
	}
	return t.lz.tail
}

// ErrTextUnavailable is returned by Load when the text cannot be read back.
var ErrTextUnavailable = errors.New("text is no longer available")

// Load returns the whole text, reading it from disk if needed.
func (t Text) Load() (string, error) {
	if t.lz == nil {
		return t.s, nil
	}
	return t.lz.load()
}

// Preview returns the head, and for a lazy text a marker and the tail, so a
// reader sees both ends without loading the middle.
func (t Text) Preview() string {
	if t.lz == nil {
		return t.s
	}
	return t.s + "\n… [" + strconv.Itoa(t.lz.n-len(t.s)-len(t.lz.tail)) + " bytes not loaded] …\n" + t.lz.tail
}

// cutUTF8 returns the largest n ≤ max such that s[:n] ends at a rune boundary.
func cutUTF8(s string, max int) int {
	if len(s) <= max {
		return len(s)
	}
	n := max
	for n > 0 && n > max-4 && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}

// cutUTF8Back returns the largest n ≤ max such that s[len(s)-n:] starts at a
// rune boundary.
func cutUTF8Back(s string, max int) int {
	if len(s) <= max {
		return len(s)
	}
	n := max
	for n > 0 && n > max-4 && s[len(s)-n]&0xC0 == 0x80 {
		n--
	}
	return n
}
