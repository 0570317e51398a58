package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// How a call's findings reach the session's state: the slow part of a hook
// (reading, verifying) runs without the session's lock; what it found is
// applied under the lock to the state as it is then, because another hook
// of the same session may have run meanwhile (runtimes run hooks in
// parallel). Claiming a block to put back happens there too, so that a
// block is put back at most once, whichever hook asks first.

// sessionOf names the session a payload is about: its session id, or the
// transcript's path when the runtime sent none.
func sessionOf(id, transcriptPath string) string {
	if id != "" {
		return id
	}
	sum := sha256.Sum256([]byte(transcriptPath))
	return "path-" + hex.EncodeToString(sum[:12])
}

// load reads the session's state, remembering what commit needs to tell
// whether the call changed anything.
func (c *call) load(runtime, session string) (*Session, error) {
	st, err := c.req.Store.Load(runtime, session)
	if err != nil {
		return nil, err
	}
	st.Runtime, st.Session = runtime, session
	c.base = base{scanned: st.ScannedTo, pending: st.pending() != nil, transcript: st.Transcript,
		used: st.Snapshot != nil && st.Snapshot.Used}
	return st, nil
}

// base is what a session's state was when the call read it.
type base struct {
	scanned    int64
	pending    bool
	transcript string
	// used: the snapshot was spent already (marking it again is no change).
	used bool
}

// rescanStep is how far the searched part of a transcript must advance
// before it is worth writing down: the common hook call (after a tool
// call, with nothing to do) then writes nothing.
const rescanStep = 1 << 20

// trivial reports whether o would change nothing worth a write.
func (o *outcome) trivial(b base) bool {
	if o.snapshot != nil || o.used && !b.used || o.found != nil || o.rescanned || (o.claim != "" && b.pending) {
		return false
	}
	if o.transcript != "" && o.transcript != b.transcript {
		return false
	}
	return !(o.scanned > 0 && (b.scanned == 0 || o.scanned-b.scanned >= rescanStep))
}

// outcome is what a call wants done to the session's state.
type outcome struct {
	runtime, session string
	// snapshot replaces the session's snapshot; used marks the snapshot
	// taken at usedAt as spent.
	snapshot *Snapshot
	used     bool
	usedAt   time.Time
	scanned  int64
	// rescanned forces the searched offset to be saved.
	rescanned bool
	// transcript is the path to remember.
	transcript string
	// found is a compaction this call verified.
	found *Record
	// claim, when set, puts the pending block back, naming the event it
	// went through.
	claim string
}

// outcomeOf collects what the call changed in st since it was loaded.
func (c *call) outcomeOf(st *Session, taken *Snapshot, found *Record) *outcome {
	o := &outcome{runtime: st.Runtime, session: st.Session, snapshot: taken, scanned: st.ScannedTo,
		transcript: st.Transcript, found: found, rescanned: c.rescanned}
	if s := st.Snapshot; s != nil && s.Used {
		o.used, o.usedAt = true, s.Taken
	}
	return o
}

// commit applies o under the session's lock and returns the record whose
// block was claimed (nil when none) and the record found or already there.
func (c *call) commit(o *outcome) (claimed, latest *Record, err error) {
	if o.trivial(c.base) {
		return nil, nil, nil
	}
	store, ctl := c.req.Store, c.req.ctl
	ctl.set(stageLock)
	unlock, err := store.Lock(o.runtime, o.session, ctl.lockDeadline(time.Now()))
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	st, err := c.load(o.runtime, o.session)
	if err != nil {
		return nil, nil, err
	}
	if o.transcript != "" {
		st.Transcript = o.transcript
	}
	if o.snapshot != nil {
		st.Snapshot = o.snapshot
	}
	if o.used && st.Snapshot != nil && st.Snapshot.Taken.Equal(o.usedAt) {
		st.Snapshot.Used = true
	}
	st.ScannedTo = max(st.ScannedTo, o.scanned)
	if o.found != nil {
		if st.record(o.found.Seq) == nil {
			st.addRecord(*o.found) // the first hook to verify a compaction wins
		}
		latest = st.record(o.found.Seq)
	}
	if o.claim != "" {
		if p := st.pending(); p != nil {
			p.State, p.InjectedAt, p.InjectedVia = stateInjected, c.now.UTC(), o.claim
			claimed = p
		}
	}
	if !ctl.beginSave() {
		return nil, nil, errDeadline
	}
	if err := store.Save(st, c.now); err != nil {
		return nil, nil, err
	}
	if claimed != nil {
		store.Logf(c.now, "%s: put back %s for compaction %d (session %s)", o.claim, plural(claimed.Owed, "item"), claimed.Seq, o.session)
		cp := *claimed
		claimed = &cp
	}
	if latest != nil {
		cp := *latest
		latest = &cp
	}
	return claimed, latest, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// receipt is the one line a user is shown about a verified compaction.
func receipt(r *Record, putBack string) string {
	if r == nil {
		return ""
	}
	if r.Owed == 0 {
		return fmt.Sprintf("loupe: compaction %d %ss: the summary keeps every open item.", r.Seq, r.Verdict)
	}
	what := model.Clip(strings.Join(r.Lines, "; "), 300)
	return fmt.Sprintf("loupe: compaction %d %ss: the summary does not keep %s (%s). %s", r.Seq, r.Verdict, plural(r.Owed, "item"), what, putBack)
}
