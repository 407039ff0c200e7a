package imports

import (
	"reflect"
	"testing"
)

// TestPythonRelativeBeyondTopLevel checks that a relative import climbing
// above the file's top-level package is unresolved, as CPython's ImportError,
// instead of resolving to a directory above the package (often the
// repository root, ".").
func TestPythonRelativeBeyondTopLevel(t *testing.T) {
	files := map[string]string{
		"script.py":                  "",
		"app/__init__.py":            "",
		"app/views.py":               "",
		"app/models.py":              "",
		"app/sub/__init__.py":        "",
		"app/sub/mod.py":             "",
		"nspkg/views.py":             "",
		"nspkg/inner/mod.py":         "",
		"tests/unit/pkg/__init__.py": "",
		"tests/unit/pkg/test_a.py":   "",
		"tests/unit/helpers.py":      "",
		"src/lib/__init__.py":        "",
		"src/lib/core.py":            "",
		"src/ns/part.py":             "",
		"stubs/__init__.pyi":         "",
		"stubs/x.pyi":                "",
	}
	root := writeTree(t, files)
	r, warns := newPythonResolver(repoOf(root, files), nil)
	if len(warns) != 0 {
		t.Fatalf("unexpected warnings %v", warns)
	}
	from := func(spec, name string) Site { return Site{Kind: KindFrom, Spec: spec, Names: []string{name}} }
	in := func(target string) Resolution { return Resolution{Kind: Internal, Target: target} }
	beyond := func(spec string) Resolution {
		return Resolution{Kind: Unresolved, Reason: "relative import " + spec + ": attempted relative import beyond top-level package"}
	}
	noParent := func(spec string) Resolution {
		return Resolution{Kind: Unresolved, Reason: "relative import " + spec + ": attempted relative import with no known parent package"}
	}
	tests := []struct {
		name, file string
		site       Site
		want       Resolution
	}{
		// Regular packages: the outermost __init__.py directory is the top.
		{"regular sibling", "app/views.py", from(".", "models"), in("app/models.py")},
		{"regular parent of subpackage", "app/sub/mod.py", from("..", "models"), in("app/models.py")},
		{"regular parent submodule", "app/sub/mod.py", from("..models", "x"), in("app/models.py")},
		{"regular above top", "app/views.py", from("..", "toohigh"), beyond("..")},
		{"regular two above top", "app/sub/mod.py", from("...", "nothing"), beyond("...")},
		{"regular above top with module", "app/views.py", from("..other", "x"), beyond("..other")},
		{"regular init above top", "app/__init__.py", from("..", "x"), beyond("..")},
		{"stub package above top", "stubs/x.pyi", from("..", "x"), beyond("..")},
		// The chain stops at tests/unit (no __init__.py), as pytest sees it.
		{"chain stops at namespace parent", "tests/unit/pkg/test_a.py", from("..", "helpers"), beyond("..")},
		{"chain inside", "tests/unit/pkg/test_a.py", from(".", "x"), in("tests/unit/pkg/__init__.py")},
		// Regular package under the src/ root.
		{"src regular sibling", "src/lib/core.py", from(".", "x"), in("src/lib/__init__.py")},
		{"src regular above top", "src/lib/core.py", from("..", "ns"), beyond("..")},
		// Namespace packages: the package is the path below the file's root.
		{"namespace sibling", "nspkg/views.py", from(".", "inner"), in("nspkg/inner")},
		{"namespace parent", "nspkg/inner/mod.py", from("..", "views"), in("nspkg/views.py")},
		{"namespace above top", "nspkg/views.py", from("..", "toohigh"), beyond("..")},
		{"namespace two above top", "nspkg/inner/mod.py", from("...", "x"), beyond("...")},
		{"namespace under src root", "src/ns/part.py", from(".", "part"), in("src/ns/part.py")},
		{"namespace above src root", "src/ns/part.py", from("..", "lib"), beyond("..")},
		// A module directly in a root has no package at all.
		{"root module", "script.py", from(".", "app"), noParent(".")},
		{"root module with name", "script.py", from(".app", "views"), noParent(".app")},
		{"src root module", "src/lib/core.py", from("...", "x"), beyond("...")},
		// Climbing past the repository itself keeps its own reason.
		{"beyond repository", "script.py", from("..", "x"), Resolution{Kind: Unresolved, Reason: "relative import goes beyond the repository root"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.resolve(tt.file, tt.site); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("resolve(%s, %+v) = %+v, want %+v", tt.file, tt.site, got, tt.want)
			}
		})
	}

	// A configured root is a sys.path entry: below it a module is named by
	// its path, so tests/unit (no __init__.py) is a namespace package and
	// .. from tests/unit/pkg reaches it; a namespace file outside every
	// root is judged against the repository root.
	r, _ = newPythonResolver(repoOf(root, files), []string{"tests"})
	more := []struct {
		file string
		site Site
		want Resolution
	}{
		{"tests/unit/pkg/test_a.py", from("..", "helpers"), in("tests/unit/helpers.py")},
		{"tests/unit/pkg/test_a.py", from("...", "x"), beyond("...")},
		{"tests/unit/helpers.py", from(".", "pkg"), in("tests/unit/pkg/__init__.py")},
		{"nspkg/inner/mod.py", from("..", "views"), in("nspkg/views.py")},
		{"nspkg/views.py", from("..", "x"), beyond("..")},
	}
	for _, tt := range more {
		if got := r.resolve(tt.file, tt.site); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("configured roots: resolve(%s, %+v) = %+v, want %+v", tt.file, tt.site, got, tt.want)
		}
	}
}
