package hookwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The process SO_PEERCRED names is the one that called listen() on the
// server's socket, not necessarily the one that accepted the connection
// and answers on it: a program can listen, fork a child that keeps the
// listening socket and answers, and exec the genuine vouch-guard itself.
// So the client also requires that the process it checked holds the
// server end of its own connection: the kernel names that socket's inode
// (sock_diag, UNIX_DIAG_PEER) and /proc/PID/fd shows what the process
// holds. A vouch-guard that is not serving never accepts a connection, so
// it holds one only if something put it there (ptrace, or a seccomp
// supervisor's SECCOMP_IOCTL_NOTIF_ADDFD, which sameConfinement refuses).

// Values from linux/netlink.h, linux/sock_diag.h and linux/unix_diag.h.
const (
	netlinkSockDiag  = 4  // NETLINK_SOCK_DIAG
	sockDiagByFamily = 20 // SOCK_DIAG_BY_FAMILY
	udiagShowPeer    = 0x4
	unixDiagPeer     = 2 // UNIX_DIAG_PEER attribute: the peer's inode, u32
	nlmsgHdrLen      = 16
	unixDiagReqLen   = 24 // struct unix_diag_req
	unixDiagMsgLen   = 16 // struct unix_diag_msg
	// diagReplyMax bounds the reply read: one unix_diag_msg with one
	// attribute is 36 bytes, an error message at most a few hundred.
	diagReplyMax = 4096
	// diagTimeout bounds the wait for the kernel's reply, which is in
	// practice queued before sendto returns.
	diagTimeout = 200 * time.Millisecond
	// HolderWait bounds the wait for the server to accept: the kernel
	// completes connect() before the server's accept(), and until then the
	// server end has no inode and no process holds it. A warm server
	// accepts within microseconds, but one on a loaded machine may not be
	// scheduled for tens of milliseconds; a process that never accepts
	// costs this once before the direct run (a wedged server costs up to
	// maxReplyWait, 2 s, anyway).
	HolderWait = 250 * time.Millisecond
)

// errNotAccepted is a server end that no accept() has taken yet (or that
// the server has closed).
var errNotAccepted = errors.New("the hook server has not accepted the connection, or has closed it")

// checkHolder requires that process pid holds the server end of c.
// proc is the proc file system's mount point.
// buf is scratch space of at least diagReplyMax bytes (newScratch).
func checkHolder(c *Conn, proc string, pid int, wait time.Duration, buf []byte) error {
	var own uint32
	var serr error
	if err := c.control(func(fd int) { own, serr = socketInode(fd) }); err != nil {
		return fmt.Errorf("hook connection: %w", err)
	}
	if serr != nil {
		return serr
	}
	deadline := time.Now().Add(wait)
	pause := 20 * time.Microsecond
	for {
		peer, err := peerInode(own, buf)
		if err == nil {
			var held bool
			held, err = holdsSocket(proc, pid, peer, buf)
			if err == nil && !held {
				err = fmt.Errorf("hook server process %d does not hold the server end of its connection (socket:[%d]): another process answers", pid, peer)
			}
			if err == nil {
				return nil
			}
		}
		if time.Now().Add(pause).After(deadline) {
			return err
		}
		// The thread sleeps, not the goroutine: a timer would start
		// the runtime's poller (an epoll instance and eventfd) in a
		// hook process that otherwise never needs one.
		ts := syscall.NsecToTimespec(int64(pause))
		_ = syscall.Nanosleep(&ts, nil)
		pause = min(2*pause, time.Millisecond)
	}
}

// socketInode is the inode of the socket open at fd.
func socketInode(fd int) (uint32, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return 0, fmt.Errorf("hook connection: %w", err)
	}
	// unix_diag carries inodes as u32; socket inodes come from a 32-bit
	// counter.
	if st.Ino == 0 || st.Ino > 0xffffffff {
		return 0, fmt.Errorf("hook connection: socket inode %d out of range", st.Ino)
	}
	return uint32(st.Ino), nil
}

// peerInode asks the kernel (sock_diag) for the inode of the socket at the
// other end of the Unix socket with inode ino.
// buf receives the reply (diagReplyMax bytes).
func peerInode(ino uint32, buf []byte) (uint32, error) {
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, netlinkSockDiag)
	if err != nil {
		return 0, fmt.Errorf("sock_diag socket: %w", err)
	}
	defer syscall.Close(fd)
	tv := syscall.NsecToTimeval(diagTimeout.Nanoseconds())
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return 0, fmt.Errorf("sock_diag socket: %w", err)
	}
	const seq = 1 // a fresh socket per query: nothing else is outstanding
	if err := syscall.Sendto(fd, unixDiagRequest(ino, seq), 0, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		return 0, fmt.Errorf("sock_diag query: %w", err)
	}
	for {
		n, _, flags, from, err := syscall.Recvmsg(fd, buf, nil, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("sock_diag reply: %w", err)
		}
		// Any process may send to a netlink socket's port: only the
		// kernel's (port 0) answer counts.
		if nl, ok := from.(*syscall.SockaddrNetlink); !ok || nl.Pid != 0 {
			continue
		}
		if flags&syscall.MSG_TRUNC != 0 {
			return 0, errors.New("sock_diag reply: truncated")
		}
		return parseUnixDiagPeer(buf[:n], ino, seq)
	}
}

