package imports

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadPaths(t *testing.T) {
	repo := &Repo{Root: t.TempDir(), Files: map[string]bool{
		"app.py": true, "pkg/__init__.py": true, "pkg/mod.py": true,
		"Cargo.toml": true, "src/lib.rs": true, "src/util.rs": true,
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
		{"go", "package a\nimport \"fmt\"\n", "a.go", Go, [][]string{nil}},
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
