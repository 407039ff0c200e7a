package lint

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/imports"
)

// TestExemptionsEveryType: an exemption covers every site of the node pair
// it names, for each rule type, and leaves the other findings alone.
func TestExemptionsEveryType(t *testing.T) {
	const until = `, reason: accepted, until: 2030-01-01}`
	t.Run("deny require forbid", func(t *testing.T) {
		o := lintYAML(t, seedGraph+`rules:
  - name: d
    deny: {from: {kind: service}, to: {}}
    exempt: [{from: notifications, to: api`+until+`]
  - name: r
    require: {for: {kind: service}, has_edge_to: {kind: adr}}
    exempt: [{from: notifications`+until+`]
  - name: f
    forbid: {from: {kind: service}, to: {}, edge_kind: uses}
    exempt: [{from: api, to: cli`+until+`]
`, seedFiles, append(seedImports, imp("src/notify/n.py", 9, "src/api/h.py")))
		want := []string{"d:deny:error:src/api/h.py:3:api:cli"}
		if diff := cmp.Diff(want, short(o.Findings)); diff != "" {
			t.Errorf("findings (-want +got):\n%s", diff)
		}
	})
	t.Run("forbid_cycles", func(t *testing.T) {
		files := []string{"a/x.go", "b/x.go", "c/x.go", "d/x.go"}
		recs := []imports.Record{imp("b/x.go", 4, "c"), imp("c/x.go", 5, "d"), imp("d/x.go", 6, "b")}
		o := lintYAML(t, cycleYAML+`    exempt: [{members: [b, a]`+until+`, {members: [d, b, c]`+until+`]
`, files, recs)
		// a <-> b (graph) and b -> c -> d -> b (imports) are exempt by
		// their member sets; the c self-loop is not.
		want := []string{"no-cycles:forbid_cycles:error:architecture.yaml:10:c:"}
		if diff := cmp.Diff(want, short(o.Findings)); diff != "" {
			t.Errorf("findings (-want +got):\n%s", diff)
		}
	})
	t.Run("layers", func(t *testing.T) {
		files := []string{"cli/m.py", "billing/m.py"}
		recs := []imports.Record{imp("billing/m.py", 2, "cli/m.py"), imp("billing/m.py", 5, "cli/m.py")}
		o := lintYAML(t, strings.Replace(layerGraph, "SKIP", "true", 1)+`    exempt: [{from: billing, to: cli`+until+`]
`, files, recs)
		want := []string{"architecture-layers:layers:error:::infra:cli"}
		if diff := cmp.Diff(want, short(o.Findings)); diff != "" {
			t.Errorf("findings (-want +got):\n%s", diff)
		}
	})
}

