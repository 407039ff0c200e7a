//go:build unix

package safeopen

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenOwn: vouch's own state is read only from the regular file the
// guard writes, never through a link, and a FIFO planted there is refused
// at once instead of blocking the reader.
func TestOpenOwn(t *testing.T) {
	outside := t.TempDir()
	other := filepath.Join(outside, "audit.jsonl")
	must(t, os.WriteFile(other, []byte("forged\n"), 0o644))
	const name = ".vouch/guard/audit.jsonl"
	dir := func(t *testing.T, root string) {
		t.Helper()
		must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard"), 0o755))
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		want  error // nil: opens and reads "own\n"
	}{
		{"regular file", func(t *testing.T, root string) {
			dir(t, root)
			must(t, os.WriteFile(filepath.Join(root, name), []byte("own\n"), 0o644))
		}, nil},
		{"missing file", dir, fs.ErrNotExist},
		{"missing directory", func(t *testing.T, root string) {}, fs.ErrNotExist},
		{"symlink out of the root", func(t *testing.T, root string) {
			dir(t, root)
			must(t, os.Symlink(other, filepath.Join(root, name)))
		}, ErrLink},
		{"symlink inside the root", func(t *testing.T, root string) {
			dir(t, root)
			must(t, os.WriteFile(filepath.Join(root, "forged.jsonl"), []byte("forged\n"), 0o644))
			must(t, os.Symlink("../../forged.jsonl", filepath.Join(root, name)))
		}, ErrLink},
		{"directory is a symlink", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch"), 0o755))
			must(t, os.MkdirAll(filepath.Join(outside, "guard"), 0o755))
			must(t, os.Symlink(filepath.Join(outside, "guard"), filepath.Join(root, ".vouch/guard")))
		}, ErrLink},
		{"hard link", func(t *testing.T, root string) {
			dir(t, root)
			must(t, os.Link(other, filepath.Join(root, name)))
		}, ErrLink},
		{"fifo", func(t *testing.T, root string) {
			dir(t, root)
			must(t, syscall.Mkfifo(filepath.Join(root, name), 0o644))
		}, ErrNotRegular},
		{"directory in its place", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, name), 0o755))
		}, ErrNotRegular},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			tt.setup(t, root)
			done := make(chan struct{})
			var f *os.File
			var err error
			go func() {
				f, _, err = OpenOwn(root, name)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("OpenOwn blocked")
			}
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("OpenOwn: %v, want %v", err, tt.want)
				}
				if f != nil {
					t.Fatal("a file came back with the error")
				}
				return
			}
			if err != nil {
				t.Fatalf("OpenOwn: %v", err)
			}
			defer f.Close()
			if data, _ := io.ReadAll(f); string(data) != "own\n" {
				t.Errorf("read %q", data)
			}
		})
	}
	if _, _, err := OpenOwn(t.TempDir(), "../x"); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("OpenOwn(../x): %v, want ErrOutsideRoot", err)
	}
}
