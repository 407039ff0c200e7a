//go:build unix

package output

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWriteTargetsThroughLinksAndDevices: --output replaces a regular
// file atomically, writes a device or FIFO in place instead of renaming a
// file over it (through a link too), refuses a link to anything else, and
// never waits for a FIFO's reader to come.
func TestWriteTargetsThroughLinksAndDevices(t *testing.T) {
	render := func(format string, w io.Writer) error {
		_, err := io.WriteString(w, "report\n")
		return err
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the --output path
		check func(t *testing.T, dir, path string)
		err   string
	}{
		{"new file", func(t *testing.T, dir string) string { return filepath.Join(dir, "r.json") },
			func(t *testing.T, dir, path string) { wantRegular(t, path, "report\n") }, ""},
		{"regular file replaced", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "r.json")
			must(t, os.WriteFile(p, []byte("old, longer content\n"), 0o644))
			return p
		}, func(t *testing.T, dir, path string) { wantRegular(t, path, "report\n") }, ""},
		{"symlink to a regular file", func(t *testing.T, dir string) string {
			must(t, os.WriteFile(filepath.Join(dir, "target.json"), []byte("old\n"), 0o644))
			p := filepath.Join(dir, "link.json")
			must(t, os.Symlink("target.json", p))
			return p
		}, nil, "never to a file the link could aim anywhere"},
		{"symlink out of the directory", func(t *testing.T, dir string) string {
			outside := filepath.Join(t.TempDir(), "authorized_keys")
			must(t, os.WriteFile(outside, []byte("precious\n"), 0o644))
			p := filepath.Join(dir, "vouch-junit.xml")
			must(t, os.Symlink(outside, p))
			t.Cleanup(func() { wantRegular(t, outside, "precious\n") })
			return p
		}, nil, "remove the link"},
		{"dangling symlink", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "link.json")
			must(t, os.Symlink("made.json", p))
			t.Cleanup(func() {
				if _, err := os.Lstat(filepath.Join(dir, "made.json")); err == nil {
					t.Error("the dangling link's target was created")
				}
			})
			return p
		}, nil, "a symbolic link to nothing"},
		{"FIFO with no reader", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fifo")
			must(t, syscall.Mkfifo(p, 0o644))
			return p
		}, nil, "nothing opened this named pipe for reading"},
		{"character device", func(t *testing.T, dir string) string {
			return nullDevice(t, dir)
		}, func(t *testing.T, dir, path string) {
			if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
				t.Fatalf("%s is no longer a character device: %v %v", path, fi, err)
			}
		}, ""},
		{"symlink to a device", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "out")
			must(t, os.Symlink(nullDevice(t, dir), p))
			return p
		}, func(t *testing.T, dir, path string) {
			if fi, err := os.Stat(path); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
				t.Fatalf("the link's device was replaced: %v %v", fi, err)
			}
		}, ""},
		{"FIFO", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fifo")
			must(t, syscall.Mkfifo(p, 0o644))
			// A second name for the FIFO, to release the reader if the
			// write went elsewhere (a file renamed over the first name).
			spare := filepath.Join(dir, "fifo-spare")
			must(t, os.Link(p, spare))
			got := make(chan string, 1)
			go func() {
				b, _ := os.ReadFile(spare)
				got <- string(b)
			}()
			t.Cleanup(func() {
				select {
				case s := <-got:
					if s != "report\n" {
						t.Errorf("the FIFO's reader got %q", s)
					}
				case <-time.After(5 * time.Second):
					t.Error("nothing was written to the FIFO")
					if f, err := os.OpenFile(spare, os.O_WRONLY, 0); err == nil {
						f.Close()
					}
					<-got
				}
			})
			return p
		}, func(t *testing.T, dir, path string) {
			if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Fatalf("the FIFO was replaced: %v %v", fi, err)
			}
		}, ""},
		{"directory", func(t *testing.T, dir string) string { return dir }, nil, "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.setup(t, dir)
			err := WriteTargets([]Target{{Format: "json", Path: path}}, render)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, dir, path)
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantRegular(t *testing.T, path, want string) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("%s is not a regular file: %v %v", path, fi, err)
	}
	if b, _ := os.ReadFile(path); string(b) != want {
		t.Errorf("%s holds %q, want %q", path, b, want)
	}
}

// nullDevice is a character device the test may write: as root (where
// a regression, a rename over the device, would replace it) a private
// copy of /dev/null made with mknod in dir, else /dev/null itself, which
// an unprivileged rename cannot replace.
func nullDevice(t *testing.T, dir string) string {
	if os.Geteuid() != 0 {
		return "/dev/null"
	}
	p := filepath.Join(dir, "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod: %v", err)
	}
	return p
}
