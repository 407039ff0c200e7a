package repofacts

import (
	"context"
	"crypto/sha1"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestIgnoreCaseConfig: core.ignorecase=true in the work's config must
// not hide an untracked file whose name differs from a base file's only
// in letter case, nor let a .gitignore pattern of other case ignore it.
func TestIgnoreCaseConfig(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"src/a.js": "module.exports = 1\n", ".gitignore": "/src/b.js\n"})
	r.git("config", "core.ignorecase", "true")
	r.write(map[string]string{"src/A.js": "module.exports = require('left-pad')\n", "src/B.js": "x\n"})
	d := collect(t, Options{Root: r.dir})
	for _, p := range []string{"src/A.js", "src/B.js"} {
		if !slices.Contains(d.Added, p) {
			t.Errorf("added = %v, want %s in it", d.Added, p)
		}
	}
}

// TestSkipWorktreeDeleted: a file deleted after its index entry was
// marked skip-worktree is deleted; the bit does not keep the index's blob.
// In a sparse checkout the absent files are not reported as deletions:
// the run fails, saying a full checkout is needed.
func TestSkipWorktreeDeleted(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "x.go": "package m\n\nfunc X() {}\n", "y.go": "package m\n"})
	r.git("update-index", "--skip-worktree", "x.go")
	r.remove("x.go")
	d := collect(t, Options{Root: r.dir})
	if !slices.Equal(d.Deleted, []string{"x.go"}) || !slices.Equal(d.GoExportsRemoved, []string{"m.X"}) {
		t.Errorf("deleted = %v, exports removed = %v; want x.go and m.X", d.Deleted, d.GoExportsRemoved)
	}
	r.write(map[string]string{".git/info/sparse-checkout": "/y.go\n"})
	_, err := Collect(context.Background(), Options{Root: r.dir})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "git sparse-checkout disable") {
		t.Errorf("sparse checkout: err = %v, want an *Error saying to use a full checkout", err)
	}
}

// TestNestedRepository: a nested repository the work creates does not
// hide its files: they are added, and their imports count. A submodule
// of the base stays out.
func TestNestedRepository(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"package.json": `{"name": "x", "dependencies": {}}`, "src/a.js": "module.exports = 1\n"})
	r.write(map[string]string{
		"src/a.js":       "module.exports = require('../lib/evil.js')\n",
		"lib/evil.js":    "module.exports = require('left-pad')\n",
		"lib/deep/x.js":  "module.exports = 2\n",
		"lib/inner/y.js": "module.exports = 3\n",
	})
	r.git("-C", "lib", "init", "-q")
	r.git("-C", "lib/inner", "init", "-q")
	d := collect(t, Options{Root: r.dir})
	want := []string{"lib/deep/x.js", "lib/evil.js", "lib/inner/y.js", "src/a.js"}
	if !slices.Equal(d.Changed, want) {
		t.Errorf("changed = %v, want %v", d.Changed, want)
	}
	found := false
	for _, x := range d.DependenciesAdded {
		found = found || (x.Name == "left-pad" && x.Source == "lib/evil.js")
	}
	if !found {
		t.Errorf("dependencies_added = %v, want left-pad from lib/evil.js", d.DependenciesAdded)
	}

	// A submodule of the base (a gitlink) stays out.
	s := newRepo(t)
	s.write(map[string]string{"sub/x.js": "1\n"})
	s.git("-C", "sub", "init", "-q")
	s.git("-C", "sub", "add", "x.js")
	s.git("-C", "sub", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "c")
	s.commit(map[string]string{"a.js": "1\n"})
	if got := s.git("ls-tree", "HEAD", "sub"); !strings.HasPrefix(got, "160000 ") {
		t.Fatalf("sub is not a gitlink at base: %q", got)
	}
	s.write(map[string]string{"sub/y.js": "2\n"})
	if d := collect(t, Options{Root: s.dir}); len(d.Changed) != 0 {
		t.Errorf("with a base submodule: changed = %v, want none", d.Changed)
	}

	// The same submodule made a plain directory (its .git removed, the
	// gitlink dropped from the index): git lists nothing below it, but
	// its files are the work's now, and the gitlink is deleted.
	if err := os.RemoveAll(filepath.Join(s.dir, "sub", ".git")); err != nil {
		t.Fatal(err)
	}
	s.write(map[string]string{"sub/evil.js": "module.exports = require('left-pad')\n"})
	s.git("rm", "-q", "--cached", "sub")
	d = collect(t, Options{Root: s.dir})
	if want := []string{"sub", "sub/evil.js", "sub/x.js", "sub/y.js"}; !slices.Equal(d.Changed, want) {
		t.Errorf("with the submodule made a plain directory: changed = %v, want %v", d.Changed, want)
	}
}

