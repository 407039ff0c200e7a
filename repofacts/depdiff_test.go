package repofacts

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// addedDeps is dependencies_added as "eco:name@version source".
func addedDeps(d *Doc) []string {
	return summarize(d).DependenciesAdded
}

// TestDependencyDiff runs the whole derivation on work that adds
// dependencies in the ways the manifests' tools accept and a line-by-line
// reader missed.
func TestDependencyDiff(t *testing.T) {
	tests := []struct {
		name   string
		base   map[string]string
		change map[string]string
		want   []string
	}{
		{
			name: "hidden in a Cargo target table, a pyproject string, a BOM, pip options",
			base: map[string]string{
				"rs/Cargo.toml":       "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n",
				"py/pyproject.toml":   "[project]\nname = \"x\"\nversion = \"0.1\"\ndependencies = [\"requests\"]\n",
				"js/package.json":     `{"name": "x", "dependencies": {"lodash": "4"}}`,
				"py/requirements.txt": "requests==2.0\n",
			},
			change: map[string]string{
				"rs/Cargo.toml":       "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n\n[target.'cfg(unix)']\ndependencies = { evil-crate = \"1\" }\n",
				"py/pyproject.toml":   "[project]\nname = \"x\"\nversion = \"0.1\"\ndescription = \"\"\"\n[tool.nothing]\n\"\"\"\ndependencies = [\"requests\", \"evil-py\"]\n",
				"js/package.json":     "\xef\xbb\xbf{\"name\": \"x\", \"dependencies\": {\"lodash\": \"4\", \"evil-js\": \"1\"}}\n",
				"py/requirements.txt": "requests==2.0\n-r extra.in\n-e git+https://example.invalid/evil/evil-vcs#egg=evil-vcs\n",
				"py/extra.in":         "evil-included==1\n",
			},
			want: []string{
				"cargo:evil-crate@1 rs/Cargo.toml", "npm:evil-js@1 js/package.json", "python:evil-included@==1 py/extra.in",
				"python:evil-py@ py/pyproject.toml",
				"python:evil-vcs@-e git+https://example.invalid/evil/evil-vcs#egg=evil-vcs py/requirements.txt",
			},
		},
		{
			name:   "an unchanged requirements file includes a changed file",
			base:   map[string]string{"requirements.txt": "-r base.in\n", "base.in": "requests\n"},
			change: map[string]string{"base.in": "requests\nevil\n"},
			want:   []string{"python:evil@ base.in"},
		},
		{
			name:   "a changed requirements file includes an unchanged file the base did not",
			base:   map[string]string{"requirements.txt": "requests\n", "other.in": "evil\n"},
			change: map[string]string{"requirements.txt": "requests\n-r other.in\n"},
			want:   []string{"python:evil@ other.in"},
		},
		{
			name:   "a go.mod replace swaps a required module's source",
			base:   map[string]string{"go.mod": "module example.com/m\n\ngo 1.21\n\nrequire golang.org/x/text v0.14.0\n"},
			change: map[string]string{"go.mod": "module example.com/m\n\ngo 1.21\n\nrequire golang.org/x/text v0.14.0\n\nreplace golang.org/x/text => github.com/attacker/text v0.0.1\n"},
			want:   []string{"go:github.com/attacker/text@golang.org/x/text => github.com/attacker/text v0.0.1 go.mod"},
		},
		{
			name:   "an npm alias and a git source under a declared name",
			base:   map[string]string{"package.json": `{"dependencies": {"lodash": "4", "left-pad": "1"}}`},
			change: map[string]string{"package.json": `{"dependencies": {"lodash": "npm:evil-js@1", "left-pad": "github:attacker/left-pad"}}`},
			want:   []string{"npm:evil-js@npm:evil-js@1 package.json", "npm:left-pad@github:attacker/left-pad package.json"},
		},
		{
			name:   "a version bump adds nothing",
			base:   map[string]string{"Cargo.toml": "[dependencies]\nserde = \"1.0.1\"\n", "package.json": `{"dependencies": {"a": "1"}}`},
			change: map[string]string{"Cargo.toml": "[dependencies]\nserde = { version = \"1.0.2\", features = [\"derive\"] }\n", "package.json": `{"dependencies": {"a": "^2"}}`},
			want:   []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(tt.base)
			r.write(tt.change)
			d := collect(t, Options{Root: r.dir})
			if diff := cmp.Diff(tt.want, addedDeps(d)); diff != "" {
				t.Errorf("dependencies_added (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDependencyDiffDeterministic: one crate in three Cargo tables with
// three versions gives every version, the same on every run.
func TestDependencyDiffDeterministic(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"Cargo.toml": "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
		"pyproject.toml": "[project]\nname = \"x\"\n"})
	r.write(map[string]string{
		"Cargo.toml": "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n\n[dev-dependencies]\nserde = \"=0.0.1\"\n\n[build-dependencies]\nserde = \"1.0.100\"\n",
		"pyproject.toml": "[project]\nname = \"x\"\n[project.optional-dependencies]\na = [\"rich==1\"]\nb = [\"rich==2\"]\nc = [\"rich==3\"]\n" +
			"[tool.poetry.group.x.dependencies]\nclick = \"1\"\n[tool.poetry.group.y.dependencies]\nclick = \"2\"\n",
	})
	want := []string{"cargo:serde@1 Cargo.toml", "cargo:serde@1.0.100 Cargo.toml", "cargo:serde@=0.0.1 Cargo.toml",
		"python:click@1 pyproject.toml", "python:click@2 pyproject.toml",
		"python:rich@==1 pyproject.toml", "python:rich@==2 pyproject.toml", "python:rich@==3 pyproject.toml"}
	first := string(collect(t, Options{Root: r.dir}).JSON())
	for i := 0; i < 10; i++ {
		d := collect(t, Options{Root: r.dir})
		if diff := cmp.Diff(want, addedDeps(d)); diff != "" {
			t.Fatalf("run %d: dependencies_added (-want +got):\n%s", i, diff)
		}
		if got := string(d.JSON()); got != first {
			t.Fatalf("run %d: the document differs from the first run's:\n%s\n%s", i, got, first)
		}
	}
}

// TestUnreadableManifest: a manifest the work changed and vouch cannot
// read stops the run with where and what to do; one unchanged since base
// cannot hide an addition and is not an error.
func TestUnreadableManifest(t *testing.T) {
	tests := []struct {
		name   string
		base   map[string]string
		change map[string]string
		err    string // "" for no error
	}{
		{name: "changed package.json", base: map[string]string{"package.json": `{"dependencies": {}}`},
			change: map[string]string{"package.json": "{\n  \"dependencies\": {\"evil\": \"1\",}\n}\n"}, err: "package.json:2:"},
		{name: "changed Cargo.toml", base: map[string]string{"Cargo.toml": "[dependencies]\n"},
			change: map[string]string{"Cargo.toml": "[dependencies]\nevil = \n"}, err: "Cargo.toml:2:"},
		{name: "added pyproject.toml", base: map[string]string{"a.txt": "a\n"},
			change: map[string]string{"pyproject.toml": "[project]\ndependencies = [\"evil\"\n"}, err: "pyproject.toml:"},
		{name: "changed go.mod", base: map[string]string{"go.mod": goMod},
			change: map[string]string{"go.mod": goMod + "require (\n\tgithub.com/evil/x\n)\n"}, err: "go.mod:5:"},
		{name: "a requirements file includes a file the work does not have", base: map[string]string{"requirements.txt": "a\n"},
			change: map[string]string{"requirements.txt": "a\n-r gone.txt\n"}, err: "requirements.txt:2: -r gone.txt: gone.txt does not exist"},
		{name: "a requirements file includes an ignored file", base: map[string]string{"requirements.txt": "a\n", ".gitignore": "*.in\n"},
			change: map[string]string{"requirements.txt": "a\n-r hidden.in\n", "hidden.in": "evil\n"}, err: "hidden.in is not part of the work"},
		{name: "a changed include breaks an unchanged requirements file", base: map[string]string{"requirements.txt": "-r x.in\n", "x.in": "a\n"},
			change: map[string]string{"x.in": "a\n--bogus\n"}, err: "a file this manifest includes"},
		{name: "unchanged and unreadable at base too", base: map[string]string{"requirements.txt": "-r gone.txt\n", "package.json": "{", "a.txt": "a\n"},
			change: map[string]string{"a.txt": "b\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t)
			r.commit(tt.base)
			r.write(tt.change)
			d, err := Collect(context.Background(), Options{Root: r.dir})
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want a *repofacts.Error containing %q (document: %+v)", err, tt.err, d)
			}
			if !strings.HasPrefix(err.Error(), "repository facts: dependencies: ") || !strings.Contains(err.Error(), "restore the base version") {
				t.Errorf("err = %v, want what to do", err)
			}
		})
	}
}

// TestDependencyDiffSubdirectoryRoot: with the root below the top level,
// includes resolve and unchanged requirements files are found relative
// to it.
func TestDependencyDiffSubdirectoryRoot(t *testing.T) {
	r := newRepo(t)
	r.commit(map[string]string{"app/requirements.txt": "-r base.in\n", "app/base.in": "requests\n", "other/requirements.txt": "x\n"})
	r.write(map[string]string{"app/base.in": "requests\nevil\n", "other/requirements.txt": "x\nnot-under-the-root\n"})
	d := collect(t, Options{Root: r.dir + "/app"})
	if diff := cmp.Diff([]string{"python:evil@ base.in"}, addedDeps(d)); diff != "" {
		t.Errorf("dependencies_added (-want +got):\n%s", diff)
	}
}
