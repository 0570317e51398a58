package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// FuzzEscapes: whatever a transcript holds, md leaves nothing a Markdown
// renderer acts on (no <, [ or ] outside escapes, no line break), a code
// span stays one code span, and the JSON and XML escapes decode back to the
// exact text with no invisible character left raw.
func FuzzEscapes(f *testing.F) {
	for _, h := range hostile {
		f.Add(h)
	}
	f.Add("family 👨‍👩‍👧 and ❤️, kept as emoji by Sanitize")
	f.Fuzz(func(t *testing.T, s string) {
		m := md(s)
		if a := active(m); strings.ContainsAny(a, "<[]|\n") {
			t.Errorf("md(%q) = %q leaves markup: %q", s, m, a)
		}
		if !model.IsSafe(m) {
			t.Errorf("md(%q) = %q has a raw control or invisible character", s, m)
		}
		if c := mdCode(s); c != "(empty)" && active(c) != "C" {
			t.Errorf("mdCode(%q) = %q is not one code span: %q", s, c, active(c))
		}

		if !strings.Contains(s, "\ufffd") && strings.ToValidUTF8(s, "\ufffd") == s {
			var buf bytes.Buffer
			if err := writeJSON(&buf, s); err != nil {
				t.Fatal(err)
			}
			if _, bad := rawBad(buf.String()); bad {
				t.Errorf("JSON of %q has a raw invisible character: %q", s, buf.String())
			}
			var back string
			if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back != s {
				t.Errorf("JSON of %q decodes to %q (%v)", s, back, err)
			}
		}

		var doc bytes.Buffer
		doc.WriteString("<x>")
		xml.EscapeText(&doc, []byte(xmlSafe(s)))
		doc.WriteString("</x>")
		out := escapeInvisible(doc.Bytes(), xmlEscape)
		if _, bad := rawBad(string(out)); bad {
			t.Errorf("XML of %q has a raw invisible character: %q", s, out)
		}
		var x struct {
			V string `xml:",chardata"`
		}
		if err := xml.Unmarshal(out, &x); err != nil {
			t.Errorf("XML of %q does not parse: %v", s, err)
		}
	})
}
