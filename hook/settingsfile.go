package hook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// A settings file may sit in a repository the user has just cloned: any
// name on the way to it may be a symbolic link the repository ships. loupe
// reads and writes the file at its real path, says so when that is not
// where the user would look, and refuses what it cannot edit in place.

// maxSettings bounds the settings file loupe reads (no runtime's settings
// come near it).
const maxSettings = 16 << 20

// settingsFile is the file an install edits, as found on disk.
type settingsFile struct {
	path   string // as loupe names it (under the project or home)
	target string // the real file: path with every link resolved
	// redirected says a link inside the project (or home) leads elsewhere:
	// the diff names target beside path.
	redirected bool
	exists     bool
	mode       os.FileMode // permission bits; 0644 for a new file
	data       []byte
}

// resolve returns p with every symbolic link resolved, for a p whose last
// names may not exist yet (they are kept as they are).
func resolve(p string) (string, error) {
	p = filepath.Clean(p)
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// A name that is there (a dangling link) must not be walked past.
		if _, lerr := os.Lstat(p); lerr == nil {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// openSettings finds and reads the runtime's settings file.
func openSettings(opt InstallOptions) (*settingsFile, error) {
	path, root, err := settingsPath(opt)
	if err != nil {
		return nil, err
	}
	f := &settingsFile{path: path, mode: 0o644}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		to, _ := os.Readlink(path)
		st, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("%s is a symbolic link to %s, which cannot be read (%v): remove the link or point it at the settings file", path, to, errors.Unwrap(err))
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is a symbolic link to %s, which is not a regular file: loupe edits only a regular file", path, to)
		}
		f.exists = true
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%v): loupe edits only a regular file", path, fi.Mode().Type())
	default:
		f.exists = true
	}
	if f.target, err = resolve(path); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return nil, err
	}
	realRoot, err := resolve(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", root, err)
	}
	f.redirected = f.target != filepath.Join(realRoot, rel)
	if !f.exists {
		return f, nil
	}
	if err := f.read(); err != nil {
		return nil, err
	}
	return f, nil
}

// read reads the target, a regular file (so that a FIFO put in its place
// since cannot block the read).
func (f *settingsFile) read() error {
	file, err := os.Open(f.target)
	if err != nil {
		return err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file: loupe edits only a regular file", f.target)
	}
	f.mode = st.Mode().Perm()
	if f.data, err = io.ReadAll(io.LimitReader(file, maxSettings+1)); err != nil {
		return fmt.Errorf("reading %s: %w", f.target, err)
	}
	if len(f.data) > maxSettings {
		return fmt.Errorf("%s is over %d MiB: not a settings file loupe edits", f.target, maxSettings>>20)
	}
	if f.data == nil {
		f.data = []byte{}
	}
	return nil
}

// change is the change that leaves f as it is.
func (f *settingsFile) change() *Change {
	c := &Change{Path: f.path, Target: f.target, Redirected: f.redirected, Mode: f.mode}
	if f.exists {
		c.Before, c.After = f.data, f.data
	}
	return c
}

// checkWritable refuses to change a file its owner made read-only, unless
// forced.
func checkWritable(c *Change, force bool) error {
	if c.Empty() || c.Before == nil || force || c.Mode&0o200 != 0 {
		return nil
	}
	name := c.Path
	if c.Redirected {
		name = c.Target
	}
	return fmt.Errorf("%s is read-only (mode %04o): loupe leaves it as it is; run again with --force to edit it anyway (it stays read-only)", name, c.Mode)
}

// bom is the UTF-8 byte order mark some Windows editors put first.
var bom = []byte("\xef\xbb\xbf")

// cutBOM splits a leading byte order mark from doc.
func cutBOM(doc []byte) (mark, body []byte) {
	if bytes.HasPrefix(doc, bom) {
		return doc[:len(bom)], doc[len(bom):]
	}
	return nil, doc
}
