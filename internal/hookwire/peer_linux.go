package hookwire

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"strconv"
	"syscall"
)

func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// IdentityOf is the identity of the file at path (links followed).
func IdentityOf(path string) (Identity, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Identity{}, fmt.Errorf("identify %s: %w", path, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Identity{}, fmt.Errorf("identify %s: no device and inode", path)
	}
	return Identity{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: fi.Size(), ModNanos: fi.ModTime().UnixNano()}, nil
}

// PeerCred is the process id and user id of the process at the other end
// of c, as the kernel recorded them (SO_PEERCRED): when it connected, or
// for a listening server, when it listened.
func PeerCred(c *net.UnixConn) (pid, uid int, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, 0, fmt.Errorf("peer credentials: %w", err)
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, 0, fmt.Errorf("peer credentials: %w", err)
	}
	if cerr != nil {
		return 0, 0, fmt.Errorf("peer credentials: %w", cerr)
	}
	return int(cred.Pid), int(cred.Uid), nil
}

// CheckClient refuses a client that is not the server's own user: the
// server reads and writes that user's repositories on its behalf.
func CheckClient(c *net.UnixConn, uid int) error {
	_, peer, err := PeerCred(c)
	if err != nil {
		return err
	}
	if peer != uid {
		return fmt.Errorf("client runs as uid %d, not %d", peer, uid)
	}
	return nil
}

// CheckServer refuses a server that is not uid's or does not run the
// binary bin (compared by device and inode of /proc/PID/exe). Anything
// that can bind the socket path (an agent runs commands as the user)
// could answer otherwise; a vouch-guard, whoever started it, decides
// honestly because everything it uses comes from the request.
func CheckServer(c *net.UnixConn, uid int, bin Identity) error {
	pid, peer, err := PeerCred(c)
	if err != nil {
		return err
	}
	if peer != uid {
		return fmt.Errorf("hook server runs as uid %d, not %d", peer, uid)
	}
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return fmt.Errorf("hook server process %d: %w", pid, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || uint64(st.Dev) != bin.Dev || uint64(st.Ino) != bin.Ino {
		return fmt.Errorf("hook server process %d does not run %s", pid, GuardBinary)
	}
	return nil
}
