//go:build unix

package guard

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// maxLockPoll bounds the wait between two attempts to take a lock.
const maxLockPoll = 10 * time.Millisecond

// lockFile takes an exclusive flock(2) on f, waiting for other holders
// until ctx ends. It polls with LOCK_NB rather than blocking in the
// kernel: a decision past its deadline must give up the wait, or its
// goroutine (and, in the hook server, its descriptors) would wait for the
// holder forever and then record a decision nobody was given. The kernel
// releases the lock when f is closed or the process dies.
func lockFile(ctx context.Context, f *os.File) error {
	wait := time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return context.Cause(ctx)
		case <-t.C:
		}
		wait = min(2*wait, maxLockPoll)
	}
}
