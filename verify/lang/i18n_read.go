package lang

// Rules and promises in the other languages users write (see i18n.go and
// the cue tables of i18n_cues.go).

import "strings"

// foreignRules reads the standing rules of a sentence written in language
// lang (not English): a clause that opens (after a label, "please" or a
// lasting phrase) with a prohibition or obligation cue, or that holds a
// lasting phrase. A description that states a negation ("el botón nunca
// aparece", "按钮从不显示") opens with its subject, not a cue: no rule.
func foreignRules(sentence, lang string) []Rule {
	t := cueTables[lang]
	if t == nil {
		return nil
	}
	trim := strings.TrimSpace(sentence)
	if strings.HasSuffix(trim, "?") || strings.HasSuffix(trim, "？") || strings.HasSuffix(trim, "吗") || strings.HasSuffix(trim, "か") {
		return nil
	}
	var out []Rule
	for _, cl := range foreignClauses(sentence) {
		cl = cl[trimLabel(cl):]
		lower := FoldText(cl)
		off, lasting := stripLeads(lower, t)
		if conditionClause(lower[off:], lang) {
			continue // "Wenn du nicht weißt, was gemeint ist, …": the condition of what follows
		}
		pos, cue := cueAt(lower, append(append([]string{}, t.prohibit...), t.oblige...), off)
		if _, l := cueAt(lower, t.lasting, off); l != "" {
			lasting = true
		}
		said := strings.TrimSpace(sentence)
		if pos > off && lower[pos-1] == '.' {
			// "… in den neuen Ordner.stelle sicher, dass …": a sentence
			// glued to the one before it starts at its cue (and the
			// paths before it are not the rule's).
			off = pos
			if i := strings.Index(sentence, cl[pos:]); i >= 0 {
				said = strings.TrimSpace(sentence[i:])
			}
		}
		switch {
		case pos == off:
		case pos > off && t.anywhere && !opensWithSubject(lower[off:], t):
		case pos < 0 && lasting && off < len(lower):
			cue = "" // "a partir de ahora usa pnpm": the lasting phrase makes it a rule
			pos = off
		default:
			continue
		}
		if cue == "别" && strings.HasPrefix(lower[pos+len(cue):], "的") || cue == "别" && strings.HasPrefix(lower[pos+len(cue):], "人") {
			continue // "别的" (other), "别人" (others): not "don't"
		}
		if cue != "" && strings.HasSuffix(cue, " ") && cue != "nur " {
			// A bare negation ("no", "не"): an imperative, not a
			// description of what a thing does ("no funciona").
			next := strings.Fields(lower[pos+len(cue):])
			if len(next) == 0 || containsWord(t.describes, strings.Trim(next[0], ",.")) {
				continue
			}
			if lang == "ru" && !russianImperative(next[0]) {
				continue
			}
			// A verb-second language puts the finite verb before the
			// negation: "… funktioniert nicht richtig" describes.
			if before := strings.Fields(lower[:pos]); len(before) > 0 && containsWord(t.describes, strings.Trim(before[len(before)-1], ",.")) {
				continue
			}
		}
		neg := false
		for _, p := range t.prohibit {
			if p == cue {
				neg = true
			}
		}
		// The action is the clause without its cues: a verb-final
		// language puts the cue after it ("…触らないでください").
		body := cl[off:pos] + " " + cl[pos+len(cue):]
		body = removeCues(body, t)
		body = strings.TrimSpace(strings.Trim(body, " ,，、.。!！"))
		if body == "" {
			continue
		}
		act := ParseAction(body)
		if act.Verb == "" {
			continue
		}
		act.Negated, act.Deferred = neg, true
		out = append(out, Rule{Sentence: said, Clause: strings.TrimSpace(cl), Action: act})
	}
	return out
}

// foreignProhibition reports whether a text in another language forbids
// something by its language's cues ("nunca", "不要").
func foreignProhibition(lower string) bool {
	t := cueTables[LanguageOf(lower)]
	if t == nil {
		return false
	}
	pos, _ := cueAt(lower, t.prohibit, 0)
	return pos >= 0
}

// opensWithSubject reports whether a clause opens with a subject: it then
// describes that subject ("Der Button erscheint nie").
func opensWithSubject(lower string, t *cueTable) bool {
	f := strings.Fields(lower)
	return len(f) > 0 && containsWord(t.subjects, strings.Trim(f[0], ",."))
}

