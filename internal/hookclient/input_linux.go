package hookclient

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// readFileInput is readInput for stdin that is a file descriptor, in the
// calling goroutine: no reading goroutine, no timer, so a hook process
// starts no thread and no poller for it. A regular file is read straight
// (a read never blocks); anything else is waited for in ppoll(2) up to
// the deadline and then read. The descriptor's mode is left as it is (its
// open file description is shared with whoever gave it).
//
// After ppoll reports data, a read blocks only if another process reads
// the same pipe in between and empties it: stdin is the harness's pipe to
// this one process, and a process of the user's that went looking for it
// could as well kill the hook. ok is false when the descriptor cannot be
// had; readInput then reads as for any reader.
func readFileInput(f *os.File, max int, timeout time.Duration) (in input, ok bool) {
	raw, err := f.SyscallConn()
	if err != nil {
		return input{}, false
	}
	if raw.Control(func(fd uintptr) { in = readFD(int(fd), f, max, time.Now().Add(timeout)) }) != nil {
		return input{}, false
	}
	return in, true
}

// readFD reads fd until it ends, passes max bytes or the deadline passes.
// What it did not read is left in the descriptor for the direct run
// (rest reads it through f).
func readFD(fd int, f *os.File, max int, deadline time.Time) input {
	var st syscall.Stat_t
	regular := syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG
	buf := make([]byte, 0, 64<<10)
	for {
		if !regular {
			ready, err := pollIn(fd, deadline)
			if err != nil {
				return input{data: buf, more: errReader{err}}
			}
			if !ready {
				return input{data: buf, more: f}
			}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			regular = false // wait in ppoll, which keeps the deadline
			continue
		case err != nil:
			// Let vouch-guard meet the same error.
			return input{data: buf, more: errReader{&os.PathError{Op: "read", Path: f.Name(), Err: err}}}
		case n == 0:
			return input{data: buf, complete: true}
		}
		buf = buf[:len(buf)+n]
		if len(buf) > max {
			return input{data: buf, more: f}
		}
		if regular && time.Now().After(deadline) {
			return input{data: buf, more: f}
		}
	}
}

// pollIn waits until fd is readable (or at its end, or in error: the read
// says which) or deadline passes (false).
func pollIn(fd int, deadline time.Time) (bool, error) {
	for {
		d := time.Until(deadline)
		if d <= 0 {
			return false, nil
		}
		ts := syscall.NsecToTimespec(int64(d))
		pfd := struct {
			fd              int32
			events, revents int16
		}{fd: int32(fd), events: 0x1} // POLLIN
		n, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e != 0:
			return false, &os.PathError{Op: "ppoll", Path: "stdin", Err: e}
		case n > 0:
			return true, nil
		}
	}
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

var _ io.Reader = errReader{}
