package imports

import (
	"io/fs"
	"syscall"
)

// changeTime is the inode change time of fi in nanoseconds. Unlike the
// modification time, no system call sets it to a chosen value: any write,
// rename or touch -r moves it to the present, so a cache entry keyed on it
// cannot be matched by a file edited and then backdated.
func changeTime(fi fs.FileInfo) (int64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Ctim.Nano(), true
}
