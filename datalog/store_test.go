package datalog

import (
	"math/rand"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/factstore"
	"github.com/google/mangle/unionfind"
)

func atom(pred string, args ...ast.BaseTerm) ast.Atom {
	return ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args}
}

// collide returns a string constant that carries the hash of other, as a
// crafted hash collision would.
func collide(s string, other ast.Constant) ast.Constant {
	return ast.Constant{Type: ast.StringType, Symbol: s, NumValue: other.NumValue}
}

func printed(s factstore.ReadOnlyFactStore, q ast.Atom) []string {
	var out []string
	_ = s.GetFacts(q, func(a ast.Atom) error {
		out = append(out, a.String())
		return nil
	})
	sort.Strings(out)
	return out
}

func TestStoreKeepsCollidingFacts(t *testing.T) {
	a := ast.String("a")
	b := collide("b", a)
	s := newStore()
	for _, f := range []ast.Atom{atom("p", a), atom("p", b), atom("q", a, ast.Number(1)), atom("q", b, ast.Number(1))} {
		if !s.Add(f) {
			t.Fatalf("Add(%s) = false for a new fact", f)
		}
	}
	if s.Add(atom("p", b)) {
		t.Error("Add of a fact already present = true")
	}
	if got := s.EstimateFactCount(); got != 4 {
		t.Errorf("EstimateFactCount = %d, want 4", got)
	}
	tests := []struct {
		name string
		q    ast.Atom
		want []string
	}{
		{"bound to one of two colliding values", atom("p", b), []string{`p("b")`}},
		{"bound first argument", atom("q", a, ast.Variable{Symbol: "X"}), []string{`q("a",1)`}},
		{"bound second argument", atom("q", ast.Variable{Symbol: "X"}, ast.Number(1)), []string{`q("a",1)`, `q("b",1)`}},
		{"nothing bound", atom("p", ast.Variable{Symbol: "X"}), []string{`p("a")`, `p("b")`}},
		{"value not stored", atom("p", ast.String("c")), nil},
		{"unknown predicate", atom("r", ast.Variable{Symbol: "X"}), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, printed(s, tc.q)); diff != "" {
				t.Errorf("GetFacts(%s) (-want +got):\n%s", tc.q, diff)
			}
		})
	}
	if !s.Contains(atom("q", b, ast.Number(1))) || s.Contains(atom("q", b, ast.Number(2))) {
		t.Error("Contains does not tell colliding facts apart")
	}
}

// TestStoreAgreesWithMangle adds the same random facts (small value
// ranges, so duplicates and shared values are common, plus colliding
// strings) to this store and to Mangle's MultiIndexedArrayInMemoryStore,
// and checks that every Add, Contains and query answers the same.
func TestStoreAgreesWithMangle(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	values := []ast.BaseTerm{ast.Number(0), ast.Number(1), ast.Number(-1), ast.Float64(1), ast.String("1"), ast.String("x"), ast.String(""),
		collide("y", ast.String("x")), mustName("/a"), mustName("/b")}
	value := func() ast.BaseTerm { return values[rng.Intn(len(values))] }
	pattern := func() ast.BaseTerm {
		if rng.Intn(2) == 0 {
			return ast.Variable{Symbol: "X"}
		}
		return value()
	}
	preds := []ast.PredicateSym{{Symbol: "p", Arity: 1}, {Symbol: "q", Arity: 2}, {Symbol: "r", Arity: 3}, {Symbol: "z", Arity: 0}}
	ours, theirs := newStore(), factstore.NewMultiIndexedArrayInMemoryStore()
	for i := 0; i < 3000; i++ {
		p := preds[rng.Intn(len(preds))]
		f := ast.Atom{Predicate: p, Args: make([]ast.BaseTerm, p.Arity)}
		for j := range f.Args {
			f.Args[j] = value()
		}
		if rng.Intn(3) == 0 {
			if got, want := ours.Contains(f), theirs.Contains(f); got != want {
				t.Fatalf("Contains(%s) = %v, Mangle's store says %v", f, got, want)
			}
			continue
		}
		if got, want := ours.Add(f), theirs.Add(f); got != want {
			t.Fatalf("Add(%s) = %v, Mangle's store says %v", f, got, want)
		}
	}
	if got, want := ours.EstimateFactCount(), theirs.EstimateFactCount(); got != want {
		t.Errorf("EstimateFactCount = %d, Mangle's store says %d", got, want)
	}
	for i := 0; i < 2000; i++ {
		p := preds[rng.Intn(len(preds))]
		q := ast.Atom{Predicate: p, Args: make([]ast.BaseTerm, p.Arity)}
		for j := range q.Args {
			q.Args[j] = pattern()
		}
		if diff := cmp.Diff(printed(theirs, q), printed(ours, q)); diff != "" {
			t.Fatalf("GetFacts(%s) (-Mangle's store +ours):\n%s", q, diff)
		}
	}
}

