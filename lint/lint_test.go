package lint

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/arch"
	"github.com/vouch-dev/vouch/imports"
)

// imp is an internal import from file:line to target.
func imp(file string, line int, target string) imports.Record {
	return imports.Record{File: file, Line: line, Column: 1, Lang: imports.Go, Kind: imports.KindImport, Spec: target,
		Resolution: imports.Resolution{Kind: imports.Internal, Target: target}}
}

// ext is an import resolving outside the repository.
func ext(file string, line int, lang imports.Lang, spec string) imports.Record {
	return imports.Record{File: file, Line: line, Column: 1, Lang: lang, Kind: imports.KindImport, Spec: spec,
		Resolution: imports.Resolution{Kind: imports.External, Target: spec}}
}

func lintYAML(t *testing.T, src string, files []string, recs []imports.Record) *Outcome {
	t.Helper()
	m, err := arch.Parse("architecture.yaml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if err := m.Finish(files); err != nil {
		t.Fatalf("finish: %v", err)
	}
	o, err := Run(m, &imports.Result{Files: files, Records: recs}, nil, Options{Today: 20000})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return o
}

// short renders findings as rule:type:severity:file:line:from:to.
func short(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		line := ""
		if f.Line > 0 {
			line = itoa(f.Line)
		}
		out = append(out, strings.Join([]string{f.Rule, f.Type, f.Severity, f.File, line, f.From, f.To}, ":"))
	}
	return out
}

const seedGraph = `
nodes:
  - {ref_id: billing, kind: domain, source: src/billing}
  - {ref_id: auth, kind: domain, source: src/auth}
  - {ref_id: cli, kind: service, source: src/cli}
  - {ref_id: api, kind: service, source: src/api}
  - {ref_id: notifications, kind: service, source: src/notify}
  - {ref_id: core, kind: feature, source: src/core}
  - {ref_id: adr-1, kind: adr}
edges:
  - {src: api, dst: cli, kind: uses}
  - {src: cli, dst: adr-1, kind: documented_by}
  - {src: api, dst: adr-1, kind: documented_by}
`

var seedFiles = []string{"src/billing/invoice.py", "src/auth/tokens.py", "src/cli/main.py", "src/api/h.py", "src/notify/n.py", "src/core/c.py", "src/billing/tax.py"}

var seedImports = []imports.Record{
	imp("src/billing/invoice.py", 12, "src/auth/tokens.py"),
	imp("src/billing/invoice.py", 13, "src/billing/tax.py"), // same node: never a boundary
	imp("src/api/h.py", 3, "src/cli/main.py"),               // api -> cli, exempt by a uses edge
	imp("src/notify/n.py", 4, "src/api/h.py"),               // notifications -> api, no edge
	imp("src/core/c.py", 7, "src/cli/main.py"),
}

