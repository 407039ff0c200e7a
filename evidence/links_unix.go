//go:build unix

package evidence

import (
	"io/fs"
	"syscall"
)

// multiLinked reports whether a file has more than one name.
func multiLinked(st fs.FileInfo) bool {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Nlink > 1
	}
	return true
}
