package repofacts

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// repo is a temporary git repository for tests.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.git("config", "user.email", "t@example.com")
	r.git("config", "user.name", "t")
	r.git("config", "commit.gpgsign", "false")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	c := exec.Command("git", args...)
	c.Dir = r.dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+r.dir)
	out, err := c.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (r *repo) write(files map[string]string) {
	r.t.Helper()
	for p, content := range files {
		full := filepath.Join(r.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *repo) remove(paths ...string) {
	for _, p := range paths {
		if err := os.Remove(filepath.Join(r.dir, filepath.FromSlash(p))); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *repo) commit(files map[string]string) {
	r.t.Helper()
	r.write(files)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "c", "--allow-empty")
}

// summary is the part of a document most tests compare.
type summary struct {
	Files               []File
	Changed             []string
	Added               []string
	Modified            []string
	Deleted             []string
	Renamed             []string
	TestsChanged        []string
	Imports             []string // +spec or -spec, file
	DependenciesAdded   []string
	DependenciesRemoved []string
	GoExportsRemoved    []string
}

func summarize(d *Doc) summary {
	s := summary{Files: d.Files, Changed: d.Changed, Added: d.Added, Modified: d.Modified, Deleted: d.Deleted,
		Renamed: d.Renamed, TestsChanged: d.TestsChanged, GoExportsRemoved: d.GoExportsRemoved,
		Imports: []string{}, DependenciesAdded: []string{}, DependenciesRemoved: []string{}}
	for _, r := range d.ImportsAdded {
		s.Imports = append(s.Imports, "+"+r.File+" "+r.Spec+" "+string(r.Resolution.Kind))
	}
	for _, r := range d.ImportsRemoved {
		s.Imports = append(s.Imports, "-"+r.File+" "+r.Spec+" "+string(r.Resolution.Kind))
	}
	for _, x := range d.DependenciesAdded {
		s.DependenciesAdded = append(s.DependenciesAdded, x.Ecosystem+":"+x.Name+"@"+x.Version+" "+x.Source)
	}
	for _, x := range d.DependenciesRemoved {
		s.DependenciesRemoved = append(s.DependenciesRemoved, x.Ecosystem+":"+x.Name+" "+x.Source)
	}
	return s
}

const goMod = "module example.com/m\n\ngo 1.22\n"

func TestCollect(t *testing.T) {
	tests := []struct {
		name   string
		base   map[string]string
		change func(r *repo)
		opts   Options
		want   summary
	}{
		{
			name: "modified, added untracked, deleted, test file",
			base: map[string]string{"go.mod": goMod, "a.go": "package m\n\nfunc A() {}\n", "b.txt": "x\ny\n"},
			change: func(r *repo) {
				r.write(map[string]string{"a.go": "package m\n\nimport \"fmt\"\n\nfunc A() { fmt.Println() }\n", "a_test.go": "package m\n"})
				r.remove("b.txt")
			},
			want: summary{
				Files: []File{
					{Path: "a.go", Status: Modified, LinesAdded: 3, LinesDeleted: 1, Lang: "go"},
					{Path: "a_test.go", Status: Added, LinesAdded: 1, Lang: "go", Test: true},
					{Path: "b.txt", Status: Deleted, LinesDeleted: 2},
				},
				Changed: []string{"a.go", "a_test.go", "b.txt"}, Added: []string{"a_test.go"}, Modified: []string{"a.go"},
				Deleted: []string{"b.txt"}, Renamed: []string{}, TestsChanged: []string{"a_test.go"},
				Imports: []string{"+a.go fmt stdlib"}, DependenciesAdded: []string{}, DependenciesRemoved: []string{},
				GoExportsRemoved: []string{},
			},
		},
		{
			name: "rename of an untracked copy, binary file",
			base: map[string]string{"old.txt": "one\ntwo\nthree\n", "img.bin": "\x00\x01\x02"},
			change: func(r *repo) {
				r.remove("old.txt")
				r.write(map[string]string{"new.txt": "one\ntwo\nthree\n", "img.bin": "\x00\x01\x03"})
			},
			want: summary{
				Files: []File{
					{Path: "img.bin", Status: Modified, Binary: true},
					{Path: "new.txt", Status: Renamed, OldPath: "old.txt"},
				},
				Changed: []string{"img.bin", "new.txt", "old.txt"}, Added: []string{}, Modified: []string{"img.bin"}, Deleted: []string{},
				Renamed: []string{"new.txt"}, TestsChanged: []string{}, Imports: []string{}, DependenciesAdded: []string{},
				DependenciesRemoved: []string{}, GoExportsRemoved: []string{},
			},
		},
		{
			name: "removed exports; moved ones and internal packages do not count",
			base: map[string]string{
				"go.mod":          goMod,
				"api/api.go":      "package api\n\ntype Server struct{}\n\nfunc (s *Server) Close() {}\nfunc (s *Server) Open() {}\nfunc New() *Server { return nil }\nfunc Moved() {}\nconst Limit = 1\nvar Default, other = 1, 2\nfunc unexported() {}\n",
				"internal/x/x.go": "package x\n\nfunc Gone() {}\n",
				"cmd/main.go":     "package main\n\nfunc Run() {}\n",
			},
			change: func(r *repo) {
				r.write(map[string]string{
					"api/api.go":   "package api\n\ntype Server struct{}\n\nfunc (s *Server) Open() {}\nvar other = 2\n",
					"api/moved.go": "package api\n\nfunc Moved() {}\n",
				})
				r.remove("internal/x/x.go", "cmd/main.go")
			},
			want: summary{
				Files: []File{
					{Path: "api/api.go", Status: Modified, LinesAdded: 1, LinesDeleted: 6, Lang: "go"},
					{Path: "api/moved.go", Status: Added, LinesAdded: 3, Lang: "go"},
					{Path: "cmd/main.go", Status: Deleted, LinesDeleted: 3, Lang: "go"},
					{Path: "internal/x/x.go", Status: Deleted, LinesDeleted: 3, Lang: "go"},
				},
				Changed: []string{"api/api.go", "api/moved.go", "cmd/main.go", "internal/x/x.go"}, Added: []string{"api/moved.go"},
				Modified: []string{"api/api.go"}, Deleted: []string{"cmd/main.go", "internal/x/x.go"}, Renamed: []string{}, TestsChanged: []string{},
				Imports: []string{}, DependenciesAdded: []string{}, DependenciesRemoved: []string{},
				GoExportsRemoved: []string{"api.Default", "api.Limit", "api.New", "api.Server.Close"},
			},
		},
		{
			name: "manifests: go.mod, package.json, requirements, pyproject, Cargo.toml",
			base: map[string]string{
				"go.mod":           goMod + "\nrequire github.com/old/dep v1.0.0\n",
				"package.json":     `{"name": "x", "dependencies": {"left-pad": "^1.0.0"}}`,
				"requirements.txt": "requests==2.0\n",
				"pyproject.toml":   "[project]\nname = \"x\"\ndependencies = [\n  \"click>=8\",\n]\n",
				"Cargo.toml":       "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n",
			},
			change: func(r *repo) {
				r.write(map[string]string{
					"go.mod":           goMod + "\nrequire (\n\tgithub.com/old/dep v1.0.0\n\tgithub.com/new/dep v0.2.0\n)\n",
					"package.json":     `{"name": "x", "dependencies": {"left-pad": "^1.0.0"}, "devDependencies": {"lodash": "4"}}`,
					"requirements.txt": "# pinned\nRequests==2.1\nPy_YAML>=6 ; python_version>'3'\n",
					"pyproject.toml":   "[project]\nname = \"x\"\ndependencies = [\n  \"rich\", # new\n]\n",
					"Cargo.toml":       "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\ntokio = { version = \"1.3\", features = [\"full\"] }\n",
				})
			},
			want: summary{
				Files: []File{
					{Path: "Cargo.toml", Status: Modified, LinesAdded: 1},
					{Path: "go.mod", Status: Modified, LinesAdded: 4, LinesDeleted: 1},
					{Path: "package.json", Status: Modified, LinesAdded: 1, LinesDeleted: 1},
					{Path: "pyproject.toml", Status: Modified, LinesAdded: 1, LinesDeleted: 1},
					{Path: "requirements.txt", Status: Modified, LinesAdded: 3, LinesDeleted: 1},
				},
				Changed: []string{"Cargo.toml", "go.mod", "package.json", "pyproject.toml", "requirements.txt"},
				Added:   []string{}, Modified: []string{"Cargo.toml", "go.mod", "package.json", "pyproject.toml", "requirements.txt"},
				Deleted: []string{}, Renamed: []string{}, TestsChanged: []string{}, Imports: []string{},
				DependenciesAdded: []string{
					"cargo:tokio@1.3 Cargo.toml", "go:github.com/new/dep@v0.2.0 go.mod", "npm:lodash@4 package.json",
					"python:py-yaml@>=6 ; python_version>'3' requirements.txt", "python:rich@ pyproject.toml",
				},
				DependenciesRemoved: []string{"python:click pyproject.toml"},
				GoExportsRemoved:    []string{},
			},
		},
		{
			name: "new external import in Go without a go.mod requirement",
			base: map[string]string{"go.mod": goMod + "\nrequire github.com/known/mod v1.0.0\n", "a.go": "package m\n"},
			change: func(r *repo) {
				r.write(map[string]string{"a.go": "package m\n\nimport (\n\t_ \"github.com/known/mod/sub\"\n\t_ \"github.com/unknown/mod\"\n)\n"})
			},
			want: summary{
				Files:   []File{{Path: "a.go", Status: Modified, LinesAdded: 5, Lang: "go"}},
				Changed: []string{"a.go"}, Added: []string{}, Modified: []string{"a.go"}, Deleted: []string{}, Renamed: []string{}, TestsChanged: []string{},
				Imports:             []string{"+a.go github.com/known/mod/sub external", "+a.go github.com/unknown/mod external"},
				DependenciesAdded:   []string{"go:github.com/unknown/mod@ a.go"},
				DependenciesRemoved: []string{}, GoExportsRemoved: []string{},
			},
		},
		{
			name: "vouch's own outputs are excluded",
			base: map[string]string{"a.txt": "a\n"},
			change: func(r *repo) {
				r.write(map[string]string{".vouch/envelope.yaml": "facts: {}\n", "out/verification.json": "{}", "env.yaml": "facts: {}\n", "b.txt": "b\n"})
			},
			opts: Options{Exclude: []string{"out", "env.yaml"}},
			want: summary{
				Files:   []File{{Path: "b.txt", Status: Added, LinesAdded: 1}},
				Changed: []string{"b.txt"}, Added: []string{"b.txt"}, Modified: []string{}, Deleted: []string{}, Renamed: []string{}, TestsChanged: []string{},
				Imports: []string{}, DependenciesAdded: []string{}, DependenciesRemoved: []string{}, GoExportsRemoved: []string{},
			},
		},
		{
			// Git state the work itself can write does not hide the work:
			// index bits, .git/info/exclude, core.excludesFile, and a
			// .gitignore added to ignore itself (which is listed, with
			// what it ignores). The base's build/ rule still holds.
			name: "hidden by index bits and excludes",
			base: map[string]string{"kept.txt": "a\n", "assumed.txt": "a\n", "skipped.txt": "a\n", ".gitignore": "build/\n"},
			change: func(r *repo) {
				r.write(map[string]string{"assumed.txt": "b\n", "skipped.txt": "b\n", "info.sh": "x\n", "global.sh": "x\n",
					"hide/.gitignore": "*\n", "hide/x.sh": "x\n", "build/out.o": "x\n", "excludes": "global.sh\n"})
				r.git("update-index", "--assume-unchanged", "assumed.txt")
				r.git("update-index", "--skip-worktree", "skipped.txt")
				r.write(map[string]string{".git/info/exclude": "info.sh\nexcludes\n"})
				r.git("config", "core.excludesFile", filepath.Join(r.dir, "excludes"))
			},
			want: summary{
				Files: []File{
					{Path: "assumed.txt", Status: Modified, LinesAdded: 1, LinesDeleted: 1},
					{Path: "excludes", Status: Added, LinesAdded: 1},
					{Path: "global.sh", Status: Added, LinesAdded: 1},
					{Path: "hide/.gitignore", Status: Added, LinesAdded: 1},
					{Path: "hide/x.sh", Status: Added, LinesAdded: 1},
					{Path: "info.sh", Status: Added, LinesAdded: 1},
					{Path: "skipped.txt", Status: Modified, LinesAdded: 1, LinesDeleted: 1},
				},
				Changed: []string{"assumed.txt", "excludes", "global.sh", "hide/.gitignore", "hide/x.sh", "info.sh", "skipped.txt"},
				Added:   []string{"excludes", "global.sh", "hide/.gitignore", "hide/x.sh", "info.sh"}, Modified: []string{"assumed.txt", "skipped.txt"},
				Deleted: []string{}, Renamed: []string{}, TestsChanged: []string{},
				Imports: []string{}, DependenciesAdded: []string{}, DependenciesRemoved: []string{}, GoExportsRemoved: []string{},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(tt.base)
			tt.change(r)
			opts := tt.opts
			opts.Root = r.dir
			for i, e := range opts.Exclude {
				opts.Exclude[i] = filepath.Join(r.dir, e)
			}
			d, err := Collect(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, summarize(d)); diff != "" {
				t.Errorf("document (-want +got):\n%s", diff)
			}
			if d.BaseCommit != strings.TrimSpace(r.git("rev-parse", "HEAD")) || d.Base != "HEAD" {
				t.Errorf("base = %s %s, want HEAD", d.Base, d.BaseCommit)
			}
			// The repository's own index is never touched.
			if st := r.git("status", "--porcelain"); strings.Contains(st, "A ") {
				t.Errorf("index changed:\n%s", st)
			}
		})
	}
}

func TestBase(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"a.txt": "1\n"})
	first := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.git("tag", "v1")
	r.commit(map[string]string{"a.txt": "2\n"})

	d, err := Collect(context.Background(), Options{Root: r.dir, Base: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if d.BaseCommit != first || !cmp.Equal(d.Changed, []string{"a.txt"}) {
		t.Errorf("base v1: got %s %v", d.BaseCommit, d.Changed)
	}

	// The default branch's remote-tracking branch: its merge-base.
	r.git("update-ref", "refs/remotes/origin/main", first)
	d, err = Collect(context.Background(), Options{Root: r.dir})
	if err != nil {
		t.Fatal(err)
	}
	if d.BaseCommit != first || d.Base != "merge-base HEAD refs/remotes/origin/main" {
		t.Errorf("default base: got %q %s", d.Base, d.BaseCommit)
	}

	for _, bad := range []string{"nope", "--output=x", "HEAD~9"} {
		_, err = Collect(context.Background(), Options{Root: r.dir, Base: bad, BaseFrom: "--base"})
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), "--base") {
			t.Errorf("base %q: got %v, want a repofacts.Error naming --base", bad, err)
		}
	}
}

func TestNotARepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	_, err := Collect(context.Background(), Options{Root: dir})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "not inside a git work tree") {
		t.Fatalf("got %v", err)
	}
}

// TestNoGit: without the git executable, a root with a .git above it is
// an error (the work is there and cannot be read), while one without is
// simply outside a work tree, which needs no git to tell.
func TestNoGit(t *testing.T) {
	for _, tc := range []struct {
		name        string
		withGit     bool
		want        string
		notWorkTree bool
	}{
		{"repository", true, "git executable was not found", false},
		{"no repository", false, "not inside a git work tree", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", t.TempDir())
			root := t.TempDir()
			if tc.withGit {
				if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Collect(context.Background(), Options{Root: root})
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
			if got := errors.Is(err, ErrNotWorkTree); got != tc.notWorkTree {
				t.Fatalf("errors.Is(err, ErrNotWorkTree) = %v, want %v", got, tc.notWorkTree)
			}
		})
	}
}

func TestNoCommits(t *testing.T) {
	r := newRepo(t)
	r.write(map[string]string{"a.txt": "a\n"})
	d, err := Collect(context.Background(), Options{Root: r.dir})
	if err != nil {
		t.Fatal(err)
	}
	if d.BaseCommit != emptyTree || !cmp.Equal(d.Added, []string{"a.txt"}) {
		t.Errorf("got %s %v", d.BaseCommit, d.Added)
	}
}

func TestStateAndJSON(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	r.write(map[string]string{"a.txt": "A\n"})
	get := func() *Doc {
		d, err := Collect(context.Background(), Options{Root: r.dir})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	s1 := get().State()
	if s2 := get().State(); s2.Digest != s1.Digest {
		t.Fatalf("state is not deterministic: %v %v", s1, s2)
	}
	r.write(map[string]string{"a.txt": "AA\n", "c.txt": "c\n"})
	s3 := get().State()
	if s3.Digest == s1.Digest {
		t.Fatal("state did not change with the contents")
	}
	if got := s1.Diff(s3); !cmp.Equal(got, []string{"a.txt", "c.txt"}) {
		t.Errorf("diff = %v", got)
	}
	var m map[string]any
	if err := json.Unmarshal(get().JSON(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"base", "base_commit", "files", "changed", "added", "modified", "deleted", "renamed", "tests_changed", "imports_added", "imports_removed", "dependencies_added", "dependencies_removed", "go_exports_removed"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %s", k)
		}
	}
}
