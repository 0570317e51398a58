package verify

import (
	"encoding/json"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// toolCategory is what a tool call does, as far as carrying out an action
// goes: run something, change files, or only look.
type toolCategory uint8

const (
	toolOther toolCategory = iota
	toolExec
	toolEdit
	toolRead
)

// callInfo is what the verifier needs of a tool call, parsed once.
type callInfo struct {
	name     string // as written
	category toolCategory
	command  string // the shell command, when there is one
	path     string // the file the call targets, when there is one
	target   string // tool + target: what "the same call again" means for errors
	input    string // the input's text, for term matching
	terms    map[string]bool
	inTerms  map[string]bool // terms of the input only (see inputTermSet)
}

// callInput holds the input fields that say what a call acts on.
type callInput struct {
	Command      json.RawMessage `json:"command"`
	Cmd          json.RawMessage `json:"cmd"`
	Script       json.RawMessage `json:"script"`
	Code         json.RawMessage `json:"code"`
	Path         string          `json:"path"`
	FilePath     string          `json:"file_path"`
	FilePathC    string          `json:"filePath"`
	File         string          `json:"file"`
	Filename     string          `json:"filename"`
	NotebookPath string          `json:"notebook_path"`
	TargetFile   string          `json:"target_file"`
	URL          string          `json:"url"`
	Pattern      string          `json:"pattern"`
}

// shellCommand reads a command given as a string or as an argv array
// (["bash", "-lc", "make test"]).
func shellCommand(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		cmd := strings.Join(parts, " ")
		return strings.TrimPrefix(strings.TrimPrefix(cmd, "bash -lc "), "bash -c ")
	}
	return ""
}

func parseCall(c *model.ToolCall) *callInfo {
	ci := &callInfo{name: c.Name, input: c.Input.Head()}
	var in callInput
	if json.Unmarshal([]byte(ci.input), &in) == nil {
		for _, raw := range []json.RawMessage{in.Command, in.Cmd, in.Script, in.Code} {
			if ci.command = shellCommand(raw); ci.command != "" {
				break
			}
		}
		for _, p := range []string{in.Path, in.FilePath, in.FilePathC, in.File, in.Filename, in.NotebookPath, in.TargetFile, in.URL, in.Pattern} {
			if p != "" {
				ci.path = p
				break
			}
		}
	}
	name := strings.ToLower(c.Name)
	switch {
	case ci.command != "" || lang.ContainsAny(name, "bash", "shell", "exec", "terminal", "command", "run", "powershell"):
		ci.category = toolExec
		if first := lang.FirstWord(ci.command); lang.ReadOnlyCommands[first] || lang.GitReadOnly(ci.command) {
			ci.category = toolRead
		}
	case lang.ContainsAny(name, "edit", "write", "patch", "replace", "create", "apply", "insert", "notebook", "delete", "move", "rename"):
		ci.category = toolEdit
	case lang.ContainsAny(name, "read", "view", "cat", "open", "grep", "search", "glob", "ls", "list", "find", "fetch", "web", "get"):
		ci.category = toolRead
	}
	switch {
	case ci.command != "":
		ci.target = name + " " + lang.NormCommand(ci.command)
	case ci.path != "":
		ci.target = name + " " + ci.path
	default:
		ci.target = name + " " + strings.Join(strings.Fields(ci.input), " ")
	}
	return ci
}

// termSet returns the words and terms of the call, computed on first use:
// most calls are never compared with a commitment.
func (ci *callInfo) termSet() map[string]bool {
	if ci.terms == nil {
		ci.terms, ci.inTerms = map[string]bool{}, map[string]bool{}
		add := func(t lang.Token, input bool) {
			for _, x := range []string{t.Term, t.Word} {
				if x == "" {
					continue
				}
				ci.terms[x] = true
				if input {
					ci.inTerms[x] = true
				}
			}
			// "regenerate_stubs.sh" and "build-image" name their words too.
			if strings.ContainsAny(t.Word, "_-") {
				for _, part := range strings.FieldsFunc(t.Word, func(r rune) bool { return r == '_' || r == '-' }) {
					pt := lang.TermOf(part)
					ci.terms[pt] = true
					if input {
						ci.inTerms[pt] = true
					}
				}
			}
		}
		for _, t := range lang.Tokenize(ci.name) {
			add(t, false)
		}
		// The command and path say what a call acts on; of the rest of the
		// input (an edit's whole new text) the start is enough.
		for _, t := range lang.Tokenize(ci.command + " " + ci.path + " " + ci.input[:lang.CutUTF8(ci.input, 512)]) {
			add(t, true)
		}
	}
	return ci.terms
}

