package arch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGranularity(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"web/app/package.json", "crates/core/Cargo.toml"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"cmd/main.go", "cmd/util.go", "crates/core/src/lib.rs", "crates/core/src/a/b.rs", "py/pkg/a.py", "py/pkg/b.py", "web/app/src/x.ts", "web/app/src/y/z.ts", "web/loose.js"}
	for _, tc := range []struct {
		granularity string
		want        []string // id kind
	}{
		{"", []string{"cmd go_package", "crates/core/src rust_module", "crates/core/src/a rust_module", "py/pkg python_package", "web js_directory", "web/app/src js_directory", "web/app/src/y js_directory"}},
		{"file", []string{"cmd go_package", "crates/core/src/a/b.rs rust_file", "crates/core/src/lib.rs rust_file", "py/pkg/a.py python_module", "py/pkg/b.py python_module",
			"web/app/src/x.ts js_module", "web/app/src/y/z.ts js_module", "web/loose.js js_module"}},
		{"package", []string{"cmd go_package", "crates/core rust_crate", "py/pkg python_package", "web js_directory", "web/app js_package"}},
	} {
		t.Run(tc.granularity, func(t *testing.T) {
			src := "rules: [{name: c, forbid_cycles: {}}]\n"
			if tc.granularity != "" {
				src = "granularity: " + tc.granularity + "\n" + src
			}
			m, err := Parse("architecture.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			m.Root = root
			if err := m.Finish(files); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range m.Nodes {
				got = append(got, n.ID+" "+n.Kind)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGranularityErrors(t *testing.T) {
	_, err := Parse("architecture.yaml", []byte("granularity: files\n"))
	if err == nil || !strings.Contains(err.Error(), `architecture.yaml:1:14: granularity "files" (did you mean "file"?); want one of directory, file, module, package`) {
		t.Errorf("err = %v", err)
	}
	m, err := Parse("architecture.yaml", []byte("granularity: file\nnodes: [{ref_id: a, kind: k}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Finish(nil); err == nil || !strings.Contains(err.Error(), "architecture.yaml:1:14: granularity file applies to derived nodes only") {
		t.Errorf("err = %v", err)
	}
}
