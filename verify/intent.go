package verify

// Intent: what a call (or a failure) was about, in words. A summary that
// loses a call's id but says what the call was doing keeps its intent: the
// agent knows the work is under way, though the router cannot re-attach
// the result. Summaries describe a call in their own words: "a kubectl
// wait is blocking until the certificate is Ready" for `kubectl wait
// --for=condition=Ready certificate/api-tls`, "a Slack message to
// #fin-close" for an MCP call with a channel and a text.

import (
	"encoding/json"
	"sort"
	"strings"
	"unicode"

	"github.com/loupe-dev/loupe/verify/lang"
)

// intent holds the words of a call that say what it does.
type intent struct {
	src string // the command, or the path and tool name
	// prog is the program a shell line runs ("kubectl"), and args the terms
	// of its subcommand and arguments: the program with one of them named
	// is the call described.
	prog string
	args []string
	// tool are the specific words of a non-shell tool's name ("slack",
	// "post" of mcp_slack_post_message) and input its raw input, whose
	// short fields (a channel, a title) name its target.
	tool  []string
	input string
	about string // the call's own description ("Full March fine-tune")
	at    atom
	done  bool
}

// newIntent reads the intent of a parsed call.
func newIntent(ci *callInfo) intent {
	in := intent{src: intentSource(ci), about: ci.about}
	switch {
	case ci.command != "":
		if p := ci.main.Program; p != "" && !runnerPrograms[p] {
			in.prog = lang.TermOf(strings.ToLower(p))
		}
		for _, a := range ci.main.Args {
			if strings.HasPrefix(a, "-") {
				if _, v, ok := strings.Cut(a, "="); ok {
					a = v
				} else {
					continue
				}
			}
			in.args = append(in.args, lang.WordTerms(a)...)
		}
	case ci.path == "":
		// The tool's own name, and for a generic MCP bridge (Roo's
		// use_mcp_tool) the server and tool it names in its input.
		names := ci.name
		if strings.Contains(ci.input, "tool_name") || strings.Contains(ci.input, "server_name") {
			var bridge struct {
				Server string `json:"server_name"`
				Tool   string `json:"tool_name"`
			}
			if json.Unmarshal([]byte(ci.input), &bridge) == nil {
				names += " " + bridge.Server + " " + bridge.Tool
			}
		}
		for _, w := range lang.WordTerms(nameSeparators.Replace(names)) {
			if !genericToolWords[w] {
				in.tool = lang.AppendUnique(in.tool, w)
			}
		}
		in.input = ci.input
	}
	return in
}

// runnerPrograms run what their first argument names: "python
// tools/pretokenize.py" is described by the script, not by "python".
var runnerPrograms = lang.WordSet("python", "python3", "node", "bash", "sh", "zsh", "ruby", "perl", "deno",
	"bun", "npx", "uv", "poetry", "env", "go", "make")

// genericToolWords say nothing of what a tool does.
var genericToolWords = lang.TermSet("mcp", "tool", "call", "run", "api", "server", "functions", "function", "default", "use")

// intentSource is what a call was doing, in words: its command, or its
// path and tool name.
func intentSource(ci *callInfo) string {
	if ci.command != "" {
		return ci.command
	}
	return ci.path + " " + ci.name
}

// atom is built on first use: only items open at a compaction need it.
func (in *intent) atom() atom {
	if !in.done {
		in.done = true
		in.at = newAtom(lang.Action{}, lang.WordTerms(in.src)...)
	}
	return in.at
}

// findIn finds the unit of d that says what the call was doing: most of
// its words; or its own description; or its program (or tool) with one of
// its targets.
func (in *intent) findIn(d *doc) (candidate, bool) {
	at := in.atom()
	if cands := d.candidates(at); len(cands) > 0 {
		best := cands[0]
		if best.matched >= min(2, len(at.terms)) && best.containment >= 0.5 {
			return best, true
		}
	}
	if in.about != "" {
		about := newAtom(lang.Action{}, lang.WordTerms(in.about)...)
		if cands := d.candidates(about); len(cands) > 0 && len(about.terms) >= 2 {
			if best := cands[0]; best.matched >= 2 && best.containment >= 0.5 {
				return best, true
			}
		}
	}
	if in.prog != "" && len(in.args) > 0 {
		if c, ok := namedWith(d, []string{in.prog}, in.args); ok {
			return c, true
		}
	}
	if len(in.tool) > 0 && in.input != "" {
		var targets []string
		for _, v := range inputStrings(in.input, 4096) {
			if len(v) <= 60 {
				targets = append(targets, lang.WordTerms(v)...)
			}
		}
		if c, ok := namedWith(d, in.tool, targets); ok {
			return c, true
		}
	}
	return candidate{}, false
}

// namedWith finds the first unit holding one of the heads ("kubectl") and
// one of the targets other than the head ("certificate").
func namedWith(d *doc, heads, targets []string) (candidate, bool) {
	want := map[string]bool{}
	for _, t := range targets {
		// A number is no target, but a record's id is ("CHG0041877").
		if !lang.GenericTerm[t] && (!lang.HasDigit(t) || len(t) >= 5 && strings.IndexFunc(t, unicode.IsLetter) >= 0) && len(t) >= 2 {
			want[t] = true
		}
	}
	for _, h := range heads {
		delete(want, h)
	}
	if len(want) == 0 {
		return candidate{}, false
	}
	for _, h := range heads {
		for _, ui := range d.postings[h] {
			if d.exclude[ui] {
				continue
			}
			for _, t := range d.units[ui].toks {
				if want[t.Term] {
					at := newAtom(lang.Action{}, append([]string{h}, t.Term)...)
					return d.score(ui, at), true
				}
			}
		}
	}
	return candidate{}, false
}

// inputStrings returns the string values of a call's JSON input, up to max
// bytes, leaving out the fields that hold code or file content: their ids
// are the code's, not the call's.
func inputStrings(input string, max int) []string {
	var v any
	if json.Unmarshal([]byte(input), &v) != nil {
		return nil
	}
	var out []string
	size := 0
	var walk func(key string, v any)
	walk = func(key string, v any) {
		if size >= max {
			return
		}
		switch x := v.(type) {
		case string:
			if !contentFields[key] {
				out = append(out, x)
				size += len(x)
			}
		case []any:
			for _, e := range x {
				walk(key, e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys) // deterministic: the report lists ids in order
			for _, k := range keys {
				walk(k, x[k])
			}
		}
	}
	walk("", v)
	return out
}

// contentFields hold code or file content, not what a call is about.
var contentFields = lang.WordSet("content", "old_string", "new_string", "oldString", "newString", "old_str",
	"new_str", "patch", "diff", "code", "script", "source", "file_text", "edits", "data")

// nameSeparators split a tool's names into words.
var nameSeparators = strings.NewReplacer("_", " ", "-", " ", ".", " ")
