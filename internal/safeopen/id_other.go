//go:build !unix

package safeopen

import "io/fs"

// ID reports false where the platform exposes no file identity: callers
// then treat every name as its own file.
func ID(fi fs.FileInfo) (FileID, bool) { return FileID{}, false }

// links reports false where the platform exposes no link count.
func links(fi fs.FileInfo) (uint64, bool) { return 0, false }
