package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/imports"
)

// chainGraph: ui -> svc -> db directly, ui -> util -> db, api -> db
// directly, and a cycle x <-> y that must not make x a chain to itself.
const chainNodes = `
nodes:
  - {ref_id: ui, kind: web, source: ui, tags: [top]}
  - {ref_id: svc, kind: service, source: svc, tags: [mid]}
  - {ref_id: util, kind: lib, source: util}
  - {ref_id: db, kind: store, source: db, tags: [bottom]}
  - {ref_id: api, kind: web, source: api, tags: [mid]}
  - {ref_id: x, kind: lib, source: x}
  - {ref_id: y, kind: lib, source: y}
`

var chainFiles = []string{"ui/a.go", "svc/a.go", "util/a.go", "db/a.go", "api/a.go", "x/a.go", "y/a.go"}

var chainRecs = []imports.Record{
	imp("api/a.go", 2, "db/a.go"),
	imp("db/a.go", 9, "util/a.go"),
	imp("svc/a.go", 3, "db/a.go"),
	imp("ui/a.go", 4, "svc/a.go"),
	imp("ui/a.go", 5, "util/a.go"),
	imp("util/a.go", 6, "x/a.go"),
	imp("x/a.go", 7, "y/a.go"),
	imp("y/a.go", 8, "x/a.go"),
}

