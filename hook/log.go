package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/model"
)

// logMax is the size at which loupe's log is rotated (one older file kept).
const logMax = 1 << 20

// logFile is loupe's own log in its state directory: every failure the
// hooks swallowed to fail open, and every block put back.
func (s *Store) logFile() string { return filepath.Join(s.Dir, "hook.log") }

// Logf appends one line to loupe's log. It never fails: a hook that cannot
// log still fails open.
func (s *Store) Logf(now time.Time, format string, args ...any) {
	if s == nil || s.Dir == "" {
		return
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return
	}
	path := s.logFile()
	if st, err := os.Stat(path); err == nil && st.Size() > logMax {
		os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	msg := strings.Join(strings.Fields(model.Sanitize(fmt.Sprintf(format, args...))), " ")
	fmt.Fprintf(f, "%s %s\n", now.UTC().Format(time.RFC3339), msg)
}
