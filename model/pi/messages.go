package pi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// The mapping of message and compaction entries onto loupe's events.

func (imp *importer) message(v *fastjson.Value) {
	m := v.Get("message")
	if m == nil || m.Type() != fastjson.TypeObject {
		imp.warn("message", "message", `"message" is missing or not an object`)
		imp.raw("message", "message entry without a message object")
		return
	}
	switch role := kit.Str(m, "role"); role {
	case "user":
		imp.add(&model.Message{Role: model.RoleUser, Text: contentText(m.Get("content"))})
	case "assistant":
		imp.assistant(m)
	case "toolResult":
		imp.toolResult(m)
	case "bashExecution":
		imp.bash(m)
	case "custom", "hookMessage":
		// An extension's message: in the model's context as a user message,
		// but not the user's words.
		imp.add(&model.Message{Role: model.RoleSystem, Text: contentText(m.Get("content"))})
	case "branchSummary", "compactionSummary":
		imp.add(&model.Message{Role: model.RoleSystem, Text: kit.Str(m, "summary")})
	default:
		imp.raw("message", fmt.Sprintf("unknown message role %q", short(role)))
	}
}

// contentText flattens message content: a string as it is, blocks one per
// line (their text, "[image]" or "[type]").
func contentText(content *fastjson.Value) string {
	var k kit.Composer
	composeContent(&k, content)
	return k.String()
}

func composeContent(k *kit.Composer, content *fastjson.Value) {
	if k.Str(content) {
		return
	}
	for _, bl := range kit.Array(content) {
		if !k.Empty() {
			k.Lit("\n")
		}
		switch t := kit.Str(bl, "type"); t {
		case "text":
			k.Str(bl.Get("text"))
		case "image":
			k.Lit("[image]")
		default:
			k.Lit("[" + t + "]")
		}
	}
}

func (imp *importer) assistant(m *fastjson.Value) {
	stop := kit.Str(m, "stopReason")
	if imp.agent == "" {
		imp.agent = kit.Str(m, "model")
	}
	// An aborted or failed reply ends pi's agent loop before any of its
	// tool calls run, and pi leaves the reply out of the context it sends
	// next (transformMessages): see toolCall.
	broken := stop == "aborted" || stop == "error"
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			imp.add(&model.Message{Role: model.RoleAssistant, Text: text.String()})
			text.Reset()
		}
	}
	for j, bl := range kit.Array(m, "content") {
		switch t := kit.Str(bl, "type"); t {
		case "text":
			if s := kit.Str(bl, "text"); s != "" {
				if text.Len() > 0 {
					text.WriteByte('\n')
				}
				text.WriteString(s)
			}
		case "thinking":
			imp.b.Skip("thinking")
		case "toolCall":
			flush()
			imp.toolCall(bl, j, broken, stop)
		default:
			if text.Len() > 0 {
				text.WriteByte('\n')
			}
			text.WriteString("[" + t + "]")
		}
	}
	flush()
	if !imp.started {
		imp.b.Skip("assistant reply with no content (stopReason " + short(stop) + ")")
	}
	if c := imp.needAfter; c != nil && !broken {
		// The first reply after a compaction: its prompt is the context pi
		// rebuilt (summary, kept tail, what came since).
		if n := kit.Int(m, "usage", "input") + kit.Int(m, "usage", "cacheRead") + kit.Int(m, "usage", "cacheWrite"); n > 0 {
			c.TokensAfter = n
			imp.needAfter = nil
		}
	}
}

// toolCall maps a toolCall block (the j-th of the reply's content).
//
// A call in an aborted or failed reply was never run and never gets a
// result. It is kept as a raw event, not a tool call: as a call it would be
// an open handle forever (the verifier would demand every later summary
// keep it), and a synthetic result would make it look carried out, so that
// it could close a commitment it never fulfilled.
func (imp *importer) toolCall(bl *fastjson.Value, j int, broken bool, stop string) {
	id, name := kit.Str(bl, "id"), kit.Str(bl, "name")
	if broken {
		imp.rawJSON("toolCall", fmt.Sprintf("tool call %s (%s) in a reply that ended with stopReason %q: pi never ran it, and no result follows", short(id), short(name), short(stop)),
			model.NewText(kit.JSON(bl)))
		return
	}
	if id == "" {
		imp.warn("message", fmt.Sprintf("message.content[%d].id", j), "a tool call without an id")
		imp.rawJSON("toolCall", "tool call without an id", model.NewText(kit.JSON(bl)))
		return
	}
	k := imp.k
	input := imp.lazy.InputText(imp.l, callInput(bl), func(line []byte) (string, error) {
		var p fastjson.Parser
		v, err := recordAt(&p, line, k)
		if err != nil {
			return "", err
		}
		return callInput(v.Get("message", "content", strconv.Itoa(j))), nil
	})
	c := &model.ToolCall{ID: id, Name: name, Input: input}
	imp.add(c)
}

// callInput is a call's arguments as compact JSON ({} when there are none).
func callInput(bl *fastjson.Value) string {
	if s := kit.JSON(bl, "arguments"); s != "" {
		return s
	}
	return "{}"
}

