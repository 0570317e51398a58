package lang

import "testing"

// A phrase set finds, in any text, the phrase that asking HasPhrase of
// each phrase in turn finds first: the list's order decides, not the
// text's, and word boundaries are HasPhrase's.
func TestPhraseSetIsHasPhraseInTurn(t *testing.T) {
	phrases := []string{"move on", "moving on", "instead,", "work around", "workaround", "is expected", "pre-existing",
		"skip this", "skipping", "harmless", "'quoted", ".dot", "手动"}
	set := NewPhraseSet(phrases...)
	for _, text := range []string{
		"", "nothing here", "let's move on", "moving on, instead, skip this", "workarounds are not a workaround",
		"the pre-existing failure is expected; it is expected.", "skippingly skipping", "unharmless harmless",
		"instead, move on", "instead", "x'quoted 'quoted", "a.dot .dot", "请手动删除", "re-move on", "move online",
		"skip this\nmove on", "it's harmless: moving on",
	} {
		want := ""
		for _, p := range phrases {
			if HasPhrase(text, p) {
				want = p
				break
			}
		}
		if got := set.First(text); got != want {
			t.Errorf("%q: the set finds %q, HasPhrase in turn %q", text, got, want)
		}
	}
}
