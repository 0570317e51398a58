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

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Writing a change, and the receipt that lets uninstall give a settings
// file back byte for byte: install records what the file was and what it
// wrote; uninstall restores the recorded bytes when the file is still
// exactly what install wrote, and otherwise takes loupe's entries out of the
// file as the user has it now.

// installReceipt is what an install wrote to one file.
type installReceipt struct {
	Path    string    `json:"path"`
	Existed bool      `json:"existed"`
	Before  []byte    `json:"before,omitempty"`
	After   string    `json:"after_sha256"`
	At      time.Time `json:"at"`
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func (s *Store) receiptPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return filepath.Join(s.Dir, "installs", sum([]byte(abs))[:24]+".json")
}

// Restore turns an uninstall change into the exact reversal of the install
// it undoes, when the file is still what that install wrote.
func (s *Store) Restore(c *Change) {
	if s == nil || s.Dir == "" || c.Before == nil {
		return
	}
	data, err := os.ReadFile(s.receiptPath(c.Path))
	if err != nil {
		return
	}
	var r installReceipt
	if json.Unmarshal(data, &r) != nil || r.After != sum(c.Before) {
		return
	}
	if r.Existed {
		c.After = r.Before
	} else {
		c.After = nil
	}
}

// Apply writes the change: a backup of the file as it was beside it
// (FILE.loupe-backup), then the new content (or no file). install says
// whether the change adds loupe's hooks (a installReceipt is kept) or removes them
// (the installReceipt goes). It returns the backup's path ("" when there was no
// file to back up).
func (s *Store) Apply(c *Change, install bool, now time.Time) (backup string, err error) {
	if c.Empty() {
		return "", nil
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(c.Path); err == nil {
		mode = st.Mode().Perm()
	}
	if c.Before != nil {
		backup = c.Path + ".loupe-backup"
		if err := os.WriteFile(backup, c.Before, mode); err != nil {
			return "", fmt.Errorf("backing up %s: %w", c.Path, err)
		}
	}
	if c.After == nil {
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return backup, err
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
			return backup, err
		}
		if err := writeAtomic(c.Path, c.After); err != nil {
			return backup, err
		}
		if err := os.Chmod(c.Path, mode); err != nil {
			return backup, err
		}
	}
	if s == nil || s.Dir == "" {
		return backup, nil
	}
	rp := s.receiptPath(c.Path)
	if !install {
		os.Remove(rp)
		return backup, nil
	}
	r := installReceipt{Path: c.Path, Existed: c.Before != nil, Before: c.Before, After: sum(c.After), At: now.UTC()}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return backup, err
	}
	return backup, writeAtomic(rp, data)
}

// Diff shows the change as a unified diff of lines, three lines of context
// around each change.
func (c *Change) Diff() string {
	if c.Empty() {
		return ""
	}
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(string(c.Before), string(c.After))
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	type line struct {
		op   byte
		text string
	}
	var all []line
	for _, d := range diffs {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = '+'
		case diffmatchpatch.DiffDelete:
			op = '-'
		}
		for _, l := range strings.SplitAfter(d.Text, "\n") {
			if l != "" {
				all = append(all, line{op, strings.TrimSuffix(l, "\n")})
			}
		}
	}
	from, to := "a/"+c.Path, "b/"+c.Path
	if c.Before == nil {
		from = "/dev/null"
	}
	if c.After == nil {
		to = "/dev/null"
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	const ctx = 3
	near := func(i int) bool {
		for j := max(0, i-ctx); j <= min(len(all)-1, i+ctx); j++ {
			if all[j].op != ' ' {
				return true
			}
		}
		return false
	}
	skipped := false
	for i, l := range all {
		if l.op == ' ' && !near(i) {
			if !skipped {
				out.WriteString("@@ …\n")
			}
			skipped = true
			continue
		}
		skipped = false
		out.WriteString(string(l.op) + l.text + "\n")
	}
	return out.String()
}
