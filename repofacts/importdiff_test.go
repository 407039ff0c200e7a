package repofacts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportDiffIgnoresGitExcludes: the files imports resolve against are
// listed as vouch lint lists them, from .gitignore files only, so a file
// the work hides through .git/info/exclude or core.excludesFile (both
// writable by the agent), or through a .gitignore rule the base lacks,
// still is the internal target of an import, while loading a file a rule of the
// base's .gitignore ignores is refused: node loads it, unchecked.
func TestImportDiffIgnoresGitExcludes(t *testing.T) {
	tests := []struct {
		name   string
		hide   func(r *repo)
		target string // Resolution.Target of web/a.js's import, "" unresolved
		// err is what Collect's error says, "" for none: a file the
		// base's .gitignore ignores is unresolved, and node loads it, so
		// the work that loads it is refused (unlistedLoads).
		err string
	}{
		{"not hidden", func(r *repo) {}, "web/helper.js", ""},
		{".git/info/exclude", func(r *repo) {
			r.write(map[string]string{".git/info/exclude": "web/helper.js\n"})
		}, "web/helper.js", ""},
		{"core.excludesFile", func(r *repo) {
			r.write(map[string]string{"excludes": "helper.js\n"})
			r.git("config", "core.excludesFile", filepath.Join(r.dir, "excludes"))
		}, "web/helper.js", ""},
		{".gitignore the work adds", func(r *repo) {
			r.write(map[string]string{"web/.gitignore": "helper.js\n"})
		}, "web/helper.js", ""},
		{".gitignore of the base", func(r *repo) {
			r.write(map[string]string{"web/.gitignore": "helper.js\n"})
			r.git("add", "web/.gitignore")
			r.git("commit", "-q", "-m", "ignore")
		}, "", "web/a.js:1: ./helper loads web/helper.js (not in the listing"},
		// Through a symlinked directory inside the root, as vouch lint
		// resolves it: web/link -> ../infra.
		{"symlinked directory", func(r *repo) {
			r.write(map[string]string{"web/a.js": "require(\"./link/db.js\")\n", "infra/db.js": "module.exports = 1\n"})
			if err := os.Symlink("../infra", filepath.Join(r.dir, "web", "link")); err != nil {
				t.Fatal(err)
			}
		}, "infra/db.js", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(map[string]string{"README": "x\n"})
			r.write(map[string]string{"web/a.js": "require(\"./helper\")\n", "web/helper.js": "module.exports = 1\n"})
			tt.hide(r)
			d, err := Collect(context.Background(), Options{Root: r.dir})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to say %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rec := range d.ImportsAdded {
				if rec.File == "web/a.js" {
					got = append(got, string(rec.Resolution.Kind)+" "+rec.Resolution.Target)
				}
			}
			kind := "internal "
			if tt.target == "" {
				kind = "unresolved "
			}
			if diff := cmp.Diff([]string{kind + tt.target}, got); diff != "" {
				t.Errorf("web/a.js's import (-want +got):\n%s", diff)
			}
		})
	}
}
