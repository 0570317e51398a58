// Package registry is where importers of agent-runtime transcripts register
// themselves. It is separate from package formats so that an importer can
// register from its init function while formats imports every importer (a
// blank import in formats/all.go) without an import cycle.
package registry

import (
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// Format is one transcript format loupe reads.
type Format struct {
	// Name is what --from takes ("claude-code", "codex"...).
	Name string
	// Description is one line for help texts.
	Description string
	// Detect reports whether a file whose first bytes are head (decompressed,
	// up to 64 KiB), or a directory when dir is set, is in this format. It
	// looks at the content, never at the name alone.
	Detect func(path string, head []byte, dir bool) bool
	// Open reads the transcript at path (a file, or a directory for the
	// formats that store a session as one).
	Open func(path string, opt model.ReadOptions) (*model.Transcript, error)
	// Read, when set, reads a transcript from a stream of its decompressed
	// content (standard input, a pipe, a process substitution), which can
	// be read only once; opt.Name names it. Every single-file format has
	// one (kit.ReadByCopy serves those that read their file twice); a
	// format without one stores a session as a directory.
	Read func(r io.Reader, opt model.ReadOptions) (*model.Transcript, error)
	// Group is set when Detect accepts a directory that only groups
	// session files Detect accepts one by one (a Claude Code project),
	// rather than one stored as a directory: a listing of it still looks
	// at the directory's other files.
	Group bool
	// Scan, when set, lists the sessions at path (a file or a directory
	// Detect accepted) without importing them in full. When nil, a listing
	// opens the path and describes the transcript.
	Scan func(path string) ([]SessionInfo, error)
	// List, when set, is Scan for a listing that opens each session
	// rather than describes it: the same sessions, with only Path and
	// Format, found without reading every file through (a Claude Code
	// project of 50,000 sub-agents' files).
	List func(dir string) ([]SessionInfo, error)
	// Owner, when set, returns the file that holds the conversation of the
	// session the file at path only continues (a Gemini CLI resume writes a
	// stub with the session's id beside the session's file), or "" when the
	// file is its own. A listing leaves such a file out: its session is
	// listed once, by its owner.
	Owner func(path string) string
	// Homes, when set, returns the directories where the runtime keeps its
	// sessions on this machine (environment variables honoured), for
	// formats.Latest.
	Homes func() []string
}

// SessionInfo describes one session a directory holds, for a picker.
type SessionInfo struct {
	// Path opens the session with formats.Open.
	Path string
	// Format is the name of the format that reads it.
	Format string
	// ID is the runtime's session id, when it has one.
	ID string
	// Title is the session's title or first user request, when known.
	Title string
	// Start is when the session started (its first timestamp); zero when
	// unknown.
	Start time.Time
	// Updated is its last timestamp, or the file's modification time.
	Updated time.Time
	// Turns is the number of turns (an estimate when Scan did not import the
	// session: one per conversation record).
	Turns int
	// Compactions is the number of compactions recorded in it.
	Compactions int
	// Parent is set for a sub-agent's session: the id of the session that
	// started it.
	Parent string
}

var (
	mu      sync.Mutex
	formats []Format
)

// Register adds an importer. Importers call it from their package's init.
// Registering a name twice panics: it is a programming error.
func Register(f Format) {
	mu.Lock()
	defer mu.Unlock()
	for _, g := range formats {
		if g.Name == f.Name {
			panic("registry: format " + f.Name + " registered twice")
		}
	}
	formats = append(formats, f)
	slices.SortFunc(formats, func(a, b Format) int { return strings.Compare(a.Name, b.Name) })
}

// All returns the registered importers, sorted by name.
func All() []Format {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(formats)
}
