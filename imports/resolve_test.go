package imports

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// writeTree creates files (repository-relative path -> content) under a
// fresh temporary directory and returns it.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func repoOf(root string, files map[string]string) *Repo {
	r := &Repo{Root: root, Files: map[string]bool{}}
	for f := range files {
		r.Files[f] = true
	}
	return r
}

func TestGoResolver(t *testing.T) {
	files := map[string]string{
		"go.mod":                "module example.com/mono\n\ngo 1.22\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n\tgolang.org/x/text v0.3.0\n)\n\nreplace example.com/lib => ./libs/lib\n",
		"vendor/modules.txt":    "# github.com/pkg/errors v0.9.1\n## explicit\ngithub.com/pkg/errors\n# golang.org/x/text v0.3.0\ngolang.org/x/text/unicode/norm\n",
		"cmd/app/main.go":       "package main\n",
		"internal/db/db.go":     "package db\n",
		"tools/go.mod":          "module example.com/mono/tools\n",
		"tools/gen/gen.go":      "package gen\n",
		"libs/lib/go.mod":       "module example.com/lib\n",
		"libs/lib/x/x.go":       "package x\n",
		"other/go.mod":          "module mytool\n",
		"other/util/u.go":       "package util\n",
		"other/main.go":         "package main\n",
		"outside/go.mod":        "this is not a go.mod\n",
		"outside/cmd/x/main.go": "package main\n",
	}
	root := writeTree(t, files)
	r, warns := newGoResolver(repoOf(root, files))
	if len(warns) != 1 || warns[0].File != "outside/go.mod" {
		t.Errorf("want one warning for the malformed outside/go.mod, got %v", warns)
	}
	tests := []struct {
		file, spec string
		want       Resolution
	}{
		{"cmd/app/main.go", "fmt", Resolution{Kind: Stdlib, Target: "fmt"}},
		{"cmd/app/main.go", "net/http", Resolution{Kind: Stdlib, Target: "net/http"}},
		{"cmd/app/main.go", "C", Resolution{Kind: Stdlib, Target: "C"}},
		{"cmd/app/main.go", "example.com/mono/internal/db", Resolution{Kind: Internal, Target: "internal/db"}},
		{"cmd/app/main.go", "example.com/mono/tools/gen", Resolution{Kind: Internal, Target: "tools/gen"}},
		{"cmd/app/main.go", "example.com/mono/missing", Resolution{Kind: Unresolved, Reason: "module example.com/mono has no package directory missing"}},
		{"cmd/app/main.go", "example.com/lib/x", Resolution{Kind: Internal, Target: "libs/lib/x"}},
		{"cmd/app/main.go", "github.com/pkg/errors", Resolution{Kind: External, Target: "github.com/pkg/errors"}},
		{"cmd/app/main.go", "golang.org/x/text/unicode/norm", Resolution{Kind: External, Target: "golang.org/x/text"}},
		{"cmd/app/main.go", "github.com/a/b/c/d", Resolution{Kind: External, Target: "github.com/a/b"}},
		{"cmd/app/main.go", "mytool/util", Resolution{Kind: Internal, Target: "other/util"}},
		{"other/main.go", "mytool/util", Resolution{Kind: Internal, Target: "other/util"}},
		{"other/main.go", "mytool", Resolution{Kind: Internal, Target: "other"}},
		{"cmd/app/main.go", "./rel", Resolution{Kind: Unresolved, Reason: "relative import paths are not supported in module mode"}},
		{"cmd/app/main.go", "", Resolution{Kind: Unresolved, Reason: "empty import path"}},
		{"outside/cmd/x/main.go", "example.com/z/y", Resolution{Kind: External, Target: "example.com/z/y"}},
		{"tools/gen/gen.go", "golang.org/x/tools/go/packages", Resolution{Kind: External, Target: "golang.org/x/tools/go/packages"}},
	}
	for _, tt := range tests {
		got := r.resolve(tt.file, Site{Kind: KindImport, Spec: tt.spec})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("resolve(%s, %q) = %+v, want %+v", tt.file, tt.spec, got, tt.want)
		}
	}
}

func TestGoResolverWorkspace(t *testing.T) {
	files := map[string]string{
		"go.work":       "go 1.22\n\nuse (\n\t./a\n\t./b\n\t./missing\n\t../elsewhere\n)\n",
		"a/go.mod":      "module example.com/a\n",
		"a/a.go":        "package a\n",
		"b/go.mod":      "module example.com/b\n",
		"b/pkg/p.go":    "package pkg\n",
		"b/pkg/q/q.go":  "package q\n",
		"b/pkg/q/q2.go": "package q\n",
	}
	root := writeTree(t, files)
	r, warns := newGoResolver(repoOf(root, files))
	if len(warns) != 1 || warns[0].Line != 6 {
		t.Errorf("want one warning for go.work line 6 (./missing), got %v", warns)
	}
	if got := r.resolve("a/a.go", Site{Spec: "example.com/b/pkg/q"}); !reflect.DeepEqual(got, Resolution{Kind: Internal, Target: "b/pkg/q"}) {
		t.Errorf("cross-module import = %+v", got)
	}
}

