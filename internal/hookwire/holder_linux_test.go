package hookwire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// diagMsg builds one netlink message of type typ and sequence seq with
// body.
func diagMsg(typ uint16, seq uint32, body []byte) []byte {
	n := nlmsgHdrLen + len(body)
	b := make([]byte, nlmsgAlign(n))
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], uint32(n))
	ne.PutUint16(b[4:], typ)
	ne.PutUint32(b[8:], seq)
	copy(b[nlmsgHdrLen:], body)
	return b
}

// unixMsg is a unix_diag_msg body for inode ino with attributes attrs
// (type, value) of four bytes each.
func unixMsg(family byte, ino uint32, attrs ...[2]uint32) []byte {
	ne := binary.NativeEndian
	b := make([]byte, unixDiagMsgLen)
	b[0] = family
	ne.PutUint32(b[4:], ino)
	for _, a := range attrs {
		r := make([]byte, 8)
		ne.PutUint16(r[0:], 8)
		ne.PutUint16(r[2:], uint16(a[0]))
		ne.PutUint32(r[4:], a[1])
		b = append(b, r...)
	}
	return b
}

func errMsg(errno int32) []byte {
	b := make([]byte, 20) // int error, then the request's header
	binary.NativeEndian.PutUint32(b, uint32(errno))
	return b
}

func TestParseUnixDiagPeer(t *testing.T) {
	const ino, seq = 1234, 1
	ok := diagMsg(sockDiagByFamily, seq, unixMsg(syscall.AF_UNIX, ino, [2]uint32{1, 99}, [2]uint32{unixDiagPeer, 5678}))
	badAttr := diagMsg(sockDiagByFamily, seq, append(unixMsg(syscall.AF_UNIX, ino), 40, 0, unixDiagPeer, 0, 1, 2, 3, 4))
	lying := diagMsg(sockDiagByFamily, seq, unixMsg(syscall.AF_UNIX, ino))
	binary.NativeEndian.PutUint32(lying[0:], 4096)
	tests := []struct {
		name  string
		reply []byte
		peer  uint32
		want  string // "" for success
	}{
		{"peer", ok, 5678, ""},
		{"after another sequence's message", append(diagMsg(sockDiagByFamily, 7, unixMsg(syscall.AF_UNIX, ino, [2]uint32{unixDiagPeer, 1})), ok...), 5678, ""},
		{"not accepted", diagMsg(sockDiagByFamily, seq, unixMsg(syscall.AF_UNIX, ino, [2]uint32{unixDiagPeer, 0})), 0, "not accepted"},
		{"no peer attribute", diagMsg(sockDiagByFamily, seq, unixMsg(syscall.AF_UNIX, ino, [2]uint32{1, 99})), 0, "has no peer"},
		{"another socket", diagMsg(sockDiagByFamily, seq, unixMsg(syscall.AF_UNIX, ino+1, [2]uint32{unixDiagPeer, 5678})), 0, "not Unix socket 1234"},
		{"another family", diagMsg(sockDiagByFamily, seq, unixMsg(syscall.AF_INET, ino, [2]uint32{unixDiagPeer, 5678})), 0, "of family 2"},
		{"kernel error", diagMsg(syscall.NLMSG_ERROR, seq, errMsg(-int32(syscall.ENOENT))), 0, "no such file"},
		{"acknowledgement", diagMsg(syscall.NLMSG_ERROR, seq, errMsg(0)), 0, "acknowledgement"},
		{"done", diagMsg(syscall.NLMSG_DONE, seq, make([]byte, 4)), 0, "no such socket"},
		{"short message", diagMsg(sockDiagByFamily, seq, make([]byte, 8)), 0, "short unix_diag_msg"},
		{"short error", diagMsg(syscall.NLMSG_ERROR, seq, nil), 0, "short error"},
		{"message longer than the reply", lying, 0, "message length 4096"},
		{"attribute longer than the message", badAttr, 0, "attribute length 40"},
		{"truncated header", ok[:10], 0, "no answer"},
		{"empty", nil, 0, "no answer"},
		{"only other sequences", diagMsg(sockDiagByFamily, 2, unixMsg(syscall.AF_UNIX, ino, [2]uint32{unixDiagPeer, 1})), 0, "no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			peer, err := parseUnixDiagPeer(tt.reply, ino, seq)
			switch {
			case tt.want == "" && (err != nil || peer != tt.peer):
				t.Fatalf("parseUnixDiagPeer = %d, %v, want %d", peer, err, tt.peer)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("parseUnixDiagPeer = %d, %v, want an error containing %q", peer, err, tt.want)
			}
		})
	}
	if _, err := parseUnixDiagPeer(diagMsg(sockDiagByFamily, seq, unixMsg(syscall.AF_UNIX, ino, [2]uint32{unixDiagPeer, 0})), ino, seq); !errors.Is(err, errNotAccepted) {
		t.Fatalf("a peer inode 0 is %v, want errNotAccepted", err)
	}
}

