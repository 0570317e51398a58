package model_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loupe-dev/loupe/model"
)

// TestLazyText: the head and tail kept are an exact prefix and suffix of the
// text cut at character boundaries, whatever extra the caller passes; Len is
// the text's length and Load returns it.
func TestLazyText(t *testing.T) {
	pieces := []string{"a", "é", "日", "😀", "\n", "\t"}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		var b strings.Builder
		n := model.HeadBytes + model.TailBytes + 1 + rng.IntN(20000)
		for b.Len() < n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		// The caller may give more than needed, up to the whole text.
		head := s[:min(len(s), model.HeadBytes+rng.IntN(8)+4)]
		tail := s[len(s)-min(len(s), model.TailBytes+rng.IntN(8)+4):]
		if i%5 == 0 {
			head, tail = s, s
		}
		loads := 0
		tx := model.LazyText(head, tail, len(s), func() (string, error) { loads++; return s, nil })
		if tx.Complete() {
			t.Fatalf("case %d: a %d-byte text is held whole", i, len(s))
		}
		if tx.Len() != len(s) {
			t.Fatalf("case %d: Len %d, want %d", i, tx.Len(), len(s))
		}
		h, tl := tx.Head(), tx.Tail()
		if !strings.HasPrefix(s, h) || len(h) > model.HeadBytes || len(h) < model.HeadBytes-3 || !utf8.ValidString(h) {
			t.Fatalf("case %d: head of %d bytes is not the text's first %d cut at a character", i, len(h), model.HeadBytes)
		}
		if !strings.HasSuffix(s, tl) || len(tl) > model.TailBytes || len(tl) < model.TailBytes-3 || !utf8.ValidString(tl) {
			t.Fatalf("case %d: tail of %d bytes is not the text's last %d cut at a character", i, len(tl), model.TailBytes)
		}
		if loads != 0 {
			t.Fatalf("case %d: loaded while being made", i)
		}
		got, err := tx.Load()
		if err != nil || got != s {
			t.Fatalf("case %d: Load: %v", i, err)
		}
	}
}

// TestLazyTextSmall: a text no longer than HeadBytes+TailBytes is held whole,
// from head or tail when one is the whole text, else loaded at once.
func TestLazyTextSmall(t *testing.T) {
	s := strings.Repeat("ab", (model.HeadBytes+model.TailBytes)/2)
	fail := func() (string, error) { return "", errors.New("must not load") }
	for _, tx := range []model.Text{
		model.LazyText(s, s[len(s)-10:], len(s), fail),
		model.LazyText(s[:10], s, len(s), fail),
		model.LazyText(s[:10], s[len(s)-10:], len(s), func() (string, error) { return s, nil }),
	} {
		if !tx.Complete() || tx.Head() != s || tx.Len() != len(s) {
			t.Errorf("small text: complete %v, head of %d bytes, Len %d; want it whole (%d bytes)", tx.Complete(), len(tx.Head()), tx.Len(), len(s))
		}
	}
	// When it cannot be loaded, it stays lazy and Load says why.
	tx := model.LazyText(s[:10], s[len(s)-10:], len(s), fail)
	if tx.Complete() || tx.Len() != len(s) {
		t.Fatalf("unloadable small text: complete %v, Len %d", tx.Complete(), tx.Len())
	}
	if _, err := tx.Load(); !errors.Is(err, model.ErrTextUnavailable) {
		t.Errorf("Load error %v, want ErrTextUnavailable", err)
	}
}

// TestLazyTextChanged: Load refuses a text whose length is not the one the
// Text was made with, and wraps load's errors in ErrTextUnavailable.
func TestLazyTextChanged(t *testing.T) {
	s := strings.Repeat("x", 10000)
	tx := model.LazyText(s, s, len(s), func() (string, error) { return s + "y", nil })
	if _, err := tx.Load(); !errors.Is(err, model.ErrTextUnavailable) {
		t.Errorf("changed length: error %v, want ErrTextUnavailable", err)
	}
	tx = model.LazyText(s, s, len(s), func() (string, error) { return "", errors.New("disk on fire") })
	if _, err := tx.Load(); !errors.Is(err, model.ErrTextUnavailable) || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("load error: %v, want ErrTextUnavailable with the cause", err)
	}
}
