package hookwire

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"time"
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
	return IdentityOfInfo(path, fi)
}

// IdentityOfInfo is the identity of the file at path from what os.Stat
// said of it, for a caller that has stat'd it already.
func IdentityOfInfo(path string, fi fs.FileInfo) (Identity, error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Identity{}, fmt.Errorf("identify %s: no device and inode", path)
	}
	return Identity{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: fi.Size(), ModNanos: fi.ModTime().UnixNano()}, nil
}

func unixAddr(path string) (*syscall.SockaddrUnix, error) {
	if len(path) >= 108 {
		return nil, fmt.Errorf("socket path %s is longer than a Unix socket address allows", path)
	}
	return &syscall.SockaddrUnix{Name: path}, nil
}

func newSocket() (int, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	return fd, nil
}

// Dial connects to the socket at path. A Unix socket connects at once or
// fails (no server, a full backlog): there is nothing to wait for.
func Dial(path string) (*Conn, error) {
	addr, err := unixAddr(path)
	if err != nil {
		return nil, err
	}
	fd, err := newSocket()
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Connect(fd, addr)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("connect %s: %w", path, err)
	}
	// Not in the runtime's poller: reads and writes wait in ppoll for
	// the deadline (Conn).
	return &Conn{fd: fd}, nil
}

// Listen listens at path, which must not exist; the socket file gets
// mode 0600.
func Listen(path string) (*Listener, error) {
	addr, err := unixAddr(path)
	if err != nil {
		return nil, err
	}
	fd, err := newSocket()
	if err != nil {
		return nil, err
	}
	if err := syscall.Bind(fd, addr); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("bind %s: %w", path, err)
	}
	l := &Listener{f: os.NewFile(uintptr(fd), path), path: path}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	if err := syscall.Listen(fd, 128); err != nil {
		l.Close()
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	return l, nil
}

// Accept waits for a connection, until the listener's deadline.
func (l *Listener) Accept() (*Conn, error) {
	raw, err := l.f.SyscallConn()
	if err != nil {
		return nil, err
	}
	nfd := -1
	var aerr error
	err = raw.Read(func(fd uintptr) bool {
		nfd, _, aerr = syscall.Accept4(int(fd), syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC)
		return aerr != syscall.EAGAIN
	})
	if err != nil {
		return nil, err
	}
	if aerr != nil {
		return nil, fmt.Errorf("accept: %w", aerr)
	}
	return &Conn{f: os.NewFile(uintptr(nfd), l.path), fd: -1}, nil
}

// PeerCred is the process id and user id of the process at the other end
// of c, as the kernel recorded them (SO_PEERCRED): when it connected, or
// for a listening server, when it listened.
func PeerCred(c *Conn) (pid, uid int, err error) {
	var cred *syscall.Ucred
	var cerr error
	if err := c.control(func(fd int) {
		cred, cerr = syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
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
func CheckClient(c *Conn, uid int) error {
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
// honestly because everything it uses comes from the request. The
// process checked must also see the client's files (sameView), hold the
// server end of c itself (checkHolder: the pid SO_PEERCRED reports is the
// one that listened, which may since have exec'd vouch-guard while
// another process answers), and be neither traced nor under other
// seccomp filters than the client (sameConfinement). It waits up to
// acceptWait for the server to accept c (0: HolderWait).
func CheckServer(c *Conn, uid int, bin Identity, acceptWait time.Duration) error {
	pid, peer, err := PeerCred(c)
	if err != nil {
		return err
	}
	if peer != uid {
		return fmt.Errorf("hook server runs as uid %d, not %d", peer, uid)
	}
	if err := runsBinary(pid, bin); err != nil {
		return err
	}
	if err := sameView("/proc", pid); err != nil {
		return err
	}
	buf := newScratch()
	if err := sameConfinement("/proc", pid, buf); err != nil {
		return err
	}
	if acceptWait <= 0 {
		acceptWait = HolderWait
	}
	if err := checkHolder(c, "/proc", pid, acceptWait, buf); err != nil {
		return err
	}
	// Again: a process that exited after the first look would leave its
	// pid to another, which could hold the connection. To pass, the pid
	// would have to go round the whole pid space twice within the check.
	return runsBinary(pid, bin)
}

// runsBinary refuses a process pid whose /proc/PID/exe is not bin.
func runsBinary(pid int, bin Identity) error {
	dev, ino, err := statID("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return fmt.Errorf("hook server process %d: %w", pid, err)
	}
	if dev != bin.Dev || ino != bin.Ino {
		return fmt.Errorf("hook server process %d does not run %s", pid, GuardBinary)
	}
	return nil
}

// sameView refuses a server that sees another file system than the
// client. The genuine vouch-guard binary started by the agent inside its
// own mount namespace (unshare -rm, then a bind mount over the policy) or
// a chroot would decide honestly on files that are not the repository's.
// What makes up that view: the mount and user namespaces and the root
// directory. proc is the proc file system's mount point (a test passes a
// fake one).
func sameView(proc string, pid int) error {
	self, server := proc+"/self/", proc+"/"+strconv.Itoa(pid)+"/"
	for _, name := range [...]string{"ns/mnt", "ns/user", "root"} {
		mdev, mino, err := statID(self + name)
		if err != nil {
			return fmt.Errorf("hook client's own %s: %w", name, err)
		}
		tdev, tino, err := statID(server + name)
		if err != nil {
			return fmt.Errorf("hook server process %d: %w", pid, err)
		}
		// os.SameFile's test: the same device and inode.
		if mdev != tdev || mino != tino {
			return fmt.Errorf("hook server process %d has another %s than its client: it sees other files", pid, name)
		}
	}
	return nil
}
