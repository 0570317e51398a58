package lang

// Users write to agents in their own language (DESIGN.md, "Rulings on
// wording"). English is read by the full grammar of rule.go and promise.go;
// the other languages users of the runtimes write most are read by a small
// table of cue words each: what makes a sentence a standing rule, a promise,
// a completion claim, or pending work. Chinese, Japanese and Korean are
// written without spaces between words, so their cues are found as
// substrings and their text is tokenized one character at a time (Words).

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cueTable is one language's cue words, lower case.
type cueTable struct {
	// prohibit and oblige open a standing rule: "nunca", "不要"; "siempre", "必须".
	prohibit, oblige []string
	// lasting says a rule holds from now on: "a partir de ahora", "以后".
	lasting []string
	// lead are words that may stand before the cue without changing the
	// rule: "por favor", "请", "bitte".
	lead []string
	// promise opens a commitment of the speaker's: "voy a", "我会".
	promise []string
	// deny negates a promise: "no voy a", "不会".
	deny []string
	// done and pending present work as finished or still to do.
	done, pending []string
	// describes are verbs that, right after a bare negation at the start of
	// a sentence, describe a bug rather than forbid ("no funciona").
	describes []string
	// anywhere: the cue may stand anywhere in the clause (verb-first or
	// verb-final languages: "Pushe niemals auf main", "触らないでください"),
	// as long as the clause does not open with a subject (subjects).
	anywhere bool
	subjects []string
}

