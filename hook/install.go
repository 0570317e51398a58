package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/loupe-dev/loupe/integrations/opencode"
	"github.com/loupe-dev/loupe/integrations/pi"
)

// InstallOptions say where to install loupe's hooks.
type InstallOptions struct {
	Runtime string
	// Project is the project directory; empty means the user's settings.
	Project string
	// Home is the user's home directory (for the user's settings).
	Home string
	// Command is how the runtime starts loupe ("loupe", or a path).
	Command string
	// Gate installs loupe as a hard gate where the runtime allows one.
	Gate bool
	// Decide, when not stated, is written into every hook command
	// ("loupe hook --decide recorded …"): the settings runtimes only.
	Decide string
	// Force edits a settings file its owner made read-only.
	Force bool
}

// Change is what install or uninstall does to one file.
type Change struct {
	// Path is the file as loupe names it; Target the real file written (Path
	// with every symbolic link resolved), and Redirected says a link below
	// the project or home leads there, which the diff shows.
	Path       string
	Target     string
	Redirected bool
	// Mode is the file's permission bits, kept by the write.
	Mode os.FileMode
	// Before is the file's content (nil when it does not exist); After the
	// content to write (nil to remove the file).
	Before, After []byte
	// Notes are what the user must know (hooks to approve, settings to
	// enable).
	Notes []string
}

// Empty reports whether the change changes nothing.
func (c *Change) Empty() bool {
	return bytes.Equal(c.Before, c.After) && (c.Before == nil) == (c.After == nil)
}

// handler is one hook command of an install.
type handler struct {
	event, matcher, arg string
	timeout             int // in the runtime's unit
	status              string
}

// handlers are the hooks each runtime gets (research/hooks.md §1.2, §2.4,
// §3): what to run on which event, with timeouts above loupe's own
// deadlines.
func handlers(runtime string, gate bool) []handler {
	switch runtime {
	case ClaudeCode:
		return []handler{
			{event: "PreCompact", matcher: "auto|manual", arg: "pre-compact", timeout: 20},
			{event: "SessionStart", matcher: "compact", arg: "session-start", timeout: 10},
			{event: "PostCompact", matcher: "auto|manual", arg: "post-compact", timeout: 20},
			{event: "PostToolUse", arg: "reinject", timeout: 5},
			{event: "UserPromptSubmit", arg: "reinject", timeout: 5},
		}
	case Codex:
		post := "post-compact"
		if gate {
			post = "--gate post-compact"
		}
		return []handler{
			{event: "PreCompact", matcher: "auto|manual", arg: "pre-compact", timeout: 20, status: "loupe: snapshot"},
			{event: "PostCompact", matcher: "auto|manual", arg: post, timeout: 20, status: "loupe: verify"},
			// resume too: a block left pending by a process that ended (a
			// manual compaction, a --gate stop) goes back when it resumes.
			{event: "SessionStart", matcher: "compact|resume", arg: "session-start", timeout: 10},
		}
	case Gemini:
		return []handler{
			{event: "PreCompress", arg: "pre-compress", timeout: 20000},
			{event: "BeforeAgent", arg: "before-agent", timeout: 5000},
			{event: "AfterTool", matcher: "*", arg: "after-tool", timeout: 5000},
		}
	}
	return nil
}

