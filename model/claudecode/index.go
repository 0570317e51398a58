package claudecode

import (
	"bytes"
	"fmt"
	"os"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats/kit"
)

// The first pass reads every line into a small record (its tree edges and a
// few flags) so that the source of each compaction can be decided before any
// event is made; the second pass reads the files again and makes the events.
// Nothing but the records and the summaries' text stays in memory between
// the passes.

type kind uint8

const (
	kOther kind = iota // a non-conversation line: title, snapshot, queue operation, unknown
	kUser
	kAssistant
	kSystem
	kProgress
	kAttachment
	kBroken // not JSON
)

// action is what the second pass does with a record.
type action uint8

const (
	aEmit      action = iota
	aDup              // a copy of a line already read (same uuid): skipped
	aOffBranch        // conversation off the path to the next compaction: raw
	aBoundary         // a compaction
	aSummary          // the summary of a boundary: carried by the compaction
)

type rec struct {
	file    int32
	n       int32 // line number in its file
	kind    kind
	act     action
	side    bool // isSidechain
	summary bool // isCompactSummary, or a user line with the continuation preamble
	result  bool // a user line with tool_result blocks
	dup     int32
	bnd     int32 // index in boundaries + 1 for aBoundary / aSummary / aOffBranch (the compaction it precedes; 0 for the tail)
	sub     string
	uuid    string
	parent  string
	msgID   string
	usage   int
}

// boundary is a compaction: a compact_boundary or microcompact_boundary line
// (or a summary line with no boundary, from older versions).
type boundary struct {
	rec       int // index of the boundary line (or of the lone summary)
	summary   int // index of the summary line, -1 when there is none
	micro     bool
	lone      bool // a summary without a boundary
	trigger   string
	pre, post int
	saved     int
	lparent   string
	preserved []string // uuids kept verbatim (preservedMessages / preservedSegment)
	segment   [3]string
	compacted []string // microcompact: tool ids whose results were cleared
	text      string   // the summary text
	ts        string
	fallback  string // why the source is in file order ("" when walked)
}

type importer struct {
	name  string
	opt   model.ReadOptions
	files []string
	recs  []rec
	bnds  []*boundary
	first map[string]int32 // uuid -> first record
	// subagent is set when every conversation line is a sidechain: the
	// file is a sub-agent's own transcript, whose thread is its main one.
	subagent bool
	// tailBroken: the path to the last line breaks off, so nothing after
	// the last compaction was taken for a rewound branch.
	tailBroken bool
	sizes      []int64 // of the files, for progress
	// read are the bytes the first pass read of each file: the second
	// reads no further, so a session the runtime is still writing (a hook
	// reading it mid-turn) is read as one consistent prefix.
	read  []int64
	total int64
	order callOrder
}

// progress reports the two passes as one read of the files: the first pass
// is the first half. pass is 0 or 1; base is the bytes of the files before
// this one.
func (imp *importer) progress(base int64, pass int) func(read, size int64) {
	if imp.opt.Progress == nil {
		return nil
	}
	return func(read, _ int64) {
		imp.opt.Progress((int64(pass)*imp.total+base+read)/2, imp.total)
	}
}

func newImporter(name string, opt model.ReadOptions) *importer {
	return &importer{name: name, opt: opt, first: map[string]int32{}, order: newCallOrder()}
}