// cueTables holds the cue words per language (ISO 639-1 code).
var cueTables = map[string]*cueTable{
	"es": {
		prohibit:  []string{"nunca", "jamás", "en ningún caso", "no "},
		oblige:    []string{"siempre", "debes", "tienes que", "asegúrate de", "usa solo", "usa solamente", "solo usa"},
		lasting:   []string{"a partir de ahora", "de ahora en adelante", "desde ahora", "hasta que yo diga lo contrario", "hasta que diga lo contrario", "hasta nuevo aviso", "durante el resto de la sesión", "en adelante"},
		lead:      []string{"por favor", "recuerda:", "importante:", "regla:", "y "},
		promise:   []string{"voy a", "vamos a", "lo haré", "haré", "me encargaré de", "todavía tengo que", "aún tengo que", "tengo que", "después voy a", "luego voy a", "queda pendiente"},
		deny:      []string{"no voy a", "no vamos a", "no lo haré", "no haré"},
		done:      []string{"hecho", "listo", "completado", "completada", "terminado", "terminada", "finalizado", "resuelto", "resuelta", "ya está", "ya quedó"},
		pending:   []string{"pendiente", "pendientes", "próximos pasos", "siguiente paso", "por hacer", "falta", "queda"},
		describes: []string{"funciona", "funcionan", "aparece", "aparecen", "carga", "cargan", "abre", "muestra", "existe", "sirve", "anda", "responde", "compila", "arranca", "hay", "es", "está", "se", "me", "lo", "la", "sé", "sabemos"},
	},
	"pt": {
		prohibit:  []string{"nunca", "jamais", "em hipótese alguma", "não "},
		oblige:    []string{"sempre", "você deve", "você tem que", "tem que", "certifique-se de", "use apenas", "use só"},
		lasting:   []string{"a partir de agora", "daqui para frente", "daqui pra frente", "até eu dizer o contrário", "até segunda ordem", "pelo resto da sessão"},
		lead:      []string{"por favor", "importante:", "regra:", "e "},
		promise:   []string{"vou ", "vamos ", "irei", "farei", "ainda preciso", "ainda tenho que", "depois vou"},
		deny:      []string{"não vou", "não vamos", "não irei", "não farei"},
		done:      []string{"feito", "pronto", "concluído", "concluída", "terminado", "finalizado", "resolvido", "resolvida"},
		pending:   []string{"pendente", "pendentes", "próximos passos", "a fazer", "falta"},
		describes: []string{"funciona", "funcionam", "aparece", "aparecem", "carrega", "abre", "mostra", "existe", "roda", "responde", "compila", "há", "é", "está", "sei", "se"},
	},
	"fr": {
		prohibit: []string{"ne jamais", "jamais", "ne ", "n'", "surtout pas", "en aucun cas"},
		oblige:   []string{"toujours", "tu dois", "vous devez", "il faut", "assure-toi de", "assurez-vous de", "utilise uniquement", "utilisez uniquement"},
		lasting:  []string{"à partir de maintenant", "désormais", "dorénavant", "jusqu'à nouvel ordre", "jusqu'à ce que je dise le contraire", "pour le reste de la session"},
		lead:     []string{"s'il te plaît", "s'il vous plaît", "merci de", "important :", "important:", "règle :", "règle:", "et "},
		promise:  []string{"je vais", "nous allons", "on va", "je ferai", "il me reste à", "je dois encore", "ensuite je vais"},
		deny:     []string{"je ne vais pas", "nous n'allons pas", "je ne ferai pas"},
		done:     []string{"fait", "terminé", "terminée", "fini", "achevé", "résolu", "résolue", "effectué", "effectuée", "c'est fait"},
		pending:  []string{"en attente", "à faire", "reste à faire", "prochaines étapes", "prochaine étape", "en cours"},
	},
	"de": {
		prohibit: []string{"niemals", "nie ", "auf keinen fall", "keinesfalls", "nicht "},
		oblige:   []string{"immer", "stets", "du musst", "ihr müsst", "sie müssen", "unbedingt", "stell sicher", "stelle sicher", "achte darauf", "nur "},
		lasting:  []string{"ab jetzt", "von nun an", "ab sofort", "bis auf weiteres", "bis ich etwas anderes sage", "für den rest der sitzung", "künftig", "in zukunft"},
		lead:     []string{"bitte", "wichtig:", "regel:", "und "},
		promise:  []string{"ich werde", "wir werden", "werde ich", "ich muss noch", "als nächstes werde ich", "ich kümmere mich"},
		deny:     []string{"ich werde nicht", "wir werden nicht", "werde ich nicht"},
		done:     []string{"erledigt", "fertig", "abgeschlossen", "gelöst", "behoben", "erfolgreich"},
		pending:  []string{"ausstehend", "offen", "nächste schritte", "noch zu tun", "in arbeit"},
		anywhere: true,
		subjects: []string{"der", "die", "das", "ein", "eine", "es", "er", "sie", "wir", "ich", "man", "dieser", "diese", "dieses", "dann", "aber", "mein", "unser", "dein"},
	},
	"vi": {
		prohibit: []string{"đừng bao giờ", "không bao giờ", "tuyệt đối không", "không được", "đừng", "cấm"},
		oblige:   []string{"luôn luôn", "luôn", "bắt buộc", "phải", "nhớ"},
		lasting:  []string{"từ giờ trở đi", "từ bây giờ", "từ giờ", "từ nay", "cho đến khi tôi nói khác"},
		lead:     []string{"vui lòng", "làm ơn", "xin", "hãy", "bạn", "em", "anh", "quy tắc:", "quan trọng:"},
		promise:  []string{"tôi sẽ", "mình sẽ", "chúng tôi sẽ", "em sẽ", "tiếp theo tôi sẽ", "tôi vẫn cần"},
		deny:     []string{"tôi sẽ không", "mình sẽ không", "em sẽ không"},
		done:     []string{"đã xong", "xong", "hoàn thành", "hoàn tất", "đã sửa"},
		pending:  []string{"đang chờ", "còn lại", "bước tiếp theo", "chưa xong", "cần làm"},
	},
	"ru": {
		prohibit:  []string{"никогда не", "никогда", "ни в коем случае не", "нельзя", "запрещено", "не "},
		oblige:    []string{"всегда", "обязательно", "ты должен", "вы должны", "используй только", "используйте только"},
		lasting:   []string{"с этого момента", "отныне", "впредь", "до дальнейшего уведомления", "пока я не скажу иначе", "до конца сессии", "с сегодняшнего дня"},
		lead:      []string{"пожалуйста", "важно:", "правило:", "и "},
		promise:   []string{"я собираюсь", "я займусь", "затем я", "потом я", "мне ещё нужно", "мне еще нужно", "я сделаю", "я запущу", "я обновлю", "я исправлю", "я проверю", "я добавлю", "я перезапущу"},
		deny:      []string{"я не буду", "я не собираюсь", "не буду"},
		done:      []string{"готово", "сделано", "выполнено", "завершено", "исправлено", "успешно"},
		pending:   []string{"ожидает", "осталось", "следующие шаги", "в ожидании", "не сделано"},
		describes: []string{"работает", "работают", "появляется", "отображается", "грузится", "открывается", "запускается", "знаю", "было", "будет", "получается"},
	},
	"zh": {
		prohibit: []string{"永远不要", "绝对不要", "千万不要", "一定不要", "不要", "不准", "不许", "禁止", "切勿", "别"},
		oblige:   []string{"必须", "一定要", "务必", "总是", "始终", "每次都", "只能用", "只用", "记得"},
		lasting:  []string{"从现在开始", "从现在起", "从今以后", "以后", "今后", "在我另行通知之前", "直到我另行通知", "直到我说可以", "在本次会话中"},
		lead:     []string{"请你", "请", "你", "规则：", "规则:", "注意：", "重要：", "都", "也"},
		promise:  []string{"接下来我要", "接下来我会", "稍后我会", "然后我会", "我还需要", "我会", "我将", "我要", "我来"},
		deny:     []string{"我不会", "我不要", "我不将"},
		done:     []string{"已完成", "已经完成", "完成了", "做完了", "搞定", "已修复", "已迁移", "已运行", "已经", "已"},
		pending:  []string{"待办", "待完成", "未完成", "下一步", "接下来", "剩余", "还需要", "待处理", "尚未"},
	},
	"ja": {
		prohibit: []string{"絶対に", "決して", "しないでください", "ないでください", "しないで", "禁止", "てはいけません", "てはいけない", "ではいけない"},
		oblige:   []string{"必ず", "常に", "いつも"},
		lasting:  []string{"今後は", "今後", "これからは", "以降", "このセッションの間"},
		lead:     []string{"ルール：", "重要：", "注意："},
		promise:  []string{"これから", "次に", "後で", "予定です", "つもりです", "しておきます", "します"},
		deny:     []string{"しません", "しないつもり"},
		done:     []string{"完了しました", "完了", "済み", "終わりました", "しました"},
		pending:  []string{"保留", "未完了", "次のステップ", "残り", "予定", "これから"},
		anywhere: true,
	},
	"ko": {
		prohibit: []string{"절대", "하지 마세요", "하지 마", "하지마", "하지 말", "금지", "마세요", "말아"},
		oblige:   []string{"항상", "반드시", "꼭"},
		lasting:  []string{"앞으로", "지금부터", "이제부터", "다르게 말할 때까지"},
		lead:     []string{"규칙:", "중요:"},
		promise:  []string{"하겠습니다", "할게요", "할 것입니다", "예정입니다", "다음으로", "나중에"},
		deny:     []string{"하지 않겠습니다", "안 할게요"},
		done:     []string{"완료했습니다", "완료", "끝났습니다", "했습니다", "해결"},
		pending:  []string{"대기", "남은", "다음 단계", "미완료", "예정"},
		anywhere: true,
	},
}

