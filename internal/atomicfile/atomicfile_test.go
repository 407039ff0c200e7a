package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, path, data string
		perm             os.FileMode
	}{
		{"new file in a new directory", "a/b/c.txt", "one", 0o644},
		{"replace", "a/b/c.txt", "two", 0o644},
		{"executable", "hook", "#!/bin/sh\n", 0o755},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.path)
			if err := Write(p, []byte(tt.data), tt.perm); err != nil {
				t.Fatal(err)
			}
			if err := WriteUnsynced(p+".unsynced", []byte(tt.data), tt.perm); err != nil {
				t.Fatal(err)
			}
			if got, err := os.ReadFile(p + ".unsynced"); err != nil || string(got) != tt.data {
				t.Fatalf("unsynced: read %q, %v; want %q", got, err, tt.data)
			}
			os.Remove(p + ".unsynced")
			got, err := os.ReadFile(p)
			if err != nil || string(got) != tt.data {
				t.Fatalf("read %q, %v; want %q", got, err, tt.data)
			}
			st, _ := os.Stat(p)
			if st.Mode().Perm() != tt.perm {
				t.Errorf("mode %v, want %v", st.Mode().Perm(), tt.perm)
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".*"))
			if len(left) != 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
	// A directory in the way: the write fails and nothing is left behind.
	if err := Write(dir, []byte("x"), 0o644); err == nil {
		t.Error("writing over a directory succeeded")
	}
}
