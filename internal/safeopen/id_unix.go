//go:build unix

package safeopen

import (
	"io/fs"
	"syscall"
)

// ID identifies the file behind fi (device and inode), so hard links and
// repeated names of one file are recognised as one.
func ID(fi fs.FileInfo) (FileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return FileID{}, false
	}
	return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true
}

// links is the number of hard links to the file behind fi.
func links(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Nlink), true
}
