//go:build unix

package safeopen

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	other := filepath.Join(dir, "other")
	for _, d := range []string{root, other, filepath.Join(root, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "a.yaml"), "facts: {}\n")
	write(filepath.Join(other, "secret.yaml"), "secret\n")
	mustSym := func(target, link string) {
		t.Helper()
		if err := os.Symlink(target, link); err != nil {
			t.Skip("symlinks:", err)
		}
	}
	mustSym(filepath.Join(other, "secret.yaml"), filepath.Join(root, "abs-link.yaml"))
	mustSym("../other/secret.yaml", filepath.Join(root, "rel-link.yaml"))
	mustSym("a.yaml", filepath.Join(root, "in-link.yaml"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.yaml"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	tests := []struct {
		name    string
		path    string
		opts    Options
		want    string
		wantErr error
	}{
		{"plain under root", filepath.Join(root, "a.yaml"), Options{Root: root}, "facts: {}\n", nil},
		{"symlink inside root", filepath.Join(root, "in-link.yaml"), Options{Root: root}, "facts: {}\n", nil},
		{"absolute symlink out", filepath.Join(root, "abs-link.yaml"), Options{Root: root}, "", ErrOutsideRoot},
		{"relative symlink out", filepath.Join(root, "rel-link.yaml"), Options{Root: root}, "", ErrOutsideRoot},
		{"dotdot out", filepath.Join(root, "..", "other", "secret.yaml"), Options{Root: root}, "", ErrOutsideRoot},
		{"explicit path follows the link", filepath.Join(root, "rel-link.yaml"), Options{}, "secret\n", nil},
		{"fifo under root", filepath.Join(root, "fifo.yaml"), Options{Root: root}, "", ErrNotRegular},
		{"fifo explicit", filepath.Join(root, "fifo.yaml"), Options{}, "", ErrNotRegular},
		{"directory", filepath.Join(root, "sub"), Options{Root: root}, "", ErrNotRegular},
		{"device", os.DevNull, Options{}, "", ErrNotRegular},
		{"too large", filepath.Join(root, "a.yaml"), Options{Root: root, MaxBytes: 4}, "", ErrTooLarge},
		{"exactly the cap", filepath.Join(root, "a.yaml"), Options{Root: root, MaxBytes: 10}, "facts: {}\n", nil},
		{"missing", filepath.Join(root, "nope.yaml"), Options{Root: root}, "", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var f *File
			var err error
			go func() {
				f, err = Read(tt.path, tt.opts)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Read blocked")
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(tt.want))
			if string(f.Data) != tt.want || f.SHA256 != hex.EncodeToString(sum[:]) {
				t.Fatalf("got %q %s", f.Data, f.SHA256)
			}
		})
	}
}

func TestReasonNamesTheKind(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	_, err := Read(p, Options{Root: dir})
	want := p + ": not a regular file but a named pipe (FIFO); vouch reads only regular files"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}