// Languages lists the languages loupe reads, English first.
var Languages = []string{"en", "zh", "es", "pt", "fr", "de", "ja", "ko", "vi", "ru"}

// functionWords are frequent words that tell Latin-script languages apart.
var functionWords = map[string][]string{
	"en": {"the", "and", "to", "is", "of", "you", "never", "always", "don't", "with", "for", "it", "i", "we", "will", "this", "that", "on", "in", "not", "be",
		"no", "at", "are", "was", "as", "by", "from", "or", "have", "has", "can", "all", "if", "do", "so", "i'll", "we'll", "it's", "let's", "please", "should", "must"},
	"es": {"la", "se", "su", "más", "como", "sin", "hay", "sigue", "de", "ahora", "usa", "esto", "nada", "el", "los", "las", "del", "que", "y", "en", "nunca", "por", "para", "con", "una", "es", "siempre", "voy", "haré", "está", "pero", "lo", "al", "hagas"},
	"pt": {"de", "agora", "isso", "nada", "o", "os", "as", "do", "da", "que", "e", "em", "não", "para", "com", "uma", "é", "você", "vou", "sempre", "nunca", "mas", "dos", "das", "no", "na"},
	"fr": {"il", "elle", "nous", "dans", "qui", "mais", "cette", "sont", "reste", "faire", "le", "les", "des", "du", "et", "en", "ne", "pas", "jamais", "pour", "avec", "une", "est", "vous", "tu", "toujours", "je", "vais", "sur", "au", "la", "de"},
	"de": {"der", "die", "das", "und", "nicht", "nie", "niemals", "ist", "mit", "für", "ein", "eine", "immer", "bitte", "ich", "werde", "auf", "den", "dem", "zu", "du"},
	"vi": {"không", "và", "của", "là", "được", "tôi", "sẽ", "đừng", "luôn", "phải", "cho", "với", "này", "các", "những"},
}

