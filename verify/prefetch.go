package verify

// Prefetch: much of the sweep's work on an event depends on the event
// alone — the promises an assistant message makes, the words it uses, a
// call's parsed command, the commit hashes a text names, a summary's
// parse. A second goroutine computes those a little ahead of the sweep
// (the machine has two cores), and the sweep takes them instead of
// computing them itself. The results are the same either way: what is
// prefetched is a pure function of the event, and an event whose
// prefetch failed is handled as before.

import (
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify/lang"
)

// pre is what was computed ahead for one event.
type pre struct {
	ok       bool           // computed (a panic leaves it to the sweep)
	promises []lang.Promise // an assistant message's FindPromises and PlannedSteps
	facts    []promiseFacts // what each of promises alone determines, in order
	words    *msgWords      // an assistant message's words (the claim index)
	call     *callInfo      // a tool call, parsed
	shas     []string       // the commit hashes of a call's command or a result's head
	summary  *doc           // a compaction's summary, parsed
	// summaryBytes is the size of the summary parsed ahead, counted in
	// the budget until the sweep is past its event (see summaryBudget).
	summaryBytes int64
	// A result that may be a failure: its error line (as errorTracker.failed
	// takes it), the line's identifying tokens in the output, and its ids.
	failure   bool
	errLine   string
	errTokens []string
	errIdents []lang.Ident
}

// prefetchBatch is how many events go to the prefetcher and the sweep at a
// time, and prefetchAhead how many batches may wait at each: the
// prefetcher stays at most about a thousand events ahead of the sweep, and
// the caller about as far ahead of the prefetcher.
const (
	prefetchBatch = 64
	prefetchAhead = 16
)

// summaryBudget bounds the summary bytes parsed ahead and not yet passed
// by the sweep: a parse is about fifteen times its summary, and a run
// whose multi-megabyte summaries come a few events apart would otherwise
// hold a dozen. One summary is always parsed ahead, whatever its size; one
// over the budget is left to the sweep, which parses it the same.
const summaryBudget = 4 << 20

// prefetch computes pre for each batch of events that comes in, in order,
// and sends the batch on with them until in is closed or done is. ahead
// counts the summary bytes parsed ahead (see summaryBudget); the sweep takes
// them off.
func prefetch(in <-chan []model.Event, out chan<- prepared, done <-chan struct{}, ahead *atomic.Int64) {
	defer close(out)
	lines := new(lineCache) // the last summary's lines (summary_lines.go)
	for events := range in {
		pres := make([]pre, len(events))
		for i, e := range events {
			pres[i] = prepareWithin(e, ahead, lines)
		}
		select {
		case out <- prepared{events, pres}:
		case <-done:
			return
		}
	}
}

// prepared is a batch of events and what was computed ahead for each.
type prepared struct {
	events []model.Event
	pres   []pre
}

// prepareWithin is prepare, but leaves a summary to the sweep when
// summaryBudget is spent.
func prepareWithin(e model.Event, ahead *atomic.Int64, lines *lineCache) pre {
	c, ok := e.(*model.Compaction)
	if !ok {
		return prepare(e, nil)
	}
	n := int64(len(c.Summary))
	if cur := ahead.Load(); cur > 0 && cur+n > summaryBudget {
		return pre{} // not ok: the sweep parses it
	}
	ahead.Add(n)
	p := prepare(e, lines)
	p.summaryBytes = n
	return p
}

// prepare computes what the sweep will need of e, reading a summary's
// lines through lines. A panic leaves p not ok: the sweep then computes
// it, and reports the panic as it would have.
func prepare(e model.Event, lines *lineCache) (p pre) {
	defer func() {
		if recover() != nil {
			p = pre{}
		}
	}()
	switch ev := e.(type) {
	case *model.Message:
		if ev.Role == model.RoleAssistant {
			p.promises = detached(append(lang.FindPromises(ev.Text), lang.PlannedSteps(ev.Text)...))
			p.facts = make([]promiseFacts, len(p.promises))
			for i, fc := range p.promises {
				// A labelled plan step is often one the sweep knows
				// already and skips: it is left to the sweep.
				if fc.Label == "" {
					p.facts[i] = factsOf(fc)
				}
			}
			p.words = new(msgWords).reset(ev.Text)
		}
	case *model.ToolCall:
		p.call = parseCall(ev)
		p.shas = hexWords(p.call.command)
	case *model.ToolResult:
		head, tail := ev.Text.Head(), ev.Text.Tail()
		p.shas = hexWords(head)
		if ev.IsError || lang.ContainsFoldASCII(head, "exit") || lang.ContainsFoldASCII(tail, "exit") {
			// It may fail (see failed): its error line is read ahead.
			p.failure = true
			p.errLine = failureLine(head, tail)
			p.errTokens = lang.ErrorTokens(p.errLine, head)
			p.errIdents = lang.ExtractIdents(p.errLine)
		}
	case *model.Compaction:
		p.summary = parseSummaryWith(ev.Summary, lines)
		// Its language is read once per summary, whenever a status is
		// read there (polarity): ahead, it is off the sweep's path.
		p.summary.language()
	}
	p.ok = true
	return p
}

// failureLine is what a failed result says went wrong (errorTracker.failed).
func failureLine(head, tail string) string {
	// A copy: the line is a piece of a fresh copy of head and tail, and an
	// error that stays open keeps it (a flaky run keeps thousands).
	line := strings.Clone(lang.FirstErrorLine(lang.StripANSI(head + "\n" + tail)))
	if line == "" {
		line = "exit status non-zero"
	}
	return line
}