// unixDiagRequest is a netlink message asking for the Unix socket with
// inode ino and its peer: struct nlmsghdr, then struct unix_diag_req.
func unixDiagRequest(ino, seq uint32) []byte {
	b := make([]byte, nlmsgHdrLen+unixDiagReqLen)
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], uint32(len(b)))
	ne.PutUint16(b[4:], sockDiagByFamily)
	ne.PutUint16(b[6:], syscall.NLM_F_REQUEST)
	ne.PutUint32(b[8:], seq)
	// nlmsg_pid 0: the kernel fills in the sender.
	r := b[nlmsgHdrLen:]
	r[0] = syscall.AF_UNIX          // sdiag_family; sdiag_protocol and pad stay 0
	ne.PutUint32(r[4:], 0xffffffff) // udiag_states: any state
	ne.PutUint32(r[8:], ino)
	ne.PutUint32(r[12:], udiagShowPeer)
	// udiag_cookie INET_DIAG_NOCOOKIE: look the socket up by inode alone.
	ne.PutUint32(r[16:], 0xffffffff)
	ne.PutUint32(r[20:], 0xffffffff)
	return b
}

// parseUnixDiagPeer reads the kernel's answer to unixDiagRequest(ino, seq):
// the UNIX_DIAG_PEER attribute of the unix_diag_msg for ino.
// errNotAccepted is a peer whose inode is 0: a server end no accept() has
// taken yet, or one the server closed.
func parseUnixDiagPeer(b []byte, ino, seq uint32) (uint32, error) {
	ne := binary.NativeEndian
	for len(b) >= nlmsgHdrLen {
		n := int(ne.Uint32(b[0:]))
		if n < nlmsgHdrLen || n > len(b) {
			return 0, fmt.Errorf("sock_diag reply: message length %d of %d bytes", n, len(b))
		}
		typ, mseq, body := ne.Uint16(b[4:]), ne.Uint32(b[8:]), b[nlmsgHdrLen:n]
		b = b[min(nlmsgAlign(n), len(b)):]
		if mseq != seq {
			continue
		}
		switch typ {
		case syscall.NLMSG_ERROR:
			if len(body) < 4 {
				return 0, errors.New("sock_diag reply: short error message")
			}
			if e := int32(ne.Uint32(body)); e < 0 {
				return 0, fmt.Errorf("sock_diag reply: %w", syscall.Errno(-e))
			}
			return 0, errors.New("sock_diag reply: an acknowledgement without an answer")
		case syscall.NLMSG_DONE:
			return 0, errors.New("sock_diag reply: no such socket")
		case sockDiagByFamily:
		default:
			continue
		}
		if len(body) < unixDiagMsgLen {
			return 0, errors.New("sock_diag reply: short unix_diag_msg")
		}
		if body[0] != syscall.AF_UNIX || ne.Uint32(body[4:]) != ino {
			return 0, fmt.Errorf("sock_diag reply: about socket %d of family %d, not Unix socket %d", ne.Uint32(body[4:]), body[0], ino)
		}
		for a := body[unixDiagMsgLen:]; len(a) >= 4; {
			alen, atyp := int(ne.Uint16(a[0:])), ne.Uint16(a[2:])
			if alen < 4 || alen > len(a) {
				return 0, fmt.Errorf("sock_diag reply: attribute length %d of %d bytes", alen, len(a))
			}
			if atyp == unixDiagPeer {
				if alen < 8 {
					return 0, errors.New("sock_diag reply: short UNIX_DIAG_PEER")
				}
				peer := ne.Uint32(a[4:])
				if peer == 0 {
					return 0, errNotAccepted
				}
				return peer, nil
			}
			a = a[min(nlmsgAlign(alen), len(a)):]
		}
		// A connected socket always has a peer attribute; none means the
		// server closed its end (or never had one).
		return 0, errors.New("sock_diag reply: the socket has no peer")
	}
	return 0, errors.New("sock_diag reply: no answer for the socket")
}

// nlmsgAlign rounds n up to netlink's 4-byte alignment (NLMSG_ALIGN and
// RTA_ALIGN alike).
func nlmsgAlign(n int) int { return (n + 3) &^ 3 }

