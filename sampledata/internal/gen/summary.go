package gen

import (
	"fmt"
	"regexp"
	"strings"
)

// layout is the shape a compactor writes its summary in.
type layout string

const (
	claudeCode layout = "claude-code" // numbered sections after "Analysis:" / "Summary:"
	geminiCLI  layout = "gemini-cli"  // <state_snapshot> with [DONE]/[IN PROGRESS]/[TODO]
	prose      layout = "prose"       // plain paragraphs, "Still to do:"
)

// partKind says how the honesty checks treat a part of a summary.
type partKind int

const (
	neutral partKind = iota // done or descriptive text: no pending cues, no open item named
	quote                   // the user's words or the goal: no pending cues
	pending                 // open items only: no completion cues
	lie                     // a planted flip: done wording about an open item
	raw                     // headings and code fences: unchecked
)

type part struct {
	kind partKind
	text string
}

var (
	pendingCue = regexp.MustCompile(`(?i)\b(will|needs?( to)?|pending|todo|to do|next|remaining|after|once|in progress|not yet|still to)\b`)
	doneCue    = regexp.MustCompile(`(?i)\b(done|completed|complete|finished|ran|re-ran|succeeded|fixed|merged)\b|\[x\]|✓`)
)

// sumInput is what a summary is made from.
type sumInput struct {
	seq, turn int
	goal      string
	concepts  []string
	rules     []*item // constraints, all open
	open      []*item // open plan items, commitments, errors, handles (after planted drops)
	intent    []*item // handles kept as intent only (planted)
	flipped   []*item // open items presented as done (planted)
	resurrect []*item // closed items presented as pending (planted)
	plan      []*item // the agent's todo list, for [DONE] lines
	facts     []string
	history   []string
	users     []string
	files     []touch
	fixed     []fixRec
	snippets  []snippet
	changed   map[string][]string // path -> texts of the blocks changed in the span
	actions   []string
	detail    int
	mentions  func(line string) bool // names an open item
}

type snippet struct{ path, lang, code string }

// summary is a summary under construction.
type summary struct {
	parts []part
	in    *sumInput
}

func (s *summary) add(k partKind, format string, args ...any) {
	s.parts = append(s.parts, part{k, fmt.Sprintf(format, args...)})
}

// fact adds a done line unless it names an open item (an honest summary never
// states an open item in done wording). It reports whether it was added.
func (s *summary) fact(format string, args ...any) bool {
	line := fmt.Sprintf(format, args...)
	if s.in.mentions(line) || pendingCue.MatchString(line) {
		return false
	}
	s.parts = append(s.parts, part{neutral, line})
	return true
}

func (s *summary) String() string {
	var b strings.Builder
	for _, p := range s.parts {
		b.WriteString(p.text)
	}
	return b.String()
}

// check panics when a part breaks its kind's rule; the generator's honesty is
// by construction, this only keeps it so.
func (s *summary) check() {
	for _, p := range s.parts {
		switch p.kind {
		case neutral, quote:
			if m := pendingCue.FindString(p.text); m != "" {
				panic(fmt.Sprintf("summary %d: pending cue %q in a done/quoted part: %q", s.in.seq, m, p.text))
			}
			if p.kind == neutral && s.in.mentions(p.text) {
				panic(fmt.Sprintf("summary %d: done part names an open item: %q", s.in.seq, p.text))
			}
		case pending:
			if m := doneCue.FindString(p.text); m != "" {
				panic(fmt.Sprintf("summary %d: completion cue %q in a pending part: %q", s.in.seq, m, p.text))
			}
		}
	}
}

// pendingLine is how an open item is listed under a pending heading.
func pendingLine(it *item) string {
	switch it.kind {
	case kPlan:
		if it.status == "in_progress" {
			return fmt.Sprintf("%s (plan %s, in progress)", it.text, it.key)
		}
		return fmt.Sprintf("%s (plan %s, pending)", it.text, it.key)
	case kError:
		return fmt.Sprintf("Open failure of `%s` (pending): `%s`", it.target, strings.Join(it.lines, "` / `"))
	case kHandle:
		return fmt.Sprintf("Tool call %s (`%s`) has not returned yet; its result is pending", it.key, it.target)
	}
	return it.restate
}

