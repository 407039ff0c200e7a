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
type Conn struct{ f *os.File }

// Read reads from the socket, until the deadline.
func (c *Conn) Read(p []byte) (int, error) { return c.f.Read(p) }

// Write writes to the socket, until the deadline.
func (c *Conn) Write(p []byte) (int, error) { return c.f.Write(p) }

// Close closes the socket.
func (c *Conn) Close() error { return c.f.Close() }

// SetDeadline bounds every later read and write.
func (c *Conn) SetDeadline(t time.Time) error { return c.f.SetDeadline(t) }

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
