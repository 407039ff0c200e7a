package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/datalog"
	"github.com/vouch-dev/vouch/imports"
)

const cycleYAML = `
nodes:
  - {ref_id: a, kind: service, source: a}
  - {ref_id: b, kind: service, source: b}
  - {ref_id: c, kind: service, source: c}
  - {ref_id: d, kind: service, source: d}
edges:
  - {src: a, dst: b, kind: depends_on}
  - {src: b, dst: a, kind: depends_on}
  - {src: c, dst: c, kind: depends_on}
  - {src: c, dst: d, kind: uses}
  - {src: d, dst: c, kind: uses}
rules:
  - name: no-cycles
    forbid_cycles: {edge_kind: depends_on}
`

func TestForbidCycles(t *testing.T) {
	files := []string{"a/x.go", "b/x.go", "c/x.go", "d/x.go"}
	recs := []imports.Record{imp("a/x.go", 3, "b"), imp("b/x.go", 4, "c"), imp("c/x.go", 5, "d"), imp("d/x.go", 6, "b"), imp("d/x.go", 7, "b")}
	o := lintYAML(t, cycleYAML, files, recs)
	type got struct {
		// File and Line are where the finding is shown: the import that
		// closes the cycle, or the declared edge that does.
		File    string
		Line    int
		Graph   string
		Members []string
		Witness []string
		Edges   []CycleEdge
	}
	var gs []got
	for _, f := range o.Findings {
		if f.Cycle == nil {
			t.Fatalf("finding without cycle: %+v", f)
		}
		gs = append(gs, got{f.File, f.Line, f.Cycle.Graph, f.Cycle.Members, f.Cycle.Witness, f.Cycle.Edges})
	}
	want := []got{
		// graph: a <-> b (depends_on), closed by b -> a on line 9; c -> c
		// self-loop on line 10; the uses cycle c <-> d is another kind.
		{"architecture.yaml", 9, "graph (depends_on edges)", []string{"a", "b"}, []string{"a", "b", "a"}, []CycleEdge{{From: "a", To: "b"}, {From: "b", To: "a"}}},
		{"architecture.yaml", 10, "graph (depends_on edges)", []string{"c"}, []string{"c", "c"}, []CycleEdge{{From: "c", To: "c"}}},
		// imports: b -> c -> d -> b, reported once, with the sites behind
		// each step, shown on the first import of d that closes it.
		{"d/x.go", 6, "imports", []string{"b", "c", "d"}, []string{"b", "c", "d", "b"}, []CycleEdge{
			{From: "b", To: "c", Sites: []Site{{"b/x.go", 4}}},
			{From: "c", To: "d", Sites: []Site{{"c/x.go", 5}}},
			{From: "d", To: "b", Sites: []Site{{"d/x.go", 6}, {"d/x.go", 7}}}}},
	}
	if diff := cmp.Diff(want, gs); diff != "" {
		t.Errorf("cycles (-want +got):\n%s", diff)
	}
}

const layerGraph = `
nodes:
  - {ref_id: cli, kind: service, source: cli, tags: [layer-service]}
  - {ref_id: app, kind: domain, source: app, tags: [layer-app]}
  - {ref_id: billing, kind: feature, source: billing}
  - {ref_id: infra, kind: domain, source: infra, tags: [layer-infra]}
edges:
  - {src: billing, dst: app, kind: part_of}
  - {src: infra, dst: cli, kind: depends_on}
rules:
  - name: architecture-layers
    layers:
      - {name: services, tag: layer-service}
      - {name: application, tag: layer-app}
      - {name: infrastructure, tag: layer-infra}
    enforce: top-down
    allow_skip: SKIP
    edge_kind: depends_on
`

