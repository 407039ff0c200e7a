//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/vouch-dev/vouch/internal/safeopen"
)

// vouch.yaml that is not a regular file inside the root is an error, both
// when found from the working directory and under --root: silently running
// with the defaults would drop strict: and architecture:.
func TestLoadRefusesIrregularConfig(t *testing.T) {
	tests := []struct {
		name string
		make func(t *testing.T, p string)
		want error
	}{
		{"directory", func(t *testing.T, p string) {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}, safeopen.ErrNotRegular},
		{"fifo", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip(err)
			}
		}, safeopen.ErrNotRegular},
		{"symlink out of the root", func(t *testing.T, p string) {
			other := filepath.Join(filepath.Dir(filepath.Dir(p)), "other.yaml")
			if err := os.WriteFile(other, []byte("strict: false\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, p); err != nil {
				t.Skip(err)
			}
		}, safeopen.ErrOutsideRoot},
	}
	for _, tt := range tests {
		for _, viaRoot := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				root := filepath.Join(t.TempDir(), "repo")
				if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
				tt.make(t, filepath.Join(root, FileName))
				t.Chdir(root)
				done := make(chan error, 1)
				go func() {
					var err error
					if viaRoot {
						_, err = Load(".", root)
					} else {
						_, err = Load(".", "")
					}
					done <- err
				}()
				select {
				case err := <-done:
					if !errors.Is(err, tt.want) {
						t.Fatalf("Load: %v, want %v", err, tt.want)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("Load blocked")
				}
			})
		}
	}
}
