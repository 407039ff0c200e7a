package lint

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/datalog"
)

// TestSCCHints checks the component numbering and pivots Go proposes.
func TestSCCHints(t *testing.T) {
	tests := []struct {
		name   string
		edges  []pair
		pivots []string
		// same lists groups of nodes that must share a number.
		same [][]string
	}{
		{"acyclic chain", []pair{{"a", "b"}, {"b", "c"}}, nil, nil},
		{"two cycles joined", []pair{{"a", "b"}, {"b", "a"}, {"b", "c"}, {"c", "d"}, {"d", "c"}},
			[]string{"a", "c"}, [][]string{{"a", "b"}, {"c", "d"}}},
		{"self loop", []pair{{"x", "x"}, {"x", "y"}}, []string{"x"}, nil},
		{"one big cycle", []pair{{"z", "y"}, {"y", "x"}, {"x", "z"}}, []string{"x"}, [][]string{{"x", "y", "z"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			class, piv := sccHints(tc.edges)
			if diff := cmp.Diff(tc.pivots, piv); diff != "" {
				t.Errorf("pivots (-want +got):\n%s", diff)
			}
			for _, g := range tc.same {
				for _, n := range g[1:] {
					if class[n] != class[g[0]] {
						t.Errorf("%s and %s in different components", g[0], n)
					}
				}
			}
			// Every edge between components goes from a higher number
			// to a lower one: the order the engine checks.
			for _, e := range tc.edges {
				if class[e.a] < class[e.b] {
					t.Errorf("edge %s -> %s goes from component %d up to %d", e.a, e.b, class[e.a], class[e.b])
				}
			}
		})
	}
}

// TestCycleHintsChecked feeds the engine hand-written hints for the import
// graph a <-> b -> c (every node numbered, cyc_full, as Go writes them for
// import graphs) and requires every wrong hint to be caught (cyc_hint_bad),
// so a bug in Go's proposal fails the run rather than hiding a cycle.
func TestCycleHintsChecked(t *testing.T) {
	G := str("imports")
	class := func(n string, i int64) ast.Atom { return atom("cyc_class", str(n), G, num(i)) }
	pivot := func(n string) ast.Atom { return atom("cyc_pivot", G, str(n)) }
	good := []ast.Atom{class("a", 1), class("b", 1), class("c", 0), pivot("a")}
	tests := []struct {
		name  string
		hints []ast.Atom
		bad   bool
		scc   []string // members found from pivot a
	}{
		{"right", good, false, []string{"a", "b"}},
		{"node without a component", []ast.Atom{class("a", 1), class("b", 1), pivot("a")}, true, []string{"a", "b"}},
		{"edge up the order", []ast.Atom{class("a", 1), class("b", 1), class("c", 2), pivot("a")}, true, []string{"a", "b"}},
		{"component without pivot", []ast.Atom{class("a", 1), class("b", 1), class("c", 0)}, true, nil},
		{"two pivots", []ast.Atom{class("a", 1), class("b", 1), class("c", 0), pivot("a"), pivot("b")}, true, []string{"a", "b"}},
		{"component too large", []ast.Atom{class("a", 0), class("b", 0), class("c", 0), pivot("a")}, true, []string{"a", "b"}},
		{"cycle split in two", []ast.Atom{class("a", 1), class("b", 2), class("c", 0), pivot("a"), pivot("b")}, true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			facts := []ast.Atom{
				atom("cyc_imports", G), atom("cyc_full", G),
				atom("node", str("a"), str("m")), atom("node", str("b"), str("m")), atom("node", str("c"), str("m")),
				atom("dep", str("a"), str("b")), atom("dep", str("b"), str("a")), atom("dep", str("b"), str("c")),
			}
			facts = append(facts, tc.hints...)
			res, err := datalog.EvalAnalysis(semanticsAnalysis(), facts, datalog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Facts("cyc_hint_bad", 1)) > 0; got != tc.bad {
				t.Errorf("cyc_hint_bad = %v, want %v", got, tc.bad)
			}
			var members []string
			for _, f := range res.Query(atom("scc", G, str("a"), ast.Variable{Symbol: "N"})) {
				members = append(members, constStr(f.Args[2]))
			}
			sort.Strings(members)
			if diff := cmp.Diff(tc.scc, members); diff != "" {
				t.Errorf("scc from a (-want +got):\n%s", diff)
			}
		})
	}
}