// russianImperative reports whether a Russian word after "не" reads as an
// imperative ("трогай", "пушь", "удаляйте"), not a present tense.
func russianImperative(w string) bool {
	w = strings.Trim(w, ",.")
	for _, suf := range []string{"й", "и", "ь", "те"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

// removeCues drops every cue and lead of a language from a text.
func removeCues(s string, t *cueTable) string {
	lower := FoldText(s)
	cut := make([]bool, len(s))
	for _, group := range [][]string{t.prohibit, t.oblige, t.lasting, t.lead} {
		for _, c := range group {
			c = strings.TrimSpace(c)
			if c == "" {
				continue
			}
			for off := 0; ; {
				i := strings.Index(lower[off:], c)
				if i < 0 {
					break
				}
				i += off
				if cjkCue(c) || (i == 0 || !isWordByte(lower[i-1])) && (i+len(c) == len(lower) || !isWordByte(lower[i+len(c)])) {
					for k := i; k < i+len(c) && k < len(cut); k++ {
						cut[k] = true
					}
				}
				off = i + len(c)
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if cut[i] {
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(s[i])
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func containsWord(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// foreignPromises reads the commitments of a sentence written in language
// lang (not English): a promise cue of the speaker's ("voy a", "我会",
// "je vais"), not denied ("no voy a"); the action is the clause without
// the cue.
func foreignPromises(sentence, lang string) []Promise {
	t := cueTables[lang]
	if t == nil {
		return nil
	}
	trim := strings.TrimSpace(sentence)
	if strings.HasSuffix(trim, "?") || strings.HasSuffix(trim, "？") || strings.HasSuffix(trim, "吗") || strings.HasSuffix(trim, "か") {
		return nil
	}
	lower := FoldText(sentence)
	if d, _ := cueAt(lower, t.deny, 0); d >= 0 {
		return nil
	}
	pos, cue := cueAt(lower, t.promise, 0)
	if pos < 0 {
		return nil
	}
	if lang == "ja" && describesThing(sentence[:pos]) {
		return nil
	}
	body := sentence[pos+len(cue):]
	if t.anywhere && lang != "de" {
		body = sentence[:pos] + " " + sentence[pos+len(cue):] // verb-final: "…を再実行します"
	}
	body = strings.TrimSpace(strings.Trim(removeCues(body, t), " ,，、.。!！"))
	if body == "" {
		return nil
	}
	body, cond := foreignCondition(body, lang)
	act := ParseAction(body)
	if act.Verb == "" {
		return nil
	}
	if lang == "pt" || lang == "es" || lang == "fr" || lang == "it" {
		// The head noun comes first in these languages ("a review
		// completa", "la prueba unitaria"), its adjectives after it.
		for _, w := range act.Direct {
			if !functionWord(w) && len(w) > 2 {
				act.Head = w
				break
			}
		}
	}
	if cond != "" {
		act.Condition, act.Deferred = cond, true
	}
	return []Promise{{Sentence: trim, Action: act}}
}

// foreignCondition splits an action of language lang from its condition.
// Chinese puts the condition first: "在 schema diff 审核后重新运行迁移".
func foreignCondition(body, lang string) (action, cond string) {
	if lang == "zh" {
		for _, open := range []string{"在", "等", "等到"} {
			if !strings.HasPrefix(body, open) {
				continue
			}
			for _, end := range []string{"之后", "以后", "后"} {
				if k := strings.Index(body, end); k > 0 {
					return strings.TrimSpace(strings.TrimLeft(body[k+len(end):], "，, ")), strings.TrimSpace(body[:k+len(end)])
				}
			}
		}
		return body, ""
	}
	lower := FoldText(body)
	if pos, c := cueAt(lower, conditionStarts[lang], 0); pos > 0 && c != "" {
		return strings.TrimSpace(strings.TrimRight(body[:pos], " ,")), strings.TrimSpace(body[pos:])
	}
	return body, ""
}

// EnglishVerb is the English verb term of a verb term of another language
// ("ler" → "read", "ejecutar" → "run"), or the term itself: what a call
// does is judged by English verb classes (a read, a run, an edit), and a
// promise keeps its own words for matching claims in its language.
func EnglishVerb(term string) string {
	if en, ok := foreignVerbTerms[term]; ok {
		return en
	}
	return term
}

var foreignVerbTerms = func() map[string]string {
	m := make(map[string]string, len(foreignVerbs))
	for k, v := range foreignVerbs {
		if t := TermOf(k); t != "" {
			m[t] = TermOf(v)
		}
	}
	return m
}()

// foreignVerbs gives the English verb of the commonest work verbs of the
// Latin-script languages users write in (infinitives, as they follow
// "vou", "voy a", "je vais", "ich werde", "vado a"), for the verb classes
// that decide whether a call carries a promise out.
var foreignVerbs = map[string]string{
	// Portuguese
	"ler": "read", "executar": "run", "rodar": "run", "verificar": "check", "checar": "check", "revisar": "review",
	"analisar": "analyze", "explorar": "explore", "investigar": "investigate", "examinar": "examine", "procurar": "search",
	"buscar": "search", "criar": "create", "adicionar": "add", "corrigir": "fix", "consertar": "fix", "atualizar": "update",
	"testar": "test", "implementar": "implement", "remover": "remove", "apagar": "delete", "escrever": "write",
	"commitar": "commit", "entender": "understand", "compilar": "build",
	// Spanish
	"leer": "read", "ejecutar": "run", "correr": "run", "comprobar": "check", "analizar": "analyze",
	"crear": "create", "añadir": "add", "anadir": "add", "agregar": "add", "corregir": "fix", "arreglar": "fix",
	"actualizar": "update", "probar": "test", "eliminar": "delete", "borrar": "delete", "escribir": "write",
	// French
	"lire": "read", "exécuter": "run", "executer": "run", "lancer": "run", "vérifier": "check", "verifier": "check",
	"examiner": "examine", "analyser": "analyze", "explorer": "explore", "chercher": "search", "rechercher": "search",
	"créer": "create", "creer": "create", "ajouter": "add", "corriger": "fix", "réparer": "fix", "tester": "test",
	"implémenter": "implement", "supprimer": "delete", "écrire": "write", "ecrire": "write", "relire": "review", "comprendre": "understand",
	// German
	"lesen": "read", "ausführen": "run", "prüfen": "check", "überprüfen": "check", "analysieren": "analyze",
	"untersuchen": "investigate", "suchen": "search", "erstellen": "create", "hinzufügen": "add", "beheben": "fix",
	"korrigieren": "fix", "aktualisieren": "update", "testen": "test", "implementieren": "implement", "entfernen": "remove",
	"löschen": "delete", "schreiben": "write", "umbenennen": "rename", "verschieben": "move", "kopieren": "copy",
	"installieren": "install", "dokumentieren": "document", "ändern": "change", "anpassen": "update", "bauen": "build",
	"committen": "commit", "deployen": "deploy",
	// Renaming, moving and copying files, in the other Latin-script languages.
	"renomear": "rename", "mover": "move", "copiar": "copy", "renombrar": "rename", "renommer": "rename", "déplacer": "move",
	"deplacer": "move", "copier": "copy", "rinominare": "rename", "spostare": "move", "copiare": "copy", "instalar": "install",
	"installer": "install", "documentar": "document", "documenter": "document",
	// Italian
	"leggere": "read", "eseguire": "run", "controllare": "check", "verificare": "check", "analizzare": "analyze",
	"creare": "create", "aggiungere": "add", "correggere": "fix", "aggiornare": "update", "testare": "test", "rimuovere": "remove",
}

// describesThing reports whether the Japanese clause before "します" says
// what a thing does rather than what the speaker will do: a topic that is
// neither the speaker nor a time ("次のリリースは"), no object marked by を,
// and a verb of something that happens ("…で発火します": the next release
// fires on the tag push). "このバグは修正します" (the bug, I'll fix) keeps its
// promise: 修正 is done to a thing, not by it.
func describesThing(clause string) bool {
	at := strings.Index(clause, "は")
	if at <= 0 || strings.Contains(clause[at:], "を") {
		return false
	}
	topic := clause[:at]
	for _, w := range jaSpeakerOrTime {
		if strings.HasSuffix(topic, w) {
			return false
		}
	}
	rest := strings.TrimSpace(clause[at:])
	for _, v := range jaEventVerbs {
		if strings.HasSuffix(rest, v) {
			return true
		}
	}
	return false
}

var (
	// jaSpeakerOrTime end a topic that is the speaker or a time, after
	// which "します" is still the speaker's act ("次は…します").
	jaSpeakerOrTime = []string{"私", "僕", "俺", "我々", "私たち", "こちら", "次", "今度", "まず", "今回", "最後", "あと", "後", "今", "次回", "これから", "それから", "ここから"}
	// jaEventVerbs happen to a thing: a topic with one of them is a
	// description ("…で発火します", "自動で起動します").
	jaEventVerbs = []string{"発火", "動作", "作動", "発生", "成功", "失敗", "完了", "終了", "機能", "反映", "適用", "起動", "トリガー"}
)

// conditionClause reports whether a clause opens with a condition ("wenn",
// "si", "если"): it says when what follows holds, and forbids nothing.
func conditionClause(lower, lang string) bool {
	lower = strings.TrimSpace(lower)
	for _, c := range conditionStarts[lang] {
		if strings.HasPrefix(lower, strings.TrimSpace(c)+" ") {
			return true
		}
	}
	return false
}