func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		rules string
		want  []string
	}{
		{"deny by ref_id (seed billing-auth-boundary)", `
  - name: billing-auth-boundary
    description: Billing must not import from auth directly
    deny: {from: {ref_id: billing}, to: {ref_id: auth}}`,
			[]string{"billing-auth-boundary:deny:error:src/billing/invoice.py:12:billing:auth"}},
		{"deny unless_edge (seed domain-isolation)", `
  - name: domain-isolation
    deny: {from: {kind: service}, to: {kind: service}, unless_edge: [depends_on, uses]}`,
			[]string{"domain-isolation:deny:error:src/notify/n.py:4:notifications:api"}},
		{"deny kind to ref_id (seed core-dependency-direction)", `
  - name: core-dependency-direction
    severity: warn
    deny: {from: {kind: feature}, to: {ref_id: cli}}`,
			[]string{"core-dependency-direction:deny:warn:src/core/c.py:7:core:cli"}},
		{"require (seed adr-required-for-new-services)", `
  - name: adr-required-for-new-services
    require: {for: {kind: service}, has_edge_to: {kind: adr}}`,
			[]string{"adr-required-for-new-services:require:error:::notifications:"}},
		{"require edge_kind and {}", `
  - name: part-of
    require: {for: {kind: domain}, has_edge_to: {}, edge_kind: part_of}`,
			[]string{"part-of:require:error:::auth:", "part-of:require:error:::billing:"}},
		{"forbid graph edge", `
  - name: no-uses
    forbid: {from: {kind: service}, to: {ref_id: "c*"}, edge_kind: uses}`,
			[]string{"no-uses:forbid:error:::api:cli"}},
		{"exclude", `
  - name: adr
    require: {for: {kind: service, exclude: [notifications]}, has_edge_to: {kind: adr}}`,
			nil},
		{"inert matcher", `
  - name: nothing
    deny: {from: {kind: gateway}, to: {}}`,
			[]string{"nothing:inert:warn:architecture.yaml:15::"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := lintYAML(t, seedGraph+"rules:"+tt.rules, seedFiles, seedImports)
			got := short(o.Findings)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheckTotalsPerNode: a check rule totals each node's own files and
// symbols. The two node names below share the 32-bit key Mangle v0.4.0's
// group_by files rows under (it compares hashes, not keys), so an
// aggregation in datalog merged their totals under whichever name came
// first and dropped the other's check; Go totals them instead. Each name
// takes each role.
func TestCheckTotalsPerNode(t *testing.T) {
	names := [2]string{"src/pkgd/22883", "src/pkgm/52688"}
	for _, big := range []int{0, 1} {
		small := 1 - big
		src := `
nodes:
  - {ref_id: "` + names[big] + `", kind: component, source: src/z}
  - {ref_id: "` + names[small] + `", kind: domain, source: src/a}
rules:
  - name: small-components
    check: {for: {kind: component}, max_files: 1, max_symbols: 3}
`
		// The small node's file comes first, so the engine kept its name
		// for the merged total and the component's check vanished.
		files := []string{"src/a/three.py", "src/z/one.py", "src/z/two.py"}
		m, err := arch.Parse("architecture.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Finish(files); err != nil {
			t.Fatal(err)
		}
		sf := &SourceFacts{Symbols: map[string]int{"src/z/one.py": 2, "src/z/two.py": 2, "src/a/three.py": 9}}
		o, err := Run(m, &imports.Result{Files: files}, nil, Options{Today: 20000, Source: sf})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"small-components:check:error:::" + names[big] + ":max_files",
			"small-components:check:error:::" + names[big] + ":max_symbols",
		}
		if diff := cmp.Diff(want, short(o.Findings)); diff != "" {
			t.Errorf("component %s (-want +got):\n%s", names[big], diff)
		}
	}
}

// TestDenyInertWithoutFiles: a deny rule whose from or to side selects
// only nodes owning no source file can never fire (imports come from and
// go to files): it is inert, and an error under --strict, as a matcher
// selecting no node is.
func TestDenyInertWithoutFiles(t *testing.T) {
	tests := []struct {
		name, rules string
		want        []string
		msg         string
	}{
		{"from owns no file", `
  - {name: r, deny: {from: {ref_id: adr-1}, to: {}}}`,
			[]string{"r:inert:warn:architecture.yaml:16::"},
			"rule can never fire: a matcher ({ref_id: adr-1} or {}) selects only nodes that own no source file"},
		{"to owns no file", `
  - {name: r, deny: {from: {}, to: {ref_id: empty}}}`,
			[]string{"r:inert:warn:architecture.yaml:16::"},
			"rule can never fire: a matcher ({} or {ref_id: empty}) selects only nodes that own no source file"},
		{"a matcher selects no node", `
  - {name: r, deny: {from: {kind: gateway}, to: {}}}`,
			[]string{"r:inert:warn:architecture.yaml:16::"},
			"rule can never fire: a matcher ({kind: gateway} or {}) selects no node"},
		{"one node of a side owns files", `
  - {name: r, deny: {from: {kind: service}, to: {ref_id: auth}}}`,
			nil, ""},
		{"require reads declared edges, files or not", `
  - {name: r, require: {for: {ref_id: adr-1}, has_edge_to: {ref_id: cli}}}`,
			[]string{"r:require:error:::adr-1:"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(seedGraph, "  - {ref_id: adr-1, kind: adr}\n", "  - {ref_id: adr-1, kind: adr}\n  - {ref_id: empty, kind: domain, source: src/empty}\n", 1) + "rules:" + tt.rules + "\n"
			o := lintYAML(t, src, seedFiles, seedImports)
			if diff := cmp.Diff(tt.want, short(o.Findings)); diff != "" {
				t.Fatalf("findings (-want +got):\n%s", diff)
			}
			if tt.msg != "" && o.Findings[0].Message != tt.msg {
				t.Errorf("message = %q, want %q", o.Findings[0].Message, tt.msg)
			}
			if len(tt.want) > 0 && tt.msg != "" {
				rep := NewReport(o, true)
				rep.Count()
				if !rep.Fails(false) {
					t.Error("an inert rule does not fail under --strict")
				}
			}
		})
	}
}
