package datalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"
)

func TestStratumLevels(t *testing.T) {
	p := func(name string) ast.PredicateSym { return ast.PredicateSym{Symbol: name, Arity: 1} }
	atom := func(name string) ast.Atom {
		return ast.Atom{Predicate: p(name), Args: []ast.BaseTerm{ast.Variable{Symbol: "X"}}}
	}
	rule := func(head string, premises ...ast.Term) ast.Clause {
		return ast.Clause{Head: atom(head), Premises: premises}
	}
	tests := []struct {
		name  string
		rules []ast.Clause
		strat map[ast.PredicateSym]int
		n     int
		want  []int
	}{
		{"independent", []ast.Clause{rule("a", atom("e")), rule("b", atom("e"))},
			map[ast.PredicateSym]int{p("a"): 0, p("b"): 1}, 2, []int{0, 0}},
		{"chain through a negation", []ast.Clause{rule("a", atom("e")), rule("b", ast.NegAtom{Atom: atom("a")}), rule("c", atom("b"), atom("a"))},
			map[ast.PredicateSym]int{p("a"): 0, p("b"): 1, p("c"): 2}, 3, []int{0, 1, 2}},
		{"recursion stays in its stratum", []ast.Clause{rule("a", atom("a")), rule("b", atom("a"))},
			map[ast.PredicateSym]int{p("a"): 0, p("b"): 1}, 2, []int{0, 1}},
		{"longest path wins", []ast.Clause{rule("a", atom("e")), rule("b", atom("a")), rule("c", atom("a")), rule("c", atom("b"))},
			map[ast.PredicateSym]int{p("a"): 0, p("b"): 1, p("c"): 2}, 3, []int{0, 1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, StratumLevels(tt.rules, tt.strat, tt.n)); diff != "" {
				t.Errorf("levels (-want +got):\n%s", diff)
			}
		})
	}
}
