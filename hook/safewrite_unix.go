//go:build unix

package hook

import (
	"os"
	"syscall"
)

// oNoFollow makes an open fail on a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW

// keepOwner gives the file at path the owner of the file it replaces, when
// the process may (as root editing another user's settings); otherwise the
// file stays the process's own, as any editor's save would leave it.
func keepOwner(path string, was os.FileInfo) {
	if st, ok := was.Sys().(*syscall.Stat_t); ok {
		os.Lchown(path, int(st.Uid), int(st.Gid))
	}
}