// covers reports whether a successful command re-ran what a failed one
// ran: the same program and subcommand, without a narrowing filter, over the
// same or a wider set of targets ("go test ./..." covers "go test ./orders").
func covers(ok, failed string) bool {
	a, b := strings.Fields(lang.NormCommand(ok)), strings.Fields(lang.NormCommand(failed))
	if len(a) < 2 || len(b) < 2 || a[0] != b[0] || a[1] != b[1] {
		return len(a) > 0 && len(b) > 0 && len(a) == 1 && len(b) == 1 && a[0] == b[0]
	}
	for _, f := range a[2:] {
		switch f {
		case "-run", "-k", "--grep", "-t", "--testNamePattern", "-g", "--filter", "-m", "--only":
			return false
		}
	}
	args := a[2:]
	if len(args) == 0 {
		return true // the whole suite ("npm test" after "npm test -- checkout.test.js")
	}
	for _, x := range args {
		if x == "./..." || x == "..." || x == "." || x == "all" || x == "--all" {
			return true
		}
	}
	for _, x := range b[2:] {
		if !containsStr(args, x) {
			return false
		}
	}
	return true
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// workaround reports whether a successful shell command does what a failed
// non-shell call (a skill, a sub-agent) was for: "git commit" after a failed
// "commit" skill.
func workaround(verbs []string, ok *callInfo) bool {
	for _, v := range verbs {
		if ok.termSet()[v] {
			return true
		}
	}
	return false
}

// verb categories: which tool calls can carry out an action with this verb.
var execVerbs = lang.TermSet("run", "rerun", "test", "build", "rebuild", "lint", "deploy", "migrate", "install",
	"commit", "push", "rebase", "merge", "tag", "format", "generate", "regenerate", "compile",
	"execute", "bench", "benchmark", "start", "restart", "stop", "kill", "drain", "backfill", "release",
	"seed", "vet", "cherry-pick", "checkout", "pull", "fetch", "clone", "apply", "publish", "open")
var editVerbs = lang.TermSet("add", "fix", "update", "remove", "rename", "refactor", "edit", "change", "replace",
	"document", "port", "bump", "revert", "clean", "rewrite", "write", "implement", "move", "delete",
	"convert", "extract", "inline", "split", "simplify", "annotate", "comment", "restore", "switch")
var readVerbs = lang.TermSet("check", "read", "review", "investigate", "look", "inspect", "find", "search",
	"see", "examine", "explore", "understand", "figure", "confirm", "compare")

// commandVerbs appear in the command itself when carried out: "git push",
// "git rebase", "make lint".
var commandVerbs = lang.TermSet("commit", "push", "rebase", "merge", "lint", "test", "build", "deploy",
	"migrate", "install", "format", "vet", "tag", "release", "publish", "backfill", "drain", "seed", "bench")

// carries reports whether a tool call carries out an action: the call's
// kind suits the verb (a read does not re-run a migration) and its input
// names the action's object ("make migrate" for "re-run the migration"), or,
// for verbs that are commands themselves, the verb ("git push").
func carries(a lang.Action, files []string, ci *callInfo, relaxed bool) bool {
	if !compatible(a.Verb, ci.category) {
		return false
	}
	if relaxed {
		// Narration ("I'll look at the build log") is acted on by a call
		// that names its verb or any word of its object, not by any call.
		if ci.hasVerb(a.Verb) {
			return true
		}
		for _, t := range append([]string{a.Head}, a.Direct...) {
			if t != "" && !lang.GenericTerm[t] && len(t) >= 3 && ci.hasTerm(t) {
				return true
			}
		}
		return false
	}
	if a.Head != "" && ci.hasTerm(a.Head) && (a.Alt == "" || ci.hasTerm(a.Alt) || anyTerm(ci, a.Mods())) {
		// A category head ("test", "service") needs its specific word too:
		// any edit of a test file is not "add the golden test".
		return true
	}
	if a.Alt != "" && ci.hasTerm(a.Alt) {
		return true
	}
	// Another word of the direct object ("the DNS record" in "switch the
	// DNS record for example.com") counts only with the verb beside it: a
	// push of branch bringup/imu-revc does not re-flash the rev-C board.
	// A file or URL the action names verbatim counts alone ("bump the
	// version in package.json" is carried by an edit of it).
	if ci.hasVerb(a.Verb) {
		// With the verb in the call, any specific word of the object will
		// do: "generate the schedule with the circle method" is carried out
		// by "generate ... --method circle".
		for _, t := range a.Object {
			if !lang.GenericTerm[t] && !lang.HasDigit(t) && len(t) >= 3 && ci.hasTerm(t) {
				return true
			}
		}
	}
	for _, f := range files {
		if strings.Contains(ci.input, f) {
			return true
		}
	}
	return commandVerbs[a.Verb] && ci.hasTerm(a.Verb) && (a.Head == "" || lang.GenericTerm[a.Head] || a.Head == lang.TermOf("branch") || a.Head == lang.TermOf("change"))
}

func anyTerm(ci *callInfo, ts []string) bool {
	for _, t := range ts {
		if ci.hasTerm(t) {
			return true
		}
	}
	return false
}

// hasVerb reports whether the call's input names the verb, its synonyms
// or the verb a re- form repeats ("flash" for "re-flash"). The tool's own
// name does not count: a "write" tool does not "add" whatever it writes.
func (ci *callInfo) hasVerb(verb string) bool {
	if verb == "" {
		return false
	}
	in := ci.inputTermSet()
	if in[verb] {
		return true
	}
	if base, ok := lang.ReVerbs[verb]; ok && in[lang.TermOf(base)] {
		return true
	}
	if strings.HasPrefix(verb, "re") && len(verb) > 5 && in[verb[2:]] {
		return true
	}
	for _, w := range lang.AlsoVerbTerms[verb] {
		if in[w] {
			return true
		}
	}
	return false
}

// inputTermSet is termSet without the tool's name.
func (ci *callInfo) inputTermSet() map[string]bool {
	ci.termSet()
	return ci.inTerms
}

// hasTerm matches a term against the call's words, also as a prefix
// ("mock" in "mockgen", "migrat" in "migrate").
func (ci *callInfo) hasTerm(t string) bool {
	terms := ci.termSet()
	if terms[t] {
		return true
	}
	if len(t) < 4 {
		return false
	}
	for w := range terms {
		if strings.HasPrefix(w, t) {
			return true
		}
	}
	return false
}

func compatible(verb string, c toolCategory) bool {
	if c == toolOther {
		return true // an API or MCP tool ("create_macro"): its kind is unknown
	}
	switch {
	case execVerbs[verb]:
		return c == toolExec
	case editVerbs[verb]:
		return c == toolEdit || c == toolExec
	case readVerbs[verb]:
		return true
	}
	return true
}

// failed reports whether a result is a failure: is_error, or a non-zero exit
// status reported in its text.
func failed(r *model.ToolResult) bool {
	if r.IsError {
		return true
	}
	// Runtimes report the exit status at the start (Codex: "Exit code: 1")
	// or the end of an output: its first and last kilobyte are enough.
	head, tail := r.Text.Head(), r.Text.Tail()
	if tail == "" && len(head) > 2048 {
		head, tail = head[:lang.CutUTF8(head, 1024)], head[len(head)-1024:]
	}
	for _, part := range []string{head, tail} {
		if !lang.ContainsFoldASCII(part, "exit") {
			continue // the regular expression is the slow part: most outputs say nothing of exits
		}
		for _, m := range lang.ExitCodeRe.FindAllStringSubmatch(part, -1) {
			if m[1] != "0" {
				return true
			}
		}
	}
	return false
}

// rejected reports whether a failed result is the user declining or
// interrupting the call rather than the call failing: nothing to resolve.
func rejected(r *model.ToolResult) bool {
	h := strings.ToLower(r.Text.Head())
	for _, p := range []string{"doesn't want to proceed with this tool use", "tool use was rejected", "request interrupted by user",
		"user rejected", "user denied", "permission denied by user", "user declined", "aborted by user", "cancelled by user", "canceled by user"} {
		if strings.Contains(h, p) {
			return true
		}
	}
	return false
}
