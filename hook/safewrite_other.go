//go:build !unix

package hook

import "os"

// oNoFollow is 0 where the system has no O_NOFOLLOW: O_EXCL alone already
// refuses an existing name, a link included.
const oNoFollow = 0

func keepOwner(string, os.FileInfo) {}