// intentLine mentions a handle's purpose without its id (a planted loss).
func intentLine(it *item) string {
	return fmt.Sprintf("Wait for the background run of `%s` and check its output", it.target)
}

func build(l layout, in *sumInput) string {
	s := &summary{in: in}
	switch l {
	case claudeCode:
		s.claude()
	case geminiCLI:
		s.gemini()
	default:
		s.prose()
	}
	s.check()
	return s.String()
}

func (s *summary) pendingItems(bullet, indent string) {
	for _, it := range s.in.open {
		s.add(pending, "%s%s%s\n", indent, bullet, pendingLine(it))
	}
	for _, it := range s.in.intent {
		s.add(pending, "%s%s%s\n", indent, bullet, intentLine(it))
	}
	for _, it := range s.in.resurrect {
		s.add(pending, "%s%s%s\n", indent, bullet, it.text)
	}
}

func (s *summary) claude() {
	in := s.in
	s.add(raw, "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\n")
	s.add(raw, "Looking at the conversation chronologically:\n")
	for _, f := range s.recent() {
		s.fact("- Earlier: %s.\n", f)
	}
	for _, f := range in.facts {
		s.fact("- %s.\n", upper(f))
	}
	for _, a := range s.actionsShown() {
		s.fact("- %s.\n", upper(a))
	}
	s.add(raw, "\nSummary:\n1. Primary Request and Intent:\n")
	s.add(quote, "   %s\n", in.goal)
	s.add(raw, "\n2. Key Technical Concepts:\n")
	for _, c := range in.concepts {
		s.fact("   - %s\n", c)
	}
	s.add(raw, "\n3. Files and Code Sections:\n")
	s.files("   - ", "      ")
	s.add(raw, "\n4. Errors and fixes:\n")
	n := 0
	for _, f := range in.fixed {
		if s.fact("   - `%s`:\n      - Fixed: %s.\n", strings.Join(f.lines, "` / `"), f.fix) {
			n++
		}
	}
	if n == 0 {
		s.add(neutral, "   - No new errors in this part of the session.\n")
	}
	s.add(raw, "\n5. Problem Solving:\n")
	for _, f := range in.flipped {
		s.add(lie, "   - %s\n", f.doneText)
	}
	for _, f := range in.facts {
		s.fact("   - %s.\n", upper(f))
	}
	s.add(raw, "\n6. All user messages:\n")
	s.userMessages("   - ")
	s.add(raw, "\n7. Pending Tasks:\n")
	s.pendingItems("- ", "   ")
	if len(in.open)+len(in.intent)+len(in.resurrect) == 0 {
		s.add(raw, "   - None outstanding.\n")
	}
	s.add(raw, "\n8. Current Work:\n")
	if n := len(in.facts); n > 0 {
		s.fact("   Immediately before this summary: %s.\n", in.facts[n-1])
	}
	s.add(raw, "\n9. Optional Next Step:\n")
	if next := s.next(); next != nil {
		s.add(pending, "   %s\n", pendingLine(next))
	} else {
		s.add(raw, "   Wait for the user's instructions.\n")
	}
}

// recent returns the history facts the detail level allows, the most recent
// ones, in the order they happened.
func (s *summary) recent() []string {
	h := s.in.history
	return h[max(0, len(h)-s.in.detail*3):]
}

// actionsShown returns the most recent actions the detail level allows.
func (s *summary) actionsShown() []string {
	a := s.in.actions
	return a[max(0, len(a)-s.in.detail*4):]
}

// next picks the item to continue with: the first in-progress plan item, else
// the first open item.
func (s *summary) next() *item {
	for _, it := range s.in.open {
		if it.kind == kPlan && it.status == "in_progress" {
			return it
		}
	}
	if len(s.in.open) > 0 {
		return s.in.open[0]
	}
	return nil
}

