package guard

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/factstore"
)

func atom(pred string, args ...ast.BaseTerm) ast.Atom {
	return ast.Atom{Predicate: ast.PredicateSym{Symbol: pred, Arity: len(args)}, Args: args}
}

// storeFacts lists every fact matching q, as sorted text.
func storeFacts(s factstore.ReadOnlyFactStore, q ast.Atom) []string {
	var out []string
	_ = s.GetFacts(q, func(a ast.Atom) error {
		out = append(out, a.String())
		return nil
	})
	sort.Strings(out)
	return out
}

// TestSmallStoreMatchesMangle checks smallStore against Mangle's own
// MultiIndexedArrayInMemoryStore: same Add results, same answers to
// queries bound on any argument, below and above the indexing threshold,
// for predicates the store numbers and for others.
func TestSmallStoreMatchesMangle(t *testing.T) {
	// p and flag numbered, q and missing not.
	index := map[ast.PredicateSym]int{{Symbol: "p", Arity: 2}: 0, {Symbol: "flag", Arity: 0}: 1, {Symbol: "unused", Arity: 1}: 2}
	for _, n := range []int{0, 1, 5, indexFrom - 1, indexFrom, indexFrom + 1, 3 * indexFrom} {
		for _, ix := range []map[ast.PredicateSym]int{nil, index} {
			t.Run(fmt.Sprint(n, len(ix)), func(t *testing.T) {
				testSmallStore(t, n, ix)
			})
		}
	}
}

func testSmallStore(t *testing.T, n int, index map[ast.PredicateSym]int) {
	small, ref := newSmallStore(index), factstore.NewMultiIndexedArrayInMemoryStore()
	if index != nil {
		// Room for a fact that never comes must not show.
		if p, ok := small.reserve([]ast.Atom{atom("p", ast.Number(0), ast.String("s0")), atom("unused", ast.Number(1)), atom("flag")}); !ok {
			t.Fatalf("reserve refused %v", p)
		}
	}
	add := func(a ast.Atom) {
		if got, want := small.Add(a), ref.Add(a); got != want {
			t.Fatalf("Add(%v) = %v, want %v", a, got, want)
		}
	}
	for i := 0; i < n; i++ {
		add(atom("p", ast.Number(int64(i%7)), ast.String(fmt.Sprint("s", i))))
		add(atom("p", ast.Number(int64(i%7)), ast.String(fmt.Sprint("s", i)))) // duplicate
		add(atom("q", mname("/x"), ast.Number(int64(i))))
	}
	add(atom("flag"))
	add(atom("flag"))
	if small.EstimateFactCount() != ref.EstimateFactCount() {
		t.Errorf("count %d, want %d", small.EstimateFactCount(), ref.EstimateFactCount())
	}
	queries := []ast.Atom{
		ast.NewQuery(ast.PredicateSym{Symbol: "p", Arity: 2}),
		atom("p", ast.Number(3), ast.Variable{Symbol: "X"}),
		atom("p", ast.Variable{Symbol: "X"}, ast.String("s4")),
		atom("p", ast.Number(4), ast.String("s4")),
		atom("q", mname("/x"), ast.Variable{Symbol: "_"}),
		atom("q", mname("/y"), ast.Variable{Symbol: "_"}),
		atom("flag"),
		atom("missing", ast.Number(1)),
		atom("unused", ast.Variable{Symbol: "X"}),
	}
	for _, q := range queries {
		if diff := cmp.Diff(storeFacts(ref, q), storeFacts(small, q)); diff != "" {
			t.Errorf("GetFacts(%v) (-mangle +small):\n%s", q, diff)
		}
	}
	for i := 0; i < n; i++ {
		a := atom("p", ast.Number(int64(i%7)), ast.String(fmt.Sprint("s", i)))
		if !small.Contains(a) {
			t.Errorf("Contains(%v) = false", a)
		}
	}
	if small.Contains(atom("p", ast.Number(1), ast.String("absent"))) {
		t.Error("Contains of an absent fact = true")
	}
	merged := newSmallStore(index)
	merged.Merge(small)
	if merged.EstimateFactCount() != small.EstimateFactCount() {
		t.Errorf("Merge copied %d facts, want %d", merged.EstimateFactCount(), small.EstimateFactCount())
	}
	if diff := cmp.Diff(ref.ListPredicates(), small.ListPredicates(), cmpopts.SortSlices(func(a, b ast.PredicateSym) bool { return a.Symbol < b.Symbol })); diff != "" {
		t.Errorf("ListPredicates (-mangle +small):\n%s", diff)
	}
}

// TestSmallStoreOrder checks that lookups return facts in insertion order,
// which keeps evaluation deterministic.
func TestSmallStoreOrder(t *testing.T) {
	s := newSmallStore(nil)
	for _, v := range []string{"c", "a", "b"} {
		s.Add(atom("p", ast.String(v)))
	}
	var got []string
	_ = s.GetFacts(ast.NewQuery(ast.PredicateSym{Symbol: "p", Arity: 1}), func(a ast.Atom) error {
		got = append(got, a.Args[0].(ast.Constant).Symbol)
		return nil
	})
	if diff := cmp.Diff([]string{"c", "a", "b"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// TestSmallStoreReserveUndeclared checks that reserving a fact of a
// predicate the program does not number names it, so that run refuses it.
func TestSmallStoreReserveUndeclared(t *testing.T) {
	s := newSmallStore(map[ast.PredicateSym]int{{Symbol: "p", Arity: 1}: 0})
	p, ok := s.reserve([]ast.Atom{atom("p", ast.Number(1)), atom("q", ast.Number(2))})
	if ok || p != (ast.PredicateSym{Symbol: "q", Arity: 1}) {
		t.Errorf("reserve = %v, %v; want q/1, false", p, ok)
	}
}
