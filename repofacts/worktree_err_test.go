package repofacts

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotWorkTreeOnlyWithoutGit: only a root with no .git above it is
// ErrNotWorkTree; a repository git refuses to read is another error.
func TestNotWorkTreeOnlyWithoutGit(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"a.txt": "a\n"})
	r.git("config", "core.repositoryformatversion", "99")
	for _, f := range []func() error{
		func() error { _, err := Collect(context.Background(), Options{Root: r.dir}); return err },
		func() error {
			_, err := Collect(context.Background(), Options{Root: r.dir, StateOnly: true})
			return err
		},
		func() error { _, err := Revision(context.Background(), r.dir, "HEAD", "--new-from-rev"); return err },
	} {
		err := f()
		var e *Error
		if err == nil || errors.Is(err, ErrNotWorkTree) || !errors.As(err, &e) || !strings.Contains(err.Error(), "repair the repository") {
			t.Errorf("broken repository: got %v, want an *Error that is not ErrNotWorkTree", err)
		}
	}

	dir := t.TempDir()
	if _, ok := gitEntryDir(dir); ok {
		t.Skip("the temporary directory is inside a git work tree")
	}
	_, err := Collect(context.Background(), Options{Root: dir})
	var e *Error
	if !errors.Is(err, ErrNotWorkTree) || !errors.As(err, &e) {
		t.Errorf("no repository: got %v, want ErrNotWorkTree", err)
	}
	if _, err := Revision(context.Background(), dir, "HEAD", "--new-from-rev"); !errors.Is(err, ErrNotWorkTree) {
		t.Errorf("Revision without a repository: got %v, want ErrNotWorkTree", err)
	}
}

// TestCoreWorktreeElsewhere: a repository whose core.worktree names a
// parent directory puts the root's files under a prefix no base path has,
// so deletions and removed exports vanished; it is refused.
func TestCoreWorktreeElsewhere(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "api/api.go": "package api\n\nfunc Open() {}\n\nfunc Close() {}\n", "notes.txt": "x\n"})
	r.write(map[string]string{"api/api.go": "package api\n\nfunc Open() {}\n"})
	r.remove("notes.txt")
	r.git("config", "core.worktree", filepath.Dir(r.dir))
	_, err := Collect(context.Background(), Options{Root: r.dir})
	var e *Error
	if err == nil || errors.Is(err, ErrNotWorkTree) || !errors.As(err, &e) || !strings.Contains(err.Error(), "core.worktree") {
		t.Fatalf("got %v, want an *Error naming core.worktree", err)
	}
}

// TestBaseCommit: the base resolves as Collect resolves it, given or by
// default, and outside a work tree the error is ErrNotWorkTree.
func TestBaseCommit(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"a.txt": "a\n"})
	first := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.commit(map[string]string{"a.txt": "b\n"})
	head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	for _, tc := range []struct{ base, want string }{{"", head}, {first, first}, {"HEAD~1", first}} {
		got, err := BaseCommit(context.Background(), r.dir, tc.base, "--base")
		if err != nil || got != tc.want {
			t.Errorf("BaseCommit(%q) = %q, %v; want %q", tc.base, got, err, tc.want)
		}
		d := collect(t, Options{Root: r.dir, Base: tc.base, StateOnly: true})
		if d.BaseCommit != got {
			t.Errorf("BaseCommit(%q) = %q, but Collect compares with %q", tc.base, got, d.BaseCommit)
		}
	}
	dir := t.TempDir()
	if _, ok := gitEntryDir(dir); ok {
		t.Skip("the temporary directory is inside a git work tree")
	}
	if _, err := BaseCommit(context.Background(), dir, "", ""); !errors.Is(err, ErrNotWorkTree) {
		t.Errorf("outside a work tree: got %v, want ErrNotWorkTree", err)
	}
}