func TestPythonResolver(t *testing.T) {
	files := map[string]string{
		"pyproject.toml":               "",
		"top.py":                       "",
		"src/app/__init__.py":          "",
		"src/app/core.py":              "",
		"src/app/sub/__init__.py":      "",
		"src/app/sub/mod.py":           "",
		"src/app/stubs.pyi":            "",
		"src/ns/part.py":               "",
		"json/extra.py":                "",
		"services/api/pyproject.toml":  "",
		"services/api/api/__init__.py": "",
		"services/api/api/views.py":    "",
		"services/api/app/__init__.py": "",
	}
	root := writeTree(t, files)
	r, warns := newPythonResolver(repoOf(root, files), nil)
	if len(warns) != 0 {
		t.Fatalf("unexpected warnings %v", warns)
	}
	from := func(spec, name string) Site { return Site{Kind: KindFrom, Spec: spec, Names: []string{name}} }
	imp := func(spec string) Site { return Site{Kind: KindImport, Spec: spec} }
	tests := []struct {
		file string
		site Site
		want Resolution
	}{
		{"src/app/core.py", imp("os.path"), Resolution{Kind: Stdlib, Target: "os.path"}},
		{"src/app/core.py", imp("__future__"), Resolution{Kind: Stdlib, Target: "__future__"}},
		{"src/app/core.py", imp("app.sub.mod"), Resolution{Kind: Internal, Target: "src/app/sub/mod.py"}},
		{"src/app/core.py", imp("app"), Resolution{Kind: Internal, Target: "src/app/__init__.py"}},
		{"src/app/core.py", imp("app.stubs"), Resolution{Kind: Internal, Target: "src/app/stubs.pyi"}},
		{"src/app/core.py", from("app", "core"), Resolution{Kind: Internal, Target: "src/app/core.py"}},
		{"src/app/core.py", from("app.sub", "helper"), Resolution{Kind: Internal, Target: "src/app/sub/__init__.py"}},
		{"src/app/core.py", from("app.core", "thing"), Resolution{Kind: Internal, Target: "src/app/core.py"}},
		{"src/app/core.py", from("app", "*"), Resolution{Kind: Internal, Target: "src/app/__init__.py"}},
		{"src/app/sub/mod.py", from("..", "core"), Resolution{Kind: Internal, Target: "src/app/core.py"}},
		{"src/app/sub/mod.py", from(".", "nothing"), Resolution{Kind: Internal, Target: "src/app/sub/__init__.py"}},
		{"src/app/sub/__init__.py", from(".mod", "x"), Resolution{Kind: Internal, Target: "src/app/sub/mod.py"}},
		{"src/app/sub/mod.py", from("..nope", "x"), Resolution{Kind: Unresolved, Reason: "relative import ..nope: no module nope in src/app"}},
		{"top.py", from("..", "x"), Resolution{Kind: Unresolved, Reason: "relative import goes beyond the repository root"}},
		{"src/app/core.py", imp("ns.part"), Resolution{Kind: Internal, Target: "src/ns/part.py"}},
		{"src/app/core.py", imp("ns"), Resolution{Kind: Internal, Target: "src/ns"}},
		{"src/app/core.py", imp("json"), Resolution{Kind: Stdlib, Target: "json"}},
		{"src/app/core.py", imp("requests.adapters"), Resolution{Kind: External, Target: "requests"}},
		{"src/app/core.py", imp("app.nothere"), Resolution{Kind: Unresolved, Reason: "module app.nothere: no module nothere in src/app"}},
		{"src/app/core.py", imp("app.core.deeper"), Resolution{Kind: Unresolved, Reason: "module app.core.deeper: src/app/core.py is a module, not a package, so it has no submodule deeper"}},
		{"services/api/api/views.py", imp("api.views"), Resolution{Kind: Internal, Target: "services/api/api/views.py"}},
		{"services/api/api/views.py", from("api", "models"), Resolution{Kind: Internal, Target: "services/api/api/__init__.py"}},
		// The file's own project root wins over a sibling's package of the
		// same name.
		{"services/api/api/views.py", imp("app"), Resolution{Kind: Internal, Target: "services/api/app/__init__.py"}},
		{"top.py", imp("app"), Resolution{Kind: Internal, Target: "src/app/__init__.py"}},
	}
	for _, tt := range tests {
		got := r.resolve(tt.file, tt.site)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("resolve(%s, %+v) = %+v, want %+v", tt.file, tt.site, got, tt.want)
		}
	}

	// Configured roots replace auto-detection.
	r, warns = newPythonResolver(repoOf(root, files), []string{"services/api", "nowhere"})
	if len(warns) != 1 || warns[0].File != "nowhere" {
		t.Errorf("want a warning for the empty root, got %v", warns)
	}
	if got := r.resolve("src/app/core.py", imp("app.core")); !reflect.DeepEqual(got, Resolution{Kind: Unresolved, Reason: "module app.core: no module core in services/api/app"}) {
		t.Errorf("with configured roots, app.core = %+v", got)
	}
}
