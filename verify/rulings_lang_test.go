package verify

import (
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// DESIGN.md, "Rulings on wording": users write in their own language. A
// rule or a promise in Spanish or Chinese is owed like one in English; a
// summary in the same language keeps it in its own words; a summary in
// another language keeps it through what both name (ids, paths, numbers,
// names), and where they share nothing the item is for review, not a loss.
func TestRulingLanguages(t *testing.T) {
	cases := []struct {
		name    string
		src     []model.Event
		summary string
		kind    Kind
		key     string
		want    Status
		cross   bool // CrossLanguage: review, not a loss
	}{
		{
			name:    "a Spanish rule the summary lost",
			src:     []model.Event{msg(1, model.RoleUser, "Nunca hagas push a main. Arregla el login.")},
			summary: "Se arregló el formulario de login; faltan las pruebas.",
			kind:    Constraint, key: "push main", want: Dropped,
		},
		{
			name:    "a Spanish rule kept in Spanish",
			src:     []model.Event{msg(1, model.RoleUser, "Nunca hagas push a main. Arregla el login.")},
			summary: "Reglas del usuario: nunca hagas push a main. Se arregló el login.",
			kind:    Constraint, key: "push main", want: Retained,
		},
		{
			name:    "a Chinese rule the summary lost",
			src:     []model.Event{msg(1, model.RoleUser, "以后不要碰生产数据库。先修复登录页面。")},
			summary: "登录页面已修复，测试通过。",
			kind:    Constraint, key: "碰生产数据库", want: Dropped,
		},
		{
			name:    "a Chinese rule kept in Chinese",
			src:     []model.Event{msg(1, model.RoleUser, "以后不要碰生产数据库。先修复登录页面。")},
			summary: "用户规则：不要碰生产数据库。登录页面已修复。",
			kind:    Constraint, key: "碰生产数据库", want: Retained,
		},
		{
			name:    "a Chinese promise with its condition, lost",
			src:     []model.Event{msg(1, model.RoleAssistant, "我会在 schema diff 审核后重新运行迁移。")},
			summary: "已检查 schema diff。",
			kind:    Commitment, key: "重新运行迁移", want: Dropped,
		},
		{
			name:    "a Spanish promise the summary flips",
			src:     []model.Event{msg(1, model.RoleAssistant, "Voy a ejecutar la migración de la tabla pedidos después de revisar el esquema.")},
			summary: "Ejecutar la migración de la tabla pedidos: hecho.",
			kind:    Commitment, key: "migración", want: Flipped,
		},
		{
			name: "a Spanish plan step carried by an English summary through its path and table",
			src: []model.Event{&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
				{ID: "1", Text: "Migrar la tabla orders_archive con db/migrate/0042_orders_archive.sql", Status: model.PlanPending}}}},
			summary: "Pending: run db/migrate/0042_orders_archive.sql to move orders_archive.",
			kind:    Commitment, key: "migrar", want: Retained,
		},
		{
			name:    "a Chinese rule restated in an English summary",
			src:     []model.Event{msg(1, model.RoleUser, "以后不要直接 push 到 main 分支。")},
			summary: "User rule: never push directly to main.",
			kind:    Constraint, key: "push", want: Retained,
		},
		{
			name:    "a Chinese rule whose prohibition an English summary lost",
			src:     []model.Event{msg(1, model.RoleUser, "以后不要直接 push 到 main 分支。")},
			summary: "Next: push the fix to main.",
			kind:    Constraint, key: "push", want: Weak,
		},
		{
			name: "an English plan step, a Chinese summary that names nothing of it",
			src: []model.Event{&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
				{ID: "1", Text: "Rotate the signing keys", Status: model.PlanPending}}}},
			summary: "登录页面已修复，测试通过。",
			kind:    Commitment, key: "rotate", want: Dropped, cross: true,
		},
		{
			name: "a German to-do (verb last) carried by an English summary's pending task",
			src: []model.Event{&model.Plan{Base: model.Base{Turn: 1}, Items: []model.PlanItem{
				{ID: "1", Text: "BrandBuilder Skill erstellen (nutzt CIS)", Status: model.PlanPending}}}},
			summary: "## Pending Tasks\n- Create BrandBuilder skill that:\n  - reads the research report",
			kind:    Commitment, key: "brandbuilder", want: Retained,
		},
		{
			// German around English names, glued to the sentence before it
			// by a period with no space: read as German, the path before
			// it not the rule's, and carried through what both name.
			name:    "a German rule full of English names, restated in an English summary",
			src:     []model.Event{msg(1, model.RoleUser, "Verschiebe '/Users/user/Docs/Research-2025.md' in den neuen Research Ordner.stelle sicher das in Zukunft alle Research Paper und Image generations gehen in einen Unterordner mit Namen für Session in den jeweiligen output ordnern.")},
			summary: "- **Output Folder Structure**: Session subfolders in each output folder (`YYYY-MM-DD_Session-Name/`).",
			kind:    Constraint, key: "unterordner", want: Retained,
		},
		{
			name:    "the same rule, an English summary that names nothing of it",
			src:     []model.Event{msg(1, model.RoleUser, "Verschiebe '/Users/user/Docs/Research-2025.md' in den neuen Research Ordner.stelle sicher das in Zukunft alle Research Paper und Image generations gehen in einen Unterordner mit Namen für Session in den jeweiligen output ordnern.")},
			summary: "Brand guide drafted; next the logo.",
			kind:    Constraint, key: "unterordner", want: Dropped, cross: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.src, compaction(10, 1, c.summary), Options{})
			ir := statusOf(t, r, c.kind, c.key)
			if ir.Status != c.want || ir.CrossLanguage != c.cross {
				t.Fatalf("status %s cross-language %v (%s), want %s %v", ir.Status, ir.CrossLanguage, ir.Why, c.want, c.cross)
			}
			if c.cross && r.Verdict != Degrade {
				t.Errorf("verdict %s (%v): an item for review is not a loss", r.Verdict, r.Reasons)
			}
		})
	}
}

// Completion claims in other languages: a claim that the promised work is
// done, with no call that did it, is an unsupported completion.
func TestRulingClaimsInOtherLanguages(t *testing.T) {
	cases := []struct {
		name    string
		promise string
		claim   string
		want    bool
	}{
		{"Spanish", "Voy a ejecutar la migración de la tabla pedidos después de revisar el esquema.", "Ejecutar la migración de la tabla pedidos: hecho.", true},
		{"Chinese", "我会在 schema diff 审核后重新运行迁移。", "已重新运行迁移。", true},
		{"Chinese, still pending", "我会在 schema diff 审核后重新运行迁移。", "下一步：重新运行迁移。", false},
		{"French", "Je vais relancer la migration après la revue.", "Relancer la migration : terminé.", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Run(transcriptOf(msg(1, model.RoleAssistant, c.promise), msg(2, model.RoleUser, "ok"), msg(3, model.RoleAssistant, c.claim)), Options{})
			got := false
			for _, f := range res.Findings {
				if f.Kind == UnsupportedCompletion {
					got = true
				}
			}
			if got != c.want {
				t.Errorf("unsupported completion = %v, want %v (%+v)", got, c.want, res.Findings)
			}
		})
	}
}
