//go:build unix

package guard

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on f, waiting for other holders.
// The kernel releases it when f is closed or the process dies.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}
