package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// loupe's own state: what it saw before each compaction and what it put
// back after it, one small JSON file per session under the XDG state
// directory ($XDG_STATE_HOME/loupe, default ~/.local/state/loupe). Nothing
// is ever written next to, or into, the runtime's transcript.

// Session is the state of one agent session.
type Session struct {
	Runtime    string `json:"runtime"`
	Session    string `json:"session"`
	Transcript string `json:"transcript"`
	// Snapshot is the state before the newest compaction, when one was
	// taken.
	Snapshot *Snapshot `json:"snapshot,omitempty"`
	// Compactions are the compactions verified, oldest first.
	Compactions []Record `json:"compactions"`
	// ScannedTo is how much of the transcript loupe has searched for
	// compaction lines.
	ScannedTo int64     `json:"scanned_to,omitempty"`
	Updated   time.Time `json:"updated"`
	// Rebuilt says the state file was damaged and this state starts again
	// (never written).
	Rebuilt bool `json:"-"`
}

// Snapshot is what loupe took from the transcript before a compaction.
type Snapshot struct {
	Taken   time.Time `json:"taken"`
	Trigger string    `json:"trigger,omitempty"`
	// Size and ModTime identify the file read, so that a second call on
	// an unchanged file reuses the snapshot.
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mod_time"`
	// Compactions is how many compactions the transcript held; LastTurn
	// its last turn.
	Compactions int `json:"compactions"`
	LastTurn    int `json:"last_turn"`
	// Open counts the preservation set the next summary has to keep.
	Open int `json:"open"`
	// Fast says the minimal source (File) reproduces the preservation set,
	// so the summary can be verified without reading the transcript again.
	Fast bool   `json:"fast"`
	File string `json:"file,omitempty"`
	// Sum and CallsSum are the SHA-256 of File and of File.calls: a
	// snapshot that does not match is not used.
	Sum      string `json:"sha256,omitempty"`
	CallsSum string `json:"calls_sha256,omitempty"`
	// Keys are the open items (kind and key) and Closed the finished plan
	// steps and logged commitments the minimal source carries.
	Keys   []string `json:"keys,omitempty"`
	Closed []string `json:"closed,omitempty"`
	// Used is set once the compaction the snapshot was taken for has been
	// verified.
	Used bool `json:"used,omitempty"`
	// Rolled counts the snapshots this one was rolled forward from, each
	// from the one before and the lines appended since (roll.go); 0 for
	// one taken from the whole transcript.
	Rolled int `json:"rolled,omitempty"`
}

// Record is one verified compaction and what loupe did about it.
type Record struct {
	Seq     int    `json:"seq"`
	Turn    int    `json:"turn"`
	Verdict string `json:"verdict"`
	// Owed counts the items the summary did not keep; Lines states them.
	Owed  int      `json:"owed"`
	Lines []string `json:"lines,omitempty"`
	// Block is the text to put back ("" when nothing is owed).
	Block string `json:"block,omitempty"`
	// Via says how it was verified: "snapshot" (the minimal source and the
	// transcript's new lines), "transcript" (read whole) or "payload" (the
	// summary the hook was handed, before the transcript had it).
	Via        string    `json:"via"`
	VerifiedAt time.Time `json:"verified_at"`
	VerifiedBy string    `json:"verified_by"`
	// State is pending (a block waits to be put back), injected, nothing
	// (nothing owed), superseded (a newer compaction's block replaces it)
	// or stopped (a gate stopped the agent).
	State       string    `json:"state"`
	InjectedAt  time.Time `json:"injected_at,omitzero"`
	InjectedVia string    `json:"injected_via,omitempty"`
}

// Record states.
const (
	statePending    = "pending"
	stateInjected   = "injected"
	stateNothing    = "nothing"
	stateSuperseded = "superseded"
)

// Store is loupe's state directory.
type Store struct {
	Dir string
}

// StateDir returns loupe's state directory: $XDG_STATE_HOME/loupe, or
// ~/.local/state/loupe.
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "loupe"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no state directory: %w", err)
	}
	return filepath.Join(home, ".local", "state", "loupe"), nil
}

// fileKey turns a runtime's session id into a file name: kept when it is
// plain, hashed otherwise (an id is untrusted input, never a path).
func fileKey(runtime, session string) string {
	plain := session != "" && len(session) <= 100
	for _, r := range session {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			plain = false
		}
	}
	if plain && !strings.HasPrefix(session, ".") {
		return runtime + "-" + session
	}
	sum := sha256.Sum256([]byte(session))
	return runtime + "-" + hex.EncodeToString(sum[:12])
}

func (s *Store) sessionsDir() string { return filepath.Join(s.Dir, "sessions") }

func (s *Store) path(runtime, session string) string {
	return filepath.Join(s.sessionsDir(), fileKey(runtime, session)+".json")
}

// snapshotPath is where a session's minimal source goes.
func (s *Store) snapshotPath(runtime, session string) string {
	return filepath.Join(s.sessionsDir(), fileKey(runtime, session)+".source.jsonl")
}

// stateVersion is the version of a session's state file. The file is an
// envelope: the version, the SHA-256 of the state's JSON, and that JSON,
// so that a file cut short, or written over by something else, is known
// for what it is instead of being read as a session.
const stateVersion = 1

type envelope struct {
	Version int             `json:"loupe_state"`
	Sum     string          `json:"sha256"`
	State   json.RawMessage `json:"state"`
}

// errDamaged says a state file (or a snapshot it names) is not what loupe
// wrote.
var errDamaged = errors.New("damaged")

// decodeState reads a state file's bytes; a file that is not a whole state
// of the current version is errDamaged.
func decodeState(data []byte) (*Session, error) {
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("%w: not JSON (%v)", errDamaged, err)
	}
	if env.Version != stateVersion {
		return nil, fmt.Errorf("%w: version %d, not %d", errDamaged, env.Version, stateVersion)
	}
	sum := sha256.Sum256(env.State)
	if env.Sum != hex.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", errDamaged)
	}
	var st Session
	if err := json.Unmarshal(env.State, &st); err != nil {
		return nil, fmt.Errorf("%w: %v", errDamaged, err)
	}
	return &st, nil
}

// valid checks what the rest of the hook trusts of a state: it is the
// session asked for, its snapshot file is where loupe puts it, and its
// records are numbered.
func (s *Store) valid(st *Session, runtime, session string) error {
	if st.Runtime != runtime || st.Session != session {
		return fmt.Errorf("%w: it is the state of %s %q", errDamaged, st.Runtime, st.Session)
	}
	if sn := st.Snapshot; sn != nil {
		if sn.File != "" && sn.File != s.snapshotPath(runtime, session) {
			return fmt.Errorf("%w: its snapshot is at %q", errDamaged, sn.File)
		}
		if sn.Size < 0 || sn.Compactions < 0 || sn.LastTurn < 0 {
			return fmt.Errorf("%w: its snapshot has negative counts", errDamaged)
		}
	}
	for _, r := range st.Compactions {
		if r.Seq <= 0 {
			return fmt.Errorf("%w: compaction record %d", errDamaged, r.Seq)
		}
	}
	if st.ScannedTo < 0 {
		return fmt.Errorf("%w: scanned_to %d", errDamaged, st.ScannedTo)
	}
	return nil
}

// Load reads a session's state; a session never seen is empty, not an
// error. A damaged state file (cut short, not loupe's, of another version)
// is moved aside to NAME.damaged and said in the log, and the session
// starts again from an empty state with Rebuilt set: the hook then reads
// the transcript itself rather than trust anything of the damaged one.
func (s *Store) Load(runtime, session string) (*Session, error) {
	path := s.path(runtime, session)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &Session{Runtime: runtime, Session: session}, nil
	}
	if err != nil {
		return nil, err
	}
	st, err := decodeState(data)
	if err == nil {
		err = s.valid(st, runtime, session)
	}
	if err != nil {
		if rerr := os.Rename(path, path+".damaged"); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is %v, and cannot be moved aside: %w", path, err, rerr)
		}
		s.Logf(time.Now(), "%s is %v; moved to %s.damaged, the session's state is rebuilt from its transcript", path, err, filepath.Base(path))
		return &Session{Runtime: runtime, Session: session, Rebuilt: true}, nil
	}
	return st, nil
}

