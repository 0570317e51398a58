package hook

import (
	"bytes"
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
	Backup  string    `json:"backup,omitempty"`
	At      time.Time `json:"at"`
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// receiptPath is where the receipt for the settings file at path goes,
// named after its real path.
func (s *Store) receiptPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return filepath.Join(s.Dir, "installs", sum([]byte(abs))[:24]+".json")
}

// target is the file the change writes.
func (c *Change) target() string {
	if c.Target != "" {
		return c.Target
	}
	return c.Path
}

// ShownPath names the file for the user: the path, and where a link
// inside the project leads.
func (c *Change) ShownPath() string {
	if c.Redirected {
		return c.Path + " → " + c.target()
	}
	return c.Path
}

// Restore turns an uninstall change into the exact reversal of the install
// it undoes, when the file is still what that install wrote.
func (s *Store) Restore(c *Change) {
	if s == nil || s.Dir == "" || c.Before == nil {
		return
	}
	// Receipts are named after the real path; earlier versions named them
	// after the path as given.
	data, err := os.ReadFile(s.receiptPath(c.target()))
	if err != nil {
		if data, err = os.ReadFile(s.receiptPath(c.Path)); err != nil {
			return
		}
	}
	var r installReceipt
	if json.Unmarshal(data, &r) != nil || r.After != sum(c.Before) {
		return
	}
	if r.Existed {
		// An empty file's bytes are omitted from the receipt: it is still
		// a file to give back, not one to remove.
		c.After = append([]byte{}, r.Before...)
	} else {
		c.After = nil
	}
}

// Apply writes the change: first a backup of the file as it was, in the
// state directory (never beside the file), then the new content at the
// file's real path (or no file). install says whether the change adds
// loupe's hooks (a receipt is kept) or removes them (the receipt goes). It
// returns the backup's path ("" when there was no file to back up).
func (s *Store) Apply(c *Change, install bool, now time.Time) (backup string, err error) {
	if c.Empty() {
		return "", nil
	}
	target := c.target()
	if err := unchanged(c, target); err != nil {
		return "", err
	}
	mode := c.Mode
	if mode == 0 {
		mode = 0o644
	}
	if c.Before != nil {
		if s == nil || s.Dir == "" {
			return "", fmt.Errorf("no state directory to keep a backup of %s in: set XDG_STATE_HOME", c.Path)
		}
		if backup, err = s.writeBackup(target, c.Before, mode, now); err != nil {
			return "", fmt.Errorf("backing up %s: %w", c.Path, err)
		}
	}
	if c.After == nil {
		// Remove the name the user knows: a link goes, its target stays.
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return backup, err
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return backup, err
		}
		if err := replaceFile(target, c.After, mode); err != nil {
			return backup, err
		}
	}
	if s == nil || s.Dir == "" {
		return backup, nil
	}
	rp := s.receiptPath(target)
	if !install {
		os.Remove(rp)
		os.Remove(s.receiptPath(c.Path))
		return backup, nil
	}
	r := installReceipt{Path: target, Existed: c.Before != nil, Before: c.Before, After: sum(c.After), Backup: backup, At: now.UTC()}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return backup, err
	}
	return backup, writeAtomic(rp, data)
}

// unchanged refuses to write over a file that changed since the change was
// computed from it (an editor saved it in between).
func unchanged(c *Change, target string) error {
	if st, err := os.Lstat(target); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is no longer a regular file: loupe edits only a regular file", target)
	}
	now, err := os.ReadFile(target)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if c.Before == nil {
			return nil
		}
	case err != nil:
		return err
	case c.Before != nil && bytes.Equal(now, c.Before):
		return nil
	}
	return fmt.Errorf("%s changed since loupe read it: run the command again", c.ShownPath())
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
	from, to := "a/"+c.ShownPath(), "b/"+c.ShownPath()
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