// languageOfWord maps a function word to the languages it belongs to.
var languageOfWord = func() map[string][]string {
	m := map[string][]string{}
	for lang, ws := range functionWords {
		for _, w := range ws {
			m[w] = append(m[w], lang)
		}
	}
	return m
}()

// LanguageOf says which of Languages a text is written in: by script for
// Chinese, Japanese, Korean and Russian, by frequent words for the
// Latin-script languages. Code, paths and identifiers count for nothing;
// a text with no word of another language is English.
func LanguageOf(text string) string {
	// The first few kilobytes tell the language as well as the whole: a
	// long tool output or summary is not read twice for it.
	if len(text) > 3000 {
		text = text[:CutUTF8(text, 3000)]
	}
	var han, kana, hangul, cyr, latin, viet int
	for _, r := range text {
		if r < utf8.RuneSelf {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				latin++
			}
			continue
		}
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case strings.ContainsRune("ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ", unicode.ToLower(r)):
			viet++
		}
	}
	// A script other than Latin decides when it carries a fair share of
	// the letters: an English sentence quoting one Chinese word is English.
	cjk := han + kana + hangul
	switch {
	case kana > 0 && (kana+han)*2 >= latin/3:
		return "ja"
	case hangul > 0 && hangul*2 >= latin/3:
		return "ko"
	case han > 0 && han*2 >= latin/3:
		return "zh"
	case cyr > 0 && cyr >= latin:
		return "ru"
	case viet >= 2 && cjk == 0:
		return "vi"
	}
	if latin == 0 {
		return "en"
	}
	score, words := map[string]int{}, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '_')
	}) {
		// Single letters and code (hex, ids) say nothing of the language.
		if utf8.RuneCountInString(w) < 2 || HasDigit(w) || strings.Contains(w, "_") {
			continue
		}
		words++
		for _, lang := range languageOfWord[w] {
			score[lang]++
		}
	}
	best := "en"
	for _, l := range []string{"es", "pt", "fr", "de", "vi"} {
		// Another language must out-count English by a margin: many
		// function words are shared or look alike ("a", "no", "de").
		// Prose is a fifth function words or more; a log or a listing
		// of names that happens to hold a few is not prose of l.
		if score[l] >= 2 && score[l] > score[best]+1 && score[l] > score["en"]+1 && score[l]*6 >= words {
			best = l
		}
	}
	return best
}

// SentenceLanguage is the language of a sentence of a message written in
// msgLang: a short sentence has too few words to tell, and takes its
// message's language unless it holds English words of its own.
func SentenceLanguage(sentence, msgLang string) string {
	l := LanguageOf(sentence)
	if l != "en" || msgLang == "en" {
		return l
	}
	for _, w := range strings.Fields(strings.ToLower(sentence)) {
		for _, lw := range languageOfWord[strings.Trim(w, ",.!:;")] {
			if lw == "en" {
				return "en"
			}
		}
	}
	return msgLang
}

// isCJK reports whether r is written without spaces between words.
func isCJK(r rune) bool {
	return r >= 0x2E80 && (r == 'ー' || unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul))
}

