package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vouch-dev/vouch/imports"
)

// kinded is an internal import of a given kind.
func kinded(file string, line int, target string, kind imports.Kind, typeChecking bool) imports.Record {
	r := imp(file, line, target)
	r.Kind, r.TypeChecking = kind, typeChecking
	return r
}

const filterNodes = `
nodes:
  - {ref_id: a, kind: k, source: a, tags: [low]}
  - {ref_id: b, kind: k, source: b, tags: [high]}
  - {ref_id: c, kind: k, source: c}
`

var filterFiles = []string{"a/x.ts", "b/x.ts", "c/x.ts"}

// a -> b: a type-only import (line 1), a TYPE_CHECKING import (line 2);
// b -> a: plain (line 3); a -> c dynamic (line 4); c -> b plain (line 5).
var filterRecs = []imports.Record{
	kinded("a/x.ts", 1, "b/x.ts", imports.KindTypeOnly, false),
	kinded("a/x.ts", 2, "b/x.ts", imports.KindFrom, true),
	kinded("a/x.ts", 4, "c/x.ts", imports.KindDynamic, false),
	kinded("b/x.ts", 3, "a/x.ts", imports.KindImport, false),
	kinded("c/x.ts", 5, "b/x.ts", imports.KindImport, false),
}

func TestDependencyTypeFilters(t *testing.T) {
	for _, tc := range []struct {
		name, rules string
		want        []string
		witness     []string // the first cycle's, when there is one
	}{
		{"deny sees every kind", `[{name: r, deny: {from: {ref_id: a}, to: {ref_id: b}}}]`,
			[]string{"r:deny:error:a/x.ts:1:a:b", "r:deny:error:a/x.ts:2:a:b"}, nil},
		{"exclude_type_checking_imports", `[{name: r, deny: {from: {ref_id: a}, to: {ref_id: b}, exclude_type_checking_imports: true}}]`,
			[]string{"r:deny:error:a/x.ts:1:a:b"}, nil},
		{"dependency_types_not", `[{name: r, deny: {from: {ref_id: a}, to: {ref_id: b}, dependency_types_not: [type-only, type-checking]}}]`,
			nil, nil},
		{"dependency_types selects", `[{name: r, deny: {from: {ref_id: a}, to: {}, dependency_types: [dynamic]}}]`,
			[]string{"r:deny:error:a/x.ts:4:a:c"}, nil},
		{"indirect over kept imports only", `[{name: r, deny: {from: {ref_id: a}, to: {ref_id: b}, indirect: true, dependency_types_not: [type-only, type-checking]}}]`,
			[]string{"r:deny:error:::a:b"}, nil},
		{"indirect without the dynamic hop", `[{name: r, deny: {from: {ref_id: a}, to: {ref_id: b}, indirect: true, dependency_types_not: [type-only, type-checking, dynamic]}}]`,
			nil, nil},
		{"cycle through type-only imports", `[{name: r, forbid_cycles: {}}]`,
			[]string{"r:forbid_cycles:error:b/x.ts:3:a:"}, []string{"a", "b", "a"}},
		{"cycle gone without type-only and type-checking", `[{name: r, forbid_cycles: {dependency_types_not: [type-only, type-checking]}}]`,
			[]string{"r:forbid_cycles:error:b/x.ts:3:a:"}, []string{"a", "c", "b", "a"}},
		{"no cycle without dynamic either", `[{name: r, forbid_cycles: {dependency_types_not: [type-only, type-checking, dynamic]}}]`,
			nil, nil},
		{"layers ignore type-checking", `[{name: r, layers: {layers: [{name: h, tag: high}, {name: l, tag: low}], exclude_type_checking_imports: true}}]`,
			[]string{"r:layers:error:a/x.ts:1:a:b"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := lintYAML(t, filterNodes+"rules: "+tc.rules+"\n", filterFiles, filterRecs)
			if diff := cmp.Diff(tc.want, short(o.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if tc.witness != nil {
				if diff := cmp.Diff(tc.witness, o.Findings[0].Cycle.Witness); diff != "" {
					t.Errorf("witness (-want +got):\n%s", diff)
				}
			}
		})
	}
}
