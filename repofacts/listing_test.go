package repofacts

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
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
