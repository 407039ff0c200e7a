//go:build linux

package hookwire

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCheckDir(t *testing.T) {
	uid := os.Getuid()
	base := t.TempDir()
	mk := func(name string, mode os.FileMode) string {
		p := filepath.Join(base, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	private := mk("private", 0o700)
	link := filepath.Join(base, "link")
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir string
		uid       int
		want      string // "" for accepted
	}{
		{"private", private, uid, ""},
		{"group readable", mk("group", 0o750), uid, "must be private"},
		{"world writable", mk("world", 0o703), uid, "must be private"},
		{"symlink", link, uid, "symbolic link"},
		{"file", file, uid, "not a directory"},
		{"missing", filepath.Join(base, "missing"), uid, "no such file"},
		{"another owner", private, uid + 1, "not owned by uid " + strconv.Itoa(uid+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckDir(tt.dir, tt.uid)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("CheckDir = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("CheckDir = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSocketDir(t *testing.T) {
	uid := os.Getuid()
	xdg := t.TempDir()
	if err := os.Chmod(xdg, 0o700); err != nil {
		t.Fatal(err)
	}
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	// Each case has its own TMPDIR, so each starts without a directory.
	tmps := []string{t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()}
	tests := []struct {
		name   string
		getenv func(string) string
		want   string
	}{
		{"XDG_RUNTIME_DIR", env("XDG_RUNTIME_DIR", xdg, "TMPDIR", tmps[0]), filepath.Join(xdg, "vouch")},
		{"no XDG_RUNTIME_DIR", env("TMPDIR", tmps[1]), filepath.Join(tmps[1], "vouch-"+strconv.Itoa(uid))},
		{"XDG_RUNTIME_DIR open to others", env("XDG_RUNTIME_DIR", open, "TMPDIR", tmps[2]), filepath.Join(tmps[2], "vouch-"+strconv.Itoa(uid))},
		{"relative XDG_RUNTIME_DIR", env("XDG_RUNTIME_DIR", "run", "TMPDIR", tmps[3]), filepath.Join(tmps[3], "vouch-"+strconv.Itoa(uid))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := SocketDir(tt.getenv, uid, false); err == nil {
				t.Fatal("SocketDir without create accepted a missing directory")
			}
			got, err := SocketDir(tt.getenv, uid, true)
			if err != nil || got != tt.want {
				t.Fatalf("SocketDir = %q, %v; want %q", got, err, tt.want)
			}
			if fi, err := os.Stat(got); err != nil || fi.Mode().Perm() != 0o700 {
				t.Fatalf("socket directory mode: %v, %v", fi.Mode(), err)
			}
		})
	}
	// A directory planted at the path with the wrong mode is refused,
	// not repaired.
	planted := t.TempDir()
	if err := os.Mkdir(filepath.Join(planted, "vouch-"+strconv.Itoa(uid)), 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(planted, "vouch-"+strconv.Itoa(uid)), 0o777)
	if _, err := SocketDir(env("TMPDIR", planted), uid, true); err == nil {
		t.Fatal("SocketDir accepted a world-writable directory")
	}
}

func TestIdentity(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("one"), 0o755)
	os.WriteFile(b, []byte("one"), 0o755)
	ia, err := IdentityOf(a)
	if err != nil {
		t.Fatal(err)
	}
	ib, _ := IdentityOf(b)
	if ia.Hash() == ib.Hash() {
		t.Error("two files share an identity")
	}
	// A rebuilt binary (same path, new content and time) is another
	// identity, so it gets a server of its own.
	os.WriteFile(a, []byte("two!"), 0o755)
	os.Chtimes(a, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	ia2, _ := IdentityOf(a)
	if ia2.Hash() == ia.Hash() {
		t.Error("a rewritten file kept its identity")
	}
	if SocketPath(dir, ia) == SocketPath(dir, ia2) || filepath.Dir(LockPath(dir, ia)) != dir {
		t.Error("socket or lock path does not follow the identity")
	}
}

func TestPeerChecks(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v, %v", fi.Mode(), err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if err := CheckClient(c, os.Getuid()); err != nil {
				t.Errorf("CheckClient refused its own user: %v", err)
			}
			// Held until the client closes, as the server holds it
			// until it has answered: CheckServer looks for it.
			go func() {
				io.Copy(io.Discard, c)
				c.Close()
			}()
		}
	}()
	exe, _ := os.Executable()
	self, err := IdentityOf(exe)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := IdentityOf("/proc/self/cwd")
	tests := []struct {
		name string
		uid  int
		bin  Identity
		want string
	}{
		{"this binary", os.Getuid(), self, ""},
		{"another binary", os.Getuid(), other, "does not run"},
		{"another user", os.Getuid() + 1, self, "runs as uid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Dial(sock)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			err = CheckServer(c, tt.uid, tt.bin, 0)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("CheckServer = %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("CheckServer = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// An Accept past the listener's deadline is a timeout (the server's idle
// exit), and Close removes the socket file.
func TestListenerDeadline(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.SetDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := ln.Accept(); !IsTimeout(err) {
		t.Fatalf("Accept past the deadline: %v", err)
	}
	ln.Close()
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatalf("socket left after Close: %v", err)
	}
	if _, err := Dial(sock); err == nil {
		t.Fatal("Dial reached a closed listener")
	}
	if _, err := Listen(filepath.Join(t.TempDir(), strings.Repeat("x", 120))); err == nil {
		t.Fatal("Listen accepted a path too long for a socket address")
	}
}

// TestIdentityHash pins the socket name's hash (FNV-1a 64 over the four
// numbers, little-endian): both sides compute it, and a change renames
// every server. Each field changes it.
func TestIdentityHash(t *testing.T) {
	base := Identity{Dev: 2049, Ino: 1234567, Size: 7763489, ModNanos: 1764162209000000000}
	if got, want := base.Hash(), fnvRef(base); got != want || len(got) != 16 {
		t.Fatalf("Hash = %q, want %q", got, want)
	}
	if got := (Identity{}).Hash(); got != "0c8210784d8af5a5" {
		t.Errorf("zero identity's Hash = %q, want FNV-1a of 32 zero bytes, 0c8210784d8af5a5", got)
	}
	for _, id := range []Identity{
		{Dev: base.Dev + 1, Ino: base.Ino, Size: base.Size, ModNanos: base.ModNanos},
		{Dev: base.Dev, Ino: base.Ino + 1, Size: base.Size, ModNanos: base.ModNanos},
		{Dev: base.Dev, Ino: base.Ino, Size: base.Size + 1, ModNanos: base.ModNanos},
		{Dev: base.Dev, Ino: base.Ino, Size: base.Size, ModNanos: base.ModNanos + 1},
	} {
		if id.Hash() == base.Hash() {
			t.Errorf("%+v has the hash of %+v", id, base)
		}
	}
}

// fnvRef is hash/fnv's FNV-1a 64 of the identity.
func fnvRef(id Identity) string {
	h := fnv.New64a()
	for _, v := range []uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.ModNanos)} {
		h.Write(binary.LittleEndian.AppendUint64(nil, v))
	}
	return fmt.Sprintf("%016x", h.Sum64())
}
