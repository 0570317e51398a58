// Package openhands imports OpenHands conversations, stored one JSON file per
// event:
//   - V0 (the OpenHands app up to 2025): sessions/<sid>/events/<id>.json,
//     or the 25-event pages of sessions/<sid>/event_cache/;
//   - V1 (the Software Agent SDK): <conversation>/events/event-NNNNN-<uuid>.json
//     beside base_state.json.
//
// A compaction is a condensation (V0 action "condensation", V1 kind
// "Condensation"): the events it forgets — forgotten_event_ids, or the V0
// start..end range — leave the context and its summary (optional: some
// condensers forget without summarising) takes their place. Every event
// before it is its source; the events it did not forget stay in the context
// verbatim and are listed in Kept.
//
// Open takes the conversation directory (or its events directory). See
// shared/research/formats.md §4.
package openhands

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Name is the format's name for --from.
const Name = "openhands"

func init() {
	registry.Register(registry.Format{
		Name:        Name,
		Description: "OpenHands conversation directory: V0 sessions/<sid>/events/<id>.json or V1 SDK <conversation>/events/event-NNNNN-<uuid>.json",
		Detect:      Detect,
		Open:        Open,
		Scan:        Scan,
		Homes:       Homes,
	})
}

var (
	v0Name = regexp.MustCompile(`^(\d+)\.json$`)
	v1Name = regexp.MustCompile(`^event-(\d+)-.*\.json$`)
	pageRE = regexp.MustCompile(`^(\d+)-(\d+)\.json$`)
)

type layout int

const (
	none layout = iota
	v0
	v0pages
	v1
)

// eventsDir finds where the events of a conversation directory are.
func eventsDir(dir string) (string, layout) {
	for _, d := range []string{filepath.Join(dir, "events"), dir} {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			switch {
			case e.IsDir():
			case v1Name.MatchString(e.Name()):
				return d, v1
			case v0Name.MatchString(e.Name()):
				return d, v0
			}
		}
	}
	if d := filepath.Join(dir, "event_cache"); isDir(d) {
		return d, v0pages
	}
	return "", none
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Detect accepts a conversation directory (or its events directory).
func Detect(path string, _ []byte, dir bool) bool {
	if !dir {
		return false
	}
	_, l := eventsDir(path)
	return l != none
}

// Homes returns ~/.openhands (the V0 file store).
func Homes() []string {
	h, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	return []string{filepath.Join(h, ".openhands")}
}

type evFile struct {
	path string
	key  int
}

