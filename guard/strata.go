package guard

import (
	"github.com/google/mangle/analysis"
	"github.com/google/mangle/ast"

	"github.com/vouch-dev/vouch/datalog"
)

// levelStrata merges a program's strata into as few as the dependencies
// allow: each stratum gets a level one above the highest level of the
// strata it reads (positively, negated or through an aggregation), and the
// strata of one level are evaluated as one.
//
// Why: Mangle's stratification gives every predicate of guard.dl a
// stratum of its own (22 of them), and the engine pays a fixed cost per
// stratum (it rewrites the stratum's rules, builds maps of its predicates
// and a fresh delta store) that was a third of a decision's evaluation.
//
// Why it is safe: strata of one level never read each other (a read
// would put the reader a level higher), so evaluating them together
// derives exactly what evaluating them one after the other does. Every
// stratum a merged one reads, and every predicate it negates or
// aggregates, is complete at a lower level before it starts. A recursive
// stratum stays recursive over its own predicates only, so merging does
// not change which of its facts meet in the same semi-naive round.
func levelStrata(rules []ast.Clause, strata []analysis.Nodeset, predToStratum map[ast.PredicateSym]int) ([]analysis.Nodeset, map[ast.PredicateSym]int) {
	level := datalog.StratumLevels(rules, predToStratum, len(strata))
	top := 0
	for _, l := range level {
		top = max(top, l)
	}
	merged := make([]analysis.Nodeset, top+1)
	for i := range merged {
		merged[i] = analysis.Nodeset{}
	}
	out := make(map[ast.PredicateSym]int, len(predToStratum))
	for s, set := range strata {
		for p := range set {
			merged[level[s]][p] = struct{}{}
		}
	}
	for p, s := range predToStratum {
		out[p] = level[s]
	}
	return merged, out
}
