package arch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestExplainRoundTrip checks that what --explain-config prints loads back
// as the same rules: the translation is usable as an architecture.yaml.
func TestExplainRoundTrip(t *testing.T) {
	src := `granularity: file
python_roots: [lib]
rules:
  - name: d
    description: "true"
    reason: "1"
    deny: {from: {ref_id: "ui/**"}, to: {kind: store, tag: x, exclude: [a]}, indirect: true, max_chains: 3, dependency_types: [import]}
    exempt: [{from: ui, to: store, reason: legacy, until: 2030-01-01}]
  - name: l
    severity: warn
    layers: {layers: [{name: top, tag: t}, {name: bottom, tag: b}], indirect: true, allow_skip: false, exclude_type_checking_imports: true, edge_kind: uses}
  - name: c
    forbid_cycles: {}
    exempt: [{members: [a, b], reason: r, until: 2030-01-01}]
  - name: c2
    forbid_cycles: {edge_kind: part_of, dependency_types_not: [type-only]}
  - name: fi
    forbid_import: {from: "ui/**", to: "requests/**"}
  - name: rq
    require: {for: {kind: web}, has_edge_to: {ref_id: s}, edge_kind: uses}
  - name: fb
    forbid: {from: {}, to: {tag: bottom}, indirect: true, max_chains: 2}
  - name: ck
    check: {for: {kind: domain}, max_symbols: 5, max_files: 0}
  - name: mc
    module_coverage: {source_root: src/, min_symbols: 2, exempt: ["*__init__.py"]}
  - name: go
    forbid_cycles: {edge_kind: depends_on, include_imports: false}
  - name: fd
    severity: info
    forbid_dependency:
      from: {path: ["^src/([^/]+)/"], path_not: [spec]}
      to: {path_not: ["^src/$1/"], circular: true, via_only: {path_not: [ui]}, dependency_types_not: [type-only], could_not_resolve: false}
  - name: al
    allowed_dependencies:
      - {from: {orphan: true}, to: {}}
      - {from: {}, to: {dependency_types: [core, npm]}}
scope: {exclude: [legacy], drop_type_only: true, js_only: true}
`
	m, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := m.Explain(&out); err != nil {
		t.Fatal(err)
	}
	back, err := Parse("b.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("explained rules do not load: %v\n%s", err, out.String())
	}
	ignore := cmpopts.IgnoreFields(Rule{}, "Pos")
	ignoreM := cmpopts.IgnoreFields(Matcher{}, "Pos")
	ignoreE := cmpopts.IgnoreFields(Exemption{}, "Pos")
	if diff := cmp.Diff(m.Rules, back.Rules, ignore, ignoreM, ignoreE); diff != "" {
		t.Errorf("rules changed through explain (-want +got):\n%s\n%s", diff, out.String())
	}
	if diff := cmp.Diff(m.Scope, back.Scope, cmpopts.IgnoreFields(Scope{}, "Pos")); diff != "" || m.Scope == nil {
		t.Errorf("scope changed through explain (-want +got):\n%s", diff)
	}
	if back.Granularity != "file" || !cmp.Equal(back.PythonRoots, []string{"lib"}) {
		t.Errorf("settings lost: granularity %q python_roots %v", back.Granularity, back.PythonRoots)
	}
	if !strings.Contains(out.String(), "# a.yaml:4:5\n  - name: d\n") {
		t.Errorf("rule not preceded by its position:\n%s", out.String())
	}
}

// TestLoadForeign checks how a foreign format is chosen: by name for
// --config, by content for shared files, and found at the root only when
// it holds the tool's section.
func TestLoadForeign(t *testing.T) {
	dir := t.TempDir()
	f := ForeignFormat{
		Tool:   "demo",
		Files:  []string{".demo", "shared.cfg"},
		Claims: func(file string, data []byte) bool { return bytes.Contains(data, []byte("[demo]")) },
		Parse: func(_, file string, data []byte) (*Model, error) {
			return &Model{Layout: "demo", Rules: []Rule{{Name: "r", Type: ForbidCycles, Origin: &Origin{Tool: "demo", Group: "g", Pos: Pos{File: file, Line: 1}}}}}, nil
		},
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shared := write("shared.cfg", "[other]\n")
	if m, err := findForeign([]ForeignFormat{f}, dir); m != nil || err != nil {
		t.Fatalf("a shared file without the section was read: %v %v", m, err)
	}
	if _, ok, err := loadForeign([]ForeignFormat{f}, dir, shared, true); !ok || err == nil || !strings.Contains(err.Error(), "holds no demo configuration") {
		t.Errorf("--config of a shared file without the section: ok=%v err=%v", ok, err)
	}
	write("shared.cfg", "[demo]\n")
	m, err := findForeign([]ForeignFormat{f}, dir)
	if err != nil || m == nil || m.Layout != "demo" || len(m.Files) != 1 || m.FileSHA256[m.Files[0]] == "" {
		t.Fatalf("found %+v, %v", m, err)
	}
	other := write("x.yaml", "rules: []\n")
	if _, ok, _ := loadForeign([]ForeignFormat{f}, dir, other, true); ok {
		t.Error("a vouch file was claimed by a foreign format")
	}
}
