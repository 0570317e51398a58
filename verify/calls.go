package verify

import (
	"encoding/json"
	"maps"
	"slices"
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
	// toolPlan records work in the runtime's plan or todo list
	// (update_plan, TodoWrite, TaskCreate…): it names the work without
	// doing any of it, so it never carries out a promise.
	toolPlan
)

// planTools are the runtimes' plan and todo tools, lower-cased: Codex,
// Claude Code (todos, then tasks), Gemini CLI, opencode, OpenHands.
var planTools = map[string]bool{
	"update_plan": true, "todowrite": true, "todoread": true, "write_todos": true, "read_todos": true,
	"taskcreate": true, "taskupdate": true, "tasklist": true, "taskget": true, "task_tracker": true,
}

// callInfo is what the verifier needs of a tool call, parsed once.
type callInfo struct {
	call     *model.ToolCall
	name     string // as written
	category toolCategory
	command  string         // the shell command, when there is one
	path     string         // the file the call targets, when there is one
	target   string         // tool + target: what "the same call again" means for errors
	main     lang.Command   // the command a shell line runs, past cd and wrappers
	key      lang.Command   // the command that says what the line did (see lang.KeyCommand)
	cmds     []lang.Command // every command of the line
	about    string         // the call's own description of itself, when it has one
	checks   bool           // a shell line that only looks or checks (see lang.Inspects)
	input    string         // the input's text, for term matching
	terms    map[string]bool
	inTerms  map[string]bool // terms of the input only (see inputTermSet)
	sorted   []string        // the terms in order, for prefix lookups (hasTerm)
}

// publishes reports whether a shell line only records or publishes work
// done before it: a commit, a push, a pull request opened or edited.
func (ci *callInfo) publishes() bool {
	if len(ci.cmds) == 0 {
		return false
	}
	for _, c := range ci.cmds {
		switch {
		case c.Program == "git" && (c.Sub() == "commit" || c.Sub() == "add"):
		case c.Program == "git" && c.Sub() == "push" && !deletesRef(c.Args):
		case (c.Program == "gh" || c.Program == "glab") && (len(c.Args) > 1 && (c.Args[0] == "pr" || c.Args[0] == "mr") && (c.Args[1] == "create" || c.Args[1] == "edit")):
		default:
			return false
		}
	}
	return true
}

// deletesRef reports whether push arguments delete a remote ref ("--delete
// branch", ":branch"): that is work of its own, not a publication.
func deletesRef(args []string) bool {
	for _, a := range args {
		if a == "--delete" || a == "-d" || strings.HasPrefix(a, ":") && len(a) > 1 {
			return true
		}
	}
	return false
}

// editorCommands are the commands of a file-editor tool's input.
var editorCommands = lang.WordSet("view", "create", "str_replace", "insert", "undo_edit", "write")

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
	Description  string          `json:"description"`
}

// inputFields are callInput's JSON keys, quoted.
var inputFields = []string{`"command"`, `"cmd"`, `"script"`, `"code"`, `"path"`, `"file_path"`, `"filepath"`, `"file"`,
	`"filename"`, `"notebook_path"`, `"target_file"`, `"url"`, `"pattern"`, `"description"`}

// mayHaveField reports whether a call's input can set a field of
// callInput: encoding/json matches keys ignoring case (and folds "ſ" and
// the Kelvin sign), so only an ASCII input without escapes that names none
// of them, in any case, is known to set none. Unmarshalling every input
// was a large share of reading a run of many small calls.
func mayHaveField(input string) bool {
	for i := 0; i < len(input); i++ {
		if c := input[i]; c >= 0x80 || c == '\\' {
			return true
		}
	}
	lower := strings.ToLower(input)
	for _, f := range inputFields {
		if strings.Contains(lower, f) {
			return true
		}
	}
	return false
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
	ci := &callInfo{call: c, name: c.Name, input: c.Input.Head()}
	name := "" // the editor command, when the call is one
	var in callInput
	if mayHaveField(ci.input) && json.Unmarshal([]byte(ci.input), &in) == nil {
		for _, raw := range []json.RawMessage{in.Command, in.Cmd, in.Script, in.Code} {
			if ci.command = shellCommand(raw); ci.command != "" {
				break
			}
		}
		if editorCommands[ci.command] && (in.Path != "" || in.FilePath != "") {
			// OpenHands' str_replace_editor: {"command": "str_replace",
			// "path": ...} is an edit (or a view), not a shell line.
			name = ci.command
			ci.command = ""
		}
		ci.about = in.Description
		for _, p := range []string{in.Path, in.FilePath, in.FilePathC, in.File, in.Filename, in.NotebookPath, in.TargetFile, in.URL, in.Pattern} {
			if p != "" {
				ci.path = p
				break
			}
		}
	}
	switch name {
	case "view":
		// The editor's view reads, whatever the tool's name says.
	default:
		name = strings.ToLower(c.Name + " " + name)
	}
	switch {
	case planTools[strings.ToLower(c.Name)]:
		ci.category = toolPlan
	case ci.command != "" || lang.ContainsAny(name, "bash", "shell", "exec", "terminal", "command", "run", "powershell"):
		ci.category = toolExec
		if lang.ReadOnly(ci.command) {
			ci.category = toolRead
		}
	case lang.ContainsAny(name, "edit", "write", "patch", "replace", "create", "apply", "insert", "notebook", "delete", "move", "rename"):
		ci.category = toolEdit
	case lang.ContainsAny(name, "read", "view", "cat", "open", "grep", "search", "glob", "ls", "list", "find", "fetch", "web", "get", "output"):
		ci.category = toolRead
	}
	if p := patchPath(ci.input); p != "" && (strings.Contains(strings.ToLower(c.Name), "patch") || strings.HasPrefix(ci.command, "apply_patch")) {
		// Codex's apply_patch, as a tool or a shell line: an edit of the
		// first file the patch names, so a failed patch is redone by a
		// later edit of that file.
		ci.category, ci.path, ci.command = toolEdit, p, ""
	}
	// One parse of the line serves its main, key and every command.
	ci.cmds = lang.Commands(ci.command)
	if remote := lang.RemoteOf(ci.cmds); remote != "" {
		ci.cmds = lang.Commands(remote) // what ran on the host is what failed, or what re-ran it
	}
	ci.main = lang.MainOf(ci.cmds)
	ci.key = lang.KeyOf(ci.cmds)
	ci.checks = ci.command != "" && lang.Inspects(ci.command)
	switch {
	case ci.command != "" && ci.main.Program != "":
		// The same command again, whatever directory it was run from and
		// whatever wrapper ran it.
		ci.target = name + " " + lang.NormCommand(ci.main.Program+" "+strings.Join(ci.main.Args, " "))
	case ci.command != "":
		ci.target = name + " " + lang.NormCommand(ci.command)
	case ci.path != "":
		ci.target = name + " " + ci.path
	default:
		ci.target = name + " " + strings.Join(strings.Fields(ci.input), " ")
	}
	return ci
}