// TestLargeWorkFile: a huge sparse file is refused before it is read, not
// read whole into memory; a file whose size changes under the read is an
// error, not an id of content read later.
func TestLargeWorkFile(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"a.txt": "a\n"})
	var e *Error
	// Added, and in place of a file of the base: either is refused
	// before it is read.
	for _, name := range []string{"big.bin", "a.txt"} {
		big := filepath.Join(r.dir, name)
		if err := os.Truncate(big, 12<<30); err != nil && !os.IsNotExist(err) {
			t.Skipf("no sparse file of 12 GiB here: %v", err)
		} else if err != nil {
			if err := os.WriteFile(big, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(big, 12<<30); err != nil {
				t.Skipf("no sparse file of 12 GiB here: %v", err)
			}
		}
		start := time.Now()
		_, err := Collect(context.Background(), Options{Root: r.dir})
		if !errors.As(err, &e) || !strings.Contains(err.Error(), "512 MiB") || !strings.Contains(err.Error(), name) {
			t.Errorf("err = %v, want an *Error naming %s and the 512 MiB limit", err, name)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: took %v: the file was read", name, d)
		}
		if err := os.Remove(big); err != nil {
			t.Fatal(err)
		}
	}
	r.write(map[string]string{"a.txt": "a\n"})

	small := filepath.Join(r.dir, "a.txt")
	if _, err := hashFile(objectFormat{name: "sha1", new: sha1.New}, small, 100, make([]byte, 512)); !errors.As(err, &e) || !strings.Contains(err.Error(), "changed while vouch read it") {
		t.Errorf("size changed: err = %v, want an *Error saying to run again", err)
	}
}

// TestOddNames: names with quotes, backslashes, control characters, a
// leading quote or non-ASCII letters reach the private diff as
// themselves, with their line counts.
func TestOddNames(t *testing.T) {
	r := newRepo(t)
	names := []string{`a "b".txt`, "new\nline.txt", `back\slash.txt`, `"lead.txt`, "tab\there.txt", "ü é.txt", "sub dir/x.txt"}
	base := map[string]string{}
	for _, n := range names {
		base[n] = "one\n"
	}
	r.commit(base)
	now := map[string]string{}
	for _, n := range names {
		now[n] = "one\ntwo\n"
	}
	now["added \"x\"\n.txt"] = "a\nb\nc\n"
	r.write(now)
	d := collect(t, Options{Root: r.dir})
	got := map[string]File{}
	for _, f := range d.Files {
		got[f.Path] = f
	}
	for _, n := range names {
		if f := got[n]; f.Status != Modified || f.LinesAdded != 1 || f.LinesDeleted != 0 {
			t.Errorf("%q: %+v, want modified +1 -0", n, f)
		}
	}
	if f := got["added \"x\"\n.txt"]; f.Status != Added || f.LinesAdded != 3 {
		t.Errorf("added: %+v, want added +3", f)
	}
	if len(d.Files) != len(names)+1 {
		t.Errorf("files = %+v", d.Files)
	}
}
