//go:build unix

package safeopen

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestAppend: vouch's own state files are written only as regular files
// below real directories of the root, never through a link planted there.
func TestAppend(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "bashrc")
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		want  error // nil: opens and appends
	}{
		{"creates the directories and the file", func(t *testing.T, root string) {}, nil},
		{"existing regular file", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard"), 0o755))
			must(t, os.WriteFile(filepath.Join(root, ".vouch/guard/audit.jsonl"), []byte("old\n"), 0o644))
		}, nil},
		{"file is a symlink out", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard"), 0o755))
			must(t, os.Symlink(victim, filepath.Join(root, ".vouch/guard/audit.jsonl")))
		}, ErrLink},
		{"file is a dangling symlink", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard"), 0o755))
			must(t, os.Symlink(filepath.Join(outside, "new"), filepath.Join(root, ".vouch/guard/audit.jsonl")))
		}, ErrLink},
		{"file is a symlink inside", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard"), 0o755))
			must(t, os.WriteFile(filepath.Join(root, "main.go"), nil, 0o644))
			must(t, os.Symlink("../../main.go", filepath.Join(root, ".vouch/guard/audit.jsonl")))
		}, ErrLink},
		{"directory is a symlink", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch"), 0o755))
			must(t, os.Symlink(outside, filepath.Join(root, ".vouch/guard")))
		}, ErrLink},
		{"top directory is a symlink", func(t *testing.T, root string) {
			must(t, os.Symlink(outside, filepath.Join(root, ".vouch")))
		}, ErrLink},
		{"hard link", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard"), 0o755))
			must(t, os.Link(victim, filepath.Join(root, ".vouch/guard/audit.jsonl")))
		}, ErrLink},
		{"fifo", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard"), 0o755))
			must(t, syscall.Mkfifo(filepath.Join(root, ".vouch/guard/audit.jsonl"), 0o644))
		}, ErrNotRegular},
		{"directory in the way", func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, ".vouch/guard/audit.jsonl"), 0o755))
		}, syscall.EISDIR},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			must(t, os.WriteFile(victim, []byte("safe\n"), 0o644))
			root := t.TempDir()
			tt.setup(t, root)
			f, err := Append(root, ".vouch/guard/audit.jsonl", 0o644)
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("Append: %v, want %v", err, tt.want)
				}
				if f != nil {
					t.Fatal("a file came back with the error")
				}
			} else {
				if err != nil {
					t.Fatalf("Append: %v", err)
				}
				if _, err := f.WriteString("line\n"); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
			if data, _ := os.ReadFile(victim); string(data) != "safe\n" {
				t.Errorf("the file outside was changed: %q", data)
			}
		})
	}
	if _, err := Append(t.TempDir(), "../x", 0o644); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("Append(../x): %v, want ErrOutsideRoot", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
