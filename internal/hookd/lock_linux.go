package hookd

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockExclusive opens and locks path without waiting. The kernel drops
// the lock when the server exits, however it exits, so a killed server
// never keeps the next one from starting.
func lockExclusive(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("hook server lock: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("hook server lock: %w", err)
	}
	return f, nil
}
