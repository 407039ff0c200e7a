package guard

import (
	_ "embed"
	"fmt"

	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"
	"github.com/google/mangle/engine"
	"github.com/google/mangle/factstore"
	"github.com/google/mangle/parse"
)

// ConditionsProgram combines leaf results into the value of each when:
// condition.
//
//go:embed conditions.dl
var ConditionsProgram string

// maxConditionRuns bounds the re-runs of the conditions program; each run
// settles at least one more level of the deepest tree (maxCondDepth).
const maxConditionRuns = maxCondDepth + 2

// conditions is the analysed conditions program.
type conditions struct {
	info          *analysis.ProgramInfo
	strata        []analysis.Nodeset
	predToStratum map[ast.PredicateSym]int
}

func newConditions(unit parse.SourceUnit) (*conditions, error) {
	info, err := analysis.AnalyzeOneUnit(unit, nil)
	if err != nil {
		return nil, fmt.Errorf("analyse conditions program: %w", err)
	}
	strata, p2s, err := analysis.Stratify(analysis.Program{EdbPredicates: info.EdbPredicates, IdbPredicates: info.IdbPredicates, Rules: info.Rules})
	if err != nil {
		return nil, fmt.Errorf("stratify conditions program: %w", err)
	}
	return &conditions{info: info, strata: strata, predToStratum: p2s}, nil
}

// eval runs the conditions program on the leaf facts and returns the val
// facts.
//
// Mangle v0.4.0's semi-naive loop joins a round's new facts only with
// facts from earlier rounds, so two facts first derived in the same round
// never meet (here: a node's prefix and its next operand's value, both
// new). Running the program again on its own output evaluates every rule
// against the whole store first, which picks up what the last run missed;
// runs repeat until the store stops growing. The program has no negation
// or aggregation, so extra runs can only add true facts.
func (c *conditions) eval(facts []ast.Atom) (vals []ast.Atom, err error) {
	defer func() {
		if r := recover(); r != nil {
			vals, err = nil, fmt.Errorf("evaluate conditions: engine failure: %v", r)
		}
	}()
	store := factstore.NewMultiIndexedArrayInMemoryStore()
	for _, f := range facts {
		store.Add(f)
	}
	prev := -1
	for run := 0; ; run++ {
		if run == maxConditionRuns {
			return nil, fmt.Errorf("evaluate conditions: no fixed point after %d runs", run)
		}
		if _, err := engine.EvalStratifiedProgramWithStats(c.info, c.strata, c.predToStratum, store, engine.WithCreatedFactLimit(100_000)); err != nil {
			return nil, fmt.Errorf("evaluate conditions: %w", err)
		}
		n := store.EstimateFactCount()
		if n == prev {
			break
		}
		prev = n
	}
	err = store.GetFacts(ast.NewQuery(ast.PredicateSym{Symbol: "val", Arity: 2}), func(a ast.Atom) error {
		vals = append(vals, a)
		return nil
	})
	return vals, err
}