// settingsPath is the file an install edits, and the directory it is
// named under (the project, the home directory or the runtime's own
// directory): links below root are the ones the diff names.
func settingsPath(opt InstallOptions) (path, root string, err error) {
	dir := opt.Project
	if dir == "" && opt.Home == "" {
		return "", "", errors.New("no home directory for the user's settings; use --project DIR")
	}
	under := func(root string, rel ...string) (string, string, error) {
		return filepath.Join(append([]string{root}, rel...)...), root, nil
	}
	switch opt.Runtime {
	case ClaudeCode:
		if dir != "" {
			return under(dir, ".claude", "settings.json")
		}
		if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
			return under(d, "settings.json")
		}
		return under(opt.Home, ".claude", "settings.json")
	case Codex:
		if dir != "" {
			return under(dir, ".codex", "hooks.json")
		}
		if d := os.Getenv("CODEX_HOME"); d != "" {
			return under(d, "hooks.json")
		}
		return under(opt.Home, ".codex", "hooks.json")
	case Gemini:
		if dir != "" {
			return under(dir, ".gemini", "settings.json")
		}
		return under(opt.Home, ".gemini", "settings.json")
	case Opencode:
		if dir != "" {
			return under(dir, ".opencode", "plugins", "loupe.ts")
		}
		if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
			return under(d, "opencode", "plugins", "loupe.ts")
		}
		return under(opt.Home, ".config", "opencode", "plugins", "loupe.ts")
	case Pi:
		if dir != "" {
			return under(dir, ".pi", "extensions", "loupe.ts")
		}
		if d := os.Getenv("PI_CODING_AGENT_DIR"); d != "" && filepath.IsAbs(d) {
			return under(d, "extensions", "loupe.ts")
		}
		return under(opt.Home, ".pi", "agent", "extensions", "loupe.ts")
	}
	return "", "", fmt.Errorf("unknown runtime %q", opt.Runtime)
}

// Install returns the change that adds loupe's hooks to the runtime's
// settings, leaving every other setting and hook as it is.
func Install(opt InstallOptions) (*Change, error) {
	if err := checkCommand(opt.Command); err != nil {
		return nil, err
	}
	f, err := openSettings(opt)
	if err != nil {
		return nil, err
	}
	c := f.change()
	if opt.Runtime == Opencode || opt.Runtime == Pi {
		if _, err := installPlugin(c, opt); err != nil {
			return nil, err
		}
		return c, checkWritable(c, opt.Force)
	}
	if c.After, err = installDoc(c.Before, opt); err != nil {
		return nil, fmt.Errorf("%s: %w", c.ShownPath(), err)
	}
	if err := checkWritable(c, opt.Force); err != nil {
		return nil, err
	}
	switch opt.Runtime {
	case Codex:
		c.Notes = append(c.Notes, "Codex runs these hooks only once you have trusted them: start codex in the project and review them with /hooks (Codex keeps the trust as a hash of each hook in ~/.codex/config.toml, [hooks.state], so a changed hooks.json needs trusting again; a project's .codex/ hooks load only in a trusted project). `codex exec --dangerously-bypass-hook-trust` runs them untrusted for one invocation. Hooks need Codex 0.129 or later; SessionStart after compaction is reliable from 0.149.")
	case Gemini:
		c.Notes = append(c.Notes, "Gemini CLI runs hooks only when its hooks system is on (/settings, Advanced, \"Enable Hooks System\"; tools.enableHooks in settings.json on older versions).")
	case ClaudeCode:
		c.Notes = append(c.Notes, "Claude Code reads hook settings when a session starts: start a new session (or open /hooks) for them to take effect.")
	}
	return c, nil
}

// Uninstall returns the change that removes loupe's hooks (and only
// them).
func Uninstall(opt InstallOptions) (*Change, error) {
	f, err := openSettings(opt)
	if err != nil {
		return nil, err
	}
	c := f.change()
	if c.Before == nil {
		return c, nil
	}
	if opt.Runtime == Opencode || opt.Runtime == Pi {
		if bytes.Contains(c.Before, []byte(pluginMarker(opt.Runtime))) {
			c.After = nil
		}
		return c, checkWritable(c, opt.Force)
	}
	if c.After, err = uninstallDoc(c.Before, opt.Runtime); err != nil {
		return nil, fmt.Errorf("%s: %w", c.ShownPath(), err)
	}
	return c, checkWritable(c, opt.Force)
}

// installDoc is a settings document with loupe's hooks added.
func installDoc(doc []byte, opt InstallOptions) ([]byte, error) {
	mark, body := cutBOM(doc)
	hs := handlers(opt.Runtime, opt.Gate)
	if opt.Decide != "" && opt.Decide != "stated" {
		for i := range hs {
			hs[i].arg = "--decide " + opt.Decide + " " + hs[i].arg
		}
	}
	after, err := addHooks(body, opt, hs)
	if err != nil {
		return nil, err
	}
	return append(append([]byte(nil), mark...), after...), nil
}

