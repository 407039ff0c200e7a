package fsstat

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestBackdatedEditChangesKey is why the package exists: an edit that
// keeps the size and restores the modification time still changes the
// key, through the change time.
func TestBackdatedEditChangesKey(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no change time read on " + runtime.GOOS)
	}
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("clean"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	before := key(t, p)
	if again := key(t, p); again != before {
		t.Fatalf("key of an untouched file changed: %+v then %+v", before, again)
	}
	time.Sleep(10 * time.Millisecond) // past a coarse change-time tick
	if err := os.WriteFile(p, []byte("evil!"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	after := key(t, p)
	if after.Size != before.Size || after.ModTime != before.ModTime {
		t.Fatalf("the edit was meant to keep size and mtime: %+v then %+v", before, after)
	}
	if after == before {
		t.Fatalf("a backdated edit kept the key %+v", after)
	}
}

func key(t *testing.T, p string) Key {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := KeyOf(fi)
	if !ok {
		t.Fatal("no key on a platform that has change times")
	}
	return k
}
