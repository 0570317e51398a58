package lang

// The cue words of the languages other than English that users write to
// agents in (see i18n.go): per language, what opens a standing rule, a
// promise, a denial, and what says done or pending.

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
		// describes: finite verbs that stand before "nicht" when it says
		// what a thing does or is ("funktioniert nicht", "weiß nicht").
		describes: []string{"funktioniert", "funktionieren", "geht", "gehen", "klappt", "klappen", "läuft", "laufen", "weiß", "weißt",
			"wissen", "gibt", "ist", "sind", "war", "waren", "hat", "haben", "wird", "werden", "zeigt", "zeigen", "erscheint", "lädt",
			"startet", "kompiliert", "passt", "stimmt", "reicht", "verstehe", "verstehst", "kenne", "kennst", "finde", "findet"},
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

// cjkStop are characters that carry no content: particles and pronouns.
var cjkStop = WordSet("的", "了", "是", "在", "和", "把", "将", "要", "会", "我", "你", "他", "们", "这", "那", "就", "也", "都", "个",
	"吗", "呢", "吧", "请", "不", "别", "を", "は", "が", "の", "に", "で", "と", "も", "へ", "た", "て", "し", "す", "ま",
	"せ", "ん", "い", "な", "く", "だ", "さ", "う", "る")

// conditionStarts open the condition of a promise, per language: "voy a
// ejecutar la migración | después de revisar el esquema".
var conditionStarts = map[string][]string{
	"es": {"después de", "después del", "cuando", "una vez que", "en cuanto", "antes de", "antes del", "si "},
	// Portuguese joins "de" to the article: "depois da revisão", "antes do deploy".
	"pt": {"depois de", "depois da", "depois do", "depois das", "depois dos", "quando", "assim que", "antes de", "antes da", "antes do", "se "},
	"fr": {"après", "quand", "une fois que", "dès que", "avant de", "avant la", "avant le", "avant l'", "si "},
	"de": {"nachdem", "wenn", "sobald", "bevor", "falls"},
	"vi": {"sau khi", "khi", "trước khi", "nếu"},
	"ru": {"после того как", "после", "когда", "как только", "перед тем как", "если"},
}
