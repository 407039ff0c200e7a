package repofacts

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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

// TestUntarConfined: a hostile archive cannot write outside the directory
// or plant links.
func TestUntarConfined(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(h tar.Header, body string) {
		h.Size = int64(len(body))
		h.Mode = 0o644
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	add(tar.Header{Name: "ok/", Typeflag: tar.TypeDir}, "")
	add(tar.Header{Name: "ok/f.go", Typeflag: tar.TypeReg}, "fine")
	add(tar.Header{Name: "../escape.go", Typeflag: tar.TypeReg}, "bad")
	add(tar.Header{Name: "ok/../../escape2.go", Typeflag: tar.TypeReg}, "bad")
	add(tar.Header{Name: "/abs.go", Typeflag: tar.TypeReg}, "bad")
	add(tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc"}, "")
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	dst := filepath.Join(parent, "dst")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := untar(&buf, dst); err != nil {
		t.Fatal(err)
	}
	got := listTree(t, parent)
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if diff := cmp.Diff([]string{"dst/ok/f.go"}, keys); diff != "" {
		t.Errorf("files written (-want +got):\n%s", diff)
	}
	if _, err := os.Lstat(filepath.Join(dst, "link")); !os.IsNotExist(err) {
		t.Errorf("symlink was created: %v", err)
	}
}
