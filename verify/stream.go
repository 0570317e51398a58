package verify

// The stream: every entry point verifies the same way (DESIGN.md,
// "Verification as a stream"). Events go in one at a time, in order; a
// second goroutine computes what each event alone determines
// (prefetch.go) and a third sweeps them through the ledger (sweep.go),
// so a caller that decodes a file overlaps the decoding with both. The
// ledger keeps only what a later compaction or the report needs, never
// the events themselves: the caller need not hold them either.

import (
	"sort"
	"sync/atomic"

	"github.com/loupe-dev/loupe/model"
)

// Stream verifies a run whose events come one at a time. Make it with
// NewStream, Push every event in file order, then Finish: Finish must be
// called (it stops the stream's goroutines) and the stream is not used
// after it. Push and Finish are called from one goroutine.
type Stream struct {
	t    *model.Transcript
	l    *ledger
	each func(*CompactionResult)

	batch  []model.Event
	in     chan []model.Event // batches to the prefetcher
	swept  chan struct{}      // closed when the sweep has taken every event
	done   chan struct{}      // closed by Finish: the prefetcher stops
	turn   int                // the last positive turn pushed (Transcript.Turns)
	result *Result
}

// NewStream starts verifying the run t describes. t gives the path and the
// meta (its consumers are read now; its Source, Problems and Runtime at
// Finish) and is the Result's Transcript. Its Events may be empty (a
// reader that keeps none: model.OpenEach); when present they are the
// events pushed. The ledger asks t for an old event again (EventAt), when
// a summary names a call answered long before, instead of keeping it; a
// transcript that can neither keep nor read again its events has those
// calls kept by the ledger. each, when not nil, is called with every compaction's
// result as soon as the sweep has checked it, on the stream's own
// goroutine and in file order. Such a result is final but for what only
// the whole run can say: the loss-ratio outlier warnings Finish adds, and
// its items' later closing (ItemResult.Item is the ledger's, kept up to
// date until Finish).
func NewStream(t *model.Transcript, opt Options, each func(*CompactionResult)) *Stream {
	l := newLedger(t, opt)
	l.consumers = consumersFor(t, opt)
	s := &Stream{
		t: t, l: l, each: each,
		batch: make([]model.Event, 0, prefetchBatch),
		in:    make(chan []model.Event, prefetchAhead),
		swept: make(chan struct{}),
		done:  make(chan struct{}),
	}
	ahead := make(chan prepared, prefetchAhead)
	parsed := new(atomic.Int64) // summary bytes parsed ahead (prefetch.go)
	go prefetch(s.in, ahead, s.done, parsed)
	go s.sweep(ahead, parsed)
	return s
}

// Push hands the stream the next event of the run. The stream keeps the
// event only until the sweep has passed it (and what the ledger keeps of
// it: an open item's origin, a call in flight).
func (s *Stream) Push(e model.Event) {
	if turn := e.Header().Turn; turn > 0 {
		s.turn = turn
	}
	s.batch = append(s.batch, e)
	if len(s.batch) == prefetchBatch {
		s.in <- s.batch
		s.batch = make([]model.Event, 0, prefetchBatch)
	}
}

// Finish waits for the sweep to take every event pushed, completes the
// run-level findings (lineage, outliers, the findings' order) and returns
// the result, the same as Run's on the same events.
func (s *Stream) Finish() *Result {
	if s.result != nil {
		return s.result
	}
	if len(s.batch) > 0 {
		s.in <- s.batch
		s.batch = nil
	}
	close(s.in)
	<-s.swept
	close(s.done)
	l, t := s.l, s.t
	res := l.res
	res.Path, res.Source, res.Turns = t.Path, t.Meta.Source, s.turn
	// The reading's problems come first: they are known only once the
	// whole file is read (a result with no call is found at its line).
	var ws []Warning
	for _, p := range t.Problems {
		ws = append(ws, Warning{Line: p.Line, Msg: p.Error()})
	}
	res.Warnings = append(ws, res.Warnings...)
	outliers(res)
	l.lineage()
	sort.SliceStable(res.Findings, func(i, j int) bool { return res.Findings[i].Turn < res.Findings[j].Turn })
	s.result = res
	return res
}

// sweep steps the ledger through every event as the prefetcher hands them
// on, and hands out each compaction's result once it is checked.
func (s *Stream) sweep(ahead <-chan prepared, parsed *atomic.Int64) {
	defer close(s.swept)
	l := s.l
	i, handed := 0, 0
	for b := range ahead {
		for k, e := range b.events {
			l.pre, l.cur = &b.pres[k], e
			if i%256 == 0 {
				l.pruneOpen()
			}
			l.step(i, e)
			if n := l.pre.summaryBytes; n > 0 {
				parsed.Add(-n)
			}
			// The next compactor reads the source events since this one.
			if model.IsSource(e) {
				l.spanBytes += eventBytes(e)
			} else {
				l.spanBytes = 0
			}
			for ; handed < len(l.res.Compactions); handed++ {
				if s.each != nil {
					s.each(l.res.Compactions[handed])
				}
			}
			i++
		}
	}
	l.pre, l.cur = nil, nil
	l.pruneOpen()
}
