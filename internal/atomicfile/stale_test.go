package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestRemoveStale: a write removes the temporary files that killed
// writers of the same target left behind (a SIGKILL between create and
// rename), and keeps those a live writer may still rename.
func TestRemoveStale(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	live := strconv.Itoa(os.Getppid())
	dir := t.TempDir()
	files := []struct {
		name string
		age  time.Duration
		kept bool
	}{
		{".x.dl.vouch-tmp-" + dead + "-123", 0, false},
		{".x.dl.vouch-tmp-" + live + "-124", 0, true},
		{".x.dl.vouch-tmp-" + live + "-125", time.Hour, false},
		{".x.dl.1234567", time.Hour, false}, // an older vouch's temp file
		{".x.dl.7654321", 0, true},          // perhaps being written now
		{".y.dl.vouch-tmp-" + dead + "-1", 0, true},
		{".x.dl.notours", time.Hour, true},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Now().Add(-f.age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(filepath.Join(dir, "x.dl"), []byte("whole"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if kept := err == nil; kept != f.kept {
			t.Errorf("%s: kept %v, want %v", f.name, kept, f.kept)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 5 { // x.dl and the four kept
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v", names)
	}
}