func TestStoreOrderAndMerge(t *testing.T) {
	s := newStore()
	for _, f := range []ast.Atom{atom("b", ast.Number(2)), atom("a", ast.Number(1)), atom("b", ast.Number(1)), atom("z")} {
		s.Add(f)
	}
	var got []string
	if err := factstore.GetAllFacts(s, func(a ast.Atom) error {
		got = append(got, a.String())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Predicates in first-insertion order, facts in insertion order.
	if diff := cmp.Diff([]string{"b(2)", "b(1)", "a(1)", "z()"}, got); diff != "" {
		t.Errorf("GetAllFacts (-want +got):\n%s", diff)
	}
	m := newStore()
	m.Add(atom("a", ast.Number(1)))
	m.Merge(s)
	if m.EstimateFactCount() != 4 || !m.Contains(atom("z")) || !m.Contains(atom("b", ast.Number(2))) {
		t.Errorf("Merge: %d facts, want 4 including z() and b(2)", m.EstimateFactCount())
	}
}

func TestStoreStopsOnCallbackError(t *testing.T) {
	s := newStore()
	for i := 0; i < 5; i++ {
		s.Add(atom("p", ast.Number(int64(i)), ast.Number(0)))
	}
	for _, q := range []ast.Atom{atom("p", ast.Variable{Symbol: "X"}, ast.Variable{Symbol: "Y"}), atom("p", ast.Variable{Symbol: "X"}, ast.Number(0))} {
		n := 0
		err := s.GetFacts(q, func(ast.Atom) error {
			n++
			return errFound
		})
		if err != errFound || n != 1 {
			t.Errorf("GetFacts(%s) with a failing callback: err %v after %d facts, want errFound after 1", q, err, n)
		}
	}
}

func mustName(s string) ast.Constant {
	c, err := ast.Name(s)
	if err != nil {
		panic(err)
	}
	return c
}

// TestBindHead pins that the prover's quick head match rejects exactly
// what unification rejects.
func TestBindHead(t *testing.T) {
	x, y := ast.Variable{Symbol: "X"}, ast.Variable{Symbol: "Y"}
	tests := []struct {
		name       string
		head, fact ast.Atom
		ok         bool
		want       binding
	}{
		{"variables bind", atom("p", x, y), atom("p", ast.Number(1), ast.String("a")), true, binding{{x, ast.Number(1)}, {y, ast.String("a")}}},
		{"constant matches", atom("p", x, mustName("/pass")), atom("p", ast.Number(1), mustName("/pass")), true, binding{{x, ast.Number(1)}}},
		{"constant differs", atom("p", x, mustName("/pass")), atom("p", ast.Number(1), mustName("/fail")), false, nil},
		{"repeated variable, same value", atom("p", x, x), atom("p", ast.Number(1), ast.Number(1)), true, binding{{x, ast.Number(1)}}},
		{"repeated variable, two values", atom("p", x, x), atom("p", ast.Number(1), ast.Number(2)), false, nil},
		{"number is not a float", atom("p", ast.Number(1)), atom("p", ast.Float64(1)), false, nil},
		{"colliding strings differ", atom("p", ast.String("a")), atom("p", collide("b", ast.String("a"))), false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := bindHead(tc.head, tc.fact)
			if ok != tc.ok {
				t.Fatalf("bindHead ok = %v, want %v", ok, tc.ok)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("bindHead = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i].v != tc.want[i].v || !got[i].c.Equals(tc.want[i].c) {
					t.Errorf("binding %d = %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// matchFact binds a premise's variables to a fact's values as unifying
// them would, and leaves the bindings it started from unchanged.
func TestMatchFact(t *testing.T) {
	x, y := ast.Variable{Symbol: "X"}, ast.Variable{Symbol: "Y"}
	one, two := ast.BaseTerm(ast.Number(1)), ast.BaseTerm(ast.Number(2))
	tests := []struct {
		name  string
		start binding
		probe []ast.BaseTerm
		fact  ast.Atom
		ok    bool
		want  binding
	}{
		{"binds free variables", nil, []ast.BaseTerm{x, y}, atom("p", ast.Number(1), ast.Number(2)), true, binding{{x, one}, {y, two}}},
		{"keeps earlier bindings", binding{{y, two}}, []ast.BaseTerm{x, ast.Number(2)}, atom("p", ast.Number(1), ast.Number(2)), true, binding{{y, two}, {x, one}}},
		{"repeated variable, same value", nil, []ast.BaseTerm{x, x}, atom("p", ast.Number(1), ast.Number(1)), true, binding{{x, one}}},
		{"repeated variable, two values", nil, []ast.BaseTerm{x, x}, atom("p", ast.Number(1), ast.Number(2)), false, nil},
		{"constants only", nil, []ast.BaseTerm{ast.Number(1)}, atom("p", ast.Number(1)), true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := append(binding(nil), tc.start...)
			got, ok := matchFact(tc.start, tc.probe, tc.fact)
			if ok != tc.ok {
				t.Fatalf("matchFact ok = %v, want %v", ok, tc.ok)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("matchFact = %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i].v != tc.want[i].v || !got[i].c.Equals(tc.want[i].c) {
					t.Errorf("binding %d = %v, want %v", i, got[i], tc.want[i])
				}
			}
			if len(tc.start) != len(start) {
				t.Errorf("the starting binding changed: %v, was %v", tc.start, start)
			}
		})
	}
}

// fromUnionFind reads back what the engine bound, ignores what it did not
// bind to a constant, and keeps what was bound before.
func TestFromUnionFind(t *testing.T) {
	x, y, z := ast.Variable{Symbol: "X"}, ast.Variable{Symbol: "Y"}, ast.Variable{Symbol: "Z"}
	uf, err := unionfind.UnifyTerms([]ast.BaseTerm{x, y}, []ast.BaseTerm{ast.Number(1), z})
	if err != nil {
		t.Fatal(err)
	}
	start := binding{{ast.Variable{Symbol: "W"}, ast.BaseTerm(ast.Number(9))}}
	got := fromUnionFind(start, ast.Eq{Left: x, Right: y}, uf)
	if len(got) != 2 || got[1].v != x || !got[1].c.Equals(ast.Number(1)) {
		t.Errorf("fromUnionFind = %v, want W=9 and X=1 (Y is bound to a variable, not a value)", got)
	}
	if _, ok := got.Get(y).(ast.Constant); ok {
		t.Errorf("Y bound to %v", got.Get(y))
	}
	if got.Get(z) != nil {
		t.Errorf("Get of an unbound variable = %v, want nil", got.Get(z))
	}
}