// TestCyclesSharedGraph: two rules over the same graph both report its
// cycle, and a rule over another edge kind sees only its own.
func TestCyclesSharedGraph(t *testing.T) {
	o := lintYAML(t, cycleYAML+`  - name: again
    forbid_cycles: {edge_kind: depends_on}
  - name: uses-only
    forbid_cycles: {edge_kind: uses}
`, []string{"a/x.go"}, nil)
	want := []string{
		"again:forbid_cycles:error:architecture.yaml:9:a:", "again:forbid_cycles:error:architecture.yaml:10:c:",
		"no-cycles:forbid_cycles:error:architecture.yaml:9:a:", "no-cycles:forbid_cycles:error:architecture.yaml:10:c:",
		"uses-only:forbid_cycles:error:architecture.yaml:12:c:",
	}
	if diff := cmp.Diff(want, short(o.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	for _, f := range o.Findings {
		if f.Rule == "uses-only" && strings.Join(f.Cycle.Witness, " ") != "c d c" {
			t.Errorf("uses-only witness = %v, want c d c", f.Cycle.Witness)
		}
	}
}

// TestForbidImportTargets: a to glob matching an import only outside the
// from glob's files is not inert and has no finding; an import known by
// several matching keys is one finding.
func TestForbidImportTargets(t *testing.T) {
	files := []string{"src/a.py", "lib/b.py", "pkg/x/y.py"}
	recs := []imports.Record{
		ext("lib/b.py", 1, imports.Python, "requests"),
		{File: "src/a.py", Line: 2, Lang: imports.Python, Spec: "pkg.x.y",
			Resolution: imports.Resolution{Kind: imports.Internal, Target: "pkg/x/y.py"}},
	}
	o := lintYAML(t, `rules:
  - {name: req, forbid_import: {from: "src/**", to: "requests"}}
  - {name: pkg, forbid_import: {from: "src/**", to: "pkg/**"}}
`, files, recs)
	want := []string{"pkg:forbid_import:error:src/a.py:2:src/a.py:pkg/x/y.py"}
	if diff := cmp.Diff(want, short(o.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// TestSortedFacts: the .dl's fact order is datalog.SortAtoms's.
func TestSortedFacts(t *testing.T) {
	facts := []ast.Atom{
		atom("p", str("b"), num(10)), atom("p", str("b"), num(9)), atom("p", str("a"), num(100)),
		atom("o", str("z")), atom("p", num(3), str("x")), atom("p", str("3"), str("x")),
		atom("q", nameConst("deny"), str("a\nb")), atom("q", nameConst("deny"), str("a b")),
		atom("p", str("b"), str("9")), atom("p", str("b"), num(-1)),
	}
	want := append([]ast.Atom(nil), facts...)
	datalog.SortAtoms(want)
	got := sortedFacts(facts)
	if diff := cmp.Diff(strs(want), strs(got)); diff != "" {
		t.Errorf("order (-SortAtoms +sortedFacts):\n%s", diff)
	}
}

// TestViolationsByEndpoint: reading violations endpoint by endpoint finds
// every one of them, for every rule type.
func TestViolationsByEndpoint(t *testing.T) {
	m, err := arch.Parse("architecture.yaml", []byte(seedGraph+`  - {src: cli, dst: api, kind: depends_on}
  - {src: api, dst: cli, kind: depends_on}
rules:
  - {name: d, deny: {from: {kind: service}, to: {}}}
  - {name: r, require: {for: {kind: service}, has_edge_to: {kind: adr}}}
  - {name: f, forbid: {from: {kind: service}, to: {}, edge_kind: uses}}
  - {name: c, forbid_cycles: {}}
  - {name: i, forbid_import: {from: "src/**", to: "src/cli/**"}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Finish(seedFiles); err != nil {
		t.Fatal(err)
	}
	pr := prepare(m, &imports.Result{Files: seedFiles, Records: seedImports}, nil, 20000, nil)
	res, err := datalog.Eval(semantics, pr.facts, datalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := strs(res.Facts("violation", 5))
	got := violations(res, pr)
	datalog.SortAtoms(got)
	types := map[string]bool{}
	for _, v := range all {
		types[v[len(`violation("`):len(`violation("`)+1]] = true
	}
	if len(types) != 5 {
		t.Fatalf("want violations of all 5 rules, got %v", all)
	}
	if diff := cmp.Diff(all, strs(got)); diff != "" {
		t.Errorf("violations (-all +by endpoint):\n%s", diff)
	}
}

// TestCycleExemptionMemberSet: a forbid_cycles exemption covers a cycle
// only when it lists exactly the cycle's members. A cycle that grows (or
// shrinks) is reported again and the exemption becomes unused.
func TestCycleExemptionMemberSet(t *testing.T) {
	const graph = `
nodes:
  - {ref_id: svc, kind: service, source: svc}
  - {ref_id: ui, kind: service, source: ui}
  - {ref_id: zz, kind: service, source: zz}
rules:
  - name: nc
    forbid_cycles: {}
    exempt: [{members: MEMBERS, reason: accepted, until: 2030-01-01}]
`
	files := []string{"svc/x.go", "ui/x.go", "zz/x.go"}
	pair := []imports.Record{imp("svc/x.go", 1, "ui"), imp("ui/x.go", 2, "svc")}
	grown := []imports.Record{imp("svc/x.go", 1, "ui"), imp("ui/x.go", 2, "zz"), imp("zz/x.go", 3, "svc")}
	tests := []struct {
		name, members string
		recs          []imports.Record
		want          []string
	}{
		{"exact set", "[ui, svc]", pair, nil},
		{"cycle grew", "[svc, ui]", grown, []string{
			"nc:exemption_unused:warn:architecture.yaml:9::",
			"nc:forbid_cycles:error:zz/x.go:3:svc:",
		}},
		{"exact grown set", "[svc, ui, zz]", grown, nil},
		{"cycle shrank", "[svc, ui, zz]", pair, []string{
			"nc:exemption_unused:warn:architecture.yaml:9::",
			"nc:forbid_cycles:error:ui/x.go:2:svc:",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := lintYAML(t, strings.Replace(graph, "MEMBERS", tc.members, 1), files, tc.recs)
			if diff := cmp.Diff(tc.want, short(o.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCycleExemptionConfig: forbid_cycles exemptions name members, never
// from/to; members belong to forbid_cycles only.
func TestCycleExemptionConfig(t *testing.T) {
	tests := []struct{ name, rule, want string }{
		{"from on a cycle rule", "forbid_cycles: {}\n    exempt: [{from: svc, reason: r, until: 2030-01-01}]",
			"architecture.yaml:6:14: a forbid_cycles exemption names every member of the cycle (members: [a, b]), not from/to"},
		{"no members", "forbid_cycles: {}\n    exempt: [{reason: r, until: 2030-01-01}]",
			"architecture.yaml:6:14: a forbid_cycles exemption needs members: the node ids of the whole cycle"},
		{"members elsewhere", "forbid: {from: {}, to: {}}\n    exempt: [{members: [svc], reason: r, until: 2030-01-01}]",
			"architecture.yaml:6:14: members applies only to forbid_cycles exemptions; a forbid exemption uses from/to"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "nodes:\n  - {ref_id: svc, kind: service}\nrules:\n  - name: r\n    " + tc.rule + "\n"
			_, err := arch.Parse("architecture.yaml", []byte(src))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error = %v\nwant %s", err, tc.want)
			}
		})
	}
}