// indexLine reads one line into a record; conv and side count the
// conversation lines and those of them on a sidechain.
func (imp *importer) indexLine(p *fastjson.Parser, fi int32, l kit.Line, conv, side *int) {
	rc := rec{file: fi, n: int32(l.N)}
	v, err := p.ParseBytes(l.B)
	if err != nil || v.Type() != fastjson.TypeObject {
		rc.kind = kBroken
		imp.recs = append(imp.recs, rc)
		return
	}
	typ := string(v.GetStringBytes("type"))
	switch typ {
	case "user":
		rc.kind = kUser
	case "assistant":
		rc.kind = kAssistant
	case "system":
		rc.kind = kSystem
		rc.sub = string(v.GetStringBytes("subtype"))
	case "progress":
		rc.kind = kProgress
	case "attachment":
		rc.kind = kAttachment
	}
	// kit.Str, as for every other id: a uuid becomes the events' ref,
	// which must be valid UTF-8 to be written and read back.
	rc.uuid = kit.Str(v, "uuid")
	rc.parent = kit.Str(v, "parentUuid")
	rc.side = v.GetBool("isSidechain")
	if rc.kind == kUser || rc.kind == kAssistant {
		*conv++
		if rc.side {
			*side++
		}
	}
	idx := int32(len(imp.recs))
	if rc.uuid != "" {
		if f, ok := imp.first[rc.uuid]; ok {
			rc.dup = f + 1
			rc.act = aDup
		} else {
			imp.first[rc.uuid] = idx
		}
	}
	msg := v.Get("message")
	switch rc.kind {
	case kAssistant:
		rc.msgID = string(msg.GetStringBytes("id"))
		u := msg.Get("usage")
		rc.usage = u.GetInt("input_tokens") + u.GetInt("cache_read_input_tokens") + u.GetInt("cache_creation_input_tokens")
		if rc.act != aDup {
			for _, b := range msg.Get("content").GetArray() {
				if string(b.GetStringBytes("type")) == "tool_use" {
					imp.order.call(string(b.GetStringBytes("id")), idx, l)
				}
			}
		}
	case kProgress:
		if d := v.Get("data"); string(d.GetStringBytes("type")) == "hook_progress" {
			imp.order.hook(string(d.GetStringBytes("hookEvent")), string(v.GetStringBytes("toolUseID")))
		}
	case kUser:
		// GetArray, not Type: asking a string content for its type
		// would unescape it in place, before summaryText reads it.
		content := msg.Get("content")
		for _, b := range content.GetArray() {
			if string(b.GetStringBytes("type")) == "tool_result" {
				rc.result = true
				if rc.act != aDup {
					imp.order.result(string(b.GetStringBytes("tool_use_id")), idx)
				}
			}
		}
		if v.GetBool("isCompactSummary") || startsWithPreamble(content) {
			rc.summary = true
		}
	}
	imp.recs = append(imp.recs, rc)
	if rc.act == aDup {
		return
	}
	if rc.summary || rc.kind == kSystem && (rc.sub == "compact_boundary" || rc.sub == "microcompact_boundary") {
		imp.order.compaction(idx)
	}
	switch {
	case rc.kind == kSystem && (rc.sub == "compact_boundary" || rc.sub == "microcompact_boundary"):
		imp.bnds = append(imp.bnds, newBoundary(v, int(idx), rc.sub == "microcompact_boundary"))
	case rc.summary:
		imp.bnds = append(imp.bnds, &boundary{rec: int(idx), summary: int(idx), lone: true, text: summaryText(msg.Get("content")), ts: kit.Str(v, "timestamp")})
	}
}

const preamble = "This session is being continued from a previous conversation"