// The request is laid out as struct nlmsghdr then struct unix_diag_req.
func TestUnixDiagRequest(t *testing.T) {
	b := unixDiagRequest(77, 3)
	ne := binary.NativeEndian
	if len(b) != 40 || ne.Uint32(b[0:]) != 40 || ne.Uint16(b[4:]) != sockDiagByFamily || ne.Uint16(b[6:]) != syscall.NLM_F_REQUEST || ne.Uint32(b[8:]) != 3 {
		t.Fatalf("header % x", b[:16])
	}
	r := b[16:]
	if r[0] != syscall.AF_UNIX || ne.Uint32(r[4:]) != 0xffffffff || ne.Uint32(r[8:]) != 77 || ne.Uint32(r[12:]) != udiagShowPeer || ne.Uint32(r[16:]) != 0xffffffff || ne.Uint32(r[20:]) != 0xffffffff {
		t.Fatalf("unix_diag_req % x", r)
	}
}

// The kernel names the server end of a live connection, and the process
// that accepted it holds it.
func TestCheckHolderLive(t *testing.T) {
	ln, err := Listen(filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := Dial(ln.path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Before accept() the server end has no inode: the check waits
	// (HolderWait, newScratch()) and then refuses.
	if err := checkHolder(c, "/proc", os.Getpid(), HolderWait, newScratch()); !errors.Is(err, errNotAccepted) {
		t.Fatalf("checkHolder before accept = %v, want errNotAccepted", err)
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkHolder(c, "/proc", os.Getpid(), HolderWait, newScratch()); err != nil {
		t.Fatalf("checkHolder after accept = %v", err)
	}
	if err := checkHolder(c, "/proc", os.Getppid(), HolderWait, newScratch()); err == nil || !strings.Contains(err.Error(), "does not hold") {
		t.Fatalf("checkHolder of the parent process = %v, want a refusal", err)
	}
	s.Close()
	if err := checkHolder(c, "/proc", os.Getpid(), HolderWait, newScratch()); !errors.Is(err, errNotAccepted) {
		t.Fatalf("checkHolder after the server closed = %v, want errNotAccepted", err)
	}
}

// helperEnv makes the test binary a process that calls listen() on its
// descriptor 3 and then waits for stdin to close: the genuine binary
// whose pid SO_PEERCRED reports, while another process answers.
const helperEnv = "VOUCH_HOOKWIRE_LISTEN_HELPER"

func TestListenHelper(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("helper process for TestExecTrick")
	}
	if err := syscall.Listen(3, 8); err != nil {
		os.Exit(3)
	}
	os.Stdout.WriteString("listening\n")
	io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// The exec trick: one process calls listen() and runs the genuine binary
// (here: this test binary, standing for vouch-guard), another accepts and
// answers. Every other check passes; the holder check refuses.
func TestExecTrick(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	addr, err := unixAddr(sock)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := newSocket()
	if err != nil {
		t.Fatal(err)
	}
	lf := os.NewFile(uintptr(fd), sock)
	if err := syscall.Bind(fd, addr); err != nil {
		t.Fatal(err)
	}
	ln := &Listener{f: lf, path: sock}
	defer ln.Close()

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestListenHelper$")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	cmd.ExtraFiles = []*os.File{lf}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "listening\n" {
		t.Fatalf("helper: %q, %v", line, err)
	}

	c, err := Dial(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pid, _, err := PeerCred(c)
	if err != nil {
		t.Fatal(err)
	}
	if pid != cmd.Process.Pid {
		t.Fatalf("SO_PEERCRED pid %d, want the listening helper %d", pid, cmd.Process.Pid)
	}
	s, err := ln.Accept() // this process answers, not the helper
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	self, err := IdentityOf(exe)
	if err != nil {
		t.Fatal(err)
	}
	err = CheckServer(c, os.Getuid(), self, 0)
	if err == nil || !strings.Contains(err.Error(), "does not hold the server end") {
		t.Fatalf("CheckServer with the answer from another process = %v, want a refusal", err)
	}
}

// BenchmarkCheckServer is the client's whole check of a live server, and
// its parts: what it was before the holder and confinement checks, and
// what each adds.
func BenchmarkCheckServer(b *testing.B) {
	ln, err := Listen(filepath.Join(b.TempDir(), "s"))
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	c, err := Dial(ln.path)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	exe, _ := os.Executable()
	self, err := IdentityOf(exe)
	if err != nil {
		b.Fatal(err)
	}
	pid, uid := os.Getpid(), os.Getuid()
	run := func(name string, f func() error) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("whole", func() error { return CheckServer(c, uid, self, 0) })
	run("before", func() error {
		if _, _, err := PeerCred(c); err != nil {
			return err
		}
		if err := runsBinary(pid, self); err != nil {
			return err
		}
		return sameView("/proc", pid)
	})
	run("holder", func() error { return checkHolder(c, "/proc", pid, HolderWait, newScratch()) })
	run("confinement", func() error { return sameConfinement("/proc", pid, newScratch()) })
}
