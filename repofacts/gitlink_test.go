package repofacts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// subRepo makes an upstream repository with two commits and a repository
// whose base commit has it as the submodule vendor/lib at the first. It
// returns the repository, the base commit and the two commits.
func subRepo(t *testing.T) (r *repo, base, v1, v2 string) {
	t.Helper()
	up := newRepo(t)
	up.commit(map[string]string{"lib.go": "package lib\n\nfunc Safe() {}\n"})
	v1 = strings.TrimSpace(up.git("rev-parse", "HEAD"))
	up.commit(map[string]string{"lib.go": "package lib\n\nfunc Safe() { exfiltrate() }\n"})
	v2 = strings.TrimSpace(up.git("rev-parse", "HEAD"))
	r = newRepo(t)
	r.commit(map[string]string{"main.go": "package main\n"})
	r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", up.dir, "vendor/lib")
	r.git("-C", "vendor/lib", "checkout", "-q", v1)
	r.git("add", "vendor/lib")
	r.git("commit", "-q", "-m", "add lib")
	base = strings.TrimSpace(r.git("rev-parse", "HEAD"))
	return r, base, v1, v2
}

// TestGitlinks: a submodule whose commit differs between the base and
// the work (committed, staged, or only checked out there) is a changed
// path, named by its gitlink; one that does not differ is not listed,
// nor are the files of its checkout.
func TestGitlinks(t *testing.T) {
	for _, tc := range []struct {
		name string
		work func(r *repo, v1, v2 string)
		// changed, added, modified, deleted
		changed, added, modified, deleted []string
	}{
		{
			name: "bump committed",
			work: func(r *repo, v1, v2 string) {
				r.git("-C", "vendor/lib", "checkout", "-q", v2)
				r.git("add", "vendor/lib")
				r.git("commit", "-q", "-m", "bump")
			},
			changed: []string{"vendor/lib"}, modified: []string{"vendor/lib"},
		},
		{
			name: "bump staged",
			work: func(r *repo, v1, v2 string) {
				r.git("-C", "vendor/lib", "checkout", "-q", v2)
				r.git("add", "vendor/lib")
			},
			changed: []string{"vendor/lib"}, modified: []string{"vendor/lib"},
		},
		{
			name: "bump staged, HEAD moved back",
			work: func(r *repo, v1, v2 string) {
				r.git("update-index", "--cacheinfo", "160000,"+v2+",vendor/lib")
			},
			changed: []string{"vendor/lib"}, modified: []string{"vendor/lib"},
		},
		{
			name: "HEAD moved, not staged",
			work: func(r *repo, v1, v2 string) {
				r.git("-C", "vendor/lib", "checkout", "-q", v2)
			},
			changed: []string{"vendor/lib"}, modified: []string{"vendor/lib"},
		},
		{
			name: "HEAD moved on a branch",
			work: func(r *repo, v1, v2 string) {
				r.git("-C", "vendor/lib", "checkout", "-q", "-B", "work", v2)
				r.git("-C", "vendor/lib", "pack-refs", "--all")
			},
			changed: []string{"vendor/lib"}, modified: []string{"vendor/lib"},
		},
		{
			name: "HEAD moved in a .git directory",
			work: func(r *repo, v1, v2 string) {
				if err := os.Remove(filepath.Join(r.dir, "vendor", "lib", ".git")); err != nil {
					r.t.Fatal(err)
				}
				if err := os.Rename(filepath.Join(r.dir, ".git", "modules", "vendor", "lib"), filepath.Join(r.dir, "vendor", "lib", ".git")); err != nil {
					r.t.Fatal(err)
				}
				r.git("config", "--file", "vendor/lib/.git/config", "--unset", "core.worktree")
				r.git("-C", "vendor/lib", "checkout", "-q", v2)
			},
			changed: []string{"vendor/lib"}, modified: []string{"vendor/lib"},
		},
		{
			name: "an unreadable .git",
			work: func(r *repo, v1, v2 string) {
				r.write(map[string]string{"vendor/lib/.git": "not a gitdir\n"})
			},
			changed: []string{"vendor/lib"}, modified: []string{"vendor/lib"},
		},
		{
			name: "submodule removed",
			work: func(r *repo, v1, v2 string) {
				r.git("rm", "-q", "vendor/lib")
			},
			changed: []string{".gitmodules", "vendor/lib"}, modified: []string{".gitmodules"}, deleted: []string{"vendor/lib"},
		},
		{
			name: "submodule not initialised",
			work: func(r *repo, v1, v2 string) {
				r.git("submodule", "deinit", "-q", "-f", "vendor/lib")
				r.write(map[string]string{"main.go": "package main // edited\n"})
			},
			changed: []string{"main.go"}, modified: []string{"main.go"},
		},
		{
			name: "unchanged",
			work: func(r *repo, v1, v2 string) {
				r.write(map[string]string{"main.go": "package main // edited\n", "vendor/lib/new.go": "package lib\n"})
			},
			changed: []string{"main.go"}, modified: []string{"main.go"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, base, v1, v2 := subRepo(t)
			tc.work(r, v1, v2)
			d := collect(t, Options{Root: r.dir, Base: base})
			for _, c := range []struct {
				field     string
				got, want []string
			}{
				{"changed", d.Changed, tc.changed},
				{"added", d.Added, tc.added},
				{"modified", d.Modified, tc.modified},
				{"deleted", d.Deleted, tc.deleted},
			} {
				if c.want == nil {
					c.want = []string{}
				}
				if !slices.Equal(c.got, c.want) {
					t.Errorf("%s = %v, want %v", c.field, c.got, c.want)
				}
			}
			for _, f := range d.Files {
				if f.Path == "vendor/lib" && (f.LinesAdded != 0 || f.LinesDeleted != 0 || f.Binary) {
					t.Errorf("vendor/lib has line counts: %+v", f)
				}
			}
		})
	}
}

