package hookwire

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// pollFd is struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollIn  = 0x1 // POLLIN
	pollOut = 0x4 // POLLOUT
)

// control runs fn with the socket's descriptor.
func (c *Conn) control(fn func(fd int)) error {
	if c.f == nil {
		if c.fd < 0 {
			return os.ErrClosed
		}
		fn(c.fd)
		return nil
	}
	raw, err := c.f.SyscallConn()
	if err != nil {
		return err
	}
	return raw.Control(func(fd uintptr) { fn(int(fd)) })
}

func (c *Conn) rawRead(p []byte) (int, error) {
	if c.fd < 0 {
		return 0, os.ErrClosed
	}
	for {
		n, err := syscall.Read(c.fd, p)
		switch err {
		case nil:
			if n == 0 && len(p) > 0 {
				return 0, io.EOF
			}
			return n, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			if err := c.wait(pollIn); err != nil {
				return 0, err
			}
			continue
		}
		return 0, &os.PathError{Op: "read", Path: "hook socket", Err: err}
	}
}

func (c *Conn) rawWrite(p []byte) (int, error) {
	if c.fd < 0 {
		return 0, os.ErrClosed
	}
	done := 0
	for done < len(p) {
		n, err := syscall.Write(c.fd, p[done:])
		switch err {
		case nil:
			done += n
			continue
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			if err := c.wait(pollOut); err != nil {
				return done, err
			}
			continue
		}
		return done, &os.PathError{Op: "write", Path: "hook socket", Err: err}
	}
	return done, nil
}

func (c *Conn) rawClose() error {
	if c.fd < 0 {
		return os.ErrClosed
	}
	err := syscall.Close(c.fd)
	c.fd = -1
	return err
}

// wait waits in ppoll(2) until the socket is ready for events or the
// deadline passes (os.ErrDeadlineExceeded). It may return early (a
// signal, a spurious wake-up): the caller retries its read or write.
func (c *Conn) wait(events int16) error {
	var ts *syscall.Timespec
	if !c.deadline.IsZero() {
		d := time.Until(c.deadline)
		if d <= 0 {
			return os.ErrDeadlineExceeded
		}
		t := syscall.NsecToTimespec(int64(d))
		ts = &t
	}
	pfd := pollFd{fd: int32(c.fd), events: events}
	_, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(ts)), 0, 0, 0)
	if e != 0 && e != syscall.EINTR {
		return &os.PathError{Op: "ppoll", Path: "hook socket", Err: e}
	}
	return nil
}

// readProcFile reads the file at path (a /proc file, whose size stat does
// not tell) with open, read and close alone, at most max bytes, into buf
// (whose capacity is the first read's size). os.Open would also try, and
// fail, to add the descriptor to the runtime's poller: three fcntl and
// an epoll_ctl per file.
func readProcFile(path string, buf []byte, max int) ([]byte, error) {
	fd, err := openNoEINTR(path, syscall.O_RDONLY|syscall.O_CLOEXEC)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= max {
				return buf[:max], nil
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):min(cap(buf), max)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

func openNoEINTR(path string, mode int) (int, error) {
	for {
		fd, err := syscall.Open(path, mode, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// statID is the device and inode of the file at path (links followed).
func statID(path string) (dev, ino uint64, err error) {
	var st syscall.Stat_t
	for {
		err = syscall.Stat(path, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return 0, 0, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	return uint64(st.Dev), uint64(st.Ino), nil
}
