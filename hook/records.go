package hook

import (
	"os"
	"path/filepath"
	"strings"
)

// Records returns what the live gate recorded for the session whose
// transcript is path: every compaction it verified and what it put back.
// A transcript loupe never ran in the hooks of has none (nil, nil). The
// inspector shows them on its timeline.
func (s *Store) Records(path string) ([]Record, error) {
	if s == nil || s.Dir == "" {
		return nil, nil
	}
	want := canonical(path)
	ents, err := os.ReadDir(s.sessionsDir())
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var newest *Session
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.sessionsDir(), name))
		if err != nil {
			continue
		}
		st, err := decodeState(data)
		if err != nil || st.Transcript == "" || canonical(st.Transcript) != want {
			continue // a damaged state file is rebuilt by the next hook
		}
		if newest == nil || st.Updated.After(newest.Updated) {
			newest = st
		}
	}
	if newest == nil {
		return nil, nil
	}
	return newest.Compactions, nil
}

// canonical is a path as the file system names it, so that a relative
// path and the runtime's absolute one meet.
func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return filepath.Clean(p)
}
