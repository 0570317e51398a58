package verify

// Errors the conversation leaves behind: what the agent and the user say
// after a failure (DESIGN.md, "How sure the source is that an item is
// owed"). The agent says it takes another way or hands the step over; the
// user changes course or goes on to other things; the agent ends its turn
// with a report that does not speak of the failure. Each keeps the failure
// open but only inferred.

import (
	"fmt"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// agentMovedOn weakens the failures an assistant message turns away from:
// the ones since its previous message, or the ones it names, when it says it
// takes another way ("let's try a different approach", "these failures are
// pre-existing and unrelated").
func (e *errorTracker) agentMovedOn(m *model.Message) {
	if strings.TrimSpace(m.Text) == "" {
		return
	}
	b := &e.behind
	b.report = m
	since := b.sinceAssistant
	b.sinceAssistant = nil
	if len(since) == 0 && len(e.l.openKind[slotFailure]) == 0 {
		return // nothing to leave behind: most messages are read no further
	}
	lower := lang.FoldText(lang.ProseOnly(m.Text))
	cue := movedOn.First(lower)
	if cue == "" {
		if h := handedOver(lower); h != "" && len(since) > 0 {
			// "The files are root's, so I can't delete them; please
			// remove them manually: sudo rm -rf build-old": the failure
			// is the user's to settle now, not the agent's work.
			for _, f := range since {
				if f.item.Open {
					f.item.weaken(fmt.Sprintf("left behind: handed to the user (‘%s’)", h))
				}
			}
		}
		return
	}
	for _, f := range since {
		if f.item.Open {
			f.item.weaken(fmt.Sprintf("left behind: the agent moved on (‘%s’)", cue))
		}
	}
	// An older failure the message names ("the flaky TestX failure is
	// unrelated") is left behind too.
	for f := range openOf[*failure](e.l) {
		if f.item.Open && f.item.Basis != Inferred && f.namedIn(lower) {
			f.item.weaken(fmt.Sprintf("left behind: the agent moved on (‘%s’)", cue))
		}
	}
}

// promptsBehind is how many of the user's messages make a failure nothing
// ran again left behind: a failure still the subject is retried (and a new
// failure of the same call replaces it) long before.
const promptsBehind = 3

// userMovedOn weakens the stated failures the conversation has moved past:
// the user has spoken promptsBehind times since, and nothing resolved or
// replaced them (a retry that failed again would have).
func (e *errorTracker) userMovedOn() {
	b := &e.behind
	for f, n := range b.prompts {
		switch {
		case !f.stated():
			delete(b.prompts, f)
		case n+1 >= promptsBehind:
			f.item.weaken(fmt.Sprintf("left behind: the user has spoken %d times since, and nothing ran it again", n+1))
			delete(b.prompts, f)
		default:
			b.prompts[f] = n + 1
		}
	}
}

// userChangedCourse weakens the failures since the user's previous message
// when the user turns the work elsewhere ("never mind, skip the e2e tests").
func (e *errorTracker) userChangedCourse(m *model.Message) {
	b := &e.behind
	since := b.sinceUser
	b.sinceUser = nil
	if len(since) == 0 {
		return
	}
	cue := phraseIn(lang.FoldText(lang.OwnWords(m.Text)), changedCoursePhrases)
	if cue == "" {
		return
	}
	for _, f := range since {
		if f.item.Open {
			f.item.weaken(fmt.Sprintf("left behind: the user changed course (‘%s’)", cue))
		}
	}
}

// namedIn reports whether a folded text names the failure by one of its
// identifying words of some length (a test, a file, a symbol).
func (f *failure) namedIn(lower string) bool {
	for _, tok := range f.errTokens {
		if len(tok) >= 6 && strings.Contains(lower, strings.ToLower(tok)) {
			return true
		}
	}
	return false
}

func phraseIn(lower string, phrases []string) string {
	for _, p := range phrases {
		if lang.HasPhrase(lower, p) {
			return p
		}
	}
	return ""
}

// movedOnPhrases are what an agent says when it leaves a failure behind.
var movedOnPhrases = []string{
	"different approach", "another approach", "alternative approach", "a different way", "another way", "other way around it",
	"work around", "workaround", "switch to", "switching to", "fall back", "falling back", "fallback to", "instead,", "use instead",
	"pre-existing", "preexisting", "already failing", "unrelated to", "not related to", "unrelated failure", "unrelated failures",
	"safe to ignore", "can be ignored", "can ignore", "ignore this error", "ignore that error", "expected error", "is expected",
	"not needed", "isn't needed", "not necessary", "isn't necessary", "not required", "doesn't matter", "not important",
	"skip this", "skip that", "skipping", "move on", "moving on", "let's not", "give up on", "abandon",
	// The agent judged the failure harmless: the work it guarded got done.
	"actually successful", "actually succeeded", "succeeded anyway", "worked anyway", "harmless",
}

// movedOn is movedOnPhrases looked for at once (lang.PhraseSet).
var movedOn = lang.NewPhraseSet(movedOnPhrases...)

// handedPhrases are what an agent says when it hands a failed step to the
// user to do by hand, in the languages users write.
var handedPhrases = []string{"manually", "by hand", "yourself", "手動で", "手动", "manualmente", "manuellement", "manuell", "수동으로", "вручную", "thủ công"}

// handedOver returns the phrase with which a message hands work to the
// user, or "".
func handedOver(lower string) string {
	for _, p := range handedPhrases {
		if p[0] < 0x80 && lang.HasPhrase(lower, p) || p[0] >= 0x80 && strings.Contains(lower, p) {
			return p
		}
	}
	return ""
}

// changedCoursePhrases are what a user says when the work goes elsewhere.
var changedCoursePhrases = []string{
	"never mind", "nevermind", "forget it", "forget about", "forget that", "skip it", "skip that", "skip this", "skip the",
	"don't worry about", "do not worry about", "leave it", "leave that", "let's move on", "move on", "drop it", "drop that",
	"ignore that", "ignore the error", "ignore it", "try something else", "different approach", "another approach",
	"instead,", "not important", "doesn't matter", "stop trying", "give up on", "abandon",
}

// called notes that the agent went on working after its last message: that
// message did not end its turn.
func (e *errorTracker) called() { e.behind.report = nil }

// turnEnded weakens the stated failures the agent's turn-ending report does
// not speak of, when the user speaks next. An agent whose work is still
// stuck says so when it hands the turn back ("the migration still fails",
// "tests are red"); a report that names no failure at all and is answered
// by the user with the next request has left the failure behind. A report
// that says anything fails keeps every failure stated: which one it means
// is not the concern of a rule that must stay sure.
func (e *errorTracker) turnEnded(m *model.Message) {
	b := &e.behind
	rep := b.report
	b.report = nil
	if rep == nil || len(b.prompts) == 0 || !userPrompt(m.Text) {
		return
	}
	lower := lang.FoldText(lang.ProseOnly(rep.Text))
	if failureIn(lower) || failureWordIn(lower) {
		return
	}
	for f := range b.prompts {
		if f.stated() && f.item.Event < rep.Index && !f.namedIn(lower) && !f.programIn(lower) {
			f.item.weaken(fmt.Sprintf("left behind: the agent ended its turn (turn %d) without a word of it, and the user went on", rep.Turn))
		}
	}
}

// userPrompt reports whether a user message is the person speaking, not an
// interruption marker or a runtime's wrapper around a slash command (which
// may be the /compact that made the compaction).
func userPrompt(text string) bool {
	t := strings.TrimSpace(text)
	switch {
	case t == "", strings.HasPrefix(t, "[Request interrupted"), strings.HasPrefix(t, "<"), strings.HasPrefix(t, "/"), strings.HasPrefix(t, "Caveat:"):
		return false
	}
	return true
}

// programIn reports whether a folded text names the program whose run
// failed ("pytest", "terraform"): a report about that program may be about
// the failure.
func (f *failure) programIn(lower string) bool {
	return len(f.program) >= 3 && lang.HasPhrase(lower, strings.ToLower(f.program))
}

// failureWordIn reports whether a folded text says, in a language other
// than English, that something failed or is broken.
func failureWordIn(lower string) bool {
	for _, w := range failureWords {
		// An ASCII word is matched whole ("roto" is not in "protocol");
		// a stem or a word of another script anywhere ("ошибк", "失败").
		if w[0] < 0x80 && lang.HasPhrase(lower, w) || w[0] >= 0x80 && strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// failureWords say something failed, in the languages users write
// (lang.Languages) besides English, which failureIn reads.
var failureWords = []string{
	"错误", "失败", "报错", "出错", // zh
	"falla", "fallo", "falló", "roto", // es
	"falha", "falhou", "quebrado", "erro", // pt
	"échec", "échoue", "erreur", "cassé", // fr
	"fehler", "schlägt fehl", "fehlgeschlagen", "kaputt", // de
	"エラー", "失敗", "落ち", // ja
	"에러", "오류", "실패", // ko
	"lỗi", "thất bại", // vi
	"ошибк", "не работает", "упал", "сломан", // ru
}
