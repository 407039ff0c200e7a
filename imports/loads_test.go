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
		{"rust path attribute", "#[path = \"../.vouch/envelope.yaml\"]\nmod x;\n", "src/lib.rs", Rust, [][]string{{".vouch/envelope.yaml", "src/x.rs", "src/x/mod.rs"}}},
		// A cfg_attr's cfg may not hold: the module's own files count too.
		{"rust cfg_attr path", "#[cfg_attr(unix, path = \"util.rs\")]\nmod hooks;\n", "src/lib.rs", Rust, [][]string{{"src/hooks.rs", "src/hooks/mod.rs", "src/util.rs"}}},
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

func TestRustLoads(t *testing.T) {
	inc := func(line, col int, spec, p string) FileLoad {
		return FileLoad{Line: line, Column: col, Form: "include!", Spec: spec, Path: p}
	}
	tests := []struct {
		name string
		src  string
		want []FileLoad
	}{
		{"include", `include!("../.git/hooks/x.rs");`, []FileLoad{inc(1, 1, "../.git/hooks/x.rs", ".git/hooks/x.rs")}},
		{"brackets, braces, std path", "std::include![\"a.rs\"];\ncore::include!{\"b.rs\"}", []FileLoad{
			inc(1, 6, "a.rs", "src/a.rs"), inc(2, 7, "b.rs", "src/b.rs")}},
		{"escapes", `include!("..\x2f.vouch/envelope.yaml");`, []FileLoad{inc(1, 1, "../.vouch/envelope.yaml", ".vouch/envelope.yaml")}},
		{"unicode escape", `include!("\u{2e}git/x.rs");`, []FileLoad{inc(1, 1, ".git/x.rs", "src/.git/x.rs")}},
		{"raw string", `include!(r#"..\x.rs"#);`, []FileLoad{inc(1, 1, `..\x.rs`, `src/..\x.rs`)}},
		{"in a macro body", "macro_rules! m { () => { include!(\"m.rs\"); } }", []FileLoad{inc(1, 26, "m.rs", "src/m.rs")}},
		// A build that embeds a file depends on it as one that compiles it.
		{"data", `const A: &str = include_str!("../.git/config"); const B: &[u8] = include_bytes!("x");`, []FileLoad{
			{Line: 1, Column: 17, Form: "include_str!", Spec: "../.git/config", Path: ".git/config"},
			{Line: 1, Column: 66, Form: "include_bytes!", Spec: "x", Path: "src/x"}}},
		// Every path attribute, any cfg_attr may hold, nested or not.
		{"path attributes", "#[path = \"a.rs\"]\nmod a;\n#[cfg_attr(unix, path = \"../.vouch/envelope.yaml\")]\n#[cfg_attr(windows, path = \"b.rs\")]\nmod b;\n#[cfg_attr(x, cfg_attr(y, path = \"c.rs\"), path = \"d.rs\")]\nmod c;", []FileLoad{
			{Line: 1, Column: 3, Form: "#[path]", Spec: "a.rs", Path: "src/a.rs"},
			{Line: 3, Column: 18, Form: "#[path]", Spec: "../.vouch/envelope.yaml", Path: ".vouch/envelope.yaml"},
			{Line: 4, Column: 21, Form: "#[path]", Spec: "b.rs", Path: "src/b.rs"},
			{Line: 6, Column: 27, Form: "#[path]", Spec: "c.rs", Path: "src/c.rs"},
			{Line: 6, Column: 43, Form: "#[path]", Spec: "d.rs", Path: "src/d.rs"}}},
		{"not a path attribute", "let path = \"x.rs\"; #[doc = \"path = \\\"y\\\"\"] fn f() {}", nil},
		{"computed", `include!(concat!(env!("OUT_DIR"), "/gen.rs"));`, nil},
		{"byte string", `include!(b"x.rs");`, nil},
		{"bad escape", `include!("\q.rs");`, nil},
		{"in a comment or string", "// include!(\"a.rs\")\nlet s = \"include!(\\\"b.rs\\\")\";", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RustLoads("src/lib.rs", []byte(tt.src))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RustLoads mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
