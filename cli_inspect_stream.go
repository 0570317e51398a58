package main

import (
	"reflect"
	"slices"
	"sync"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/ui"
	"github.com/loupe-dev/loupe/verify"
)

// The inspector's loading of a file (issue 20): the file is decoded and
// verified at once, as `loupe verify` does (verifyStreamed), but every
// event is also kept, for the panes. The verifier is fed from the events
// kept, on its own goroutine, so the reading never waits for it, and each
// compaction's verdict reaches the screen as soon as the verifier has it.
// While the file's beginning is on screen and the rest is read, the
// verifier goes no further than that beginning's first compactions
// (aheadOf): the verdicts it could hand out beyond have nothing to show
// them yet, and on a machine of a few cores it would slow the reading of
// what the reader waits for.

// aheadCompactions is how many compactions of the beginning on screen
// the verifier takes while the rest is read: enough for the first
// screens, few enough that a run with a compaction every few events (4 MB
// of such a beginning take seconds to verify) does not slow the reading.
const aheadCompactions = 256

// aheadOf is how many events of the beginning p the verifier takes while
// the rest is read.
func aheadOf(p *model.Transcript) int {
	if len(p.Compactions) > aheadCompactions {
		return p.Compactions[aheadCompactions-1].Index + 1
	}
	return len(p.Events)
}

// openEachFunc opens a transcript, handing every event to each in file
// order (formats.OpenEach or OpenReaderEach with their options).
type openEachFunc func(each func(*model.Transcript, model.Event)) (*model.Transcript, error)

// keptEvents are the events read so far, handed from the reader to the
// verifier's feeder.
type keptEvents struct {
	mu      sync.Mutex
	cond    *sync.Cond
	events  []model.Event
	done    bool
	stopped bool // the reading failed: the verifier need not go on
	ahead   int  // while reading, the verifier takes this many events at most (< 0: all)
}

func (k *keptEvents) add(e model.Event) {
	k.mu.Lock()
	k.events = append(k.events, e)
	wake := k.ahead < 0 || len(k.events) <= k.ahead
	k.mu.Unlock()
	if wake {
		k.cond.Signal()
	}
}

func (k *keptEvents) close(stop bool) []model.Event {
	k.mu.Lock()
	k.done, k.stopped = true, stop
	k.mu.Unlock()
	k.cond.Signal()
	return k.events
}

// next waits for events after the first from and returns them (nil when
// the reading has ended and none is left).
func (k *keptEvents) next(from int) []model.Event {
	k.mu.Lock()
	defer k.mu.Unlock()
	for !k.done && (from >= len(k.events) || k.ahead >= 0 && from >= k.ahead) {
		k.cond.Wait()
	}
	if k.stopped {
		return nil
	}
	if !k.done && k.ahead >= 0 {
		return k.events[from:min(len(k.events), k.ahead)]
	}
	return k.events[from:]
}

// streamVerified reads a transcript with open, verifying it as it is read
// and reporting, besides the reading's progress: the whole transcript
// once read (Progress.Unverified), and each compaction's result as the
// verifier hands it out (Progress.Verified, a copy). It returns the same
// result as verify.Run on the transcript read. While the reading goes on
// the verifier takes the first ahead events at most (all when ahead < 0).
func streamVerified(open openEachFunc, report func(ui.Progress), opt verify.Options, ahead int) (*verify.Result, error) {
	k := &keptEvents{ahead: ahead}
	k.cond = sync.NewCond(&k.mu)
	var consumers []model.Consumer // the meta's when the stream began
	finished := make(chan *verify.Result, 1)
	first := true
	var copies settler
	each := func(t *model.Transcript, e model.Event) {
		if first {
			first = false
			consumers = slices.Clone(t.Meta.Consumers)
			s := verify.NewStream(t, opt, func(cr *verify.CompactionResult) {
				report(ui.Progress{Phase: "verifying", Verified: []*verify.CompactionResult{copies.settled(cr)}})
			})
			go feed(s, k, finished)
		}
		k.add(e)
	}
	t, err := open(each)
	events := k.close(err != nil)
	if err != nil {
		if !first {
			<-finished // it stops the stream's goroutines
		}
		return nil, err
	}
	whole := *t // the verifier's has no events: it reads old ones again from the file
	whole.Events = events
	what := verify.Plural(len(whole.Compactions), "compaction")
	report(ui.Progress{Phase: "verifying " + what, Unverified: verify.Unverified(&whole)})
	var res *verify.Result
	if !first {
		res = <-finished
	}
	if res == nil || !slices.EqualFunc(consumers, t.Meta.Consumers, sameConsumer) {
		// No event at all, or a meta line after the first event declared
		// consumers the stream did not know: verified again, whole.
		return verify.Run(&whole, opt), nil
	}
	res.Transcript = &whole
	return res, nil
}

// feed pushes the events kept to the stream as they come, then finishes it.
func feed(s *verify.Stream, k *keptEvents, finished chan<- *verify.Result) {
	for i := 0; ; {
		evs := k.next(i)
		if len(evs) == 0 {
			break
		}
		for _, e := range evs {
			s.Push(e)
		}
		i += len(evs)
	}
	finished <- s.Finish()
}

// settler copies each compaction's result as the stream hands it out,
// for the inspector to read on another goroutine while the stream goes
// on: the items are the ledger's, which it keeps closing until Finish, and
// Finish appends the run's outlier warnings. A copy holds the items as
// they were at its compaction; the final result replaces it. An item that
// has not changed since an earlier compaction shares that one's copy (a
// run whose every summary lists the same hundreds of open items would
// otherwise copy them all again each time). Used on the stream's goroutine.
type settler struct {
	items map[*verify.Item]*verify.Item
}

func (s *settler) settled(cr *verify.CompactionResult) *verify.CompactionResult {
	if s.items == nil {
		s.items = map[*verify.Item]*verify.Item{}
	}
	c := *cr
	c.Reasons = slices.Clip(c.Reasons)
	c.Warnings = slices.Clip(c.Warnings)
	c.Items = slices.Clone(cr.Items)
	for i := range c.Items {
		if it := c.Items[i].Item; it != nil {
			c.Items[i].Item = s.copyOf(it)
		}
	}
	return &c
}

func (s *settler) copyOf(it *verify.Item) *verify.Item {
	if cp, ok := s.items[it]; ok && sameItem(cp, it) {
		return cp
	}
	cp := *it
	cp.Names, cp.Aliases = slices.Clone(it.Names), slices.Clone(it.Aliases)
	s.items[it] = &cp
	return &cp
}

// sameItem reports whether the copy a is still what b is.
func sameItem(a, b *verify.Item) bool {
	x, y := *a, *b
	x.Names, x.Aliases, y.Names, y.Aliases = nil, nil, nil, nil
	return reflect.DeepEqual(&x, &y) && slices.Equal(a.Names, b.Names) && slices.Equal(a.Aliases, b.Aliases)
}