func TestLayers(t *testing.T) {
	files := []string{"cli/m.py", "app/m.py", "billing/m.py", "infra/m.py"}
	recs := []imports.Record{
		imp("cli/m.py", 1, "infra/m.py"),   // services -> infrastructure: skips application
		imp("billing/m.py", 2, "cli/m.py"), // billing inherits application through part_of: upwards
		imp("app/m.py", 3, "infra/m.py"),   // application -> infrastructure: fine
		imp("billing/m.py", 4, "app/m.py"), // same layer
	}
	tests := []struct {
		skip string
		want []string
	}{
		{"true", []string{
			"architecture-layers:layers:error:::infra:cli",
			"architecture-layers:layers:error:billing/m.py:2:billing:cli",
		}},
		{"false", []string{
			"architecture-layers:layers:error:::infra:cli",
			"architecture-layers:layers:error:billing/m.py:2:billing:cli",
			"architecture-layers:layers:error:cli/m.py:1:cli:infra",
		}},
	}
	for _, tt := range tests {
		t.Run("allow_skip="+tt.skip, func(t *testing.T) {
			o := lintYAML(t, strings.Replace(layerGraph, "SKIP", tt.skip, 1), files, recs)
			if diff := cmp.Diff(tt.want, short(o.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if !strings.Contains(o.Findings[1].Message, "billing (layer application) depends on cli (layer services)") {
				t.Errorf("message = %q, want the inherited layer named", o.Findings[1].Message)
			}
		})
	}
}

func TestForbidImportAndExemptions(t *testing.T) {
	files := []string{"src/tui/a.py", "src/tui/b.py", "src/infra/db.py", "src/core/c.py"}
	recs := []imports.Record{
		imp("src/tui/a.py", 1, "src/infra/db.py"),
		ext("src/tui/a.py", 2, imports.Python, "requests"),
		ext("src/core/c.py", 3, imports.Python, "requests.adapters"),
		imp("src/tui/b.py", 4, "src/infra/db.py"),
	}
	yaml := `rules:
  - name: tui-no-direct-infra
    reason: go through the application layer
    forbid_import: {from: "src/tui/**", to: "src/infra/**"}
    exempt:
      - {from: src/tui/b.py, reason: migration in progress, until: 2030-01-01}
      - {from: src/tui/zzz.py, reason: stale, until: 2030-01-01}
  - name: no-requests
    forbid_import: {from: "src/**", to: "requests/**"}
    exempt:
      - {from: "src/core/*", reason: legacy, until: 2020-01-01}
  - name: never
    forbid_import: {from: "lib/**", to: "x/**"}
`
	o := lintYAML(t, yaml, files, recs)
	want := []string{
		"never:inert:warn:architecture.yaml:12::",
		"no-requests:exemption_expired:warn:architecture.yaml:11:src/core/*:",
		"no-requests:forbid_import:error:src/core/c.py:3:src/core/c.py:requests.adapters",
		"no-requests:forbid_import:error:src/tui/a.py:2:src/tui/a.py:requests",
		"tui-no-direct-infra:exemption_unused:warn:architecture.yaml:7:src/tui/zzz.py:",
		"tui-no-direct-infra:forbid_import:error:src/tui/a.py:1:src/tui/a.py:src/infra/db.py",
	}
	if diff := cmp.Diff(want, short(o.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// TestReplay evaluates the written .dl with stock Mangle (through the
// datalog package, parsing the text) and requires the same violations.
func TestReplay(t *testing.T) {
	o := lintYAML(t, seedGraph+`rules:
  - {name: d, deny: {from: {kind: service}, to: {}}}
  - {name: c, forbid_cycles: {}}
`, seedFiles, seedImports)
	var dl bytes.Buffer
	if err := o.WriteDL(&dl); err != nil {
		t.Fatal(err)
	}
	res, err := datalog.Eval(dl.String(), nil, datalog.Options{})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	got := strs(res.Facts("violation", 5))
	want := strs(o.Result.Facts("violation", 5))
	if len(want) == 0 {
		t.Fatal("test needs violations")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replayed violations (-run +replay):\n%s", diff)
	}
	var again bytes.Buffer
	o2 := lintYAML(t, seedGraph+`rules:
  - {name: d, deny: {from: {kind: service}, to: {}}}
  - {name: c, forbid_cycles: {}}
`, seedFiles, seedImports)
	_ = o2.WriteDL(&again)
	if !bytes.Equal(dl.Bytes(), again.Bytes()) {
		t.Error("the .dl differs between two runs")
	}
}

func strs(as []ast.Atom) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.String()
	}
	return out
}