func TestIndirect(t *testing.T) {
	type chainOut struct {
		From, To, Message string
		Chain             []CycleEdge
	}
	for _, tc := range []struct {
		name  string
		rules string
		want  []string
		// chains are the indirect findings' witnesses.
		chains []chainOut
	}{
		{
			name:  "direct only without indirect",
			rules: `[{name: r, deny: {from: {kind: web}, to: {ref_id: x}}}]`,
			want:  nil,
		},
		{
			name:  "forward search",
			rules: `[{name: r, deny: {from: {ref_id: ui}, to: {ref_id: x}, indirect: true}}]`,
			want:  []string{"r:deny:error:::ui:x"},
			chains: []chainOut{
				{"ui", "x", "ui imports x indirectly: ui -> util -> x", []CycleEdge{
					{From: "ui", To: "util", Sites: []Site{{"ui/a.go", 5}}}, {From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}}}},
			},
		},
		{
			// A chain's inner nodes match neither end: ui -> util -> x
			// goes through util, a to node, whose direct import is the
			// finding (import-linter leaves such chains out too).
			name:  "a chain through a to node is reported at that node",
			rules: `[{name: r, deny: {from: {ref_id: ui}, to: {kind: lib}, indirect: true}}]`,
			want:  []string{"r:deny:error:ui/a.go:5:ui:util"},
		},
		{
			// ... and through a from node: db is a from node here, so
			// api -> db -> util -> x is db's chain, not api's.
			name:  "a chain through a from node is reported from that node",
			rules: `[{name: r, deny: {from: {ref_id: "*", exclude: [svc, util, x, y]}, to: {ref_id: x}, indirect: true}}]`,
			want:  []string{"r:deny:error:::db:x", "r:deny:error:::ui:x"},
			chains: []chainOut{
				{"db", "x", "db imports x indirectly: db -> util -> x", []CycleEdge{
					{From: "db", To: "util", Sites: []Site{{"db/a.go", 9}}}, {From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}}}},
				{"ui", "x", "ui imports x indirectly: ui -> util -> x", []CycleEdge{
					{From: "ui", To: "util", Sites: []Site{{"ui/a.go", 5}}}, {From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}}}},
			},
		},
		{
			// to selects one node, from two: the search runs backwards
			// from y; findings are the same as forwards.
			name:  "backward search",
			rules: `[{name: r, deny: {from: {kind: web}, to: {ref_id: y}, indirect: true}}]`,
			want:  []string{"r:deny:error:::api:y", "r:deny:error:::ui:y"},
			chains: []chainOut{
				{"api", "y", "api imports y indirectly: api -> db -> util -> x -> y", []CycleEdge{
					{From: "api", To: "db", Sites: []Site{{"api/a.go", 2}}}, {From: "db", To: "util", Sites: []Site{{"db/a.go", 9}}},
					{From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}}, {From: "x", To: "y", Sites: []Site{{"x/a.go", 7}}}}},
				{"ui", "y", "ui imports y indirectly: ui -> util -> x -> y", []CycleEdge{
					{From: "ui", To: "util", Sites: []Site{{"ui/a.go", 5}}}, {From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}},
					{From: "x", To: "y", Sites: []Site{{"x/a.go", 7}}}}},
			},
		},
		{
			name:  "a cycle is not a chain to oneself",
			rules: `[{name: r, deny: {from: {ref_id: x}, to: {kind: lib}, indirect: true}}]`,
			want:  []string{"r:deny:error:x/a.go:7:x:y"},
		},
		{
			name:  "max_chains limits witnesses, not findings",
			rules: `[{name: r, deny: {from: {kind: web}, to: {ref_id: y}, indirect: true, max_chains: 1}}]`,
			want:  []string{"r:deny:error:::api:y", "r:deny:error:::ui:y"},
			chains: []chainOut{
				{"api", "y", "api imports y indirectly: api -> db -> util -> x -> y", []CycleEdge{
					{From: "api", To: "db", Sites: []Site{{"api/a.go", 2}}}, {From: "db", To: "util", Sites: []Site{{"db/a.go", 9}}},
					{From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}}, {From: "x", To: "y", Sites: []Site{{"x/a.go", 7}}}}},
				{"ui", "y", "ui imports y indirectly (chain not shown: max_chains 1)", nil},
			},
		},
		{
			name:  "exemption covers a chain",
			rules: `[{name: r, deny: {from: {kind: web}, to: {ref_id: y}, indirect: true}, exempt: [{from: ui, to: y, reason: legacy, until: 2100-01-01}]}]`,
			want:  []string{"r:deny:error:::api:y"},
			chains: []chainOut{
				{"api", "y", "api imports y indirectly: api -> db -> util -> x -> y", []CycleEdge{
					{From: "api", To: "db", Sites: []Site{{"api/a.go", 2}}}, {From: "db", To: "util", Sites: []Site{{"db/a.go", 9}}},
					{From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}}, {From: "x", To: "y", Sites: []Site{{"x/a.go", 7}}}}},
			},
		},
		{
			// Reversed stack (bottom on top): every direct import
			// points up. ui reaches no layered node through unlayered
			// ones (ui -> util -> x -> y), so no chain there.
			name:  "layers direct findings stay direct",
			rules: `[{name: l, layers: {layers: [{name: b, tag: bottom}, {name: m, tag: mid}, {name: t, tag: top}], indirect: true}}]`,
			want:  []string{"l:layers:error:api/a.go:2:api:db", "l:layers:error:svc/a.go:3:svc:db", "l:layers:error:ui/a.go:4:ui:svc"},
		},
		{
			// y on top, db at the bottom: db -> util -> x -> y climbs
			// through unlayered nodes. ui (top too) -> svc -> db goes
			// down and through a layered node.
			name:  "layers chain through unlayered nodes",
			rules: "[{name: l, layers: {layers: [{name: t, tag: top}, {name: b, tag: bottom}], indirect: true}}]\ntags: {top: [y]}",
			want:  []string{"l:layers:error:::db:y"},
			chains: []chainOut{
				{"db", "y", "db (layer b) depends on y (layer t) through a chain of imports: db -> util -> x -> y", []CycleEdge{
					{From: "db", To: "util", Sites: []Site{{"db/a.go", 9}}}, {From: "util", To: "x", Sites: []Site{{"util/a.go", 6}}},
					{From: "x", To: "y", Sites: []Site{{"x/a.go", 7}}}}},
			},
		},
		{
			name:  "layers without indirect ignore the chain",
			rules: "[{name: l, layers: {layers: [{name: t, tag: top}, {name: b, tag: bottom}]}}]\ntags: {top: [y]}",
			want:  nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := lintYAML(t, chainNodes+"rules: "+tc.rules+"\n", chainFiles, chainRecs)
			if diff := cmp.Diff(tc.want, short(o.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			var got []chainOut
			for _, f := range o.Findings {
				if f.File == "" {
					got = append(got, chainOut{f.From, f.To, f.Message, f.Chain})
				}
			}
			if diff := cmp.Diff(tc.chains, got); diff != "" {
				t.Errorf("chains (-want +got):\n%s", diff)
			}
		})
	}
}
