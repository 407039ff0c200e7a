//go:build !linux

package hookwire

import (
	"io/fs"
	"net"
)

func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

// IdentityOf is the identity of the file at path; only Linux has the
// fast mode, so elsewhere it is ErrUnsupported.
func IdentityOf(path string) (Identity, error) { return Identity{}, ErrUnsupported }

// PeerCred is ErrUnsupported outside Linux.
func PeerCred(c *net.UnixConn) (pid, uid int, err error) { return 0, 0, ErrUnsupported }

// CheckClient is ErrUnsupported outside Linux.
func CheckClient(c *net.UnixConn, uid int) error { return ErrUnsupported }

// CheckServer is ErrUnsupported outside Linux.
func CheckServer(c *net.UnixConn, uid int, bin Identity) error { return ErrUnsupported }