// TestGitlinkAdded: a submodule the work adds is added by its path, as
// well as .gitmodules, in the agent's tree and in a fresh clone of the
// committed work, where it is not initialised.
func TestGitlinkAdded(t *testing.T) {
	up := newRepo(t)
	up.commit(map[string]string{"evil.c": "int main(){}\n"})
	r := newRepo(t)
	r.commit(map[string]string{"main.go": "package main\n"})
	base := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", up.dir, "third_party/evil")
	d := collect(t, Options{Root: r.dir, Base: base})
	for _, p := range []string{".gitmodules", "third_party/evil"} {
		if !slices.Contains(d.Added, p) {
			t.Errorf("added = %v, want it to hold %s", d.Added, p)
		}
	}
	r.git("commit", "-q", "-m", "add")
	clone := filepath.Join(t.TempDir(), "clone")
	r.git("clone", "-q", r.dir, clone)
	d = collect(t, Options{Root: clone, Base: base})
	if want := []string{".gitmodules", "third_party/evil"}; !slices.Equal(d.Added, want) {
		t.Errorf("in a fresh clone: added = %v, want %v", d.Added, want)
	}
}

// TestGitlinkState: the state records a submodule's commit, so a bump,
// and a checkout moved after it, change the digest.
func TestGitlinkState(t *testing.T) {
	r, base, v1, v2 := subRepo(t)
	r.write(map[string]string{"main.go": "package main // edited\n"})
	state := func() State { return collect(t, Options{Root: r.dir, Base: base, StateOnly: true}).State() }
	s1 := state()
	r.git("-C", "vendor/lib", "checkout", "-q", v2)
	s2 := state()
	if s2.Digest == s1.Digest || !slices.Equal(s1.Diff(s2), []string{"vendor/lib"}) {
		t.Fatalf("a moved checkout: diff = %v", s1.Diff(s2))
	}
	r.git("add", "vendor/lib")
	s3 := state()
	if s3.Digest == s2.Digest || s3.Files["vendor/lib"] != "gitlink "+v2 {
		t.Fatalf("a staged bump: %v after %v", s3.Files, s2.Files)
	}
	r.git("-C", "vendor/lib", "checkout", "-q", v1)
	if s4 := state(); s4.Digest == s3.Digest {
		t.Fatalf("the checkout moved back after staging: state unchanged %v", s4.Files)
	}
	// The full document records the same state.
	if got := collect(t, Options{Root: r.dir, Base: base}).State(); got.Digest != state().Digest {
		t.Errorf("state differs between StateOnly and the full document: %v, %v", got.Files, state().Files)
	}
	if err := os.RemoveAll(filepath.Join(r.dir, "vendor", "lib")); err != nil {
		t.Fatal(err)
	}
	if s := state(); s.Files["vendor/lib"] != "gitlink "+v2 {
		t.Errorf("with the checkout gone: %v", s.Files)
	}
}