// patchPath is the first file an apply_patch input names ("*** Update
// File: src/app.ts"), or "". The input may be JSON-escaped.
func patchPath(input string) string {
	for _, m := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
		i := strings.Index(input, m)
		if i < 0 {
			continue
		}
		rest := input[i+len(m):]
		if j := strings.IndexAny(rest, "\\\n\""); j >= 0 {
			rest = rest[:j]
		}
		return strings.TrimSpace(rest)
	}
	return ""
}

// termSet returns the words and terms of the call, computed on first use:
// most calls are never compared with a commitment.
func (ci *callInfo) termSet() map[string]bool {
	if ci.terms == nil {
		// The words are read first so that the sets are made about their
		// size instead of grown (a call every few events is compared
		// with a commitment).
		name := lang.Tokenize(ci.name)
		cmd := lang.Tokenize(ci.command + " " + ci.path)
		text := lang.Tokenize(ci.input[:lang.CutUTF8(ci.input, 512)])
		n := len(name) + len(cmd) + len(text)
		ci.terms, ci.inTerms = make(map[string]bool, n), make(map[string]bool, n-len(name))
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
			// "regenerate_stubs.sh" and "build-image" name their words too,
			// and "module.av1_workers" names "the av1-workers pool".
			if strings.ContainsAny(t.Word, "_-") {
				ft := lang.TermOf(strings.ReplaceAll(t.Word, "_", "-"))
				ci.terms[ft] = true
				if input {
					ci.inTerms[ft] = true
				}
				for _, part := range strings.FieldsFunc(t.Word, func(r rune) bool { return r == '_' || r == '-' }) {
					pt := lang.TermOf(part)
					ci.terms[pt] = true
					if input {
						ci.inTerms[pt] = true
					}
				}
			}
		}
		for _, t := range name {
			add(t, false)
		}
		if ci.subAgent() {
			// "spawn 5 parallel explore agents": a sub-agent call is an
			// agent, whatever the runtime calls its tool.
			for _, w := range []string{"agent", "subagent"} {
				ci.terms[lang.TermOf(w)], ci.terms[w] = true, true
			}
		}
		// The command and path say what a call acts on; of the rest of the
		// input (an edit's whole new text) the start is enough. In an
		// edit's text, the parts of a code identifier ("updated_at") name
		// no verb of the call's; a whole word ("Invalidate") may.
		for _, t := range cmd {
			add(t, true)
		}
		for _, t := range text {
			if ci.category == toolEdit && strings.ContainsAny(t.Word, "_-") {
				t.Word = strings.ReplaceAll(t.Word, "-", "_")
				ci.terms[t.Word] = true
				if t.Term != "" {
					ci.terms[t.Term] = true
				}
				for _, part := range strings.FieldsFunc(t.Word, func(r rune) bool { return r == '_' }) {
					ci.terms[lang.TermOf(part)] = true
				}
				continue
			}
			add(t, true)
		}
	}
	return ci.terms
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
	// A word with prefix t sorts at or right after t.
	if ci.sorted == nil {
		ci.sorted = slices.Sorted(maps.Keys(terms))
	}
	i, _ := slices.BinarySearch(ci.sorted, t)
	return i < len(ci.sorted) && strings.HasPrefix(ci.sorted[i], t)
}

// intentText is what a call was for, in words: its description when it
// gives one (a sub-agent task), else its path or the start of its input.
func (ci *callInfo) intentText() string {
	switch {
	case ci.about != "":
		return ci.about
	case ci.path != "":
		return ci.path
	}
	return ci.input[:lang.CutUTF8(ci.input, 300)]
}

// subAgentTools are the runtimes' tools that start a sub-agent, lower-cased.
var subAgentTools = map[string]bool{"task": true, "agent": true, "spawn_agent": true, "subagent": true, "dispatch_agent": true, "delegate": true}

// subAgent reports whether a call starts a sub-agent.
func (ci *callInfo) subAgent() bool {
	return subAgentTools[strings.ToLower(ci.name)] || strings.Contains(ci.input[:lang.CutUTF8(ci.input, 200)], `"subagent_type"`)
}
