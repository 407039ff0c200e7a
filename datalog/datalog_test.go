package datalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/mangle/ast"
)

const graph = `
Decl edge(X, Y) descr [extensional()].
reach(X, Y) :- edge(X, Y).
reach(X, Z) :- edge(X, Y), reach(Y, Z).
has_out(X) :- edge(X, _).
sink(Y) :- edge(_, Y), !has_out(Y).
`

func fact(pred string, args ...ast.BaseTerm) ast.Atom {
	return ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args}
}

func edges(pairs ...[2]int64) []ast.Atom {
	var out []ast.Atom
	for _, p := range pairs {
		out = append(out, fact("edge", ast.Number(p[0]), ast.Number(p[1])))
	}
	return out
}

func strs(atoms []ast.Atom) []string {
	out := make([]string, len(atoms))
	for i, a := range atoms {
		out[i] = a.String()
	}
	return out
}

func TestEvalAndQuery(t *testing.T) {
	res, err := Eval(graph, edges([2]int64{1, 2}, [2]int64{2, 3}, [2]int64{10, 2}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		pred  string
		arity int
		want  []string
	}{
		{"reach", 2, []string{"reach(1,2)", "reach(1,3)", "reach(2,3)", "reach(10,2)", "reach(10,3)"}},
		{"sink", 1, []string{"sink(3)"}},
		{"edge", 2, []string{"edge(1,2)", "edge(2,3)", "edge(10,2)"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, strs(res.Facts(tt.pred, tt.arity))); diff != "" {
			t.Errorf("%s facts (-want +got):\n%s", tt.pred, diff)
		}
		if got := res.Count(tt.pred, tt.arity); got != len(tt.want) {
			t.Errorf("Count(%s) = %d, want %d", tt.pred, got, len(tt.want))
		}
	}
	if res.InputFacts != 3 {
		t.Errorf("InputFacts = %d, want 3", res.InputFacts)
	}
	q := fact("reach", ast.Number(1), ast.Variable{Symbol: "X"})
	if diff := cmp.Diff([]string{"reach(1,2)", "reach(1,3)"}, strs(res.Query(q))); diff != "" {
		t.Errorf("Query(reach(1, X)) (-want +got):\n%s", diff)
	}
	if !res.Has(fact("sink", ast.Number(3))) || res.Has(fact("sink", ast.Number(2))) {
		t.Error("Has: want sink(3) and not sink(2)")
	}
}

func TestEvalErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		facts []ast.Atom
		opts  Options
		want  string
	}{
		{"syntax", "p(X) :- ", nil, Options{}, "parse datalog"},
		{"undeclared fact predicate", graph, []ast.Atom{fact("nope", ast.Number(1))}, Options{}, "predicate nope/1 is not declared"},
		{"unstratifiable", "Decl q(X) descr [extensional()].\np(X) :- q(X), !r(X).\nr(X) :- q(X), !p(X).\n", nil, Options{}, "stratify datalog"},
		{"fact limit", "Decl edge(X, Y) descr [extensional()].\nreach(X, Y) :- edge(X, Y).\nreach(X, Z) :- edge(X, Y), reach(Y, Z).\n",
			edges([2]int64{1, 2}, [2]int64{2, 3}, [2]int64{3, 4}, [2]int64{4, 5}, [2]int64{5, 1}), Options{FactLimit: 3}, "evaluate datalog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Eval(tt.src, tt.facts, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Eval error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestProve(t *testing.T) {
	res, err := Eval(graph, edges([2]int64{1, 2}, [2]int64{2, 3}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := res.Prove(fact("reach", ast.Number(1), ast.Number(3)))
	if err != nil {
		t.Fatal(err)
	}
	want := `reach(1,3)  because
  edge(1,2)  [fact]
  reach(2,3)  because
    edge(2,3)  [fact]
`
	if diff := cmp.Diff(want, p.Format("")); diff != "" {
		t.Errorf("proof (-want +got):\n%s", diff)
	}
	p, err = res.Prove(fact("sink", ast.Number(3)))
	if err != nil {
		t.Fatal(err)
	}
	want = `sink(3)  because
  edge(2,3)  [fact]
  !has_out(3)  [no such fact]
`
	if diff := cmp.Diff(want, p.Format("")); diff != "" {
		t.Errorf("proof with negation (-want +got):\n%s", diff)
	}
	if _, err := res.Prove(fact("reach", ast.Number(3), ast.Number(1))); !errors.Is(err, ErrNoFact) {
		t.Errorf("Prove of an underived fact: err = %v, want ErrNoFact", err)
	}
	leaf, err := res.Prove(fact("edge", ast.Number(1), ast.Number(2)))
	if err != nil || leaf.Clause != nil {
		t.Errorf("Prove of an extensional fact = %+v, %v; want a leaf", leaf, err)
	}
}

func TestStrataDeterministic(t *testing.T) {
	var first [][]string
	for i := 0; i < 20; i++ {
		res, err := Eval(graph, edges([2]int64{1, 2}), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = res.Strata()
			continue
		}
		if diff := cmp.Diff(first, res.Strata()); diff != "" {
			t.Fatalf("strata differ between runs (-first +now):\n%s", diff)
		}
	}
	// has_out must come before sink, which negates it.
	pos := map[string]int{}
	for i, s := range first {
		for _, p := range s {
			pos[p] = i
		}
	}
	if pos["has_out"] >= pos["sink"] {
		t.Errorf("strata %v: has_out must be evaluated before sink", first)
	}
}

func TestSortAtoms(t *testing.T) {
	atoms := []ast.Atom{
		fact("p", ast.Number(10)), fact("p", ast.Number(9)), fact("a", ast.String("z")), fact("p", ast.Number(-1)),
	}
	SortAtoms(atoms)
	if diff := cmp.Diff([]string{`a("z")`, "p(-1)", "p(9)", "p(10)"}, strs(atoms)); diff != "" {
		t.Errorf("SortAtoms (-want +got):\n%s", diff)
	}
}

func TestPredicates(t *testing.T) {
	res, err := Eval(graph, edges([2]int64{1, 2}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range res.Predicates() {
		got[p.Name] = p.Extensional
	}
	want := map[string]bool{"edge": true, "reach": false, "has_out": false, "sink": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Predicates (-want +got):\n%s", diff)
	}
}

// TestProveCycle: on a cyclic graph the proof must not loop through the fact
// being proved (reach(1,1) because ... reach(1,1)).
func TestProveCycle(t *testing.T) {
	res, err := Eval(graph, edges([2]int64{1, 2}, [2]int64{2, 1}, [2]int64{2, 3}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := res.Prove(fact("reach", ast.Number(1), ast.Number(1)))
	if err != nil {
		t.Fatal(err)
	}
	want := `reach(1,1)  because
  edge(1,2)  [fact]
  reach(2,1)  because
    edge(2,1)  [fact]
`
	if diff := cmp.Diff(want, p.Format("")); diff != "" {
		t.Errorf("proof (-want +got):\n%s", diff)
	}
}

func TestTimingsFollowStrata(t *testing.T) {
	res, err := Eval(graph, edges([2]int64{1, 2}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Timings()) != len(res.Strata()) {
		t.Errorf("%d timings for %d strata", len(res.Timings()), len(res.Strata()))
	}
}

// TestProveLeftRecursion: with a left-recursive rule the first solution the
// search meets is circular; the proof must skip it and stay finite.
func TestProveLeftRecursion(t *testing.T) {
	src := `
Decl edge(X, Y) descr [extensional()].
reach(X, Y) :- edge(X, Y).
reach(X, Z) :- reach(X, Y), edge(Y, Z).
`
	res, err := Eval(src, edges([2]int64{1, 2}, [2]int64{2, 1}, [2]int64{2, 3}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := res.Prove(fact("reach", ast.Number(1), ast.Number(3)))
	if err != nil {
		t.Fatal(err)
	}
	got := p.Format("")
	if strings.Count(got, "reach(1,3)") != 1 {
		t.Errorf("proof mentions reach(1,3) more than once (circular):\n%s", got)
	}
	if !strings.Contains(got, "edge(2,3)  [fact]") || !strings.Contains(got, "edge(1,2)  [fact]") {
		t.Errorf("proof does not reach the edges 1->2->3:\n%s", got)
	}
}

func TestWriteSummary(t *testing.T) {
	res, err := Eval(graph, edges([2]int64{1, 2}, [2]int64{2, 3}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.WriteSummary(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"strata (evaluated in this order):\n",
		"  edge/2                 extensional 2\n",
		"  reach/2                derived     3\n",
		"  total: 2 extensional (loaded or written in the program), 6 derived\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if got, want := strings.Count(out, "\ntiming: stratum "), len(res.Strata()); got != want {
		t.Errorf("%d timing lines for %d strata", got, want)
	}
}
