package lang

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// Users write rules in their own language (DESIGN.md, "Rulings on
// wording"): each language's prohibitions, obligations and lasting phrases
// make a rule; a description holding a negation does not.
func TestRulesInTenLanguages(t *testing.T) {
	cases := []struct {
		lang, text string
		want       []string // the keys of the rules, in order; nil: none
		negated    bool
	}{
		{"en", "Rule from now on: never touch the prod database", []string{"never touch prod database"}, true},
		{"en", "Constraint: don't edit the generated files.", []string{"never edit generated files"}, true},
		{"en", "Don't use the gpu partition, our allocation there is nearly gone.", []string{"never use gpu partition"}, true},
		{"en", "Every time you change the schema, regenerate the types.", []string{"regenerate types"}, false},
		{"en", "Regenerate the types every time you change the schema.", []string{"regenerate types"}, false},
		{"en", "Make the header sticky too.", nil, false},
		{"en", "It fails every time I run it.", nil, false},
		{"en", "The build breaks each time the cache is cold.", nil, false},
		{"es", "Nunca hagas push a main.", []string{"never hagas push main"}, true},
		{"es", "A partir de ahora usa pnpm.", []string{"usa pnpm"}, false},
		{"es", "El botón nunca aparece para los invitados.", nil, false},
		{"es", "No funciona el login de los invitados.", nil, false},
		{"pt", "Nunca faça deploy na sexta-feira.", []string{"never faça deploy na sexta-feira"}, true},
		{"fr", "Ne touche jamais à la base de prod.", []string{"never touche à la base de prod"}, true},
		{"de", "Pushe niemals auf main.", []string{"never pushe auf main"}, true},
		{"de", "Der Button erscheint nie für Gäste.", nil, false},
		{"de", "Das Logging der Entscheidungen funktioniert nicht richtig: das muss gefixt werden.", nil, false},
		{"de", "Learning im UOCS speziell das Dokumentieren der Aktivitäten und Entscheidungen funktioniert nicht richtig.", nil, false},
		{"de", "Wenn du nicht weißt, was gemeint ist, das sollte in den Docs stehen.", nil, false},
		{"de", "Ändere nicht die generierten Dateien.", []string{"never ändere die generierten dateien"}, true},
		{"es", "Si no funciona, reinicia el servidor.", nil, false},
		{"en", "Put the count in a column (show, don't tell in terms of what the score relates to).", nil, false},
		{"en", "Show the count; don't tell the user the raw score.", []string{"never tell user raw score"}, true},
		{"zh", "不要碰生产数据库。以后必须先跑测试。", []string{"never 碰生产数据库", "先跑测试"}, false},
		{"zh", "按钮从不显示。", nil, false},
		{"zh", "别的文件也要改。", nil, false},
		{"ja", "本番データベースには絶対に触らないでください。", []string{"never 本番データベース触ら"}, true},
		{"ko", "프로덕션 데이터베이스는 절대 건드리지 마세요.", []string{"never 프로덕션데이터베이스는건드리지"}, true},
		{"vi", "Đừng bao giờ push lên main.", []string{"never push lên main"}, true},
		{"ru", "Никогда не трогай продовую базу.", []string{"never трогай продовую базу"}, true},
		{"ru", "Не работает логин.", nil, false},
		{"es", "¿Nunca hacemos push a main?", nil, false},
	}
	for _, c := range cases {
		t.Run(c.lang+" "+c.text, func(t *testing.T) {
			rs := FindRules(c.text)
			var got []string
			for _, r := range rs {
				got = append(got, r.Key())
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Fatalf("rules %q, want %q", got, c.want)
			}
			if len(rs) > 0 && rs[0].Action.Negated != (c.negated || strings.HasPrefix(c.want[0], "never")) {
				t.Errorf("negated = %v", rs[0].Action.Negated)
			}
		})
	}
}

// Promises in other languages: the action is what follows the cue, its
// condition split off; a denied promise is none.
func TestPromisesInOtherLanguages(t *testing.T) {
	cases := []struct{ text, action, cond string }{
		{"Voy a ejecutar la migración después de revisar el esquema.", "ejecutar la migración", "después de revisar el esquema"},
		{"我会在 schema diff 审核后重新运行迁移。", "重新运行迁移", "在 schema diff 审核后"},
		{"Je vais relancer la migration quand la revue sera terminée.", "relancer la migration", "quand la revue sera terminée"},
		{"Ich werde die Migration erneut ausführen, sobald der Review fertig ist.", "die Migration erneut ausführen", "sobald der Review fertig ist"},
		{"Vou rodar a migração depois de revisar o esquema.", "rodar a migração", "depois de revisar o esquema"},
		{"Tôi sẽ chạy lại migration sau khi review xong.", "chạy lại migration", "sau khi review xong"},
		{"Я запущу миграцию после того как ревью закончится.", "миграцию", "после того как ревью закончится"},
		{"No voy a tocar la base de datos.", "", ""},
		{"¿Voy a ejecutar la migración?", "", ""},
		// What a thing does, told with "します", is no promise of the speaker's;
		// a topic that is the thing worked on keeps the promise.
		{"次のリリースは `git tag v0.2.0 && git push origin v0.2.0` で発火します。", "", ""},
		{"このバグは後で修正します。", "このバグは 修正します", ""},
		{"次はテストを実行します。", "次はテストを実行", ""},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			ps := FindPromises(c.text)
			if c.action == "" {
				if len(ps) > 0 {
					t.Fatalf("promise %q in a denial or a question", ps[0].Action.Text)
				}
				return
			}
			if len(ps) != 1 {
				t.Fatalf("%d promises, want 1", len(ps))
			}
			if ps[0].Action.Text != c.action || ps[0].Action.Condition != c.cond {
				t.Errorf("action %q | %q, want %q | %q", ps[0].Action.Text, ps[0].Action.Condition, c.action, c.cond)
			}
		})
	}
}