// otherUsers returns the span's user messages that are not rules.
func (s *summary) otherUsers() []string {
	var out []string
	for _, u := range s.in.users {
		rule := false
		for _, r := range s.in.rules {
			rule = rule || r.msg == u
		}
		if !rule {
			out = append(out, u)
		}
	}
	return out
}

// ruleMessages returns the user messages that carry the standing rules, once
// each, in order.
func (s *summary) ruleMessages() []string {
	var out []string
	for _, r := range s.in.rules {
		if len(out) == 0 || out[len(out)-1] != r.msg {
			out = append(out, r.msg)
		}
	}
	return out
}

func (s *summary) userMessages(bullet string) {
	seen := map[string]bool{}
	for _, m := range s.ruleMessages() {
		seen[m] = true
		s.add(quote, "%s%q\n", bullet, m)
	}
	for _, u := range s.in.users {
		if !seen[u] {
			seen[u] = true
			s.add(quote, "%s%q\n", bullet, u)
		}
	}
}

func (s *summary) files(bullet, indent string) {
	in := s.in
	shown := 0
	for _, f := range in.files {
		if f.action == "READ" && shown >= 4+in.detail*2 {
			continue
		}
		shown++
		s.fact("%s%s (%s)\n", bullet, f.path, strings.ToLower(f.action))
		for _, sig := range signatures(in.changed[f.path]) {
			s.fact("%s- `%s`\n", indent, sig)
		}
		for _, sn := range in.snippets {
			if sn.path != f.path || in.mentions(sn.code) || pendingCue.MatchString(sn.code) {
				continue
			}
			s.add(raw, "%s```%s\n", indent, sn.lang)
			s.add(neutral, "%s\n", indentCode(sn.code, indent))
			s.add(raw, "%s```\n", indent)
		}
	}
}

// signatures returns the declaration line of each block: a func or type
// line, a CREATE statement, a Markdown heading.
func signatures(blocks []string) []string {
	var out []string
	for _, b := range blocks {
		for _, l := range strings.Split(b, "\n") {
			if strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "type ") || strings.HasPrefix(l, "CREATE ") || strings.HasPrefix(l, "## ") {
				out = append(out, strings.TrimSuffix(strings.TrimSpace(l), " {"))
				break
			}
		}
	}
	return out
}

// names returns the declared names of blocks, for one-line file notes.
func names(blocks []string) string {
	var out []string
	for _, sig := range signatures(blocks) {
		f := strings.Fields(strings.TrimPrefix(sig, "func "))
		switch {
		case strings.HasPrefix(sig, "func (") && len(f) > 2:
			n, _, _ := strings.Cut(f[2], "(")
			out = append(out, n)
		case len(f) > 0:
			n, _, _ := strings.Cut(f[0], "(")
			if strings.HasPrefix(sig, "type ") || strings.HasPrefix(sig, "CREATE ") {
				n = strings.Join(f[:min(3, len(f))], " ")
			}
			out = append(out, n)
		}
	}
	return strings.Join(out, ", ")
}

func indentCode(code, indent string) string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		lines[i] = indent + l
	}
	return strings.Join(lines, "\n")
}