// uninstallDoc is a settings document with loupe's hooks taken out.
func uninstallDoc(doc []byte, runtime string) ([]byte, error) {
	mark, body := cutBOM(doc)
	after, err := removeHooks(body, runtime)
	if err != nil {
		return nil, err
	}
	return append(append([]byte(nil), mark...), after...), nil
}

// pluginMarker is in the first line of loupe's plugin file for runtime.
func pluginMarker(runtime string) string {
	if runtime == Pi {
		return pi.Marker
	}
	return opencode.Marker
}

// installPlugin writes loupe's in-process module for the runtimes that run
// TypeScript plugins (opencode) or extensions (pi).
func installPlugin(c *Change, opt InstallOptions) (*Change, error) {
	if c.Before != nil && !bytes.Contains(c.Before, []byte(pluginMarker(opt.Runtime))) {
		return nil, fmt.Errorf("%s exists and is not loupe's plugin: move it away first", c.Path)
	}
	if opt.Runtime == Pi {
		c.After = []byte(pi.Extension(opt.Command, opt.Gate, opt.Decide))
		c.Notes = append(c.Notes, "pi loads extensions when it starts (or on /reload). The extension runs `"+opt.Command+" hook pi ...`: it checks each compaction, tells you when the summary lost something and puts it back at the next prompt; pi 0.73 gives extensions no way to add to the summarizer's instructions.")
		return c, nil
	}
	c.After = []byte(opencode.Plugin(opt.Command, opt.Gate, opt.Decide))
	c.Notes = append(c.Notes, "opencode loads plugins when it starts: restart it. The plugin runs `"+opt.Command+" hook opencode ...` and needs Bun's shell ($), as every opencode plugin has.")
	return c, nil
}

// hookEntry is one handler as the settings hold it, in the documented
// order of its fields.
type hookEntry struct {
	Type          string `json:"type"`
	Name          string `json:"name,omitempty"`
	Command       string `json:"command"`
	Timeout       int    `json:"timeout"`
	StatusMessage string `json:"statusMessage,omitempty"`
}

func (h handler) group(opt InstallOptions) map[string]any {
	hd := hookEntry{Type: "command", Command: command(opt, h.arg), Timeout: h.timeout, StatusMessage: h.status}
	if opt.Runtime == Gemini {
		hd.Name = "loupe-" + h.arg
	}
	g := map[string]any{"hooks": []hookEntry{hd}}
	if h.matcher != "" {
		g["matcher"] = h.matcher
	}
	return g
}

// groupJSON writes a matcher group with its keys in the documented order.
func groupJSON(g map[string]any, unit string, depth int) (string, error) {
	var b strings.Builder
	in := strings.Repeat(unit, depth)
	b.WriteString("{\n")
	if m, ok := g["matcher"]; ok {
		fmt.Fprintf(&b, "%s%s\"matcher\": %s,\n", in, unit, mustMarshal(m))
	}
	hs, err := render(g["hooks"], unit, depth+1)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "%s%s\"hooks\": %s\n%s}", in, unit, hs, in)
	return b.String(), nil
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// addHooks inserts the handlers' groups into a settings document.
func addHooks(doc []byte, opt InstallOptions, hs []handler) ([]byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	}
	root, err := parseJSONC(doc)
	if err != nil {
		return nil, err
	}
	if root.kind != '{' {
		return nil, fmt.Errorf("the settings are %s, not a JSON object", kindName(root.kind))
	}
	if err := checkDups(doc, root); err != nil {
		return nil, err
	}
	unit := indentUnit(doc)
	hooks := root.member("hooks")
	if hooks != nil && hooks.kind != '{' {
		return nil, fmt.Errorf(`line %d: "hooks" is %s, not an object`, lineAt(doc, hooks.start), kindName(hooks.kind))
	}
	var edits []edit
	var newEvents []string // event members to add, rendered at depth 1
	for _, h := range hs {
		arr := hooks.member(h.event)
		if arr != nil && arr.kind != '[' {
			return nil, fmt.Errorf("line %d: hooks.%s is %s, not an array", lineAt(doc, arr.start), h.event, kindName(arr.kind))
		}
		if arr != nil && hasLoupe(doc, arr, opt.Runtime, h.event) {
			continue // already installed
		}
		if arr != nil {
			g, err := groupJSON(h.group(opt), unit, 3)
			if err != nil {
				return nil, err
			}
			edits = append(edits, insertLast(arr, lastEnd(arr), g, unit, 2))
			continue
		}
		g, err := groupJSON(h.group(opt), unit, 3)
		if err != nil {
			return nil, err
		}
		newEvents = append(newEvents, fmt.Sprintf("%q: [\n%s%s\n%s]", h.event, strings.Repeat(unit, 3), g, strings.Repeat(unit, 2)))
	}
	switch {
	case len(newEvents) == 0:
	case hooks != nil && lastEnd(hooks) >= 0:
		var b strings.Builder
		for _, ev := range newEvents {
			b.WriteString(",\n" + strings.Repeat(unit, 2) + ev)
		}
		at := lastEnd(hooks)
		edits = append(edits, edit{at: at, end: at, text: b.String()})
	case hooks != nil:
		edits = append(edits, insertLast(hooks, -1, strings.Join(newEvents, ",\n"+strings.Repeat(unit, 2)), unit, 1))
	default:
		body := "\"hooks\": {\n" + strings.Repeat(unit, 2) + strings.Join(newEvents, ",\n"+strings.Repeat(unit, 2)) + "\n" + unit + "}"
		edits = append(edits, insertLast(root, lastEnd(root), body, unit, 0))
	}
	return apply(doc, edits), nil
}

