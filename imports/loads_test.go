package imports

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadPaths(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := &Repo{Root: root, Files: map[string]bool{
		"app.py": true, "pkg/__init__.py": true, "pkg/mod.py": true,
		"Cargo.toml": true, "src/lib.rs": true, "src/util.rs": true,
		"go.mod": true, "a.go": true,
	}}
	rs := NewResolvers(repo, []Lang{Python, Rust, Go})
	tests := []struct {
		name string
		src  string
		file string
		lang Lang
		want [][]string // per record
	}{
		{"import through a link", "import hooks.x\n", "app.py", Python, [][]string{{
			"hooks.py", "hooks.pyc", "hooks/__init__.py", "hooks/x.py", "hooks/x.pyc", "hooks/x/__init__.py",
		}}},
		{"from import names a submodule", "from hooks import x\n", "app.py", Python, [][]string{{
			"hooks.py", "hooks.pyc", "hooks/__init__.py", "hooks/x.py", "hooks/x.pyc", "hooks/x/__init__.py",
		}}},
		{"resolved target", "from pkg import mod\n", "app.py", Python, [][]string{{
			"pkg.py", "pkg.pyc", "pkg/__init__.py", "pkg/mod.py", "pkg/mod.pyc", "pkg/mod/__init__.py",
		}}},
		{"relative", "from .. import y\n", "pkg/mod.py", Python, [][]string{{"y.py", "y.pyc", "y/__init__.py"}}},
		{"relative above the root", "from ... import y\n", "pkg/mod.py", Python, [][]string{nil}},
		{"dynamic", "import importlib\nimportlib.import_module('a.b')\n", "app.py", Python, [][]string{
			{"importlib.py", "importlib.pyc", "importlib/__init__.py"},
			{"a.py", "a.pyc", "a/__init__.py", "a/b.py", "a/b.pyc", "a/b/__init__.py"},
		}},
		{"type checking only", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\n", "app.py", Python, [][]string{
			{"typing.py", "typing.pyc", "typing/TYPE_CHECKING.py", "typing/TYPE_CHECKING.pyc", "typing/TYPE_CHECKING/__init__.py", "typing/__init__.py"},
			nil,
		}},
		{"rust path attribute", "#[path = \"../.vouch/envelope.yaml\"]\nmod x;\n", "src/lib.rs", Rust, [][]string{{".vouch/envelope.yaml"}}},
		{"rust mod", "mod util;\nmod gone;\n", "src/lib.rs", Rust, [][]string{{"src/util.rs"}, {"src/gone.rs", "src/gone/mod.rs"}}},
		{"rust use names no file", "use crate::util::g;\n", "src/lib.rs", Rust, [][]string{nil}},
		{"go", "package a\nimport (\n\t\"fmt\"\n\t\"m/hooks/x\"\n\t\"example.com/y\"\n)\n", "a.go", Go, [][]string{nil, {"hooks/x"}, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, _ := rs.Extract(tt.file, tt.lang, []byte(tt.src))
			var got [][]string
			for _, r := range recs {
				got = append(got, rs.LoadPaths(r))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LoadPaths mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRustIncludes(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Include
	}{
		{"include", `include!("../.git/hooks/x.rs");`, []Include{{Line: 1, Column: 1, Spec: "../.git/hooks/x.rs", Path: ".git/hooks/x.rs"}}},
		{"brackets, braces, std path", "std::include![\"a.rs\"];\ncore::include!{\"b.rs\"}", []Include{
			{Line: 1, Column: 6, Spec: "a.rs", Path: "src/a.rs"}, {Line: 2, Column: 7, Spec: "b.rs", Path: "src/b.rs"}}},
		{"escapes", `include!("..\x2f.vouch/envelope.yaml");`, []Include{{Line: 1, Column: 1, Spec: "../.vouch/envelope.yaml", Path: ".vouch/envelope.yaml"}}},
		{"unicode escape", `include!("\u{2e}git/x.rs");`, []Include{{Line: 1, Column: 1, Spec: ".git/x.rs", Path: "src/.git/x.rs"}}},
		{"raw string", `include!(r#"..\x.rs"#);`, []Include{{Line: 1, Column: 1, Spec: `..\x.rs`, Path: `src/..\x.rs`}}},
		{"in a macro body", "macro_rules! m { () => { include!(\"m.rs\"); } }", []Include{{Line: 1, Column: 26, Spec: "m.rs", Path: "src/m.rs"}}},
		{"data, not code", `include_str!("../.git/config"); include_bytes!("x");`, nil},
		{"computed", `include!(concat!(env!("OUT_DIR"), "/gen.rs"));`, nil},
		{"byte string", `include!(b"x.rs");`, nil},
		{"bad escape", `include!("\q.rs");`, nil},
		{"in a comment or string", "// include!(\"a.rs\")\nlet s = \"include!(\\\"b.rs\\\")\";", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RustIncludes("src/lib.rs", []byte(tt.src))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RustIncludes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