// cjkStop are characters that carry no content: particles and pronouns.
var cjkStop = WordSet("的", "了", "是", "在", "和", "把", "将", "要", "会", "我", "你", "他", "们", "这", "那", "就", "也", "都", "个",
	"吗", "呢", "吧", "请", "不", "别", "を", "は", "が", "の", "に", "で", "と", "も", "へ", "た", "て", "し", "す", "ま",
	"せ", "ん", "い", "な", "く", "だ", "さ", "う", "る")

// foreignSentenceEnd holds the full-width sentence ends of CJK text.
var foreignSentenceEnd = []string{"。", "！", "？", "；"}

// trimLabel drops a label before an instruction: "Rule from now on:",
// "Constraint:", "Important:", "规则：", a bullet or a number. The rule is
// what follows it (DESIGN.md: a label does not change the rule). It
// returns the offset where the instruction starts.
func trimLabel(s string) int {
	i := len(s) - len(strings.TrimLeft(s, " \t-*•>#"))
	rest := s[i:]
	// A list number: "1. ", "2) ".
	if j := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); j > 0 && j+1 < len(rest) && (rest[j] == '.' || rest[j] == ')') && rest[j+1] == ' ' {
		i += j + 2
		rest = s[i:]
	}
	// A label: a few words ending in a colon, with no verb of the rule
	// inside ("Rule from now on:", "Hard constraint:", "重要：").
	for _, colon := range []string{": ", "：", ":"} {
		k := strings.Index(rest, colon)
		if k <= 0 || k > 40 {
			continue
		}
		label := strings.ToLower(strings.Trim(rest[:k], " *_"))
		if labelWords(label) {
			i += k + len(colon)
			return i + len(s[i:]) - len(strings.TrimLeft(s[i:], " *_"))
		}
	}
	return i
}

// labelWords reports whether a text before a colon only names the kind of
// instruction that follows ("rule", "constraint from now on", "note").
func labelWords(label string) bool {
	nouns := []string{"rule", "rules", "constraint", "constraints", "important", "note", "reminder", "requirement",
		"policy", "standing rule", "standing instruction", "instruction", "hard rule", "ground rule", "heads up",
		"regla", "importante", "regra", "règle", "regel", "wichtig", "quy tắc", "quan trọng", "правило", "важно",
		"规则", "重要", "注意", "ルール", "規則", "규칙", "중요"}
	for _, n := range nouns {
		if label == n || strings.HasPrefix(label, n+" ") {
			rest := strings.TrimSpace(strings.TrimPrefix(label, n))
			switch rest {
			case "", "from now on", "going forward", "for this session", "for the rest of this session", "until i say otherwise",
				"a partir de ahora", "de ahora en adelante", "a partir de agora", "à partir de maintenant", "ab jetzt", "ab sofort":
				return true
			}
		}
	}
	return false
}

// foreignClauses splits a sentence of another language into the clauses
// that may each hold one rule.
func foreignClauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '；' })
}

// cueAt returns the first of cues found in lower at or after from, and its offset.
func cueAt(lower string, cues []string, from int) (int, string) {
	pos, cue := -1, ""
	for _, c := range cues {
		i := strings.Index(lower[from:], c)
		if i < 0 {
			continue
		}
		i += from
		// A Latin-script cue is a whole word: "nie" is not in "niemand".
		if !cjkCue(c) {
			if i > 0 && isWordByte(lower[i-1]) && lower[i-1] < utf8.RuneSelf {
				continue
			}
			if e := i + len(c); e < len(lower) && c[len(c)-1] != ' ' && isWordByte(lower[e]) && lower[e] < utf8.RuneSelf {
				continue
			}
		}
		if pos < 0 || i < pos || i == pos && len(c) > len(cue) {
			pos, cue = i, c
		}
	}
	return pos, cue
}

func cjkCue(c string) bool {
	r, _ := utf8.DecodeRuneInString(c)
	return isCJK(r)
}

