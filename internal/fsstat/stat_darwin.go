package fsstat

import (
	"io/fs"
	"syscall"
)

func changeTime(fi fs.FileInfo) (int64, uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Ctimespec.Nano(), st.Ino, true
}