func listEvents(dir string, l layout) ([]evFile, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []evFile
	for _, e := range ents {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		var m []string
		switch l {
		case v0:
			m = v0Name.FindStringSubmatch(e.Name())
		case v1:
			m = v1Name.FindStringSubmatch(e.Name())
		case v0pages:
			m = pageRE.FindStringSubmatch(e.Name())
		}
		if m == nil {
			continue
		}
		k, _ := strconv.Atoi(m[1])
		out = append(out, evFile{filepath.Join(dir, e.Name()), k})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

type importer struct {
	b  *kit.Builder
	p  fastjson.Parser
	v1 bool

	actionCall map[string]string // event id of an action -> its call id
	forgotten  map[string]bool
	ranges     forgetting // the V0 ranges forgotten so far
	requested  bool
	plan       kit.PlanList
	model      string
	version    string
}

// Open imports a conversation directory.
func Open(path string, opt model.ReadOptions) (*model.Transcript, error) {
	dir, l := eventsDir(path)
	if l == none {
		return nil, fmt.Errorf("%s: no OpenHands events (events/<id>.json or events/event-NNNNN-*.json)", path)
	}
	name := opt.Name
	if name == "" {
		name = path
	}
	files, err := listEvents(dir, l)
	if err != nil {
		return nil, err
	}
	imp := &importer{
		b:          kit.NewBuilder(path, name),
		v1:         l == v1,
		actionCall: map[string]string{},
		forgotten:  map[string]bool{},
	}
	conv := path
	if dir == path && filepath.Base(path) == "events" {
		conv = filepath.Dir(path)
	}
	imp.readState(conv)
	var total int64
	for i, f := range files {
		data, err := model.ReadWhole(f.path)
		if err != nil {
			return nil, err
		}
		total += int64(len(data))
		if opt.Progress != nil {
			opt.Progress(int64(i+1), int64(len(files)))
		}
		imp.b.File = f.path
		imp.b.At(1, 0)
		v, err := imp.p.ParseBytes(data)
		if err != nil {
			imp.b.BadLine(kit.Line{B: data, N: 1, Terminated: true}, false)
			continue
		}
		if l == v0pages {
			for _, ev := range kit.Array(v) {
				imp.event(ev, []byte(kit.JSON(ev)))
			}
			continue
		}
		imp.event(v, data)
	}
	imp.b.File = name
	m := &imp.b.T.Meta
	m.Source = Name + " v0"
	if imp.v1 {
		m.Source = Name + " v1 (agent SDK)"
	}
	if imp.version != "" {
		m.Source += " " + imp.version
	}
	m.Run = filepath.Base(conv)
	m.Agent = imp.model
	return imp.b.Finish(total), nil
}

// readState takes the model and id from base_state.json (V1) or
// metadata.json (V0), when present.
func (imp *importer) readState(conv string) {
	for _, f := range []string{"base_state.json", "metadata.json"} {
		data, err := model.ReadWhole(filepath.Join(conv, f))
		if err != nil {
			continue
		}
		var p fastjson.Parser
		v, err := p.ParseBytes(data)
		if err != nil {
			continue
		}
		for _, k := range [][]string{{"agent", "llm", "model"}, {"llm_model"}, {"model"}} {
			if s := kit.Str(v, k...); s != "" {
				imp.model = s
				break
			}
		}
		if s := kit.Str(v, "title"); s != "" {
			imp.b.SetExtra("title", s)
		}
		if s := kit.Str(v, "openhands_version"); s != "" {
			imp.version = s
		}
	}
}

func (imp *importer) event(v *fastjson.Value, raw []byte) {
	if imp.v1 {
		imp.eventV1(v, raw)
		return
	}
	imp.eventV0(v, raw)
}

func (imp *importer) add(e model.Event, ref, ts string) {
	h := e.Header()
	h.Ref, h.TS = ref, ts
	imp.b.Add(e)
}

// --- V0 ---

func (imp *importer) eventV0(v *fastjson.Value, raw []byte) {
	id := kit.ID(v, "id")
	ts := kit.Str(v, "timestamp")
	src := kit.Str(v, "source")
	imp.b.NextTurn()
	if act := kit.Str(v, "action"); act != "" {
		imp.actionV0(v, act, id, ts, src, raw)
		return
	}
	if obs := kit.Str(v, "observation"); obs != "" {
		imp.observationV0(v, obs, id, ts, raw)
		return
	}
	imp.b.Raw("", "OpenHands event that is neither an action nor an observation", raw)
}

func textOr(v *fastjson.Value, keys ...string) string {
	for _, k := range keys {
		if s := kit.Str(v, k); s != "" {
			return s
		}
	}
	return ""
}

func (imp *importer) actionV0(v *fastjson.Value, act, id, ts, src string, raw []byte) {
	args := v.Get("args")
	switch act {
	case "message":
		role := model.RoleAssistant
		if src == "user" {
			role = model.RoleUser
		}
		imp.add(&model.Message{Role: role, Text: textOr(args, "content", "message")}, id, ts)
		return
	case "system":
		imp.add(&model.Message{Role: model.RoleSystem, Text: textOr(args, "content")}, id, ts)
		return
	case "finish", "reject":
		if t := textOr(args, "final_thought", "message", "reason", "thought"); t != "" {
			imp.add(&model.Message{Role: model.RoleAssistant, Text: t}, id, ts)
		} else {
			imp.b.Skip("action/" + act)
		}
		if call := kit.Str(v, "tool_call_metadata", "tool_call_id"); call != "" {
			// The finish tool call itself, so that its result links.
			imp.actionCall[id] = call
			imp.add(&model.ToolCall{ID: call, Name: act, Input: model.NewText(kit.JSON(args))}, id, ts)
		}
		return
	case "condensation":
		imp.condensationV0(args, id, ts)
		return
	case "condensation_request":
		imp.requested = true
		imp.b.Skip("action/condensation_request")
		return
	case "change_agent_state", "null", "recall":
		imp.b.Skip("action/" + act)
		return
	}
	if t := kit.Str(args, "thought"); t != "" {
		imp.add(&model.Message{Role: model.RoleAssistant, Text: t}, id, ts)
	}
	call := kit.Str(v, "tool_call_metadata", "tool_call_id")
	name := kit.Str(v, "tool_call_metadata", "function_name")
	if call == "" {
		call = "event-" + id
	}
	if name == "" {
		name = act
	}
	imp.actionCall[id] = call
	input := "{}"
	if args != nil {
		input = kit.JSON(args)
	}
	imp.add(&model.ToolCall{ID: call, Name: name, Input: model.NewText(input)}, id, ts)
	if act == "task_tracking" {
		imp.tasks(kit.Array(args, "task_list"), id, ts)
	}
}

func (imp *importer) tasks(list []*fastjson.Value, id, ts string) {
	if list == nil {
		return
	}
	var items []model.PlanItem
	for _, t := range list {
		text := textOr(t, "title", "description", "content")
		tid := kit.ID(t, "id")
		if tid == "" {
			tid = text
		}
		items = append(items, model.PlanItem{ID: tid, Text: text, Status: kit.Status(kit.Str(t, "status"))})
	}
	if upd := imp.plan.Update(items); len(upd) > 0 {
		imp.add(&model.Plan{Items: upd}, id, ts)
	}
}

func (imp *importer) observationV0(v *fastjson.Value, obs, id, ts string, raw []byte) {
	switch obs {
	case "agent_state_changed", "null":
		imp.b.Skip("observation/" + obs)
		return
	}
	content := kit.Str(v, "content")
	call := kit.Str(v, "tool_call_metadata", "tool_call_id")
	if call == "" {
		call = imp.actionCall[kit.ID(v, "cause")]
	}
	if call == "" {
		// Not the result of an action loupe has seen: context the
		// environment added (a recall of microagent knowledge, an error).
		if content == "" {
			imp.b.Skip("observation/" + obs)
			return
		}
		imp.add(&model.Message{Role: model.RoleSystem, Text: content}, id, ts)
		return
	}
	flagged := obs == "error" || obs == "user_rejected"
	if s := v.Get("success"); s != nil && s.Type() == fastjson.TypeFalse {
		flagged = true
	}
	code, ok := exitCode(v, []string{"extras", "metadata", "exit_code"}, []string{"extras", "exit_code"})
	isErr := failed(flagged, code, ok, commandObservations[obs], content, kit.Str(v, "message"))
	imp.add(&model.ToolResult{ID: call, IsError: isErr, Text: model.NewText(content)}, id, ts)
}

func (imp *importer) condensationV0(args *fastjson.Value, id, ts string) {
	var f forgetting
	if list := kit.Array(args, "forgotten_event_ids"); list != nil {
		for _, x := range list {
			f.ids = append(f.ids, kit.ID(x))
		}
	} else if args.Exists("forgotten_events_start_id") {
		lo, hi := kit.Int(args, "forgotten_events_start_id"), kit.Int(args, "forgotten_events_end_id")
		if lo <= hi {
			f.ranges = append(f.ranges, [2]int{lo, hi})
		}
	}
	imp.condensation(kit.Str(args, "summary"), f, id, ts)
}

// forgetting is what a condensation forgets: event ids, and (V0) ranges of
// them kept as ranges, because a 130-byte event can name a range of 2^63
// ids; only the events that exist are ever looked up in it.
type forgetting struct {
	ids    []string
	ranges [][2]int
}

// has reports whether the event with id ref is forgotten.
func (f *forgetting) has(ref string) bool {
	if len(f.ranges) > 0 {
		if n, err := strconv.Atoi(ref); err == nil {
			for _, r := range f.ranges {
				if n >= r[0] && n <= r[1] {
					return true
				}
			}
		}
	}
	return false
}

// condensation makes the compaction: everything before it not forgotten
// (now or by an earlier condensation) is kept.
func (imp *importer) condensation(summary string, f forgetting, id, ts string) {
	for _, x := range f.ids {
		imp.forgotten[x] = true
	}
	imp.ranges.ranges = append(imp.ranges.ranges, f.ranges...)
	var refs []string
	forgot := len(f.ids)
	inRange := map[string]bool{} // one OpenHands event may make several
	for _, e := range imp.b.T.Events {
		switch e.Kind() {
		case model.KindRaw, model.KindCompaction:
			continue
		}
		r := e.Header().Ref
		if !inRange[r] && f.has(r) {
			inRange[r] = true
			forgot++
		}
		if !imp.forgotten[r] && !imp.ranges.has(r) {
			refs = append(refs, r)
		}
	}
	c := &model.Compaction{Trigger: "auto", Summary: summary}
	if imp.requested {
		c.Trigger = "requested"
	}
	imp.requested = false
	c.Kept = kit.Kept(imp.b.T.Events, refs)
	imp.add(c, id, ts)
	if summary == "" {
		imp.b.Warn("condensation", "compaction %d: the condenser forgot %d events without a summary", c.Seq, forgot)
	}
}

// --- V1 ---

func contentText(v *fastjson.Value) string {
	if v == nil {
		return ""
	}
	if kit.IsString(v) {
		return kit.Str(v)
	}
	var b strings.Builder
	for _, c := range kit.Array(v) {
		var s string
		switch kit.Str(c, "type") {
		case "text":
			s = kit.Str(c, "text")
		case "image":
			s = "[image]"
		default:
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s)
	}
	return b.String()
}

func (imp *importer) eventV1(v *fastjson.Value, raw []byte) {
	id := kit.Str(v, "id")
	ts := kit.Str(v, "timestamp")
	kind := kit.Str(v, "kind")
	imp.b.NextTurn()
	switch kind {
	case "MessageEvent":
		msg := v.Get("llm_message")
		role := model.Role(kit.Str(msg, "role"))
		switch role {
		case model.RoleUser, model.RoleAssistant, model.RoleSystem:
		default:
			role = model.RoleSystem
		}
		imp.add(&model.Message{Role: role, Text: contentText(msg.Get("content"))}, id, ts)
	case "ActionEvent":
		if t := contentText(v.Get("thought")); t != "" {
			imp.add(&model.Message{Role: model.RoleAssistant, Text: t}, id, ts)
		}
		call := kit.Str(v, "tool_call_id")
		name := kit.Str(v, "tool_name")
		input, ok := kit.CompactJSON(kit.Str(v, "tool_call", "arguments"))
		if !ok {
			input = kit.JSON(v, "action")
			if input == "" {
				input = "{}"
			}
		}
		imp.actionCall[id] = call
		imp.add(&model.ToolCall{ID: call, Name: name, Input: model.NewText(input)}, id, ts)
		if a := v.Get("action"); a != nil && a.Exists("task_list") {
			imp.tasks(kit.Array(a, "task_list"), id, ts)
		}
	case "ObservationEvent", "UserRejectObservation", "AgentErrorEvent":
		call := kit.Str(v, "tool_call_id")
		if call == "" {
			call = imp.actionCall[kit.Str(v, "action_id")]
		}
		obs := v.Get("observation")
		text := contentText(obs.Get("content"))
		if text == "" {
			text = kit.Str(obs, "output") // the SDK's first observations
		}
		flagged := kit.Bool(obs, "is_error")
		switch kind {
		case "UserRejectObservation":
			text, flagged = textOr(v, "rejection_reason"), true
		case "AgentErrorEvent":
			text, flagged = textOr(v, "error"), true
		}
		code, ok := exitCode(obs, []string{"exit_code"}, []string{"metadata", "exit_code"})
		isErr := failed(flagged, code, ok, commandObservations[kit.Str(obs, "kind")], text)
		imp.add(&model.ToolResult{ID: call, IsError: isErr, Text: model.NewText(text)}, id, ts)
	case "Condensation":
		var f forgetting
		for _, x := range kit.Array(v, "forgotten_event_ids") {
			f.ids = append(f.ids, kit.Str(x))
		}
		imp.condensation(kit.Str(v, "summary"), f, id, ts)
	case "CondensationRequest":
		imp.requested = true
		imp.b.Skip(kind)
	case "SystemPromptEvent", "CondensationSummaryEvent", "PauseEvent", "ConversationStateUpdateEvent":
		imp.b.Skip(kind)
	case "ConversationErrorEvent":
		imp.add(&model.Message{Role: model.RoleSystem, Text: textOr(v, "detail", "code")}, id, ts)
	default:
		imp.b.Raw(kind, fmt.Sprintf("unknown OpenHands event kind %q", kind), raw)
	}
}

// Scan describes conversations: the directory itself when it is one, or
// every conversation directory below it.
func Scan(path string) ([]registry.SessionInfo, error) {
	describe := func(dir string) (registry.SessionInfo, error) {
		t, err := Open(dir, model.ReadOptions{})
		if err != nil {
			return registry.SessionInfo{}, err
		}
		si := registry.SessionInfo{Path: dir, Format: Name, ID: t.Meta.Run, Title: t.Meta.Extra["title"], Turns: t.Turns(), Compactions: len(t.Compactions)}
		for _, e := range t.Events {
			if ts := e.Header().TS; ts != "" {
				tm := parseTime(ts)
				if si.Start.IsZero() {
					si.Start = tm
				}
				si.Updated = tm
			}
			if m, ok := e.(*model.Message); ok && m.Role == model.RoleUser && si.Title == "" {
				si.Title = kit.FirstLine(m.Text, 80)
			}
		}
		return si, nil
	}
	if Detect(path, nil, true) {
		si, err := describe(path)
		if err != nil {
			return nil, err
		}
		return []registry.SessionInfo{si}, nil
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []registry.SessionInfo
	var errs []error
	for _, e := range ents {
		d := filepath.Join(path, e.Name())
		if e.IsDir() && Detect(d, nil, true) {
			si, err := describe(d)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			out = append(out, si)
		}
	}
	return out, errors.Join(errs...)
}

// parseTime reads OpenHands timestamps, which often have no zone.
func parseTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
