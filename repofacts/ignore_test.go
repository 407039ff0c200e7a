package repofacts

import (
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vouch-dev/vouch/imports"
)

// repoFiles lists the files imports resolve against (vouch lint's
// listing) under trusted, without the default excluded directories.
func repoFiles(t *testing.T, dir string, trusted imports.TrustedTree) []string {
	t.Helper()
	repo, err := imports.ListRepo(context.Background(), dir, trusted)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for f := range repo.Files {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// TestIgnoreRulesTheWorkAdds: a file only a .gitignore rule the work
// added ignores is a change, and its imports count, whether the rule is
// in a new .gitignore, added to one the base has, or committed after the
// base; lint's listing under the same base lists it too. What the base's
// rules ignored stays out.
func TestIgnoreRulesTheWorkAdds(t *testing.T) {
	evil := "package internal\n\nimport \"os/exec\"\n\nvar _ = exec.Command\n"
	tests := []struct {
		name   string
		write  map[string]string
		commit bool // the work commits its changes; the base is the first commit
		want   []string
	}{
		{"new .gitignore", map[string]string{"internal/.gitignore": "evil.go\n"}, false,
			[]string{"internal/.gitignore", "internal/evil.go"}},
		{"rule added to the base's .gitignore", map[string]string{".gitignore": "node_modules/\nevil.go\n"}, false,
			[]string{".gitignore", "internal/evil.go"}},
		{"rule committed after the base", map[string]string{"internal/.gitignore": "evil.go\n"}, true,
			[]string{"internal/.gitignore", "internal/evil.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(map[string]string{".gitignore": "node_modules/\n", "go.mod": goMod, "internal/ok.go": "package internal\n"})
			base := strings.TrimSpace(r.git("rev-parse", "HEAD"))
			r.write(map[string]string{"node_modules/m/index.js": "require('child_process')\n", "internal/evil.go": evil})
			r.write(tt.write)
			if tt.commit {
				r.git("add", "internal/.gitignore")
				r.git("commit", "-q", "-m", "hide")
			}
			d := collect(t, Options{Root: r.dir, Base: base})
			if !slices.Equal(d.Changed, tt.want) {
				t.Errorf("changed = %v, want %v", d.Changed, tt.want)
			}
			found := false
			for _, rec := range d.ImportsAdded {
				found = found || rec.File == "internal/evil.go" && rec.Spec == "os/exec"
			}
			if !found {
				t.Errorf("imports_added = %v, want os/exec from internal/evil.go", d.ImportsAdded)
			}
			files := repoFiles(t, r.dir, BaseTree(r.dir, base, "--base"))
			if !slices.Contains(files, "internal/evil.go") || slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "node_modules/") }) {
				t.Errorf("lint's listing under the base = %v, want internal/evil.go and nothing of node_modules", files)
			}
			// HEAD trusts a rule once it is committed (plain vouch
			// lint); the base does not.
			head := repoFiles(t, r.dir, HeadTree(r.dir))
			if got := slices.Contains(head, "internal/evil.go"); got == tt.commit {
				t.Errorf("lint's listing under HEAD lists internal/evil.go: %v, want %v", got, !tt.commit)
			}
		})
	}
}

// TestIgnoreRulesSameListing: repository facts and lint's listing agree
// on which ignored files are work: every file lint lists beyond the
// base's own is a change.
func TestIgnoreRulesSameListing(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{".gitignore": "build/\n*.log\n", "web/.gitignore": "dist/\n", "web/a.js": "module.exports = 1\n"})
	r.write(map[string]string{
		".gitignore":       "build/\n*.log\ngen/\n",
		"build/out.js":     "x\n",
		"web/dist/b.js":    "x\n",
		"web/.gitignore":   "dist/\nlocal.js\n",
		"web/local.js":     "require('child_process')\n",
		"gen/a/b.js":       "x\n",
		"gen/a/c.log":      "x\n",
		"web/x.log":        "x\n",
		"tools/.gitignore": "*\n",
		"tools/t.js":       "x\n",
	})
	d := collect(t, Options{Root: r.dir})
	want := []string{".gitignore", "gen/a/b.js", "gen/a/c.log", "tools/.gitignore", "tools/t.js", "web/.gitignore", "web/local.js"}
	if !slices.Equal(d.Changed, want) {
		t.Errorf("changed = %v, want %v", d.Changed, want)
	}
	files := repoFiles(t, r.dir, BaseTree(r.dir, "", ""))
	for _, f := range append(want, "web/a.js") {
		if !slices.Contains(files, f) {
			t.Errorf("lint's listing lacks %s: %v", f, files)
		}
	}
	for _, f := range []string{"build/out.js", "web/dist/b.js", "web/x.log"} {
		if slices.Contains(files, f) {
			t.Errorf("lint's listing has %s, which the base's rules ignore", f)
		}
	}
}

// TestIgnoreRulesForgedBase: the base's .gitignore is read through
// verified objects, so a forged blob that gives it the work's rule is an
// error, not a trusted rule.
func TestIgnoreRulesForgedBase(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{".gitignore": "node_modules/\n", "a.go": "package a\n"})
	r.write(map[string]string{".gitignore": "node_modules/\nevil.go\n", "evil.go": "package a\n"})
	forged := strings.TrimSpace(r.git("hash-object", "-w", ".gitignore"))
	forgeObject(t, r, strings.TrimSpace(r.git("rev-parse", "HEAD:.gitignore")), forged)
	for name, tree := range map[string]imports.TrustedTree{"HEAD": HeadTree(r.dir), "base": BaseTree(r.dir, "", "")} {
		_, err := imports.ListRepo(context.Background(), r.dir, tree)
		wantTampered(t, err, name)
	}
}

// TestIgnoreRulesNoCommit: with no commit to trust, the work tree's
// rules stand (everything is added anyway).
func TestIgnoreRulesNoCommit(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{".gitignore": "evil.go\n", "a.go": "package a\n", "evil.go": "package a\n"})
	for name, tree := range map[string]imports.TrustedTree{"HEAD": HeadTree(r.dir), "base": BaseTree(r.dir, "", "")} {
		if files := repoFiles(t, r.dir, tree); !slices.Equal(files, []string{".gitignore", "a.go"}) {
			t.Errorf("%s: files = %v, want .gitignore and a.go", name, files)
		}
	}
	// A base that names no commit is an error, as it is for repository
	// facts.
	_, err := imports.ListRepo(context.Background(), r.dir, BaseTree(r.dir, "nope", "--base"))
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("unknown base: err = %v, want an *Error", err)
	}
}

// TestIgnoreRulesSHA256: HeadTree reads the object format off the ids
// git prints.
func TestIgnoreRulesSHA256(t *testing.T) {
	r := newRepo(t)
	if err := os.RemoveAll(filepath.Join(r.dir, ".git")); err != nil {
		t.Fatal(err)
	}
	c := osexec.Command("git", "init", "-q", "-b", "main", "--object-format=sha256")
	c.Dir = r.dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Skipf("no sha256 repositories here: %v %s", err, out)
	}
	r.git("config", "user.email", "t@example.com")
	r.git("config", "user.name", "t")
	r.commit(map[string]string{".gitignore": "node_modules/\n", "sub/a.go": "package a\n"})
	r.write(map[string]string{"node_modules/x.js": "", "sub/.gitignore": "evil.go\n", "sub/evil.go": ""})
	if files := repoFiles(t, r.dir, HeadTree(r.dir)); !slices.Equal(files, []string{".gitignore", "sub/.gitignore", "sub/a.go", "sub/evil.go"}) {
		t.Errorf("files = %v", files)
	}
}

// TestIgnoreRulesFromTheIndex: git reads the rules of a .gitignore marked
// skip-worktree and absent from the work tree out of the index, which the
// work controls; such a rule hides nothing from lint's listing, and the
// file is a change.
func TestIgnoreRulesFromTheIndex(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"go.mod": goMod, "internal/ok.go": "package internal\n"})
	r.write(map[string]string{"internal/evil.go": "package internal\n", "internal/.gitignore": "evil.go\n"})
	r.git("add", "internal/.gitignore")
	r.git("update-index", "--skip-worktree", "internal/.gitignore")
	r.remove("internal/.gitignore")
	if files := repoFiles(t, r.dir, BaseTree(r.dir, "", "")); !slices.Contains(files, "internal/evil.go") {
		t.Errorf("lint's listing = %v, want internal/evil.go in it", files)
	}
	if d := collect(t, Options{Root: r.dir}); !slices.Contains(d.Added, "internal/evil.go") {
		t.Errorf("added = %v, want internal/evil.go in it", d.Added)
	}
}
