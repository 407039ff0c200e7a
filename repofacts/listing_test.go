package repofacts

import (
	"slices"
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
