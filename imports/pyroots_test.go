package imports

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPythonProjectRoots checks that package roots come from what Python
// packaging reads: setup.cfg, pyproject.toml, setup.py, and the src/ and
// lib/ conventions.
func TestPythonProjectRoots(t *testing.T) {
	imp := Site{Kind: KindImport, Spec: "pkg.core"}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  Resolution
	}{
		{"lib convention (sqlalchemy)", map[string]string{
			"lib/pkg/__init__.py": "", "lib/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: Internal, Target: "lib/pkg/core.py"}},
		{"setup.cfg package_dir", map[string]string{
			"setup.cfg": "[options]\npackage_dir =\n    =code\n", "code/pkg/__init__.py": "", "code/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: Internal, Target: "code/pkg/core.py"}},
		{"pyproject setuptools package-dir", map[string]string{
			"pyproject.toml": "[tool.setuptools]\npackage-dir = {\"\" = \"python\"}\n", "python/pkg/__init__.py": "", "python/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: Internal, Target: "python/pkg/core.py"}},
		{"pyproject packages.find where", map[string]string{
			"pyproject.toml": "[tool.setuptools.packages.find]\nwhere = [\"sources\"]\n", "sources/pkg/__init__.py": "", "sources/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: Internal, Target: "sources/pkg/core.py"}},
		{"poetry from", map[string]string{
			"svc/pyproject.toml": "[[tool.poetry.packages]]\ninclude = \"pkg\"\nfrom = \"app\"\n", "svc/app/pkg/__init__.py": "", "svc/app/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: Internal, Target: "svc/app/pkg/core.py"}},
		{"hatch packages", map[string]string{
			"pyproject.toml": "[tool.hatch.build.targets.wheel]\npackages = [\"py/pkg\"]\n", "py/pkg/__init__.py": "", "py/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: Internal, Target: "py/pkg/core.py"}},
		{"setup.py package_dir", map[string]string{
			"setup.py": "setup(name='x', package_dir={'': 'source'}, packages=find_packages(where='source'))\n", "source/pkg/__init__.py": "", "source/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: Internal, Target: "source/pkg/core.py"}},
		{"malformed pyproject adds nothing", map[string]string{
			"pyproject.toml": "[tool.setuptools\n", "python/pkg/__init__.py": "", "python/pkg/core.py": "", "test/t.py": "",
		}, Resolution{Kind: External, Target: "pkg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.files)
			r, _ := newPythonResolver(repoOf(root, tc.files), nil)
			if diff := cmp.Diff(tc.want, r.resolve("test/t.py", imp)); diff != "" {
				t.Errorf("resolve (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPythonRootHint checks the warning for a missed root: many absolute
// imports of a local package resolving outside the repository.
func TestPythonRootHint(t *testing.T) {
	files := map[string]string{"code/pkg/__init__.py": "", "test/t.py": strings.Repeat("import pkg.a\n", 5), "test/u.py": "import pkg\nimport other\n"}
	root := writeTree(t, files)
	res, err := Scan(context.Background(), root, Options{NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{{File: "test/t.py", Line: 1, Message: "6 absolute imports of pkg resolve outside the repository, but code/pkg is a local package: its parent code is not a Python root, so rules do not see these imports; add code to python_roots in architecture.yaml or pass --python-root code"}}
	if diff := cmp.Diff(want, res.RootHints); diff != "" {
		t.Errorf("hints (-want +got):\n%s", diff)
	}
	res, err = Scan(context.Background(), root, Options{NoCache: true, PythonRoots: []string{"code"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RootHints) != 0 {
		t.Errorf("hints with the root configured: %v", res.RootHints)
	}
}