// kindName says what a JSON value is, for a message.
func kindName(kind byte) string {
	switch kind {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	}
	return "a number, true, false or null"
}

// hasLoupe reports whether an event's array already runs loupe's hook.
func hasLoupe(doc []byte, arr *jnode, runtime, event string) bool {
	for _, g := range arr.elems {
		if loupeGroup(doc, g, runtime, event) != nil {
			return true
		}
	}
	return false
}

// loupeGroup returns which handlers of a matcher group of event are
// loupe's own (nil when none is).
func loupeGroup(doc []byte, g *jnode, runtime, event string) []bool {
	hs := g.member("hooks")
	if hs == nil || hs.kind != '[' {
		return nil
	}
	var mark []bool
	any := false
	for _, h := range hs.elems {
		cmd := h.member("command")
		is := false
		if cmd != nil && cmd.kind == '"' {
			var s string
			if json.Unmarshal(doc[cmd.start:cmd.end], &s) == nil && isLoupeCommand(s, runtime, event) {
				is = true
			}
		}
		mark = append(mark, is)
		any = any || is
	}
	if !any {
		return nil
	}
	return mark
}

// removeHooks takes loupe's handlers out of a runtime's settings document,
// and the groups, event lists and hooks object left empty by that.
func removeHooks(doc []byte, runtime string) ([]byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc, nil
	}
	root, err := parseJSONC(doc)
	if err != nil {
		return nil, err
	}
	if err := checkDups(doc, root); err != nil {
		return nil, err
	}
	hooks := root.member("hooks")
	if hooks == nil || hooks.kind != '{' {
		return doc, nil
	}
	var edits []edit
	emptyEvents := map[int]bool{}
	for mi, m := range hooks.members {
		arr := m.val
		if arr.kind != '[' {
			continue
		}
		whole := map[int]bool{}
		for gi, g := range arr.elems {
			mark := loupeGroup(doc, g, runtime, m.key)
			if mark == nil {
				continue
			}
			if all(mark) {
				whole[gi] = true
				continue
			}
			edits = append(edits, removeEntries(doc, g.member("hooks"), func(i int) bool { return mark[i] })...)
		}
		if len(whole) == len(arr.elems) && len(whole) > 0 {
			emptyEvents[mi] = true
			continue
		}
		edits = append(edits, removeEntries(doc, arr, func(i int) bool { return whole[i] })...)
	}
	if len(emptyEvents) > 0 {
		if len(emptyEvents) == len(hooks.members) {
			idx := -1
			for i, m := range root.members {
				if m.val == hooks {
					idx = i
				}
			}
			edits = append(edits, removeEntries(doc, root, func(i int) bool { return i == idx })...)
		} else {
			edits = append(edits, removeEntries(doc, hooks, func(i int) bool { return emptyEvents[i] })...)
		}
	}
	return apply(doc, edits), nil
}

func all(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return true
}
