package repofacts

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// listTree is every regular file under dir with its content.
func listTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestExtractTree(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"sub/a.go": "old a", "sub/d/b.go": "b", "top.txt": "t"})
	first := r.git("rev-parse", "HEAD")
	r.commit(map[string]string{"sub/a.go": "new a", "sub/c.go": "c"})
	ctx := context.Background()
	commit, err := Revision(ctx, filepath.Join(r.dir, "sub"), "HEAD~1", "--new-from-rev")
	if err != nil {
		t.Fatal(err)
	}
	if commit+"\n" != first {
		t.Fatalf("Revision(HEAD~1) = %s, want %s", commit, first)
	}
	// Only the root's part of the tree, as it was at the commit.
	dst := t.TempDir()
	if err := ExtractTree(ctx, filepath.Join(r.dir, "sub"), commit, dst); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"a.go": "old a", "d/b.go": "b"}, listTree(t, dst)); diff != "" {
		t.Errorf("extracted tree (-want +got):\n%s", diff)
	}
	var e *Error
	if _, err := Revision(ctx, r.dir, "no-such-ref", "--new-from-rev"); !errors.As(err, &e) {
		t.Errorf("unknown revision: got %v, want *Error", err)
	}
	if _, err := Revision(ctx, t.TempDir(), "HEAD", "--new-from-rev"); !errors.As(err, &e) {
		t.Errorf("outside a work tree: got %v, want *Error", err)
	}
}

// TestExtractTreeRegularFilesOnly: links and submodules in a commit are
// not written (a tree from history is not trusted to stay inside the
// directory), large files are written whole, and executables are files.
func TestExtractTreeRegularFilesOnly(t *testing.T) {
	r := newRepo(t)
	big := strings.Repeat("x", 5<<20)
	r.write(map[string]string{"ok/f.go": "fine", "big.bin": big, "run.sh": "#!/bin/sh\n"})
	if err := os.Symlink("/etc", filepath.Join(r.dir, "link")); err != nil {
		t.Fatal(err)
	}
	r.git("add", "-A")
	r.git("update-index", "--chmod=+x", "run.sh")
	// A submodule entry (a gitlink) points at a commit, not at a file.
	r.git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("1", 40)+",sub")
	r.git("commit", "-q", "-m", "c")
	dst := t.TempDir()
	if err := ExtractTree(context.Background(), r.dir, "HEAD", dst); err != nil {
		t.Fatal(err)
	}
	got := listTree(t, dst)
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if diff := cmp.Diff([]string{"big.bin", "ok/f.go", "run.sh"}, keys); diff != "" {
		t.Errorf("files written (-want +got):\n%s", diff)
	}
	if got["big.bin"] != big {
		t.Errorf("big.bin has %d bytes, want %d", len(got["big.bin"]), len(big))
	}
	for _, name := range []string{"link", "sub"} {
		if _, err := os.Lstat(filepath.Join(dst, name)); !os.IsNotExist(err) {
			t.Errorf("%s was created: %v", name, err)
		}
	}
}
