package verify

import (
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

var (
	// bareTagRE is a line that is only an opening tag: a notice's first
	// line (<task-notification>), which says nothing by itself.
	bareTagRE = lang.LazyRegexp(`^<[a-zA-Z][\w:-]*(\s[^<>]*)?>$`)
	// fieldRE is one <name>value</name> of a notice (RE2 has no
	// back-reference: the closing name is checked by hand).
	fieldRE = lang.LazyRegexp(`<([a-zA-Z][\w-]*)>([^<]*)</([a-zA-Z][\w-]*)>`)
	anyTag  = lang.LazyRegexp(`</?[a-zA-Z][\w:-]*(\s[^<>]*)?>`)
)

// resultQuote is what a finding quotes of a tool result: its first line,
// unless that line is only a tag (a runtime's notice, <task-notification>
// …): then the notice's readable part, its summary and status, else its
// text without the tags, with the call id when the quote does not name
// it.
func resultQuote(text, id string) string {
	line := firstLine(text)
	if !bareTagRE.MatchString(line) {
		return model.Clip(line, 200)
	}
	tag := strings.Trim(strings.Fields(line)[0], "<>")
	fields := map[string]string{}
	for _, m := range fieldRE.FindAllStringSubmatch(text, -1) {
		if m[1] == m[3] && strings.TrimSpace(m[2]) != "" {
			fields[strings.ToLower(m[1])] = strings.Join(strings.Fields(m[2]), " ")
		}
	}
	var parts []string
	for _, k := range []string{"summary", "status"} {
		if v := fields[k]; v != "" {
			parts = append(parts, k+": "+v)
		}
	}
	if len(parts) == 0 {
		if rest := strings.Join(strings.Fields(anyTag.ReplaceAllString(text, " ")), " "); rest != "" {
			parts = append(parts, rest)
		}
	}
	q := tag
	if len(parts) > 0 {
		q += ": " + strings.Join(parts, " · ")
	}
	if id != "" && !strings.Contains(q, id) {
		q += " (" + id + ")"
	}
	return model.Clip(q, 200)
}
