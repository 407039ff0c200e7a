package arch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"src/**", "src/a/b.py", true},
		{"src/**", "src", true}, // a bare package import matches pkg/**
		{"requests/**", "requests", true},
		{"src/*", "src/a/b.py", false}, // * never crosses '/'
		{"src/*/b.py", "src/a/b.py", true},
		{"**/b.py", "src/a/b.py", true},
		{"src/beadloom/[!a]*/**", "src/beadloom/ai_agents/x.py", false},
		{"src/beadloom/[!a]*/**", "src/beadloom/graph/x.py", true},
		{"src/beadloom/a[!i]*/**", "src/beadloom/application/x.py", true},
		// The literal prefix rejects early, and only whole segments match.
		{"src/tui/**", "src/tuix/a.py", false},
		{"src/tui/**", "src/tui", true},
		{"src/tui/**", "./src/tui/a.py", true},
		{"./src/tui/*.py", "src/tui/a.py", true},
		{"src/tui/**", "src", false},
		{"pkg/p1/**", "pkg/p10/x.go", false},
		{`a\*b/**`, "a*b/c", true},
	}
	for _, tt := range tests {
		g, err := CompileGlob(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(tt.name); got != tt.want {
			t.Errorf("%q.Match(%q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

// TestErrorsAllAtOnce: every problem is reported with file:line:col and a
// did-you-mean hint where one is near.
func TestErrorsAllAtOnce(t *testing.T) {
	src := `nodes:
  - {ref_id: billing, kind: domain, sorce: src/billing}
rules:
  - name: r1
    deny: {frm: {ref_id: billing}, to: {}}
  - name: r2
    requre: {for: {}, has_edge_to: {}}
  - name: r3
    severity: fatal
    forbid_cycles: {}
    exempt: [{from: a}]
  - name: r4
    deny: {from: {}, to: {}, indirect: true, unless_edge: [uses], max_chains: 0}
  - name: r5
    layers: {layers: [{tag: a}, {tag: b}], indirect: yes}
  - name: r6
    forbid_cycles: {dependency_types_not: [type_only]}
`
	_, err := Parse("architecture.yaml", []byte(src))
	want := []string{
		`architecture.yaml:2:37: unknown key "sorce" in a node (did you mean "source"?); want one of kind, lifecycle, ref_id, source, tags`,
		`architecture.yaml:5:12: unknown key "frm" in deny (did you mean "from"?); want one of allow_within, dependency_types, dependency_types_not, exclude_type_checking_imports, from, ignore_imports, indirect, max_chains, to, unless_edge, unmatched_ignore`,
		`architecture.yaml:5:5: deny needs from`,
		`architecture.yaml:7:5: unknown key "requre" in a rule (did you mean "require"?); want one of description, exempt, name, reason, severity, deny, require, forbid, forbid_import, forbid_cycles, layers, forbid_dependency, allowed_dependencies, check, module_coverage, acyclic_siblings`,
		`architecture.yaml:9:15: severity "fatal"; want error, warn or info`,
		`architecture.yaml:11:14: exemption needs a reason`,
		`architecture.yaml:11:14: exemption needs until (YYYY-MM-DD)`,
		`architecture.yaml:13:79: max_chains must be a whole number of at least 1, found 0`,
		`architecture.yaml:13:5: deny "r4": indirect cannot be combined with unless_edge; exempt the chains with exempt: entries instead`,
		`architecture.yaml:15:54: indirect must be true or false, found "yes"`,
		`architecture.yaml:17:44: unknown dependency type "type_only" (did you mean "type-only"?); want one of dynamic, extern_crate, from, import, mod, reexport, require, type-checking, type-only, use`,
	}
	if err == nil {
		t.Fatal("want errors")
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestFinishChecksReferences(t *testing.T) {
	m, err := Parse("a.yaml", []byte(`nodes:
  - {ref_id: billing, kind: domain, source: src/billing}
edges:
  - {src: billing, dst: biling, kind: uses}
rules:
  - {name: r, deny: {from: {ref_id: biling}, to: {ref_id: "bil*"}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	err = m.Finish(nil)
	want := []string{
		`a.yaml:4:5: edge dst "biling" is not a node of the graph (did you mean "billing"?)`,
		`a.yaml:6:28: ref_id "biling" is not a node of the graph (did you mean "billing"?)`,
	}
	if err == nil {
		t.Fatal("want errors")
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestBeadloomLayout loads the seed tool's layout unchanged: graph files,
// a v3 rules.yml with a tags map and rule types vouch skips.
func TestBeadloomLayout(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cli.yml", "nodes:\n  - ref_id: cli\n    kind: service\n    summary: ignored\n    source: src/cli.py\n    docs: [x.md]\nedges:\n  - {src: cli, dst: app, kind: part_of}\n")
	write("app.yml", "nodes:\n  - {ref_id: app, kind: service, source: src/app/}\n")
	write("rules.yml", "version: 3\ntags:\n  layer-service: [cli]\nrules:\n  - name: size\n    check: {for: {kind: domain}, max_symbols: 10}\n  - name: cyc\n    forbid_cycles: {edge_kind: depends_on}\n  - name: scen\n    scenario_coverage: {for: {kind: feature}}\n")
	m, err := LoadBeadloom(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Finish(nil); err != nil {
		t.Fatal(err)
	}
	if got := len(m.Nodes); got != 2 {
		t.Fatalf("nodes = %d, want 2", got)
	}
	if diff := cmp.Diff([]string{"layer-service"}, m.Nodes[1].Tags); diff != "" {
		t.Errorf("cli tags (-want +got):\n%s", diff)
	}
	if m.Nodes[0].Source != "src/app" {
		t.Errorf("app source = %q, want src/app (trailing slash dropped)", m.Nodes[0].Source)
	}
	if len(m.Rules) != 2 || len(m.Skipped) != 1 || m.Skipped[0].Type != "scenario_coverage" {
		t.Errorf("rules = %d, skipped = %+v; want 2 rules and the scenario_coverage rule skipped", len(m.Rules), m.Skipped)
	}
	if r := m.Rules[0]; r.Type != Check || r.MaxSymbols != 10 || r.MaxFiles != -1 {
		t.Errorf("check rule = %+v, want max_symbols 10 and no max_files", r)
	}
	if r := m.Rules[1]; !r.GraphOnly || r.EdgeKind != "depends_on" {
		t.Errorf("cycle rule = %+v, want graph edges of depends_on only (Beadloom's meaning)", r)
	}
	o := NewOwners(m.Nodes)
	for file, want := range map[string]string{"src/cli.py": "cli", "src/app/x/y.py": "app", "src/other.py": ""} {
		if got, _ := o.Owner(file); got != want {
			t.Errorf("Owner(%s) = %q, want %q", file, got, want)
		}
	}
	if !o.Covers("app", "src/app/z.py") || o.Covers("app", "src/cli.py") {
		t.Error("Covers: an annotation counts only inside the node's source")
	}
}

func TestAnnotations(t *testing.T) {
	got := Annotations([]byte("# beadloom:domain=billing\nx = 1\n// beadloom:service=auth,api feature=x\n"))
	if diff := cmp.Diff([]string{"billing", "auth", "api", "x"}, got); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
}

// TestLoadReportsEverything: a parse error (bad glob, bad date) does not
// hide the cross-reference problems Finish would find.
func TestLoadReportsEverything(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"bad glob with duplicate name and unknown ref_id", `nodes:
  - {ref_id: billing, kind: domain}
rules:
  - name: r1
    deny: {from: {ref_id: "bill[ing"}, to: {}}
  - name: r1
    deny: {from: {ref_id: billng}, to: {}}
`, []string{
			`architecture.yaml:5:27: bad glob "bill[ing": syntax error in pattern`,
			`architecture.yaml:6:5: rule name "r1" is used twice (first at architecture.yaml:4:5)`,
			`architecture.yaml:7:18: ref_id "billng" is not a node of the graph (did you mean "billing"?)`,
		}},
		{"derived nodes: names only", `rules:
  - name: r1
    forbid_import: {from: "[", to: "x"}
  - name: r1
    deny: {from: {ref_id: nowhere}, to: {}}
`, []string{
			`architecture.yaml:3:27: bad glob "[": syntax error in pattern`,
			`architecture.yaml:4:5: rule name "r1" is used twice (first at architecture.yaml:2:5)`,
		}},
		{"reserved rule name beside a parse error", `rules:
  - name: ok
    forbid_import: {from: "[", to: "x"}
  - name: unreadable-source
    deny: {from: {}, to: {}}
`, []string{
			`architecture.yaml:3:27: bad glob "[": syntax error in pattern`,
			`architecture.yaml:4:5: rule name "unreadable-source" is reserved for vouch's finding that a source file could not be read; choose another name`,
		}},
		{"until not a date, once", `rules:
  - name: r
    deny: {from: {}, to: {}}
    exempt: [{reason: r, until: 2030-02-30}]
`, []string{`architecture.yaml:4:33: until "2030-02-30" is not a date; want YYYY-MM-DD`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir, "")
			var got []string
			if el, ok := err.(ErrorList); ok {
				for _, e := range el {
					got = append(got, strings.ReplaceAll(e.Error(), dir+string(filepath.Separator), ""))
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
