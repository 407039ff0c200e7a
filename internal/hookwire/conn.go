package hookwire

import (
	"errors"
	"os"
	"time"
)

// Conn is a connected Unix stream socket. It is built on the socket's
// descriptor rather than package net, which links the C library
// (and makes the binary dynamically linked) whenever cgo is available:
// vouch-guard and vouch-hook stay static, so every hook process starts
// without a dynamic loader.
//
// The server's connections (Accept) are *os.File in the runtime's
// poller, which serves many at once. The client's one connection (Dial)
// is a bare non-blocking descriptor that waits in ppoll(2) for its
// deadline: a hook process then makes no epoll instance, eventfd or
// netpoll registration, and no thread of the runtime has to wake another
// to hand it the socket's readiness.
type Conn struct {
	f *os.File // Accept's, or nil

	// Dial's.
	fd       int
	deadline time.Time
}

// Read reads from the socket, until the deadline.
func (c *Conn) Read(p []byte) (int, error) {
	if c.f != nil {
		return c.f.Read(p)
	}
	return c.rawRead(p)
}

// Write writes to the socket, until the deadline.
func (c *Conn) Write(p []byte) (int, error) {
	if c.f != nil {
		return c.f.Write(p)
	}
	return c.rawWrite(p)
}

// Close closes the socket.
func (c *Conn) Close() error {
	if c.f != nil {
		return c.f.Close()
	}
	return c.rawClose()
}

// SetDeadline bounds every later read and write.
func (c *Conn) SetDeadline(t time.Time) error {
	if c.f != nil {
		return c.f.SetDeadline(t)
	}
	if c.fd < 0 {
		return os.ErrClosed
	}
	c.deadline = t
	return nil
}

// Listener is a listening Unix stream socket (see Conn).
type Listener struct {
	f    *os.File
	path string
}

// SetDeadline makes Accept give up at t with an error for which
// os.IsTimeout is true.
func (l *Listener) SetDeadline(t time.Time) error { return l.f.SetReadDeadline(t) }

// Close stops listening and removes the socket file, so a client finds
// no socket rather than one nobody answers.
func (l *Listener) Close() error {
	err := l.f.Close()
	if rerr := os.Remove(l.path); err == nil && rerr != nil && !os.IsNotExist(rerr) {
		err = rerr
	}
	return err
}

// IsTimeout reports whether err is a deadline passing.
func IsTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }
