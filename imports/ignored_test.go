package imports

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitTree is a TrustedTree read with plain git commands, for tests:
// repofacts' reader (which verifies every object) is tested there.
type gitTree struct{ root, rev string }

func (t gitTree) Name() string { return t.rev }

func (t gitTree) Open(ctx context.Context) (TreeReader, error) {
	if _, err := exec.Command("git", "-C", t.root, "rev-parse", "--verify", "--quiet", t.rev+"^{commit}").Output(); err != nil {
		return nil, ErrNoCommit
	}
	out, err := exec.Command("git", "-C", t.root, "ls-tree", "-r", "-t", "-z", "--full-tree", t.rev).Output()
	if err != nil {
		return nil, err
	}
	r := &gitTreeReader{root: t.root, entries: map[string][2]string{}}
	for _, rec := range splitNUL(out) {
		meta, p, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		r.entries[p] = [2]string{f[0], f[2]}
	}
	return r, nil
}

type gitTreeReader struct {
	root    string
	entries map[string][2]string // mode, id
}

func (r *gitTreeReader) Close() {}

func (r *gitTreeReader) Lookup(paths []string) ([]TreeEntry, error) {
	out := make([]TreeEntry, len(paths))
	for i, p := range paths {
		e, ok := r.entries[p]
		if !ok {
			continue
		}
		out[i].Present = true
		if e[0] != "100644" && e[0] != "100755" {
			continue
		}
		out[i].File = true
		if path.Base(p) == ".gitignore" {
			data, err := exec.Command("git", "-C", r.root, "cat-file", "blob", e[1]).Output()
			if err != nil {
				return nil, err
			}
			out[i].Data = data
		}
	}
	return out, nil
}

// failingTree fails to open.
type failingTree struct{}

func (failingTree) Name() string { return "HEAD" }
func (failingTree) Open(context.Context) (TreeReader, error) {
	return nil, errors.New("cannot read the object store")
}

// listUnignored is ListUnignored as listFiles calls it, told the
// skip-worktree .gitignore files of the index.
func listUnignored(root string, tree TrustedTree) ([]Unignored, error) {
	_, skip, _, _ := gitFiles(context.Background(), root)
	return ListUnignored(context.Background(), root, tree, func() []string { return skip })
}

func runIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestListUnignored: a path a .gitignore in the work tree ignores is
// listed unless the trusted commit ignores it by the same rule. Each case
// commits base (force-adding force), then changes the work tree.
func TestListUnignored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	tests := []struct {
		name     string
		base     map[string]string
		force    []string // force-added to the base
		noCommit bool     // the base is staged, never committed
		write    map[string]string
		remove   []string
		git      [][]string // run after the writes, before the removals
		root     string     // the listing's root below the top level
		want     []string   // path gitignore:line
	}{
		{
			name:  "new untracked .gitignore",
			base:  map[string]string{"internal/ok.go": "package internal\n"},
			write: map[string]string{"internal/evil.go": "package internal\n", "internal/.gitignore": "evil.go\n"},
			want:  []string{"internal/evil.go internal/.gitignore:1"},
		},
		{
			name:  "new .gitignore staged",
			base:  map[string]string{"internal/ok.go": "package internal\n"},
			write: map[string]string{"internal/evil.go": "package internal\n", "internal/.gitignore": "evil.go\n"},
			git:   [][]string{{"add", "internal/.gitignore"}},
			want:  []string{"internal/evil.go internal/.gitignore:1"},
		},
		{
			name:  "rule appended to a tracked .gitignore",
			base:  map[string]string{".gitignore": "node_modules/\n", "a.go": "package a\n"},
			write: map[string]string{".gitignore": "node_modules/\n*.tmp\nevil.go\n", "evil.go": "package a\n", "x.tmp": "", "node_modules/m/i.js": ""},
			want:  []string{"evil.go .gitignore:3", "x.tmp .gitignore:2"},
		},
		{
			name:  "base rules hide what they hid",
			base:  map[string]string{".gitignore": "node_modules/\nbuild/\n*.pyc\n", "pkg/a.py": "", "web/.gitignore": "dist/\n"},
			write: map[string]string{"node_modules/m/i.js": "", "build/out/x.go": "", "pkg/__pycache__/a.pyc": "", "web/dist/app.js": "", "sub/node_modules/y.js": ""},
		},
		{
			name:  "a rule moved below a negation",
			base:  map[string]string{".gitignore": "*.log\n!keep.log\n", "a.go": ""},
			write: map[string]string{".gitignore": "!keep.log\n*.log\n", "keep.log": "", "other.log": ""},
			want:  []string{"keep.log .gitignore:2", "other.log .gitignore:2"},
		},
		{
			name:  "a negation removed",
			base:  map[string]string{".gitignore": "*.gen.go\n!api.gen.go\n", "a.go": ""},
			write: map[string]string{".gitignore": "*.gen.go\n", "api.gen.go": "", "db.gen.go": ""},
			want:  []string{"api.gen.go .gitignore:1", "db.gen.go .gitignore:1"},
		},
		{
			name:   "a deeper .gitignore that un-ignored removed",
			base:   map[string]string{".gitignore": "secret*\n", "sub/.gitignore": "!secret.go\n", "sub/a.go": ""},
			write:  map[string]string{"sub/secret.go": ""},
			remove: []string{"sub/.gitignore"},
			want:   []string{"sub/secret.go .gitignore:1"},
		},
		{
			name:  "rules added below leave the base's rules above trusted",
			base:  map[string]string{".gitignore": "*.log\n", "web/.gitignore": "dist/\n", "web/a.js": ""},
			write: map[string]string{"web/.gitignore": "# local\ndist/\nlocal.js\n", "web/x.log": "", "web/dist/b.js": "", "web/local.js": ""},
			want:  []string{"web/local.js web/.gitignore:3"},
		},
		{
			name:  "a directory ignored by a new rule",
			base:  map[string]string{".gitignore": "*.o\n", "a.go": ""},
			write: map[string]string{".gitignore": "*.o\ngen/\n", "gen/a.go": "", "gen/b/c.go": "", "gen/b/d.o": ""},
			want:  []string{"gen/a.go .gitignore:2", "gen/b/c.go .gitignore:2", "gen/b/d.o .gitignore:2"},
		},
		{
			name:  "a file the base tracks, untracked",
			base:  map[string]string{".gitignore": "*.gen.go\nbuild/\n", "a.go": ""},
			force: []string{"api.gen.go", "build/keep.go"},
			write: map[string]string{"api.gen.go": "package x\n", "build/keep.go": "package x\n", "db.gen.go": ""},
			git:   [][]string{{"rm", "-q", "--cached", "api.gen.go", "build/keep.go"}},
			want:  []string{"api.gen.go .gitignore:1", "build/keep.go .gitignore:2"},
		},
		{
			name:     "no commit: the work tree's rules stand",
			base:     map[string]string{".gitignore": "evil.go\n", "a.go": ""},
			noCommit: true,
			write:    map[string]string{"evil.go": ""},
		},
		{
			name:  "a root below the top level",
			base:  map[string]string{".gitignore": "*.o\n", "app/a.go": "", "lib/b.go": ""},
			write: map[string]string{".gitignore": "*.o\nevil.go\n", "app/evil.go": "", "lib/evil.go": "", "app/.gitignore": "x/\n", "app/x/y.go": ""},
			root:  "app",
			want:  []string{"evil.go ../.gitignore:2", "x/y.go .gitignore:1"},
		},
		{
			name:  "a parent ignored through .git/info/exclude",
			base:  map[string]string{"a.go": ""},
			write: map[string]string{"lib/.gitignore": "evil.go\n", "lib/evil.go": "", ".git/info/exclude": "lib/\n"},
			// check-ignore names the exclude file's rule for the parent:
			// not a .gitignore's, so the path is listed.
			want: []string{"lib/evil.go .git/info/exclude:1"},
		},
		{
			name:  "a .gitignore that ignores itself",
			base:  map[string]string{"a.go": ""},
			write: map[string]string{"lib/.gitignore": "*\n", "lib/evil.go": ""},
			want:  []string{"lib/.gitignore lib/.gitignore:1", "lib/evil.go lib/.gitignore:1"},
		},
		{
			// check-ignore must not read ":/secret.go" as the pathspec
			// of secret.go at the top, which the base's rule ignores.
			name:  "a name git could read as pathspec magic",
			base:  map[string]string{".gitignore": "/secret.go\n", "a.go": ""},
			write: map[string]string{":/.gitignore": "secret.go\n", ":/secret.go": "", "odd\nname [x] *.go": "", ".gitignore": "/secret.go\nodd*\n"},
			want:  []string{":/secret.go :/.gitignore:1", "odd\nname [x] *.go .gitignore:2"},
		},
		{
			// git reads the rules of a skip-worktree .gitignore absent
			// from the work tree out of the index; check-ignore does not.
			name:   "rules read from the index",
			base:   map[string]string{"a.go": ""},
			write:  map[string]string{"internal/evil.go": "", "internal/.gitignore": "evil.go\n"},
			git:    [][]string{{"add", "internal/.gitignore"}, {"update-index", "--skip-worktree", "internal/.gitignore"}},
			remove: []string{"internal/.gitignore"},
			want:   []string{"internal/evil.go :0"},
		},
		{
			name:  "a line the base has in another .gitignore",
			base:  map[string]string{".gitignore": "evil.go\n", "a.go": ""},
			write: map[string]string{"lib/.gitignore": "evil.go\n", "lib/evil.go": ""},
			want:  []string{"lib/evil.go lib/.gitignore:1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			runIn(t, top, "init", "-q", "-b", "main")
			writeFiles(t, top, tt.base)
			runIn(t, top, "add", "-A")
			for _, f := range tt.force {
				writeFiles(t, top, map[string]string{f: ""})
				runIn(t, top, "add", "-f", f)
			}
			if !tt.noCommit {
				runIn(t, top, "commit", "-q", "-m", "base")
			}
			writeFiles(t, top, tt.write)
			for _, args := range tt.git {
				runIn(t, top, args...)
			}
			for _, f := range tt.remove {
				if err := os.Remove(filepath.Join(top, f)); err != nil {
					t.Fatal(err)
				}
			}
			root := filepath.Join(top, tt.root)
			got, err := listUnignored(root, gitTree{root: top, rev: "HEAD"})
			if err != nil {
				t.Fatal(err)
			}
			var gotS []string
			for _, u := range got {
				gotS = append(gotS, u.Path+" "+u.Gitignore+":"+strconv.Itoa(u.Line))
				if u.Why == "" {
					t.Errorf("%s: no reason given", u.Path)
				}
			}
			if diff := cmp.Diff(tt.want, gotS); diff != "" {
				t.Errorf("listed (-want +got):\n%s", diff)
			}
			// Not told the index's skip-worktree files, no absent
			// .gitignore counts as absent: the same answer.
			slow, err := ListUnignored(context.Background(), root, gitTree{root: top, rev: "HEAD"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, slow); diff != "" {
				t.Errorf("without the fast path (-fast +slow):\n%s", diff)
			}
		})
	}
}

// TestListUnignoredReasons: the reason names what the trusted commit
// lacks.
func TestListUnignoredReasons(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	runIn(t, top, "init", "-q", "-b", "main")
	writeFiles(t, top, map[string]string{".gitignore": "*.o\n!keep.o\n", "a.go": ""})
	runIn(t, top, "add", "-A")
	runIn(t, top, "commit", "-q", "-m", "base")
	writeFiles(t, top, map[string]string{".gitignore": "*.o\nevil.go\n", "evil.go": "", "keep.o": "", "lib/.gitignore": "x.go\n", "lib/x.go": ""})
	got, err := listUnignored(top, gitTree{root: top, rev: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, u := range got {
		why[u.Path] = u.Why
	}
	want := map[string]string{
		"evil.go":  "the rule is not in HEAD's .gitignore",
		"keep.o":   `HEAD's .gitignore has a rule after it (line 2, "!keep.o") that no longer follows it`,
		"lib/x.go": "HEAD has no lib/.gitignore",
	}
	if diff := cmp.Diff(want, why); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

// TestListUnignoredFailsClosed: when the trusted tree cannot be read, the
// listing fails instead of honouring the work tree's rules; Scan and
// ListRepo pass the failure on.
func TestListUnignoredFailsClosed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	runIn(t, top, "init", "-q", "-b", "main")
	writeFiles(t, top, map[string]string{"a.go": "package a\n"})
	runIn(t, top, "add", "-A")
	runIn(t, top, "commit", "-q", "-m", "base")
	// Nothing ignored: nothing to check, nothing read.
	if _, err := Scan(context.Background(), top, Options{NoCache: true, Trusted: failingTree{}}); err != nil {
		t.Fatalf("nothing ignored: %v", err)
	}
	writeFiles(t, top, map[string]string{".gitignore": "evil.go\n", "evil.go": "package a\n"})
	if _, err := listUnignored(top, failingTree{}); err == nil || !strings.Contains(err.Error(), "cannot read the object store") {
		t.Errorf("ListUnignored: err = %v, want the tree's error", err)
	}
	if _, err := Scan(context.Background(), top, Options{NoCache: true, Trusted: failingTree{}}); err == nil {
		t.Errorf("Scan: want an error")
	}
	if _, err := ListRepo(context.Background(), top, failingTree{}); err == nil {
		t.Errorf("ListRepo: want an error")
	}
	// A git that fails (here: no git on PATH for the second listing is
	// hard to arrange; a root git cannot read is not a work tree, and
	// falls back to walking) is an error too.
	if _, err := ListUnignored(context.Background(), t.TempDir(), gitTree{root: top, rev: "HEAD"}, nil); err == nil {
		t.Errorf("ListUnignored outside a work tree: want an error")
	}
}

// TestScanTrusted: Scan lists and reads what Options.Trusted does not
// let the work tree's .gitignore files hide, and says so in Unignored;
// the default excluded directories stay out.
func TestScanTrusted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	runIn(t, top, "init", "-q", "-b", "main")
	writeFiles(t, top, map[string]string{".gitignore": "build/\n", "go.mod": "module m\n", "a.go": "package m\n"})
	runIn(t, top, "add", "-A")
	runIn(t, top, "commit", "-q", "-m", "base")
	writeFiles(t, top, map[string]string{
		"internal/.gitignore":  "evil.go\n",
		"internal/evil.go":     "package internal\n\nimport \"os/exec\"\n",
		"build/gen.go":         "package build\n\nimport \"net\"\n",
		".gitignore":           "build/\nvendor/\n",
		"vendor/v/v.go":        "package v\n\nimport \"net\"\n",
		"node_modules/m/i.js":  "require('child_process')\n",
		"other/.gitignore":     "node_modules/\n",
		"other/node_modules/x": "",
	})
	res := mustScan(t, top, Options{NoCache: true, Trusted: gitTree{root: top, rev: "HEAD"}})
	if diff := cmp.Diff([]string{"internal/evil.go:3 os/exec -> stdlib os/exec"}, siteKeys(res.Records)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	var paths []string
	for _, u := range res.Unignored {
		paths = append(paths, u.Path)
	}
	if want := []string{"internal/evil.go"}; !slices.Equal(paths, want) {
		t.Errorf("unignored = %v, want %v", paths, want)
	}
	// Without Trusted the work tree's rules stand, as before.
	res = mustScan(t, top, Options{NoCache: true})
	if len(res.Records) != 0 || len(res.Unignored) != 0 {
		t.Errorf("without Trusted: records %v, unignored %v; want none", siteKeys(res.Records), res.Unignored)
	}
}
