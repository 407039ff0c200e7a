package repofacts

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestHashesShareOnlyUnchangedFiles: calls of one run share blob ids, but
// an edit between them, even one that keeps the size and restores the
// modification time, is hashed again.
func TestHashesShareOnlyUnchangedFiles(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no change time read on " + runtime.GOOS)
	}
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "src/a.go": "package src\n\nfunc A() {}\n", "src/b.go": "package src\n\nfunc B() {}\n"})
	r.write(map[string]string{"src/a.go": "package src\n\nfunc A() { _ = 1 }\n"})
	b := filepath.Join(r.dir, "src", "b.go")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(b, old, old); err != nil {
		t.Fatal(err)
	}

	h := &Hashes{}
	first := collect(t, Options{Root: r.dir, Hashes: h})
	if want := []string{"src/a.go"}; !cmp.Equal(first.Changed, want) {
		t.Fatalf("changed = %v, want %v", first.Changed, want)
	}
	if len(h.m) == 0 {
		t.Fatal("the first call cached no blob id")
	}
	again := collect(t, Options{Root: r.dir, Hashes: h, StateOnly: true})
	if again.State().Digest != first.State().Digest {
		t.Fatal("a second call sharing the hashes gave another state")
	}

	time.Sleep(10 * time.Millisecond) // past a coarse change-time tick
	r.write(map[string]string{"src/b.go": "package src\n\nfunc C() {}\n"})
	if err := os.Chtimes(b, old, old); err != nil {
		t.Fatal(err)
	}
	after := collect(t, Options{Root: r.dir, Hashes: h})
	if want := []string{"src/a.go", "src/b.go"}; !cmp.Equal(after.Changed, want) {
		t.Fatalf("after a backdated edit, changed = %v, want %v", after.Changed, want)
	}
}