// A text's language is told by its script or its function words; code,
// logs and hashes are no language, and a short English text stays English.
func TestLanguageOf(t *testing.T) {
	cases := map[string]string{
		"Never push to main; always run the tests first.":                             "en",
		"I'll rebase onto a3f9c2e41b7d0e8f9a6b5c4d3e2f1a0b9c8d7e6f when CI is green.": "en",
		"combustor liner: light coking at No. 4 nozzle; no cracks":                    "en",
		"Nunca hagas push a la rama main sin que lo revise yo.":                       "es",
		"Não mexa no banco de produção, por favor.":                                   "pt",
		"Ne touche jamais à la base de données de production.":                        "fr",
		"Bitte niemals direkt auf den main Branch pushen.":                            "de",
		"Đừng bao giờ push lên nhánh main.":                                           "vi",
		"Никогда не трогай продовую базу.":                                            "ru",
		"以后不要直接推送到 main 分支。":                                                          "zh",
		"本番環境には触らないでください。":                                                            "ja",
		"프로덕션에는 절대 배포하지 마세요.":                                                         "ko",
		"journal_id,posted_at,source\nJE-54001,2024-03-01 00:05:11,AR":                "en",
	}
	for text, want := range cases {
		if got := LanguageOf(text); got != want {
			t.Errorf("LanguageOf(%q) = %s, want %s", text, got, want)
		}
	}
}

// Completion and pending cues of other languages; a short sentence of a
// summary in another language is read in that language.
func TestForeignStatus(t *testing.T) {
	cases := map[string]string{
		"La migración de la tabla users está completada.": "done",
		"迁移已完成。":                                    "done",
		"下一步：重新运行迁移。":                               "pending",
		"Migration der Tabelle users ist erledigt.": "done",
		"Il reste à faire : relancer la migration.": "pending",
		"Миграция выполнено успешно.":               "done",
		"La migración sigue pendiente.":             "pending",
		"Revisé el esquema de la tabla users.":      "",
	}
	for text, want := range cases {
		if got, _ := ForeignStatus(text, "en"); got != want {
			t.Errorf("ForeignStatus(%q) = %q, want %q", text, got, want)
		}
	}
	if got, _ := ForeignStatus("Pendiente.", "es"); got != "pending" {
		t.Errorf("a one-word sentence of a Spanish summary: %q, want pending", got)
	}
}

// TestEachFieldIsFieldsFunc: LanguageOf reads a text's fields without the
// slice, and must read the same fields strings.FieldsFunc gives.
func TestEachFieldIsFieldsFunc(t *testing.T) {
	sep := func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '_') }
	for _, s := range []string{"", "   ", "one", " two words ", "l'été, déjà-vu; naïve", "中文 text\xffbroken", "a_b c-d 12x"} {
		var got []string
		eachField(s, sep, func(w string) { got = append(got, w) })
		if want := strings.FieldsFunc(s, sep); !slices.Equal(got, want) {
			t.Errorf("eachField(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestLanguageOfASCIIPath: an ASCII text is read without a lower-cased
// copy, and must be read as the general path reads it (a trailing "é" is a
// one-letter word, which counts for nothing, and sends the text there).
func TestLanguageOfASCIIPath(t *testing.T) {
	for _, text := range []string{
		"Hello, this is the plan for the release.",
		"ESTO ES LO QUE HAY QUE HACER PARA LA VERSION",
		"Voici ce que nous devons faire pour la prochaine version, c'est important",
		"Das ist der Plan fuer die naechste Version und wir muessen ihn umsetzen",
		"antidisestablishmentarianismusistlangerals32zeichen und die der das",
		"O que precisamos fazer: atualizar a documentacao e os testes do modulo",
		"run go_test ./... then git push origin feat/x; no changes needed (v2, l10n)",
		"",
	} {
		if got, want := LanguageOf(text), LanguageOf(text+" é"); got != want {
			t.Errorf("LanguageOf(%q) = %s, the general path says %s", text, got, want)
		}
	}
}

// The work verbs of renaming, moving and copying files read as their
// English verbs in the Latin-script languages: "ich werde die Dateien
// umbenennen" is the work an mv does.
func TestFileVerbsInOtherLanguages(t *testing.T) {
	for w, en := range map[string]string{"umbenennen": "rename", "verschieben": "move", "renombrar": "rename", "renommer": "rename", "copiar": "copy", "installieren": "install"} {
		if got := EnglishVerb(TermOf(w)); got != TermOf(en) {
			t.Errorf("EnglishVerb(%q) = %q, want %q", w, got, TermOf(en))
		}
	}
}
