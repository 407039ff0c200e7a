package datalog

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/engine"
	"github.com/google/mangle/factstore"
)

// planProgram has a rule fed by an empty relation (dropped), a negation
// of an empty relation (kept), an aggregation over an empty relation
// (dropped), a chain through a dropped predicate, and a predicate that
// has rules and is also given facts.
const planProgram = `
Decl a(X) descr [extensional()].
Decl b(X) descr [extensional()].
Decl c(X) descr [extensional()].
from_b(X) :- b(X).
via(X) :- from_b(X), a(X).
not_c(X) :- a(X), !c(X).
count_b(N) :- b(X) |> do fn:group_by(), let N = fn:count().
both(X) :- a(X).
both(X) :- c(X).
seen(X) :- both(X).
`

// planAnalysis is planProgram analysed.
func planAnalysis(t *testing.T) *Analysis {
	t.Helper()
	unit, err := ParseRules(planProgram)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(unit)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestPlanDropsOnlyWhatCannotFire(t *testing.T) {
	a := planAnalysis(t)
	num := func(n int64) ast.BaseTerm { return ast.Number(n) }
	atom := func(p string, args ...ast.BaseTerm) ast.Atom {
		return ast.Atom{Predicate: ast.PredicateSym{Symbol: p, Arity: len(args)}, Args: args}
	}
	tests := []struct {
		name      string
		facts     []ast.Atom
		wantRules int
	}{
		// not_c (its negation holds), both from a, seen.
		{"only a", []ast.Atom{atom("a", num(1)), atom("a", num(2))}, 3},
		// And from_b, via through it, and the count over b.
		{"a and b", []ast.Atom{atom("a", num(1)), atom("b", num(1))}, 6},
		// c has facts: not_c keeps its negation and removes a's 1.
		{"a and c", []ast.Atom{atom("a", num(1)), atom("a", num(2)), atom("c", num(1))}, 4},
		{"nothing", nil, 0},
		// both has rules and is given facts: seen reads it. (After
		// "nothing": a cache keyed by extensional predicates only would
		// hand this run that plan.)
		{"facts for a derived predicate", []ast.Atom{atom("both", num(7))}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			present := map[ast.PredicateSym]bool{}
			for _, f := range tt.facts {
				present[f.Predicate] = true
			}
			pl := a.Planner().Plan(present)
			if got := len(pl.Info.Rules); got != tt.wantRules {
				var kept []string
				for _, c := range pl.Info.Rules {
					kept = append(kept, c.String())
				}
				t.Errorf("kept %d rules, want %d: %v", got, tt.wantRules, kept)
			}
			res, err := EvalAnalysis(a, tt.facts, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// The whole program, evaluated by the engine as it stands.
			whole := factstore.NewSimpleInMemoryStore()
			for _, f := range tt.facts {
				whole.Add(f)
			}
			if _, err := engine.EvalStratifiedProgramWithStats(a.Info, a.Strata, a.PredToStratum, whole); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(factStrings(whole), factStrings(res.store)); diff != "" {
				t.Errorf("planned evaluation differs from the whole program's (-whole +planned):\n%s", diff)
			}
			if len(res.Strata()) != len(a.Strata) {
				t.Errorf("result lists %d strata, the program has %d", len(res.Strata()), len(a.Strata))
			}
		})
	}
}

// TestPlanDropsEmptyNegations: a kept rule loses a negated premise over a
// relation with no facts (it holds for every binding), and keeps one over
// a relation that has facts.
func TestPlanDropsEmptyNegations(t *testing.T) {
	a := planAnalysis(t)
	sym := func(p string) ast.PredicateSym { return ast.PredicateSym{Symbol: p, Arity: 1} }
	tests := []struct {
		name    string
		present []string
		want    string
	}{
		{"c empty", []string{"a"}, "not_c(X) :- a(X)."},
		{"c has facts", []string{"a", "c"}, "not_c(X) :- a(X), !c(X)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			present := map[ast.PredicateSym]bool{}
			for _, p := range tt.present {
				present[sym(p)] = true
			}
			var got []string
			for _, c := range a.Planner().Plan(present).Info.Rules {
				if c.Head.Predicate == sym("not_c") {
					got = append(got, c.String())
				}
			}
			if diff := cmp.Diff([]string{tt.want}, got); diff != "" {
				t.Errorf("planned not_c rule (-want +got):\n%s", diff)
			}
		})
	}
}

func factStrings(s factstore.FactStore) []string {
	var out []string
	_ = factstore.GetAllFacts(s, func(a ast.Atom) error {
		out = append(out, a.String())
		return nil
	})
	sort.Strings(out)
	return out
}

// TestPlanShared: runs of one Analysis share its Planner, from several
// goroutines at once (vouch test, the gate's programs), and each run gets
// the facts its own input derives.
func TestPlanShared(t *testing.T) {
	a := planAnalysis(t)
	inputs := [][]ast.Atom{
		{{Predicate: ast.PredicateSym{Symbol: "a", Arity: 1}, Args: []ast.BaseTerm{ast.Number(1)}}},
		{{Predicate: ast.PredicateSym{Symbol: "b", Arity: 1}, Args: []ast.BaseTerm{ast.Number(2)}}},
		{{Predicate: ast.PredicateSym{Symbol: "c", Arity: 1}, Args: []ast.BaseTerm{ast.Number(3)}}},
	}
	want := make([][]string, len(inputs))
	for i, in := range inputs {
		res, err := EvalAnalysis(a, in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = factStrings(res.store)
	}
	errs := make(chan string, 64)
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func(g int) {
			defer func() { done <- struct{}{} }()
			for k := 0; k < 20; k++ {
				i := (g + k) % len(inputs)
				res, err := EvalAnalysis(a, inputs[i], Options{})
				if err != nil {
					errs <- err.Error()
					return
				}
				if diff := cmp.Diff(want[i], factStrings(res.store)); diff != "" {
					errs <- diff
					return
				}
			}
		}(g)
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Errorf("concurrent run: %s", e)
	}
}
