//go:build unix

package gate

import (
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock(2) on the directory dir itself, creating
// it first, and returns the function that releases it. Two gates writing
// into one output directory then run their decide-and-write one after the
// other: otherwise one run's program and trace overwrite the other's
// between its hashing and its receipt, or a failing run removes the
// receipt a passing run has just reported. Locking the directory, not a
// file in it, leaves no lock file among the outputs; the lock is released
// by the kernel if vouch dies.
func lockDir(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the output directory: %w", err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock the output directory: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock the output directory %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}
