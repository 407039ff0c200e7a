package imports

import (
	"io/fs"
	"syscall"
)

// changeTime is the inode change time of fi in nanoseconds; see the Linux
// version for why the cache keys on it.
func changeTime(fi fs.FileInfo) (int64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Ctimespec.Nano(), true
}