// failureOf returns the error line of the result in hand, its tokens in
// the output and its ids.
func (l *ledger) failureOf(r *model.ToolResult) (line string, tokens []string, idents []lang.Ident) {
	if l.pre != nil && l.pre.ok && l.pre.failure {
		return l.pre.errLine, l.pre.errTokens, l.pre.errIdents
	}
	line = failureLine(r.Text.Head(), r.Text.Tail())
	return line, lang.ErrorTokens(line, r.Text.Head()), lang.ExtractIdents(line)
}

// hexWords lists the commit hashes in s, in order (see collectSHAs).
func hexWords(s string) []string {
	var out []string
	lang.ScanHex(s, func(h string) { out = append(out, h) })
	return out
}

// The sweep's accessors: the prefetched value of the event in hand, or the
// same computed now.

func (l *ledger) promisesOf(m *model.Message) []lang.Promise {
	if l.pre != nil && l.pre.ok {
		return l.pre.promises
	}
	return detached(append(lang.FindPromises(m.Text), lang.PlannedSteps(m.Text)...))
}

// promiseFacts is what the sweep needs of a promise found in a message
// that the promise alone determines: the identifiers it names (its
// action's, for a labelled plan step: the label is no identifier), its
// basis and its action's atom. A run making a commitment every few events
// (dense compactions) spent a fifth of the sweep's time on them.
type promiseFacts struct {
	ok    bool // computed
	ids   []lang.Ident
	basis Basis
	cue   string
	atom  atom // newAtom of its action
}

func factsOf(fc lang.Promise) promiseFacts {
	src := fc.Sentence
	if fc.Label != "" {
		src = fc.Action.Text
	}
	b, cue := promiseBasis(fc)
	return promiseFacts{ok: true, ids: lang.ExtractIdents(src), basis: b, cue: cue, atom: newAtom(fc.Action)}
}

// promiseFactsOf returns the facts of the k-th promise promisesOf gave for
// the message in hand.
func (l *ledger) promiseFactsOf(k int, fc lang.Promise) promiseFacts {
	if l.pre != nil && l.pre.ok && k < len(l.pre.facts) && l.pre.facts[k].ok {
		return l.pre.facts[k]
	}
	return factsOf(fc)
}

func (l *ledger) wordsOf(m *model.Message, reuse *msgWords) *msgWords {
	if l.pre != nil && l.pre.ok && l.pre.words != nil {
		return l.pre.words
	}
	return reuse.reset(m.Text)
}

func (l *ledger) callOf(tc *model.ToolCall) *callInfo {
	if l.pre != nil && l.pre.ok {
		return l.pre.call
	}
	return parseCall(tc)
}

func (l *ledger) summaryOf(c *model.Compaction) *doc {
	if l.pre != nil && l.pre.ok && l.pre.summary != nil {
		d := l.pre.summary
		l.pre.summary = nil // the batch outlives the check; the parse need not
		return d
	}
	return parseSummary(c.Summary)
}

// shasOf adds the commit hashes of s (the event in hand's command or head).
func (l *ledger) shasOf(s string) {
	if l.pre != nil && l.pre.ok {
		for _, h := range l.pre.shas {
			l.identifiers.addSHA(h)
		}
		return
	}
	l.identifiers.collectSHAs(s)
}

// detached returns the promises found in a message with their strings
// copied out of it. The strings a promise is made of are pieces of the
// message (or of its prose, a copy with code blanked), and a promise is
// kept long after its message: closed, it stays for the resurrection
// check. Each promise's sentence is copied once and every piece of it is
// re-cut from the copy; the message and its prose can then go (at 1 GB of
// the mixed shape they were 35 MB held by promises' sentences).
func detached(ps []lang.Promise) []lang.Promise {
	for i := range ps {
		p := &ps[i]
		src := p.Sentence
		own := strings.Clone(src)
		re := func(s string) string { return recut(s, src, own) }
		p.Sentence, p.Label = own, re(p.Label)
		detachAction(&p.Action, re)
	}
	return ps
}

// detachAction re-cuts an action's strings with re.
func detachAction(a *lang.Action, re func(string) string) {
	a.Text, a.Condition, a.Verb, a.Head, a.Alt = re(a.Text), re(a.Condition), re(a.Verb), re(a.Head), re(a.Alt)
	for _, l := range [][]string{a.Object, a.Direct, a.ModTerms, a.Paths, a.Names, a.Own} {
		for j := range l {
			l[j] = re(l[j])
		}
	}
	for j := range a.IDs {
		a.IDs[j].Value = re(a.IDs[j].Value)
	}
	for j := range a.Complements {
		c := &a.Complements[j]
		c.Prep = re(c.Prep)
		for k := range c.Terms {
			c.Terms[k] = re(c.Terms[k])
		}
	}
	if a.Means != nil {
		m := *a.Means
		detachAction(&m, re)
		a.Means = &m
	}
}

// recut returns s cut from own, a copy of src, when s is a piece of src,
// and s itself otherwise (a term of the lexicon, a string of its own).
func recut(s, src, own string) string {
	if s == "" || src == "" {
		return s
	}
	sp, bp := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(src)))
	if sp < bp || sp+uintptr(len(s)) > bp+uintptr(len(src)) {
		return s
	}
	off := int(sp - bp)
	return own[off : off+len(s)]
}