// Save writes a session's state atomically and durably (see writeAtomic),
// so that a reader never sees half a file, and a crash leaves the old state
// or the new one.
func (s *Store) Save(st *Session, now time.Time) error {
	st.Updated = now.UTC()
	st.Rebuilt = false
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(raw)
	data, err := json.Marshal(envelope{Version: stateVersion, Sum: hex.EncodeToString(sum[:]), State: raw})
	if err != nil {
		return err
	}
	return writeAtomic(s.path(st.Runtime, st.Session), append(data, '\n'))
}

// writeAtomic writes path through a temporary file in the same directory:
// written, synced, renamed over path, and the directory synced, so that
// the rename itself survives a crash.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return werr
	}
	return syncDir(dir)
}

// lockStale is how old a lock file may be before it is taken as left by a
// process that died holding it.
const lockStale = 30 * time.Second

// Lock backoff: the first wait, and the longest.
const (
	lockFirstWait = 2 * time.Millisecond
	lockMaxWait   = 100 * time.Millisecond
)

// Lock takes the session's lock, so that two hooks running at once (a
// runtime runs matching hooks in parallel) cannot both put a block back. It
// waits until deadline, backing off between tries, and breaks a lock older
// than lockStale. A lock it cannot take or break (a stale lock that cannot
// be removed) makes it give up at the deadline, never spin.
func (s *Store) Lock(runtime, session string, deadline time.Time) (unlock func(), err error) {
	if err := os.MkdirAll(s.sessionsDir(), 0o700); err != nil {
		return nil, err
	}
	path := s.path(runtime, session) + ".lock"
	wait := lockFirstWait
	var why error
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		why = nil
		if st, serr := os.Stat(path); serr == nil && time.Since(st.ModTime()) > lockStale {
			rerr := os.Remove(path)
			if rerr == nil || errors.Is(rerr, os.ErrNotExist) {
				continue
			}
			why = fmt.Errorf("a stale lock that cannot be removed: %w", rerr)
		}
		left := time.Until(deadline)
		if left <= 0 {
			if why == nil {
				why = errors.New("held by another hook")
			}
			return nil, fmt.Errorf("gave up waiting for the session's lock %s: %w", path, why)
		}
		time.Sleep(min(wait, left))
		wait = min(2*wait, lockMaxWait)
	}
}

// record returns the record of compaction seq, or nil.
func (st *Session) record(seq int) *Record {
	for i := range st.Compactions {
		if st.Compactions[i].Seq == seq {
			return &st.Compactions[i]
		}
	}
	return nil
}

// lastSeq is the seq of the newest verified compaction (0 for none).
func (st *Session) lastSeq() int {
	n := 0
	for _, r := range st.Compactions {
		n = max(n, r.Seq)
	}
	return n
}

// addRecord adds or replaces the record of r.Seq; an older block that was
// never put back is superseded, since the newer block covers what is still
// owed.
func (st *Session) addRecord(r Record) {
	for i := range st.Compactions {
		if c := &st.Compactions[i]; c.Seq < r.Seq && c.State == statePending {
			c.State = stateSuperseded
		}
	}
	if old := st.record(r.Seq); old != nil {
		*old = r
		return
	}
	st.Compactions = append(st.Compactions, r)
}

// pending returns the newest record whose block waits to be put back.
func (st *Session) pending() *Record {
	var p *Record
	for i := range st.Compactions {
		if c := &st.Compactions[i]; c.State == statePending && (p == nil || c.Seq > p.Seq) {
			p = c
		}
	}
	return p
}