func (s *summary) gemini() {
	in := s.in
	s.add(raw, "<state_snapshot>\n    <overall_goal>\n")
	s.add(quote, "        %s\n", in.goal)
	s.add(raw, "    </overall_goal>\n\n    <key_knowledge>\n")
	for _, m := range s.ruleMessages() {
		s.add(quote, "        - User instruction: %q\n", m)
	}
	for _, c := range in.concepts {
		s.fact("        - %s\n", c)
	}
	for _, f := range s.recent() {
		s.fact("        - %s.\n", upper(f))
	}
	s.add(raw, "    </key_knowledge>\n\n    <file_system_state>\n        - CWD: `/home/dev/src/orders`\n")
	for i, f := range in.files {
		if f.action == "READ" && i >= 6+in.detail*3 {
			continue
		}
		if n := names(in.changed[f.path]); n != "" {
			s.fact("        - %s: `%s` (%s)\n", f.action, f.path, n)
		} else {
			s.fact("        - %s: `%s`\n", f.action, f.path)
		}
	}
	s.add(raw, "    </file_system_state>\n\n    <recent_actions>\n")
	for _, f := range in.flipped {
		s.add(lie, "        - %s\n", f.doneText)
	}
	for _, f := range in.facts {
		s.fact("        - %s.\n", upper(f))
	}
	for _, f := range in.fixed {
		s.fact("        - Fixed `%s`: %s.\n", strings.Join(f.lines, "` / `"), f.fix)
	}
	for _, a := range s.actionsShown() {
		s.fact("        - %s.\n", upper(a))
	}
	s.add(raw, "    </recent_actions>\n\n    <current_plan>\n")
	n := 0
	for _, it := range in.plan {
		if !it.open() && !containsItem(in.resurrect, it) {
			n++
			if !s.fact("        %d. [DONE] %s\n", n, it.text) {
				n--
			}
		}
	}
	for _, it := range in.flipped {
		n++
		s.add(lie, "        %d. [DONE] %s\n", n, it.doneText)
	}
	for _, it := range in.open {
		n++
		tag := "[TODO]"
		if it.kind == kPlan && it.status == "in_progress" || it.kind == kHandle {
			tag = "[IN PROGRESS]"
		}
		s.add(pending, "        %d. %s %s\n", n, tag, pendingLine(it))
	}
	for _, it := range in.intent {
		n++
		s.add(pending, "        %d. [IN PROGRESS] %s\n", n, intentLine(it))
	}
	for _, it := range in.resurrect {
		n++
		s.add(pending, "        %d. [TODO] %s\n", n, it.text)
	}
	s.add(raw, "    </current_plan>\n</state_snapshot>")
}

func (s *summary) prose() {
	in := s.in
	s.add(raw, "Summary of the conversation so far.\n\n")
	s.add(quote, "%s\n\n", in.goal)
	s.add(raw, "Standing instructions from the user, quoted exactly:\n")
	for _, m := range s.ruleMessages() {
		s.add(quote, "- %q\n", m)
	}
	if others := s.otherUsers(); len(others) > 0 {
		s.add(raw, "\nOther messages from the user in this stretch:\n")
		for _, u := range others {
			s.add(quote, "- %q\n", u)
		}
	}
	s.add(raw, "\nBackground:\n")
	for _, c := range in.concepts {
		s.fact("- %s\n", c)
	}
	s.add(raw, "\nProgress so far. ")
	for _, f := range s.recent() {
		s.fact("%s. ", upper(f))
	}
	for _, f := range in.flipped {
		s.add(lie, "%s ", f.doneText)
	}
	for _, f := range in.facts {
		s.fact("%s. ", upper(f))
	}
	s.add(raw, "\n\n")
	if acts := s.actionsShown(); len(acts) > 0 {
		s.add(raw, "Commands in this stretch:\n")
		for _, a := range acts {
			s.fact("- %s.\n", upper(a))
		}
		s.add(raw, "\n")
	}
	if len(in.fixed) > 0 {
		at := len(s.parts)
		s.add(raw, "Errors hit and resolved in this stretch:\n")
		n := 0
		for _, f := range in.fixed {
			if s.fact("- `%s`: fixed; %s.\n", strings.Join(f.lines, "` / `"), f.fix) {
				n++
			}
		}
		if n == 0 {
			s.parts = s.parts[:at]
		} else {
			s.add(raw, "\n")
		}
	}
	s.add(raw, "Files touched:\n")
	s.files("- ", "    ")
	s.add(raw, "\nStill to do:\n")
	s.pendingItems("- ", "")
}

// upper capitalizes a sentence unless it starts with a path or an
// identifier.
func upper(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if s == "" || strings.ContainsAny(word, "/._()`") || word != strings.ToLower(word) {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