// index is the first pass.
func (imp *importer) index(files []string) error {
	imp.files = files
	var p fastjson.Parser
	conv, side := 0, 0
	imp.sizes = make([]int64, len(files))
	imp.read = make([]int64, len(files))
	for i, path := range files {
		if st, err := os.Stat(path); err == nil {
			imp.sizes[i] = st.Size()
			imp.total += st.Size()
		}
	}
	var done int64
	for fi, path := range files {
		r, _, closeFn, err := kit.OpenFile(path, imp.progress(done, 0))
		done += imp.sizes[fi]
		if err != nil {
			return err
		}
		imp.order.startFile()
		imp.read[fi], err = kit.ReadLines(r, func(l kit.Line) error {
			imp.indexLine(&p, int32(fi), l, &conv, &side)
			return nil
		})
		closeFn()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	imp.subagent = conv > 0 && side == conv
	imp.pairSummaries()
	imp.decideSources()
	imp.order.settle(imp)
	return nil
}

func startsWithPreamble(content *fastjson.Value) bool {
	if content == nil {
		return false
	}
	if arr := content.GetArray(); arr != nil || content.GetObject() != nil {
		// Blocks (a tool result's can be megabytes): only the first text
		// block's text is looked at, not the whole array marshalled.
		if len(arr) == 0 || string(arr[0].GetStringBytes("type")) != "text" {
			return false
		}
		if content = arr[0].Get("text"); content == nil {
			return false
		}
	}
	var buf [128]byte
	raw := content.MarshalTo(buf[:0])
	return bytes.HasPrefix(raw, []byte(`"`+preamble))
}

func summaryText(content *fastjson.Value) string {
	if content == nil {
		return ""
	}
	if kit.IsString(content) {
		return kit.Str(content)
	}
	var b bytes.Buffer
	for _, blk := range kit.Array(content) {
		if kit.Str(blk, "type") == "text" {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(kit.Str(blk, "text"))
		}
	}
	return b.String()
}

func newBoundary(v *fastjson.Value, idx int, micro bool) *boundary {
	b := &boundary{rec: idx, summary: -1, micro: micro, ts: kit.Str(v, "timestamp"), lparent: kit.Str(v, "logicalParentUuid")}
	md := v.Get("compactMetadata")
	if md == nil {
		md = v.Get("compact_metadata") // the SDK stream's spelling
	}
	if micro {
		md = v.Get("microcompactMetadata")
	}
	if md == nil {
		return b
	}
	b.trigger = kit.Str(md, "trigger")
	b.pre = firstInt(md, "preTokens", "pre_tokens")
	b.post = firstInt(md, "postTokens", "post_tokens")
	b.saved = firstInt(md, "tokensSaved", "tokens_saved")
	for _, x := range kit.Array(md, "compactedToolIds") {
		b.compacted = append(b.compacted, kit.Str(x))
	}
	pm := md.Get("preservedMessages")
	if pm == nil {
		pm = md.Get("preserved_messages")
	}
	if pm != nil {
		list := kit.Array(pm, "uuids")
		if all := kit.Array(pm, "allUuids"); len(all) > 0 {
			list = all
		}
		for _, x := range list {
			b.preserved = append(b.preserved, kit.Str(x))
		}
	}
	seg := md.Get("preservedSegment")
	if seg == nil {
		seg = md.Get("preserved_segment")
	}
	if seg != nil {
		b.segment = [3]string{
			kit.Str(seg, "headUuid") + kit.Str(seg, "head_uuid"),
			kit.Str(seg, "anchorUuid") + kit.Str(seg, "anchor_uuid"),
			kit.Str(seg, "tailUuid") + kit.Str(seg, "tail_uuid"),
		}
	}
	return b
}

func firstInt(v *fastjson.Value, keys ...string) int {
	for _, k := range keys {
		if n := kit.Int(v, k); n != 0 {
			return n
		}
	}
	return 0
}

// main reports whether record i belongs to the transcript's own thread.
func (imp *importer) main(i int) bool {
	return !imp.recs[i].side || imp.subagent
}

// pairSummaries links every boundary with its summary line: the
// isCompactSummary child of the boundary, else the first summary-looking
// user line after it. Summaries with no boundary stay compactions of their
// own (older versions wrote only the summary, in a new file).
func (imp *importer) pairSummaries() {
	var out []*boundary
	var open *boundary // the last full boundary still without a summary
	for _, b := range imp.bnds {
		if !imp.main(b.rec) {
			continue
		}
		if b.lone {
			r := &imp.recs[b.rec]
			if open != nil && (r.parent == imp.recs[open.rec].uuid || !imp.conversationBetween(open.rec, b.rec)) {
				open.summary = b.rec
				open.text = b.text
				r.act = aSummary
				open = nil
				continue
			}
			out = append(out, b)
			continue
		}
		imp.recs[b.rec].act = aBoundary
		if !b.micro {
			open = b
		}
		out = append(out, b)
	}
	imp.bnds = out
	for k, b := range imp.bnds {
		imp.recs[b.rec].bnd = int32(k + 1)
		if b.lone {
			imp.recs[b.rec].act = aBoundary
		}
		if b.summary >= 0 && b.summary != b.rec {
			imp.recs[b.summary].bnd = int32(k + 1)
		}
	}
}

// conversationBetween reports whether a conversation line of the thread lies
// strictly between records i and j.
func (imp *importer) conversationBetween(i, j int) bool {
	for k := i + 1; k < j; k++ {
		r := &imp.recs[k]
		if (r.kind == kUser || r.kind == kAssistant) && r.act != aDup && imp.main(k) {
			return true
		}
	}
	return false
}

// resolve returns the first record with uuid u, or -1.
func (imp *importer) resolve(u string) int {
	if u == "" {
		return -1
	}
	if i, ok := imp.first[u]; ok {
		return int(i)
	}
	return -1
}

// decideSources marks, for every compaction, the conversation lines of its
// replaced span that are not on the path to it.
func (imp *importer) decideSources() {
	spanStart := 0
	for k, b := range imp.bnds {
		if b.micro || b.lone {
			// A micro-compaction changes nothing in the tree; a lone summary
			// starts a new span.
			if b.lone {
				spanStart = b.rec + 1
			}
			continue
		}
		start := -1
		if i := imp.resolve(b.lparent); i >= spanStart && i < b.rec {
			start = i
		}
		if start < 0 {
			// The logical parent may have been re-written after the summary
			// (a partial compaction): walk from the last preserved line
			// written before the boundary.
			for j := len(b.preserved) - 1; j >= 0 && start < 0; j-- {
				if i := imp.resolve(b.preserved[j]); i >= spanStart && i < b.rec {
					start = i
				}
			}
			if start < 0 {
				if i := imp.resolve(b.segment[2]); i >= spanStart && i < b.rec {
					start = i
				}
			}
			if start < 0 && b.lparent != "" && imp.resolve(b.lparent) < 0 {
				// The logical parent was not written: in real files it is
				// the result of the last call, which no result line
				// answers (see callOrder). Its parent was that call.
				// When conversation lines came after that call (local
				// commands, agents' notifications), the unwritten parent
				// is later still: walk from the newest of them, as for
				// the tail, or the whole span would look rewound.
				start = max(imp.order.lastUnanswered(imp, spanStart, b.rec), imp.lastConversation(spanStart, b.rec))
			}
		}
		switch {
		case start >= 0:
			if !imp.markOffPath(spanStart, b.rec, start, k+1) {
				b.fallback = "the path back from its logical parent breaks off at a line that is not in the file"
			}
		case b.lparent == "":
			b.fallback = "the boundary has no logicalParentUuid"
		default:
			b.fallback = fmt.Sprintf("its logicalParentUuid %s is not in the file before it", b.lparent)
		}
		if b.summary >= 0 {
			spanStart = b.summary + 1
		} else {
			spanStart = b.rec + 1
		}
	}
	// The tail after the last compaction: the path to the last conversation
	// line is the live one.
	leaf := imp.lastConversation(spanStart, len(imp.recs))
	if leaf >= 0 && !imp.markOffPath(spanStart, len(imp.recs), leaf, 0) {
		imp.tailBroken = true
	}
}

// lastConversation is the newest user or assistant line of the main
// conversation in [lo, hi), -1 when there is none.
func (imp *importer) lastConversation(lo, hi int) int {
	for i := hi - 1; i >= lo; i-- {
		r := &imp.recs[i]
		if (r.kind == kUser || r.kind == kAssistant) && r.act == aEmit && imp.main(i) {
			return i
		}
	}
	return -1
}

// jumpedOver returns the conversation lines of [lo, hi) that a late tool
// result (at hi, its call at lo-1) jumps over and that stayed in the
// context: all but those that descend, within the span, from a prompt
// re-parented to a line before it other than the call (a rewind).
func (imp *importer) jumpedOver(lo, hi int) []int {
	keep := make([]bool, hi-lo)
	var out []int
	for j := lo; j < hi; j++ {
		r := &imp.recs[j]
		p := imp.resolve(r.parent)
		switch {
		case p >= lo && p < j:
			keep[j-lo] = keep[p-lo] // as the line it continues
		case r.kind == kUser && !r.result && r.parent != "" && p != lo-1:
			keep[j-lo] = false // a prompt put back before the span: a rewind
		default:
			keep[j-lo] = true // a late result, or what the call led to
		}
		if keep[j-lo] && (r.kind == kUser || r.kind == kAssistant) && r.act != aDup && imp.main(j) {
			out = append(out, j)
		}
	}
	return out
}

// markOffPath walks from start back through parentUuid (not below lo), adds
// the parallel-tool siblings and their results, and marks every other
// conversation line of [lo, hi) as off the path.
//
// It reports false, and marks nothing, when the walk breaks off at a parent
// that is not in the files read.
func (imp *importer) markOffPath(lo, hi, start, bnd int) bool {
	on := map[int]bool{}
	byMsg := map[string][]int{}
	children := map[string][]int{}
	for i := lo; i < hi; i++ {
		r := &imp.recs[i]
		if r.act == aDup || !imp.main(i) {
			continue
		}
		if r.kind == kAssistant && r.msgID != "" {
			byMsg[r.msgID] = append(byMsg[r.msgID], i)
		}
		if r.kind == kUser && r.result && r.parent != "" {
			children[r.parent] = append(children[r.parent], i)
		}
	}
	var todo []int
	var kept [][2]int // spans a late tool result's parent jumps over (see below)
	reached := false  // the walk ended where a path may end
	for i := start; ; {
		if i < lo {
			reached = i >= 0 // it went back into the previous span
			break
		}
		if i >= hi && !imp.order.moved(int32(i)) || on[i] {
			// A forward reference or a cycle: not a path. (A call written
			// after the boundary whose result was written before it is
			// emitted before the result: it is on the path.)
			break
		}
		on[i] = true
		todo = append(todo, i)
		r := &imp.recs[i]
		if r.act == aSummary || r.act == aBoundary && !imp.bnds[r.bnd-1].micro || r.parent == "" {
			reached = true
			break
		}
		p := imp.resolve(r.parent)
		if r.kind == kUser && r.result && p >= lo && p < i-1 {
			// A tool result written long after its call (a command sent
			// to the background, a call the user rejected) names the
			// call as its parent, and jumps over what the conversation
			// said meanwhile. Only a prompt re-parented to an earlier
			// line is a rewind: what a result jumps over stayed in the
			// context (a summary quotes it).
			kept = append(kept, [2]int{p + 1, i})
		}
		i = p
	}
	if !reached {
		// A parent is missing (written to another file, or on a broken
		// line): the path cannot be trusted to tell what was left out.
		return false
	}
	for _, k := range kept {
		for _, j := range imp.jumpedOver(k[0], k[1]) {
			if !on[j] {
				on[j] = true
				todo = append(todo, j)
			}
		}
	}
	for len(todo) > 0 {
		i := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		r := &imp.recs[i]
		if r.kind != kAssistant {
			continue
		}
		for _, j := range byMsg[r.msgID] {
			if !on[j] {
				on[j] = true
				todo = append(todo, j)
			}
		}
		for _, j := range children[r.uuid] {
			if !on[j] {
				on[j] = true
				todo = append(todo, j)
			}
		}
	}
	for i := lo; i < hi; i++ {
		r := &imp.recs[i]
		if (r.kind == kUser || r.kind == kAssistant) && r.act == aEmit && imp.main(i) && !on[i] && !imp.order.moved(int32(i)) {
			r.act = aOffBranch
			r.bnd = int32(bnd)
		}
	}
	return true
}

// missingLogicalParents reports whether a boundary points at a line that is
// in none of the files read.
func (imp *importer) missingLogicalParents() bool {
	for _, b := range imp.bnds {
		if !b.micro && !b.lone && b.lparent != "" && imp.resolve(b.lparent) < 0 {
			return true
		}
	}
	return false
}

// tokensAfter is the context size after compaction b: postTokens, else the
// input of the first assistant response after the summary.
func (imp *importer) tokensAfter(b *boundary) int {
	if b.post > 0 {
		return b.post
	}
	if b.micro {
		if b.pre > 0 && b.saved > 0 {
			return b.pre - b.saved
		}
		return 0
	}
	from := b.rec
	if b.summary > from {
		from = b.summary
	}
	for i := from + 1; i < len(imp.recs); i++ {
		r := &imp.recs[i]
		if r.kind == kAssistant && imp.main(i) && r.act != aDup {
			return r.usage
		}
		if r.act == aBoundary {
			break
		}
	}
	return 0
}
