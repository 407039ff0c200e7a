package hookclient

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStartServerEnvironment: the server vouch-hook starts runs with
// serverEnv's environment, not the client's (here a stand-in vouch-guard
// writes the environment it was given).
func TestStartServerEnvironment(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	guard := filepath.Join(dir, "vouch-guard")
	script := "#!/bin/sh\n/usr/bin/env > " + out + ".tmp && mv " + out + ".tmp " + out + "\n"
	if err := os.WriteFile(guard, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Client{Guard: guard, Env: []string{"HOME=/h", "PATH=/usr/bin:/bin", "TMPDIR=" + dir, "SECRET=1"}}
	c.startServer()
	var b []byte
	for i := 0; ; i++ {
		var err error
		if b, err = os.ReadFile(out); err == nil {
			break
		}
		if i == 500 {
			t.Fatal("the stand-in server did not run")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		// The shell adds PWD (and some shells SHLVL, _) of its own.
		if name, _, _ := strings.Cut(l, "="); name != "PWD" && name != "SHLVL" && name != "_" && l != "" {
			got = append(got, l)
		}
	}
	if want := []string{"TMPDIR=" + dir}; !slices.Equal(got, want) {
		t.Fatalf("server environment %q, want %q", got, want)
	}
}

// TestCloseInheritedOnExec: a descriptor the hook inherited without
// close-on-exec (here a pipe made without it) is marked before the
// server is started, so the server does not hold it; stdio is left alone.
func TestCloseInheritedOnExec(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	cloexec := func(fd int) bool {
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
		if errno != 0 {
			t.Fatalf("fcntl %d: %v", fd, errno)
		}
		return flags&syscall.FD_CLOEXEC != 0
	}
	if cloexec(p[0]) || cloexec(p[1]) {
		t.Fatal("the test pipe is already close-on-exec")
	}
	stdinBefore := cloexec(0)
	closeInheritedOnExec()
	if !cloexec(p[0]) || !cloexec(p[1]) {
		t.Error("an inherited descriptor stays open across exec")
	}
	if cloexec(0) != stdinBefore {
		t.Error("stdin's close-on-exec flag changed")
	}
}
