package guard

import (
	_ "embed"
	"fmt"

	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/engine"
	"github.com/google/mangle/factstore"
	"github.com/vouch-dev/vouch/datalog"
)

// ConditionsProgram combines leaf results into the value of each when:
// condition.
//
//go:embed conditions.dl
var ConditionsProgram string

// maxConditionRuns bounds the re-runs of the conditions program; each run
// settles at least one more level of the deepest tree (maxCondDepth).
const maxConditionRuns = maxCondDepth + 2

// fixedProgram is an analysed fixed program, evaluated many times.
type fixedProgram struct {
	info *analysis.ProgramInfo
	// strata are the program's strata merged by levelStrata.
	strata        []analysis.Nodeset
	predToStratum map[ast.PredicateSym]int
	// planner cuts the program to what one set of facts can use.
	planner *datalog.Planner
	// index numbers the program's predicates for its fact stores.
	index map[ast.PredicateSym]int
}

func fromAnalysis(a *datalog.Analysis) *fixedProgram {
	strata, predToStratum := levelStrata(a.Info.Rules, a.Strata, a.PredToStratum)
	return &fixedProgram{info: a.Info, strata: strata, predToStratum: predToStratum,
		planner: datalog.NewPlanner(a.Info, strata, predToStratum), index: predIndex(a.Info.Decls)}
}

// run evaluates the program on facts. With rerun, the program is run
// again on its own output until the store stops growing.
//
// Mangle v0.4.0's semi-naive loop joins a round's new facts only with
// facts from earlier rounds, so two facts first derived in the same round
// of a recursive stratum never meet (in conditions.dl: a node's prefix and
// its next operand's value, both new). Running the program again starts
// with every rule evaluated against the whole store, which picks up what
// the last run missed. Only a program without negation or aggregation may
// be re-run this way (extra runs can then only add true facts); guard.dl
// has no recursion, so one run of it is complete.
func (c *fixedProgram) run(facts []ast.Atom, rerun bool) (store factstore.FactStore, err error) {
	defer func() {
		if r := recover(); r != nil {
			store, err = nil, fmt.Errorf("evaluate guard program: engine failure: %v", r)
		}
	}()
	st := newSmallStore(c.index)
	if p, ok := st.reserve(facts); !ok {
		return nil, fmt.Errorf("evaluate guard program: predicate %s/%d is not declared", p.Symbol, p.Arity)
	}
	for _, f := range facts {
		st.Add(f)
	}
	// Before evaluation, the store's predicates are those with facts.
	pl := c.planner.PlanList(st.order)
	store = st
	prev := -1
	for run := 0; ; run++ {
		if run == maxConditionRuns {
			return nil, fmt.Errorf("evaluate guard program: no fixed point after %d runs", run)
		}
		if _, err := engine.EvalStratifiedProgramWithStats(pl.Info, pl.Strata, pl.PredToStratum, store, engine.WithCreatedFactLimit(100_000)); err != nil {
			return nil, fmt.Errorf("evaluate guard program: %w", err)
		}
		n := store.EstimateFactCount()
		if !rerun || n == prev {
			break
		}
		prev = n
	}
	return store, nil
}

// query returns the facts of a predicate in store.
func query(store factstore.FactStore, pred string, arity int) []ast.Atom {
	var out []ast.Atom
	_ = store.GetFacts(ast.NewQuery(ast.PredicateSym{Symbol: pred, Arity: arity}), func(a ast.Atom) error {
		out = append(out, a)
		return nil
	})
	return out
}

// values runs the conditions program and returns the value of each
// all/any/not node as node_value facts. One run usually settles every
// node; the program is re-run (see run) only when some node is left
// without a value. Every node gets exactly one value in a complete
// evaluation and the rules are sound, so a value once derived is final.
func (c *fixedProgram) values(tree []ast.Atom, composite int) ([]ast.Atom, error) {
	store, err := c.run(tree, false)
	if err != nil {
		return nil, err
	}
	out := composites(store)
	if len(out) < composite {
		if store, err = c.run(tree, true); err != nil {
			return nil, err
		}
		out = composites(store)
	}
	if len(out) != composite {
		return nil, fmt.Errorf("evaluate conditions: %d of %d conditions got a value", len(out), composite)
	}
	return out, nil
}

// composites reads the values of all/any/not nodes as node_value facts.
func composites(store factstore.FactStore) []ast.Atom {
	leaf := map[int64]bool{}
	for _, a := range query(store, "node", 2) {
		if a.Args[1].(ast.Constant).Symbol == "/leaf" {
			leaf[a.Args[0].(ast.Constant).NumValue] = true
		}
	}
	var out []ast.Atom
	for _, a := range query(store, "val", 2) {
		if !leaf[a.Args[0].(ast.Constant).NumValue] {
			out = append(out, ast.Atom{Predicate: ast.PredicateSym{Symbol: "node_value", Arity: 2}, Args: a.Args})
		}
	}
	return out
}
