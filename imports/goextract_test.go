package imports

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestExtractGo(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		want       []Site
		constraint string
		errs       int
	}{
		{"single", "package p\nimport \"fmt\"\n", []Site{{Line: 2, Column: 8, Kind: KindImport, Spec: "fmt"}}, "", 0},
		{"grouped aliased dot blank", "package p\n\nimport (\n\t\"os\"\n\tf \"fmt\"\n\t. \"strings\"\n\t_ \"embed\"\n)\n", []Site{
			{Line: 4, Column: 2, Kind: KindImport, Spec: "os"},
			{Line: 5, Column: 2, Kind: KindImport, Spec: "fmt", Alias: "f"},
			{Line: 6, Column: 2, Kind: KindImport, Spec: "strings", Alias: "."},
			{Line: 7, Column: 2, Kind: KindImport, Spec: "embed", Alias: "_"},
		}, "", 0},
		{"several decls and raw string", "package p\nimport \"a\"\nimport `b/c`\n", []Site{
			{Line: 2, Column: 8, Kind: KindImport, Spec: "a"},
			{Line: 3, Column: 8, Kind: KindImport, Spec: "b/c"},
		}, "", 0},
		{"go:build", "// Copyright\n\n//go:build linux && !cgo\n\npackage p\nimport \"C\"\n", []Site{{Line: 6, Column: 8, Kind: KindImport, Spec: "C"}}, "linux && !cgo", 0},
		{"plus build", "// +build linux darwin\n// +build amd64\n\npackage p\n", nil, "(linux || darwin) && amd64", 0},
		{"constraint after package is ignored", "package p\n//go:build linux\n", nil, "", 0},
		{"line directive does not move positions", "package p\n//line other.go:100\nimport \"x\"\n", []Site{{Line: 3, Column: 8, Kind: KindImport, Spec: "x"}}, "", 0},
		{"imports after code are not imports", "package p\nfunc f() {}\nimport \"late\"\n", nil, "", 0},
		{"syntax error keeps earlier imports", "package p\nimport (\n\t\"a\"\n\t\"b\n)\n", []Site{{Line: 3, Column: 2, Kind: KindImport, Spec: "a"}}, "", 1},
		{"no package clause", "import \"a\"\n", nil, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, c, errs := extractGoFile([]byte(tt.src))
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("sites mismatch (-want +got):\n%s", diff)
			}
			if c != tt.constraint {
				t.Errorf("constraint = %q, want %q", c, tt.constraint)
			}
			if len(errs) < tt.errs || (tt.errs == 0 && len(errs) > 0) {
				t.Errorf("got syntax errors %v, want at least %d", errs, tt.errs)
			}
			for _, e := range errs {
				if e.Line < 1 {
					t.Errorf("syntax error without a line: %+v", e)
				}
			}
		})
	}
}

func FuzzExtractGo(f *testing.F) {
	for _, s := range []string{
		"package p\nimport (\n\tf \"fmt\"\n\t_ \"x\"\n)\n",
		"//go:build a\n\npackage p\nimport . \"y\"",
		"package p\nimport \"\\xff\"\n", "package", "import (", "//go:build (\npackage p",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sites, _, _ := extractGoFile(src)
		lines := 1 + strings.Count(string(src), "\n")
		for _, s := range sites {
			if s.Line < 1 || s.Line > lines || s.Column < 1 || s.Kind != KindImport {
				t.Fatalf("bad site %+v", s)
			}
		}
	})
}
