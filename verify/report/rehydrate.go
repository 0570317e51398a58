package report

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The JSON form of a rehydration block (`loupe rehydrate --format json`),
// for runtimes and scripts that place the block themselves. Every string
// from the transcript is sanitized before it is encoded; the block is the
// framed text the hooks put back, and each item's transcript text is in its
// excerpts, never in its line.
type (
	// JSONRehydration is one compaction's block.
	JSONRehydration struct {
		Path         string         `json:"path"`
		Seq          int            `json:"seq"`
		Turn         int            `json:"turn"`
		Verdict      verify.Verdict `json:"verdict"`
		Unverifiable bool           `json:"unverifiable"`
		MaxChars     int            `json:"max_chars"`
		// Chars is the block's length in UTF-16 code units, the unit the
		// runtimes cap injected context in.
		Chars   int        `json:"chars"`
		Items   []JSONOwed `json:"items"`
		Omitted []JSONOwed `json:"omitted"`
		// Block is the text to put back ("" when nothing is owed).
		Block string `json:"block"`
	}
	// JSONOwed is one item the summary did not keep.
	JSONOwed struct {
		Kind   verify.Kind   `json:"kind"`
		Status verify.Status `json:"status"`
		Key    string        `json:"key"`
		Turn   int           `json:"turn"`
		// Line is loupe's own statement of the item, with no transcript text.
		Line string `json:"line"`
		// Excerpts are the transcript text that makes the item owed.
		Excerpts []verify.Excerpt `json:"excerpts"`
	}
)

// ToJSONRehydration converts a block to its JSON form.
func ToJSONRehydration(path string, r *verify.Rehydration) JSONRehydration {
	out := JSONRehydration{Path: model.Sanitize(path), Seq: r.Seq, Turn: r.Turn, Verdict: r.Verdict, Unverifiable: r.Unverifiable,
		MaxChars: r.MaxChars, Chars: r.Chars(), Items: owedJSON(r.Items), Omitted: owedJSON(r.Omitted), Block: r.Text}
	return out
}

func owedJSON(os []verify.Owed) []JSONOwed {
	out := make([]JSONOwed, 0, len(os))
	for _, o := range os {
		out = append(out, JSONOwed{Kind: o.Kind, Status: o.Status, Key: model.Sanitize(o.Key), Turn: o.Turn, Line: o.Line, Excerpts: o.Excerpts})
	}
	return out
}

// WriteRehydrationJSON writes the block of one compaction as one JSON object.
func WriteRehydrationJSON(w io.Writer, path string, r *verify.Rehydration) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(ToJSONRehydration(path, r))
}

// WriteRehydrationText writes the block as it would be put back into the
// agent's context, ending in a newline; nothing when nothing is owed.
func WriteRehydrationText(w io.Writer, r *verify.Rehydration) error {
	if r.Text == "" {
		return nil
	}
	_, err := io.WriteString(w, strings.TrimRight(r.Text, "\n")+"\n")
	return err
}