// stripLeads drops the words that may stand before a cue ("por favor", a
// lasting phrase) and reports whether a lasting phrase was among them.
func stripLeads(lower string, t *cueTable) (int, bool) {
	off, lasting := 0, false
	for changed := true; changed; {
		changed = false
		rest := lower[off:]
		trimmed := strings.TrimLeft(rest, " ,，、:：")
		off += len(rest) - len(trimmed)
		for gi, group := range [][]string{t.lead, t.lasting} {
			for _, l := range group {
				if strings.HasPrefix(lower[off:], l) {
					off += len(l)
					changed = true
					lasting = lasting || gi == 1
				}
			}
		}
	}
	return off, lasting
}

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
		pos, cue := cueAt(lower, append(append([]string{}, t.prohibit...), t.oblige...), off)
		if _, l := cueAt(lower, t.lasting, off); l != "" {
			lasting = true
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
		out = append(out, Rule{Sentence: strings.TrimSpace(sentence), Clause: strings.TrimSpace(cl), Action: act})
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
	if cond != "" {
		act.Condition, act.Deferred = cond, true
	}
	return []Promise{{Sentence: trim, Action: act}}
}

// conditionStarts open the condition of a promise, per language: "voy a
// ejecutar la migración | después de revisar el esquema".
var conditionStarts = map[string][]string{
	"es": {"después de", "cuando", "una vez que", "en cuanto", "antes de", "si "},
	"pt": {"depois de", "quando", "assim que", "antes de", "se "},
	"fr": {"après", "quand", "une fois que", "dès que", "avant de", "si "},
	"de": {"nachdem", "wenn", "sobald", "bevor", "falls"},
	"vi": {"sau khi", "khi", "trước khi", "nếu"},
	"ru": {"после того как", "после", "когда", "как только", "перед тем как", "если"},
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

// ForeignStatus says whether a sentence in another language presents its
// matter as done or pending by that language's cue words: "done",
// "pending" or "" (no cue), with the cue. Pending wins when it comes first
// ("todavía falta migrar, lo demás está hecho").
//
// hint is the language of the text the sentence is part of: a short
// sentence takes it unless it holds English words of its own.
func ForeignStatus(sentence, hint string) (string, string) {
	t := cueTables[SentenceLanguage(sentence, hint)]
	if t == nil {
		return "", ""
	}
	lower := FoldText(sentence)
	p, pc := cueAt(lower, t.pending, 0)
	d, dc := cueAt(lower, t.done, 0)
	switch {
	case p >= 0 && (d < 0 || p <= d):
		return "pending", pc
	case d >= 0:
		return "done", dc
	}
	return "", ""
}

// Shared returns what two texts in different languages share: the
// identifiers, paths, numbers, names and code words of a that also appear
// in b, each as written in a. Ordinary words of one language do not count.
func Shared(a, b string) []string {
	bw := map[string]bool{}
	for _, t := range Words(b) {
		bw[t.Word] = true
	}
	lb := strings.ToLower(b)
	var out []string
	for _, id := range ExtractIdents(a) {
		if strings.Contains(lb, strings.ToLower(id.Value)) {
			out = AppendUnique(out, id.Value)
		}
	}
	for _, t := range Words(a) {
		r, _ := utf8.DecodeRuneInString(t.Word)
		if isCJK(r) || !bw[t.Word] || stopWords[t.Word] {
			continue
		}
		raw := a[t.Start:t.End]
		code := strings.ContainsAny(raw, "_-./") || HasDigit(raw) || hasInnerCapital(raw)
		name := unicode.IsUpper([]rune(raw)[0]) && len(raw) > 2
		// In a text of a language other than English, an English word
		// ("push", "main", "staging") is as good as a name.
		foreignHost := LanguageOf(a) != "en" && LanguageOf(raw) == "en" && len(raw) > 2 && isASCIIText(raw)
		if code || name || foreignHost && !functionWord(raw) {
			out = AppendUnique(out, raw)
		}
	}
	return out
}

// functionWord reports whether w is a frequent word of some language.
func functionWord(w string) bool {
	w = strings.ToLower(w)
	for _, ws := range functionWords {
		if containsWord(ws, w) {
			return true
		}
	}
	return false
}

func hasInnerCapital(s string) bool {
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