func (imp *importer) toolResult(m *fastjson.Value) {
	id := kit.Str(m, "toolCallId")
	if id == "" {
		imp.warn("message", "message.toolCallId", "a tool result without a toolCallId")
		imp.raw("message", "tool result without a toolCallId")
		return
	}
	k := imp.k
	c := &imp.comp
	c.Reset()
	composeContent(c, m.Get("content"))
	text := c.Text(imp.lazy, imp.l, func(line []byte) (string, error) {
		var p fastjson.Parser
		v, err := recordAt(&p, line, k)
		if err != nil {
			return "", err
		}
		return contentText(v.Get("message", "content")), nil
	})
	imp.add(&model.ToolResult{ID: id, IsError: kit.Bool(m, "isError"), Text: text})
}

// bash maps a command the user ran with "!cmd" (a bashExecution message).
//
// It becomes a tool call named user_bash and its result, with an id made of
// the entry's ref, rather than a user message: pi hands the model its
// output, so a failing command is an unresolved error like any other (a
// later successful run of it closes it), while as the user's words its
// output (logs, listings) would be read for standing instructions it never
// gave. A command run with "!!" is left out of the model's context: it is
// kept as a raw event.
func (imp *importer) bash(m *fastjson.Value) {
	if kit.Bool(m, "excludeFromContext") {
		imp.raw("bashExecution", "a command the user ran with !! (pi leaves it out of the model's context)")
		return
	}
	id := "bash@" + imp.ref
	input := string(kit.AppendJSONString([]byte(`{"command":`), kit.Str(m, "command"))) + "}"
	imp.add(&model.ToolCall{ID: id, Name: "user_bash", Input: model.NewText(input)})
	k := imp.k
	c := &imp.comp
	c.Reset()
	failed := composeBash(c, m)
	text := c.Text(imp.lazy, imp.l, func(line []byte) (string, error) {
		var p fastjson.Parser
		v, err := recordAt(&p, line, k)
		if err != nil {
			return "", err
		}
		var c kit.Composer
		composeBash(&c, v.Get("message"))
		return c.String(), nil
	})
	imp.add(&model.ToolResult{ID: id, IsError: failed, Text: text})
}

// composeBash adds a bashExecution's output to k with the notes pi adds to
// it for the model (bashExecutionToText), and reports whether the command
// failed: a non-zero exit status, unless the user cancelled it.
func composeBash(k *kit.Composer, m *fastjson.Value) (failed bool) {
	k.Str(m.Get("output"))
	note := func(s string) {
		if !k.Empty() {
			k.Lit("\n\n")
		}
		k.Lit(s)
	}
	code := m.Get("exitCode")
	switch {
	case kit.Bool(m, "cancelled"):
		note("(command cancelled)")
	case code != nil && code.Type() == fastjson.TypeNumber && kit.Int(m, "exitCode") != 0:
		note(fmt.Sprintf("Command exited with code %d", kit.Int(m, "exitCode")))
		failed = true
	}
	if p := kit.Str(m, "fullOutputPath"); kit.Bool(m, "truncated") && p != "" {
		note("[Output truncated. Full output: " + p + "]")
	}
	return failed
}

// compaction maps a compaction entry, the idx-th record.
func (imp *importer) compaction(v *fastjson.Value, idx int) {
	c := &model.Compaction{Summary: kit.Str(v, "summary"), TokensBefore: kit.Int(v, "tokensBefore")}
	from := -1
	switch {
	case kit.IsString(v, "firstKeptEntryId"):
		id := kit.Str(v, "firstKeptEntryId")
		if i, ok := imp.idIndex[id]; ok && i < idx && (imp.br == nil || imp.br.on[id]) {
			from = i
		} else if !kit.Bool(v, "fromHook") {
			// pi keeps nothing then (buildSessionContext never finds it);
			// an extension's compaction may mean that, pi's own never does.
			imp.warn("compaction", "firstKeptEntryId", "names %q, which is not an earlier entry of this branch; nothing is counted as kept", short(id))
		}
	case kit.Has(v, "firstKeptEntryIndex"):
		i := kit.Int(v, "firstKeptEntryIndex")
		x := v.Get("firstKeptEntryIndex")
		if x.Type() == fastjson.TypeNumber && i >= 0 && i <= idx {
			// Equal to the compaction's own index: nothing kept (a hook
			// that summarised everything).
			from = i
		} else {
			imp.warn("compaction", "firstKeptEntryIndex", "is %s, not the index of an entry before the compaction (%d); nothing is counted as kept", short(kit.JSON(x)), idx)
		}
	default:
		imp.warn("compaction", "firstKeptEntryIndex", "neither firstKeptEntryIndex nor firstKeptEntryId: nothing is counted as kept")
	}
	if from >= 0 {
		var refs []string
		for _, r := range imp.kept[from:idx] {
			if r != "" {
				refs = append(refs, r)
			}
		}
		c.Kept = kit.Kept(imp.b.T.Events, refs)
	}
	imp.add(c)
	imp.needAfter = c
}

// short cuts a value from the file to a length fit for a problem message.
func short(s string) string {
	if len(s) <= 60 {
		return s
	}
	n := 60
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
