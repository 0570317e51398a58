package hook

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Writes of the user's settings and of their backups. Nothing here follows
// a symbolic link at the name it creates: a new file is made with
// O_CREATE|O_EXCL|O_NOFOLLOW under a random name and then renamed (or
// linked) into place, which replaces a name rather than writing through
// it. Data are synced before the rename and the directory after it, so a
// crash leaves the old file or the new one, never half of either.

// createNew makes a new file in dir, named prefix plus a random suffix,
// with the given mode, never through an existing name.
func createNew(dir, prefix string, mode os.FileMode) (*os.File, error) {
	for range 100 {
		var r [8]byte
		rand.Read(r[:])
		name := filepath.Join(dir, prefix+hex.EncodeToString(r[:]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		// The umask may have taken bits away: the mode is the original's.
		if err := f.Chmod(mode); err != nil {
			f.Close()
			os.Remove(name)
			return nil, err
		}
		return f, nil
	}
	return nil, fmt.Errorf("no free temporary name in %s", dir)
}

// writeNew writes data to a new file made by createNew, synced and closed.
func writeNew(dir, prefix string, data []byte, mode os.FileMode) (string, error) {
	f, err := createNew(dir, prefix, mode)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return fmt.Errorf("syncing %s: %w", dir, err)
	}
	return nil
}

// replaceFile writes data as path's new content, atomically, keeping
// mode (and, where the system allows, the owner of the file it replaces).
// path is a real path (no link left in it): the temporary file is made
// beside it and renamed over it.
func replaceFile(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := writeNew(dir, "."+filepath.Base(path)+".loupe-tmp-", data, mode)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if st, err := os.Lstat(path); err == nil {
		keepOwner(tmp, st)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return syncDir(dir)
}

// backupName is where a backup of the settings file at real path goes:
// named after the path (a hash of it, and its last two names readable) and
// the time.
func backupName(real string, now time.Time) string {
	clean := func(s string) string {
		s = strings.TrimLeft(s, ".")
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
				return r
			}
			return '_'
		}, s)
	}
	name := clean(filepath.Base(filepath.Dir(real))) + "-" + clean(filepath.Base(real))
	if len(name) > 80 {
		name = name[:80]
	}
	return name + "." + sum([]byte(real))[:12] + "." + now.UTC().Format("20060102T150405.000000000Z")
}

// writeBackup keeps data, the content of the settings file at real path,
// in the state directory's backups, with the file's mode, and returns
// where. An existing backup is never replaced.
func (s *Store) writeBackup(real string, data []byte, mode os.FileMode, now time.Time) (string, error) {
	dir := filepath.Join(s.Dir, "backups")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp, err := writeNew(dir, ".tmp-", data, mode)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	base := filepath.Join(dir, backupName(real, now))
	for i := 0; i < 100; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		err := os.Link(tmp, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// No hard links on this file system: a rename to a name that
			// is not there, in loupe's own directory, is the next best.
			if _, lerr := os.Lstat(name); !errors.Is(lerr, fs.ErrNotExist) {
				continue
			}
			if err := os.Rename(tmp, name); err != nil {
				return "", err
			}
		}
		return name, syncDir(dir)
	}
	return "", fmt.Errorf("no free backup name in %s", dir)
}