// holdsSocket reports whether process pid has the socket with inode ino
// open, reading its /proc/PID/fd links; buf is scratch space for the
// directory listing. The links are read from the highest descriptor down:
// the server's newest descriptor, the connection it accepted last, is
// usually the one sought, so a genuine server is found at the first or
// second link. Every descriptor is still looked at before a refusal.
func holdsSocket(proc string, pid int, ino uint32, buf []byte) (bool, error) {
	dir := proc + "/" + strconv.Itoa(pid) + "/fd"
	fd, err := openNoEINTR(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC)
	if err != nil {
		return false, fmt.Errorf("hook server process %d: %w", pid, &os.PathError{Op: "open", Path: dir, Err: err})
	}
	var names []string
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return false, fmt.Errorf("hook server process %d: %w", pid, &os.PathError{Op: "getdents", Path: dir, Err: err})
		}
		if n <= 0 {
			break
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
	syscall.Close(fd)
	// Descending numeric order: a longer name of digits is a larger
	// number.
	slices.SortFunc(names, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(b, a)
	})
	want := "socket:[" + strconv.FormatUint(uint64(ino), 10) + "]"
	var target [64]byte // longer than want: a longer link cannot match
	for _, name := range names {
		// A descriptor closed since the listing has no link: skip it.
		n, err := syscall.Readlink(dir+"/"+name, target[:])
		if err == nil && string(target[:n]) == want {
			return true, nil
		}
	}
	return false, nil
}

// sameConfinement refuses a server that is being traced or has other
// seccomp filters than its client. vouch-hook starts the server, so the
// genuine one inherits the hook's filters; a seccomp supervisor of the
// agent's (SECCOMP_RET_USER_NOTIF) can put a descriptor into the process
// (SECCOMP_IOCTL_NOTIF_ADDFD) and answer its system calls, and that needs
// a filter of the agent's on it. A tracer shows as TracerPid.
//
// buf is scratch space whose capacity is the first read of each file
// (newScratch).
func sameConfinement(proc string, pid int, buf []byte) error {
	mine, err := statusFields(proc+"/self/status", buf)
	if err != nil {
		return fmt.Errorf("hook client's own status: %w", err)
	}
	theirs, err := statusFields(proc+"/"+strconv.Itoa(pid)+"/status", buf)
	if err != nil {
		return fmt.Errorf("hook server process %d: %w", pid, err)
	}
	if theirs.tracerPid != "0" {
		return fmt.Errorf("hook server process %d is traced by process %s", pid, theirs.tracerPid)
	}
	if mine.seccomp != theirs.seccomp {
		return fmt.Errorf("hook server process %d has %s %q, its client %q", pid, "Seccomp", theirs.seccomp, mine.seccomp)
	}
	if mine.filters != theirs.filters {
		return fmt.Errorf("hook server process %d has %s %q, its client %q", pid, "Seccomp_filters", theirs.filters, mine.filters)
	}
	return nil
}

// statusMax bounds what is read of a /proc/PID/status file (about 1.5
// KiB: one read of scratchSize and the one that sees its end).
const statusMax = 16 << 10

// scratchSize is the scratch buffer CheckServer's checks share: a status
// file, a sock_diag reply (diagReplyMax), a /proc/PID/fd listing.
const scratchSize = 4 << 10

// newScratch is a scratch buffer on the heap. A 4 KiB array the
// compiler kept on the stack made the checks' frames 4.5 KiB, so the hook
// process's goroutine stack grew (and was copied) twice to hold them.
//
//go:noinline
func newScratch() []byte { return make([]byte, scratchSize) }

// confinement is what sameConfinement compares of a /proc/PID/status
// file: "" for a field the file lacks.
type confinement struct {
	tracerPid, seccomp, filters string
}

// statusFields reads the fields sameConfinement compares from a
// /proc/PID/status file, into buf's space. TracerPid must be there; the
// seccomp fields are missing on kernels without seccomp (Seccomp) or
// older than 5.9 (Seccomp_filters), for the client and the server alike.
func statusFields(path string, buf []byte) (confinement, error) {
	b, err := readProcFile(path, buf, statusMax)
	if err != nil {
		return confinement{}, err
	}
	got, ok := parseStatus(b)
	if !ok {
		return confinement{}, fmt.Errorf("%s has no TracerPid field", path)
	}
	return got, nil
}

// parseStatus picks the confinement fields out of a status file's
// "Name:\tvalue" lines; ok reports a TracerPid line.
func parseStatus(b []byte) (c confinement, ok bool) {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		k, v, found := bytes.Cut(line, []byte(":"))
		if !found {
			continue
		}
		switch string(k) {
		case "TracerPid":
			c.tracerPid, ok = string(bytes.TrimSpace(v)), true
		case "Seccomp":
			c.seccomp = string(bytes.TrimSpace(v))
		case "Seccomp_filters":
			c.filters = string(bytes.TrimSpace(v))
		}
	}
	return c, ok
}
