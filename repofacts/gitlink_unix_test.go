//go:build unix

package repofacts

import (
	"bufio"
	"crypto/sha1"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSubmoduleHeadFIFO: the work controls a submodule's git directory,
// and a FIFO there must give an answer, not a gate that waits forever
// for a writer.
func TestSubmoduleHeadFIFO(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name string
		fifo string // the file made a FIFO
		want string
	}{
		{"commondir", "commondir", id},
		{"HEAD", "HEAD", headUnreadable},
		{"loose ref", "refs/heads/main", headUnreadable},
		{"packed-refs", "packed-refs", headUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gd := filepath.Join(dir, ".git")
			files := map[string]string{"HEAD": "ref: refs/heads/main\n"}
			if tt.fifo != "packed-refs" {
				// Without a loose ref, the ref is looked up in packed-refs.
				files["refs/heads/main"] = id + "\n"
			}
			for name, data := range files {
				p := filepath.Join(gd, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p := filepath.Join(gd, filepath.FromSlash(tt.fifo))
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			got := make(chan string, 1)
			go func() { got <- submoduleHead(dir) }()
			select {
			case h := <-got:
				if h != tt.want {
					t.Errorf("submoduleHead = %q, want %q", h, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("submoduleHead blocked on a FIFO")
			}
		})
	}
}

// TestReadWorkFIFO: a working-tree file seen as regular and then replaced
// by a FIFO is reported as changed while vouch read it, at once.
func TestReadWorkFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.txt")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	reads := map[string]func() error{
		"hashFile": func() error {
			_, err := hashFile(objectFormat{name: "sha1", new: sha1.New}, p, 10, make([]byte, 512))
			return err
		},
		"importWork": func() error {
			return importWork(bufio.NewWriter(io.Discard), 1, p, "100644", make([]byte, 512))
		},
	}
	for name, read := range reads {
		done := make(chan error, 1)
		go func() { done <- read() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "changed while vouch read it") {
				t.Errorf("%s: err = %v, want one saying the file changed", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s blocked on a FIFO", name)
		}
	}
}
