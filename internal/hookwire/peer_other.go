//go:build !linux

package hookwire

import (
	"io/fs"
	"time"
)

func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

// IdentityOf is the identity of the file at path; only Linux has the
// fast mode, so elsewhere it is ErrUnsupported.
func IdentityOf(path string) (Identity, error) { return Identity{}, ErrUnsupported }

// IdentityOfInfo is ErrUnsupported outside Linux, like IdentityOf.
func IdentityOfInfo(path string, fi fs.FileInfo) (Identity, error) {
	return Identity{}, ErrUnsupported
}

// Dial is ErrUnsupported outside Linux.
func Dial(path string) (*Conn, error) { return nil, ErrUnsupported }

// Listen is ErrUnsupported outside Linux.
func Listen(path string) (*Listener, error) { return nil, ErrUnsupported }

// Accept is ErrUnsupported outside Linux.
func (l *Listener) Accept() (*Conn, error) { return nil, ErrUnsupported }

// PeerCred is ErrUnsupported outside Linux.
func PeerCred(c *Conn) (pid, uid int, err error) { return 0, 0, ErrUnsupported }

// CheckClient is ErrUnsupported outside Linux.
func CheckClient(c *Conn, uid int) error { return ErrUnsupported }

// CheckServer is ErrUnsupported outside Linux.
func CheckServer(c *Conn, uid int, bin Identity, acceptWait time.Duration) error {
	return ErrUnsupported
}

func (c *Conn) rawRead(p []byte) (int, error)  { return 0, ErrUnsupported }
func (c *Conn) rawWrite(p []byte) (int, error) { return 0, ErrUnsupported }
func (c *Conn) rawClose() error                { return ErrUnsupported }
